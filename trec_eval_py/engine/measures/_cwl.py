"""The C/W/L framework shared by the ``cwl_*`` measures (one module per family).

Moffat, Bailey, Scholer and Thomas, "Incorporating user expectations and
behavior into the measurement of search effectiveness", ACM TOIS 35(3), 2017;
Azzopardi, Thomas and Moffat, "cwl_eval: An evaluation tool for information
retrieval", SIGIR 2019 (the ``cwl_eval`` tool, whose definitions these follow).

A user model is given by its *continuation* probabilities ``C(i)``: having
looked at rank ``i``, the user goes on to rank ``i + 1`` with probability
``C(i)``. Over the ranks ``1..D`` (``D`` the *depth*, ``depth=``, default 1000
as in cwl_eval) this gives

* the *weights* ``W(i) = prod_{j<i} C(j) / sum_k prod_{j<k} C(j)``, the share of
  the user's attention that rank ``i`` receives (they sum to 1);
* the *last-rank* probabilities ``L(i) = prod_{j<i} C(j) * (1 - C(i))``, the
  chance that rank ``i`` is the last one looked at.

With ``g(i)`` the gain and ``c(i)`` the cost of rank ``i`` each measure reports
five numbers, named as cwl_eval's columns:

* ``EU``, the expected utility (gain) per document examined, the *expected rate
  of gain*: ``sum_i W(i) g(i)``. This is the measure's value (INST, RBP, ...).
* ``ETU``, the expected total utility: ``sum_i L(i) * (g(1) + ... + g(i))``.
* ``EC``, the expected cost per document: ``sum_i W(i) c(i)``.
* ``ETC``, the expected total cost: ``sum_i L(i) * (c(1) + ... + c(i))``.
* ``ED``, the expected depth (documents examined): ``1 / W(1)``.

A measure prints ``EU`` under its own name; the others are asked for by name
among the parameters (``-m cwl_inst.T=3,ED`` prints only ``cwl_inst_T=3_ED``;
``all`` gives the five, ``EU`` first).

The ranking is cut at ``D`` and a shorter one is padded with documents of
gain 0, so every topic is scored over exactly ``D`` ranks (as cwl_eval does;
the tail matters: INST's ``ED`` with no relevant document depends on it).
Every document costs 1 (cwl_eval's default: cost files are not read), so
``EC`` is 1 up to rounding and ``ETC`` is the expected number of documents
the user looks at before stopping, counted over the first ``D`` ranks.

Gains. Without ``max_rel`` a document gains 1 when it is judged relevant at
``-l`` (level at least ``-l``, as for ``P`` or ``map``), else 0. With
``max_rel=M`` (and ``min_rel=m``, default 0; ``0 <= m < M``) gains are graded:
a judged document of level ``v`` gains ``(min(max(v, m), M) - m) / (M - m)``,
so levels up to ``m`` gain 0 and levels from ``M`` up gain 1 (ir_measures'
mapping for its cwl_eval measures). Unjudged documents, and documents judged
with a negative level, gain 0: cwl_eval's lower bound (its residuals, the
upper bound, are not offered here). ``-l`` matters only without ``max_rel``.

The ranking is this package's one ranking rule (score descending, ties by
docno descending; ``--order``); cwl_eval itself takes the results file in line
order without sorting. Measures are computed per topic and averaged over
topics; a topic without documents retrieved (``-c``) is a ranking of ``D``
documents of gain 0.
"""
from __future__ import annotations

import math

import numpy as np

from ..._record import record
from ...errors import MeasureError
from ._base import Measure
from ._params import Params, ParamSpec, _float

#: the five numbers a C/W/L measure reports, in print order
OUTPUTS = ("EU", "ETU", "EC", "ETC", "ED")

#: the largest depth accepted: a kernel holds a few (rows, depth) arrays
MAX_DEPTH = 100_000

#: cells of one (rows, depth) array a kernel works on at a time
_CHUNK_CELLS = 2_000_000


@record
class Field:
    """One parameter: ``name=value``, its default (None: not set), and what it takes.

    ``kind``: ``positive`` (> 0), ``prob`` (0 to 1), ``whole`` (a whole number of
    1 or more), ``nonneg`` (>= 0) or ``real`` (any finite number).
    """

    name: str
    default: float | None
    kind: str
    what: str


_KIND_TEXT = {
    "positive": "a number above 0",
    "prob": "a number from 0 to 1",
    "whole": "a whole number of 1 or more",
    "nonneg": "a number of 0 or more",
    "real": "a number",
}

