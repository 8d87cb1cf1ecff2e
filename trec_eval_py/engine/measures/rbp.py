"""Rank-biased precision and its residual (trec_eval 10.0 ``rbp``, ``rbp_resid``).

Moffat and Zobel, "Rank-Biased Precision for Measurement of Retrieval
Effectiveness", ACM TOIS 27(1), 2008. A reader goes down the ranking and moves
on to the next document with probability ``p`` (the *persistence*, default
0.9, set with ``-m rbp.p=0.95``):

* ``rbp = (1 - p) * sum_i gain_i * p^(i-1)`` over ranks ``i``. Gains come from
  the same gain table as :mod:`.ndcg` (the relevance level by default;
  ``level=gain`` pairs may be given next to ``p``). When some gain of the
  table lies outside [0, 1] all gains are rescaled to
  ``(gain - min) / (max - min)``; unjudged documents gain 0.
* ``rbp_resid`` is how much rbp could still grow if every unjudged document
  retrieved (not in the qrels, or with a negative level) had gain 1, plus the
  weight of everything past the end of the ranking:
  ``p^n + (1 - p) * sum over unjudged ranks of p^(i-1)`` for a ranking of
  ``n`` documents. A topic without unjudged documents retrieved gets 0 (even
  though the tail weight ``p^n`` is not 0); so does an empty ranking.

``p^(i-1)`` is formed by repeated multiplication, as trec_eval does.

The rescaling range is the smallest and largest gain of the topic's gain
table (no rescaling when the table is empty). Released trec_eval 10.0 starts
that search from uninitialised variables, so what it prints depends on the
build and on whatever another measure left in memory before it; we follow the
defined meaning, which is what a plain build of 10.0 prints (see README,
"Where we deliberately differ from trec_eval"). A table with a single gain
outside [0, 1] rescales by a zero range: ``0/0``, printed ``-nan`` as in C.
No measure's value depends on which other measures were selected.

``rbp_bin`` (an extra, not trec_eval's) is the same sum with binary gains: a
document gains 1 when it is relevant at ``-l`` (its level is at least ``-l``,
as for ``P`` or ``map``), else 0; ``level=gain`` pairs are refused. It is
ir_measures' ``RBP(rel=N)`` (``-m 'RBP(p=0.8,rel=2)'`` computes it with
``-l 2`` for that measure alone), which cwl_eval computes on judgments
reduced to 0/1. With ``-l 0`` or below, trec_eval's convention holds: a
document judged with a negative level is not judged, so it gains 0 (cwl_eval
reads a negative level as 0, which passes ``rel=0``).

Source: trec_eval 10.0 ``m_rbp.c``, ``m_rbp_resid.c``. Summary: mean over topics.
"""
from __future__ import annotations

import numpy as np

from ...errors import MeasureError
from ._base import Measure
from ._gains import gain_pairs, group_table, groups_by_levels
from ._params import PairParams


def persistence(params) -> float:
    """The ``p=`` parameter (the last one given wins), default 0.9."""
    p = 0.9
    for name, value in params.values:
        if name == "p":
            p = float(value)
    return p


def powers(p: float, width: int) -> np.ndarray:
    """float64 (width + 1,): ``1, p, p*p, ...``, each the previous times ``p``."""
    steps = np.full(width + 1, p, dtype=np.float64)
    steps[0] = 1.0
    return np.cumprod(steps)


def _weighted_sum(b, p: float, gains: np.ndarray) -> np.ndarray:
    """``(1 - p) * sum_i gain_i * p^(i-1)``, summed in rank order."""
    weights = powers(p, b.width)[: b.width]
    terms = np.where(gains != 0.0, gains * weights, 0.0)
    return (1.0 - p) * b.seq_sum(terms)


def _rbp(b, params) -> np.ndarray:
    p = persistence(params)
    pairs = gain_pairs(params, True)
    n, w = b.rel.shape
    gains = np.zeros((n, w), dtype=np.float64)
    for levels, rows in groups_by_levels(b):
        table = group_table(b, rows, pairs, levels)
        got, known = table.gain_of(b.rel[rows])
        if table.gains:
            lo, hi = table.min_gain, table.max_gain
            if lo < 0.0 or hi > 1.0:
                # only table entries are rescaled; codes without an entry stay at 0
                got = np.where(known, (got - lo) / np.float64(hi - lo), 0.0)
        gains[rows] = np.where(b.valid[rows], got, 0.0)
    return _weighted_sum(b, p, gains)


