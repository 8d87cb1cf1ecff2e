"""Measure parameters as typed after ``-m name.params``.

Four shapes, as trec_eval has them:

* :class:`IntCutoffs` -- ``P.5,10``: one value per cutoff, named ``P_5``, ``P_10``;
  cutoffs are sorted, must be positive and distinct; ``23.4`` counts as 23
  (C's ``atol``; beyond a C ``long`` the largest long), an exponent is an error.
* :class:`FloatCutoffs` -- ``iprec_at_recall..1,.25``: one value per cutoff,
  named with two decimals (``iprec_at_recall_0.10``) cut to 8 characters as
  trec_eval's name buffer cuts them; sorted, distinct.
* :class:`FloatParams` -- ``utility.2,-1,0,0``: one value; the name gets the
  parameter text as typed (``utility_2,-1,0,0``) when parameters are given.
* :class:`PairParams` -- ``ndcg.1=3,2=9``: ``name=value`` pairs, one value, named
  like :class:`FloatParams`.
* :class:`CutoffsAndGains` (ours, not trec_eval's) -- ``ndcg_gain_cut.10,20,1=3``:
  cutoffs as :class:`IntCutoffs` plus ``level=gain`` pairs; one value per cutoff.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..._record import field, record
from ...errors import MeasureError

# a pattern, not a compiled one: re compiles it on first use (most runs give no parameters)
_NUM = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"


def _float(measure: str, text: str, expected: str = "a number", whole: str | None = None) -> float:
    """``text`` as a finite number; the error names it, the parameter list it
    came from (``whole``, when ``text`` is one item of it) and what the
    measure takes (``expected``)."""
    where = f" in {whole!r}" if whole is not None and whole != text else ""
    if not text.strip():
        raise MeasureError(f"measure '{measure}': empty parameter{where} (expected {expected})")
    if not re.fullmatch(_NUM, text.strip()):
        raise MeasureError(f"measure '{measure}': parameter {text!r}{where} is not a number (expected {expected})")
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        # 1e999 reads as infinity: no cutoff, gain or weight means that
        raise MeasureError(f"measure '{measure}': parameter {text!r}{where} is too large (expected {expected})")
    return value


@record
class Params:
    """Parsed parameters: ``values`` (a tuple) and the text typed, if any."""

    values: tuple
    text: str | None = None


class ParamSpec:
    """How a measure reads its parameters and names its outputs."""

    if TYPE_CHECKING:
        # read-only for the users of a spec: a subclass holds it as a field or computes it
        @property
        def default(self) -> tuple: ...
    else:
        default = ()

    def parse(self, measure: str, text: str | None) -> Params:
        if text is None:
            return Params(tuple(self.default), None)
        if text == "":
            raise MeasureError(f"measure '{measure}': empty parameter list after '.'")
        return Params(self._parse(measure, text), text)

    def _parse(self, measure: str, text: str) -> tuple:
        raise MeasureError(f"measure '{measure}' takes no parameters (got {text!r})")

    def output_names(self, name: str, params: Params) -> list[str]:
        return [name]

    def output_key(self, params: Params, index: int):
        """What output ``index`` depends on: two outputs of the measure with equal
        keys hold the same values (``P.5`` and ``P.5,10``'s first). By default the
        parameters and the position: equal parameters give equal outputs."""
        return params.values, index

    def reads_scores(self, params: Params) -> bool:
        """Whether these parameters make the kernel read the run's scores."""
        return False


class NoParams(ParamSpec):
    pass


#: C's ``long``: trec_eval reads integer cutoffs with ``atol``, which saturates there
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1


def _cutoff(measure: str, text: str, expected: str, whole: str) -> int:
    """A whole-number cutoff read as trec_eval's ``atol`` reads it: the digits
    before any decimal point (``23.4`` is 23), exactly (not through a double),
    held to a C ``long``. An exponent is an error: ``atol`` stops at the ``e``
    (``1e3`` would be 1), which is never what was meant."""
    _float(measure, text, expected, whole)
    t = text.strip()
    sign_digits = re.match(r"[+-]?\d*", t)
    assert sign_digits is not None  # the pattern matches the empty string
    digits = sign_digits.group()
    if "e" in t or "E" in t:
        raise MeasureError(f"measure '{measure}': cutoff {text!r} has an exponent: write the whole number "
                           f"(trec_eval would read {digits or '0'!r})")
    value = int(digits) if digits.lstrip("+-") else 0
    return max(LONG_MIN, min(LONG_MAX, value))


@record
class IntCutoffs(ParamSpec):
    default: tuple = ()

    def _parse(self, measure: str, text: str) -> tuple:
        expected = f"cutoffs, whole numbers above 0, e.g. {measure}.5,10"
        items = text.split(",")
        vals = [_cutoff(measure, t, expected, text) for t in items]
        for t, v in zip(items, vals):
            if v <= 0:
                raise MeasureError(f"measure '{measure}': cutoffs must be whole numbers above 0, not {t!r}")
        vals.sort()
        if len(set(vals)) != len(vals):
            raise MeasureError(f"measure '{measure}': duplicate cutoffs in {text!r}")
        return tuple(vals)

    def output_names(self, name: str, params: Params) -> list[str]:
        return [f"{name}_{c}" for c in params.values]

    def output_key(self, params: Params, index: int):
        return params.values[index]


@record
class FloatCutoffs(ParamSpec):
    default: tuple = ()

    def _parse(self, measure: str, text: str) -> tuple:
        vals = sorted(_float(measure, t, f"cutoffs, numbers such as {measure}.0.1,0.5", text) for t in text.split(","))
        if len(set(vals)) != len(vals):
            raise MeasureError(f"measure '{measure}': duplicate cutoffs in {text!r}")
        return tuple(vals)

    def output_names(self, name: str, params: Params) -> list[str]:
        # trec_eval prints the cutoff into room for 8 characters: 123456.78 is named 123456.7
        return [f"{name}_{f'{c:3.2f}'[:8]}" for c in params.values]

    def output_key(self, params: Params, index: int):
        return params.values[index]  # the cutoff itself: 0.999 and 1 both print as 1.00


@record
class FloatParams(ParamSpec):
    default: tuple = ()

    def _parse(self, measure: str, text: str) -> tuple:
        return tuple(_float(measure, t, "numbers separated by commas", text) for t in text.split(","))

    def output_names(self, name: str, params: Params) -> list[str]:
        return [name if params.text is None else f"{name}_{params.text}"]


@record
class PairParams(ParamSpec):
    default: tuple = ()
    #: what follows the dot in an example of this measure's pairs (for error messages)
    example: str = "1=3,2=9"

    def _parse(self, measure: str, text: str) -> tuple:
        pairs = []
        expected = f"name=number pairs, e.g. {measure}.{self.example}"
        for item in text.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise MeasureError(f"measure '{measure}': {item!r} is not a name=value pair (expected {expected})")
            pairs.append((key, _float(measure, value, expected, text)))
        return tuple(pairs)

    def output_names(self, name: str, params: Params) -> list[str]:
        return [name if params.text is None else f"{name}_{params.text}"]


@record
class CutoffsAndGains(ParamSpec):
    """Cutoffs (bare numbers, read as :class:`IntCutoffs` reads them) mixed with
    ``level=gain`` pairs, levels whole numbers 0 or more. ``values`` is
    ``(cutoffs, ((level, gain), ...))``; outputs are named per cutoff (``name_10``)."""

    cutoffs: tuple = ()

    def parse(self, measure: str, text: str | None) -> Params:
        if text is None:
            return Params((tuple(self.cutoffs), ()), None)
        return super().parse(measure, text)

    def _parse(self, measure: str, text: str) -> tuple:
        cuts, pairs = [], []
        for item in text.split(","):
            key, sep, value = item.partition("=")
            if not sep:
                cuts.append(item)
                continue
            if not re.fullmatch(r"\d+", key.strip()):
                raise MeasureError(f"measure '{measure}': a gain is given as level=gain with a level 0 or more "
                                   f"(got {item!r})")
            pairs.append((int(key), _float(measure, value, f"level=gain pairs, e.g. {measure}.10,1=3")))
        cutoffs = IntCutoffs()._parse(measure, ",".join(cuts)) if cuts else tuple(self.cutoffs)
        return (cutoffs, tuple(pairs))

    def output_names(self, name: str, params: Params) -> list[str]:
        return [f"{name}_{c}" for c in params.values[0]]

    def output_key(self, params: Params, index: int):
        return params.values[0][index], params.values[1]


@record
class CutoffsAndValues(ParamSpec):
    """Cutoffs (bare numbers, read as :class:`IntCutoffs` reads them; none when the
    measure has no cutoff, ``cutoffs=None``) mixed with ``name=number`` settings
    from ``names`` (``alpha_nDCG.5,10,alpha=0.3``), each between ``low`` and
    ``high``. ``values`` is ``(cutoffs, (value of each name, in the order of
    names))``; outputs are named per cutoff (``name_10``), or ``name`` alone."""

    cutoffs: tuple | None = ()
    names: tuple = ()
    defaults: tuple = ()
    low: float = 0.0
    high: float = 1.0

    def parse(self, measure: str, text: str | None) -> Params:
        if text is None:
            return Params((tuple(self.cutoffs or ()), tuple(self.defaults)), None)
        return super().parse(measure, text)

    def _example(self, measure: str) -> str:
        pairs = ",".join(f"{n}={d}" for n, d in zip(self.names, self.defaults))
        return f"{measure}.{'10,' if self.cutoffs is not None else ''}{pairs}"

    def _parse(self, measure: str, text: str) -> tuple:
        cuts, given = [], {}
        for item in text.split(","):
            key, sep, value = item.partition("=")
            if not sep:
                if self.cutoffs is None:
                    raise MeasureError(f"measure '{measure}' takes no cutoff (got {item!r}); "
                                       f"it takes {', '.join(n + '=' for n in self.names)} e.g. "
                                       f"{self._example(measure)}")
                cuts.append(item)
                continue
            key = key.strip()
            if key not in self.names:
                raise MeasureError(f"measure '{measure}': unknown setting {key!r} (it takes "
                                   f"{', '.join(self.names)}; e.g. {self._example(measure)})")
            if key in given:
                raise MeasureError(f"measure '{measure}': {key} is given twice in {text!r}")
            v = _float(measure, value, f"{key} from {self.low:g} to {self.high:g}", text)
            if not self.low <= v <= self.high:
                raise MeasureError(f"measure '{measure}': {key}={value.strip()} is outside "
                                   f"{self.low:g} .. {self.high:g}")
            given[key] = v
        cutoffs = IntCutoffs()._parse(measure, ",".join(cuts)) if cuts else tuple(self.cutoffs or ())
        return (cutoffs, tuple(given.get(n, d) for n, d in zip(self.names, self.defaults)))

    def output_names(self, name: str, params: Params) -> list[str]:
        if self.cutoffs is None:
            return [name]
        return [f"{name}_{c}" for c in params.values[0]]

    def output_key(self, params: Params, index: int):
        if self.cutoffs is None:
            return params.values[1]
        return params.values[0][index], params.values[1]


#: ``ties=`` values: trec_eval's order (documents with equal scores ranked by
#: docno), or the mean over every order of the tied documents
TIES = ("docno", "average")


@record
class TiedParams(Params):
    """:class:`Params` of a measure that takes ``ties=``: the other parameters'
    values (and their text as typed, ``inner_text``) plus the tie rule."""

    ties: str = "docno"
    inner_text: str | None = None


@record
class Ties(ParamSpec):
    """The parameters of ``inner`` plus an optional ``ties=docno|average`` item
    anywhere in the list (``auc_roc.ties=average``, ``croc_exp.7,14,ties=average``).

    ``docno`` (the default) is trec_eval's rule; ``average`` asks for the
    measure's mean over every order of each group of documents with equal
    scores. Outputs are named as ``inner`` names them, followed by
    ``_ties=average`` when that is asked for."""

    inner: ParamSpec = field(factory=NoParams)

    @property
    def default(self) -> tuple:
        return self.inner.default

    def parse(self, measure: str, text: str | None) -> Params:
        if text is None:
            base = self.inner.parse(measure, None)
            return TiedParams(base.values, None, "docno", None)
        if text == "":
            raise MeasureError(f"measure '{measure}': empty parameter list after '.'")
        items = text.split(",")
        rules = [i for i in items if i.strip().startswith("ties=")]
        rest = ",".join(i for i in items if not i.strip().startswith("ties="))
        if len(rules) > 1:
            raise MeasureError(f"measure '{measure}': ties is given twice in {text!r}")
        rule = rules[0].strip()[len("ties="):].strip() if rules else "docno"
        if rule not in TIES:
            raise MeasureError(f"measure '{measure}': ties={rule} is not a tie rule "
                               f"(choose ties={' or ties='.join(TIES)})")
        if rules and not rest:
            base = self.inner.parse(measure, None)
        else:
            base = self.inner.parse(measure, rest)
        return TiedParams(base.values, text, rule, base.text)

    def _inner(self, params: Params) -> Params:
        return Params(params.values, getattr(params, "inner_text", params.text))

    def output_names(self, name: str, params: Params) -> list[str]:
        names = self.inner.output_names(name, self._inner(params))
        rule = getattr(params, "ties", "docno")
        return names if rule == "docno" else [f"{n}_ties={rule}" for n in names]

    def output_key(self, params: Params, index: int):
        return self.inner.output_key(self._inner(params), index), getattr(params, "ties", "docno")

    def reads_scores(self, params: Params) -> bool:
        # tie groups are runs of equal scores
        return getattr(params, "ties", "docno") != "docno"


def tie_rule(params: Params) -> str:
    """The ``ties=`` rule of parsed parameters (``docno`` when the measure takes none)."""
    return getattr(params, "ties", "docno")