#: the fields every C/W/L measure takes after its own
COMMON = (
    Field("depth", 1000.0, "whole", "ranks the user model runs over"),
    Field("min_rel", None, "nonneg", "level that gains 0 (with max_rel)"),
    Field("max_rel", None, "positive", "level that gains 1 (graded gains)"),
)


def _check(measure: str, f: Field, value: float, text: str) -> None:
    ok = {
        "positive": value > 0.0,
        "prob": 0.0 <= value <= 1.0,
        "whole": value >= 1.0 and float(value).is_integer(),
        "nonneg": value >= 0.0,
        "real": True,
    }[f.kind]
    if not ok:
        raise MeasureError(f"measure '{measure}': {f.name}= is the {f.what}, {_KIND_TEXT[f.kind]}, not {text!r}")


@record
class CwlParams(ParamSpec):
    """``name=value`` pairs for a C/W/L measure, plus the outputs wanted (``EU``,
    ``ETU``, ``EC``, ``ETC``, ``ED`` or ``all``, bare words; default ``EU``).

    ``values`` is ``(settings, outputs)``: ``settings`` every field's value in
    field order (``(name, value)``, None where unset), ``outputs`` names from
    :data:`OUTPUTS` in print order. Outputs are named ``measure`` (``EU``) or
    ``measure_ED`` ..., with the ``name=value`` text as typed after the measure
    name when given (``cwl_inst_T=3``, ``cwl_inst_T=3_ED``).
    """

    fields: tuple = ()
    example: str = ""

    @property
    def all_fields(self) -> tuple:
        return tuple(self.fields) + COMMON

    @property
    def default(self) -> tuple:
        return (tuple((f.name, f.default) for f in self.all_fields), ("EU",))

    def _parse(self, measure: str, text: str) -> tuple:
        by_name = {f.name: f for f in self.all_fields}
        names = ", ".join(by_name)
        got: dict = {}
        outs: set = set()
        for item in text.split(","):
            key, sep, value = item.partition("=")
            key = key.strip()
            if not sep:
                word = key.upper()
                if word == "ALL":
                    outs.update(OUTPUTS)
                elif word in OUTPUTS:
                    outs.add(word)
                else:
                    raise MeasureError(
                        f"measure '{measure}': {item!r} is neither a name=value pair ({names}) nor an "
                        f"output (EU, ETU, EC, ETC, ED, all), e.g. {measure}.{self.example}")
                continue
            f = by_name.get(key)
            if f is None:
                raise MeasureError(f"measure '{measure}': no parameter {key!r} (it takes: {names})")
            if key in got:
                raise MeasureError(f"measure '{measure}': {key}= is given twice in {text!r}")
            v = _float(measure, value, f"{key}= {_KIND_TEXT[f.kind]}", text)
            _check(measure, f, v, value.strip())
            got[key] = v
        if got.get("depth", 0.0) > MAX_DEPTH:
            raise MeasureError(f"measure '{measure}': depth= is at most {MAX_DEPTH}, not {got['depth']:g}")
        if "min_rel" in got and "max_rel" not in got:
            raise MeasureError(f"measure '{measure}': min_rel= needs max_rel= (graded gains)")
        if "max_rel" in got and got["max_rel"] <= got.get("min_rel", 0.0):
            raise MeasureError(f"measure '{measure}': max_rel= must be above min_rel= "
                               f"({got['max_rel']:g} is not above {got.get('min_rel', 0.0):g})")
        settings = tuple((f.name, got.get(f.name, f.default)) for f in self.all_fields)
        return (settings, tuple(o for o in OUTPUTS if o in outs) or ("EU",))

    def output_names(self, name: str, params: Params) -> list[str]:
        base = name
        if params.text is not None:
            typed = [t for t in params.text.split(",") if "=" in t]
            if typed:
                base = f"{name}_{','.join(typed)}"
        return [base if o == "EU" else f"{base}_{o}" for o in params.values[1]]

    def output_key(self, params: Params, index: int):
        return params.values[0], params.values[1][index]


# ---- the model's arithmetic ----

def gains(b, settings: dict, depth: int, rows: slice) -> np.ndarray:
    """float64 (rows, depth): each rank's gain (see the module docstring), 0 past the ranking."""
    w = min(b.width, depth)
    rel = b.rel[rows, :w]
    judged = b.valid[rows, :w] & (rel >= 0)
    out = np.zeros((rel.shape[0], depth), dtype=np.float64)
    top = settings["max_rel"]
    if top is None:
        out[:, :w] = judged & (rel >= b.level)
    else:
        low = settings["min_rel"] or 0.0
        out[:, :w] = np.where(judged, (np.clip(rel, low, top) - low) / (top - low), 0.0)
    return out