def _rbp_bin(b, params) -> np.ndarray:
    return _weighted_sum(b, persistence(params), (b.is_rel & b.is_judged).astype(np.float64))


class RbpParams(PairParams):
    """``p=P`` and ``level=gain`` pairs; the persistence is a probability."""

    def _parse(self, measure: str, text: str) -> tuple:
        pairs = super()._parse(measure, text)
        for name, value in pairs:
            # outside [0, 1] the weights p^(i-1) grow or flip sign: a number, but not rbp
            if name == "p" and not 0.0 <= value <= 1.0:
                raise MeasureError(f"measure '{measure}': p= is the persistence, a number from 0 to 1 "
                                   f"(e.g. {measure}.p=0.8), not {value:g}")
        return pairs


class PersistenceParam(RbpParams):
    """``p=P`` only (several: the last wins, as for ``rbp``)."""

    def _parse(self, measure: str, text: str) -> tuple:
        pairs = super()._parse(measure, text)
        for name, _value in pairs:
            if name != "p":
                raise MeasureError(f"measure '{measure}': the only parameter is p=persistence (got {name!r})")
        return pairs


def _rbp_resid(b, params) -> np.ndarray:
    p = persistence(params)
    weights = powers(p, b.width)
    unjudged = b.valid & (b.rel < 0)
    total = b.seq_sum(np.where(unjudged, weights[None, : b.width], 0.0))
    tail = weights[b.num_ret]
    return np.where(unjudged.any(axis=1), tail + (1.0 - p) * total, 0.0)


RBP = Measure(
    name="rbp",
    formula=(
        r"\mathrm{rbp} = (1 - p) \sum_{i=1}^{n} g_i\, p^{\,i-1}, \qquad p = 0.9 \text{ by default}\quad "
        r"(g \text{ rescaled to } \tfrac{g - g_{\min}}{g_{\max} - g_{\min}} \text{ when some gain is "
        r"outside } [0, 1])"
    ),
    help=(
        "Rank-biased precision (Moffat & Zobel 2008): (1-p) * sum of gain * p^(rank-1), "
        "persistence p = 0.9 by default (-m rbp.p=0.95). Gains as for ndcg (level=gain "
        "pairs allowed), rescaled into [0,1] when some gain is outside it."
    ),
    kernel=_rbp,
    params=RbpParams(example="p=0.8"),
    nicknames=frozenset({"all_trec"}),
    since="10.0",
)

RBP_RESID = Measure(
    name="rbp_resid",
    formula=(
        r"\mathrm{rbp\_resid} = p^{\,n} + (1 - p) \sum_{i:\, d_i \text{ unjudged}} p^{\,i-1}\quad (0 "
        r"\text{ when no unjudged document is retrieved})"
    ),
    help=(
        "Residual of rank-biased precision: how much rbp could rise if every unjudged "
        "document retrieved were relevant, plus the weight beyond the ranking's end "
        "(p^n). 0 when no unjudged document is retrieved. -m rbp_resid.p=0.95"
    ),
    kernel=_rbp_resid,
    params=RbpParams(example="p=0.8"),
    nicknames=frozenset({"all_trec"}),
    since="10.0",
)

RBP_BIN = Measure(
    name="rbp_bin",
    formula=r"\mathrm{rbp\_bin} = (1 - p) \sum_{i=1}^{n} \mathrm{rel}_i\, p^{\,i-1}",
    help=(
        "Rank-biased precision with binary gains: (1-p) * sum of p^(rank-1) over the "
        "relevant documents retrieved (level at least -l). ir_measures' RBP(rel=N). "
        "Persistence p = 0.9 by default (-m rbp_bin.p=0.8)."
    ),
    kernel=_rbp_bin,
    params=PersistenceParam(example="p=0.8"),
    nicknames=frozenset({"extra"}),
    since="extra",
)