def ranks(depth: int) -> np.ndarray:
    """float64 (depth,): 1, 2, ..., depth."""
    return np.arange(1, depth + 1, dtype=np.float64)


def weights_from_continuation(c: np.ndarray) -> np.ndarray:
    """W from C (last axis the ranks): the running products of C before each
    rank, divided by their total."""
    before = np.ones_like(c)
    np.cumprod(c[..., :-1], axis=-1, out=before[..., 1:])
    first = 1.0 / before.sum(axis=-1, keepdims=True)
    return before * first


def last_from_continuation(c: np.ndarray) -> np.ndarray:
    """L from C: the chance that each rank is the last one examined."""
    shifted = np.ones_like(c)
    shifted[..., 1:] = c[..., :-1]
    return np.cumprod(shifted, axis=-1) * (1.0 - c)


def continuation_from_weights(w: np.ndarray) -> np.ndarray:
    """C from W, for models defined by their weights (TBG, U): ``W(i+1) / W(i)``,
    0 where ``W(i)`` is 0 and at the last rank."""
    c = np.zeros_like(w)
    head, tail = w[..., :-1], w[..., 1:]
    np.divide(tail, head, out=c[..., :-1], where=head > 0.0)
    return c


def _outputs(g: np.ndarray, w: np.ndarray, last: np.ndarray, wanted: tuple) -> np.ndarray:
    """The wanted outputs (columns) from gains (rows, D) and W, L ((rows, D) or (D,))."""
    depth = g.shape[1]
    cols = []
    for o in wanted:
        if o == "EU":
            cols.append(np.einsum("ij,ij->i", g, np.broadcast_to(w, g.shape)))
        elif o == "ETU":
            cols.append(np.einsum("ij,ij->i", np.cumsum(g, axis=1), np.broadcast_to(last, g.shape)))
        elif o == "EC":  # every document costs 1
            cols.append(np.broadcast_to(w, g.shape).sum(axis=1))
        elif o == "ETC":
            cols.append(np.broadcast_to(last, g.shape) @ ranks(depth))
        else:  # ED
            cols.append(1.0 / np.broadcast_to(w, g.shape)[:, 0])
    return np.stack(cols, axis=1)


def kernel(continuation=None, weights=None, static=False):
    """A measure kernel for a user model given by ``continuation(g, s, depth)``
    (C per rank, from the gains ``g`` (rows, depth) and the settings ``s``) or
    ``weights(s, depth)`` (W per rank; C then follows from W as in cwl_eval).
    ``static``: C does not depend on the gains (then ``g`` is None and the
    result one row, computed once per batch)."""

    def run(b, params) -> np.ndarray:
        settings = dict(params.values[0])
        wanted = params.values[1]
        depth = int(settings["depth"])
        out = np.zeros((b.n, len(wanted)), dtype=np.float64)
        if static or weights is not None:
            if weights is not None:
                w = weights(settings, depth)
                last = last_from_continuation(continuation_from_weights(w))
            else:
                c = continuation(None, settings, depth)
                w, last = weights_from_continuation(c), last_from_continuation(c)
        step = max(1, _CHUNK_CELLS // depth)
        for lo in range(0, b.n, step):
            rows = slice(lo, min(lo + step, b.n))
            g = gains(b, settings, depth, rows)
            if not (static or weights is not None):
                c = continuation(g, settings, depth)
                w, last = weights_from_continuation(c), last_from_continuation(c)
            out[rows] = _outputs(g, w, last, wanted)
        return out

    return run


def cwl_measure(name: str, help: str, fields: tuple, example: str, *, formula: str = "", **model) -> Measure:
    """A ``cwl_*`` measure: its own fields, then depth, min_rel and max_rel
    (``formula``: :attr:`Measure.formula`)."""
    return Measure(
        name=name,
        formula=formula,
        help=help + " Outputs EU (the value), ETU, EC, ETC, ED by name (-m " + name + ".ED); "
        "depth=1000, graded gains with max_rel= (see docs/guide/cwl.md).",
        kernel=kernel(**model),
        params=CwlParams(fields, example),
        nicknames=frozenset({"cwl"}),
        since="extra",
    )


def log_ratio(i: int) -> float:
    """``log2(i + 1) / log2(i + 2)``, each logarithm taken as cwl_eval takes it."""
    # math.log(x, 2.0) is log(x) / log(2), not log2(x): the last bits differ
    return math.log(i + 1, 2.0) / math.log(i + 2, 2.0)  # noqa: FURB163
