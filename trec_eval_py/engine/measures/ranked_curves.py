"""Shared arithmetic of the curve-based measures (``auc_ipr``, ``auc_pr``,
``auc_roc``, ``max_F``, ``bep``, ``croc_*``, ``bedroc``, ``rie``) and of
:mod:`trec_eval_py.tools.curves.curves`.

Who counts as a negative
------------------------
ROC-family measures need the number of negatives ``n`` of a topic.

* Default (no ``-N``): the retrieved documents that are not relevant,
  ``n = num_ret - num_rel_ret``. Relevant documents that were not retrieved
  are misses placed after the whole ranking (LingPipe's ``addMisses``).
* With ``-N D`` (collection size): every document of the collection that is
  not relevant, ``n = D - num_rel``; the unretrieved ones are ranked after
  the retrieved ones, and the missed relevant documents after those (the
  CROC paper's full-ranking view). A ``D`` too small to hold the ranking is
  raised to fit (``n`` is never below the retrieved non-relevant count).

Either way the full list has ``num_rel + n`` documents and the missed relevant
documents occupy its last ranks. A relevant document's false-positive rate
is the share of negatives ranked above it (0 when there are no negatives);
a missed one has rate 1.
"""
from __future__ import annotations

import math

import numpy as np

from ..._record import record
from ...errors import MeasureError
from ._base import safe_div
from ._params import ParamSpec, _float


def num_negatives(b) -> np.ndarray:
    """int64 (n,): negatives of each topic (see the module doc)."""
    nonrel_ret = b.num_ret - b.num_rel_ret
    coll = b.ctx.num_docs_in_coll
    if coll and coll > 0:
        return np.maximum(coll - b.num_rel, nonrel_ret)
    return nonrel_ret


def list_size(b) -> np.ndarray:
    """int64 (n,): length of the full ranked list (relevant + negatives)."""
    return num_negatives(b) + b.num_rel


def nonrel_above(b) -> np.ndarray:
    """int64 (n, W): retrieved non-relevant documents ranked above each position
    (meaningful at relevant positions)."""
    before = b.cum_rel - b.is_rel
    return np.arange(b.width, dtype=np.int64)[None, :] - before


def fpr_at_relevant(b) -> np.ndarray:
    """float64 (n, W): false-positive rate of the relevant document at each
    relevant position (0 elsewhere, and 0 for topics without negatives)."""
    fpr = safe_div(nonrel_above(b), num_negatives(b)[:, None])
    return np.where(b.is_rel, fpr, 0.0)


def precision_at_relevant(b) -> np.ndarray:
    """float64 (n, W): precision at each relevant position, 0 elsewhere."""
    return np.where(b.is_rel, b.prec_at_rank, 0.0)


def interpolated_precision_at_relevant(b) -> np.ndarray:
    """float64 (n, W): at each relevant position, the best precision at that
    or any later relevant position (0 at other positions)."""
    p = precision_at_relevant(b)
    best_after = np.maximum.accumulate(p[:, ::-1], axis=1)[:, ::-1]
    return np.where(b.is_rel, best_after, 0.0)


# ---- magnification functions of the CROC paper (Swamidass et al. 2010) ----

def mag_exp(x, alpha: float):
    """f(x) = (1 - exp(-alpha x)) / (1 - exp(-alpha))."""
    return np.expm1(-alpha * np.asarray(x, dtype=np.float64)) / math.expm1(-alpha)


def mag_pow(x, alpha: float):
    """f(x) = x ** (1 / (1 + alpha))."""
    return np.power(np.asarray(x, dtype=np.float64), 1.0 / (1.0 + alpha))


def mag_log(x, alpha: float):
    """f(x) = log(1 + alpha x) / log(1 + alpha)."""
    return np.log1p(alpha * np.asarray(x, dtype=np.float64)) / math.log1p(alpha)


MAGNIFIERS = {"exp": mag_exp, "pow": mag_pow, "log": mag_log}


def croc_area(b, f=None, ties: str = "docno") -> np.ndarray:
    """float64 (n,): area under the (concentrated) ROC step curve: the mean over
    the topic's relevant documents of ``1 - f(fpr)`` (missed ones add 0).
    ``f=None`` is the identity (plain ROC area). ``ties="average"``: each
    relevant document's ``1 - f(fpr)`` is its mean over every order of its group
    of tied documents (see :func:`tie_groups`)."""
    if ties == "average":
        groups, gains = tied_fpr_gains(b, lambda x: 1.0 - (x if f is None else f(x)))
        return safe_div(b.seq_sum(groups.share * gains), b.num_rel)
    fpr = fpr_at_relevant(b)
    gain = 1.0 - (fpr if f is None else f(fpr))
    return safe_div(b.seq_sum(np.where(b.is_rel, gain, 0.0)), b.num_rel)


# ---- parameters ----

def format_param(v: float) -> str:
    """A parameter as printed in an output name: 7 -> '7', 0.5 -> '0.5'."""
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return repr(float(v))


@record
class PositiveFloats(ParamSpec):
    """``name.a,b,...``: one output per value, named ``name_<value>``
    (``croc_exp.7,14`` -> ``croc_exp_7``, ``croc_exp_14``). Values are sorted
    and must be distinct and positive (or non-negative with ``allow_zero``)."""

    default: tuple = ()
    what: str = "parameter"
    allow_zero: bool = False

    def _parse(self, measure: str, text: str) -> tuple:
        vals = sorted(_float(measure, t, whole=text) for t in text.split(","))
        for v in vals:
            if not math.isfinite(v) or v < 0 or (v == 0 and not self.allow_zero):
                need = "non-negative" if self.allow_zero else "positive"
                raise MeasureError(f"measure '{measure}': {self.what} must be {need} (got {text!r})")
        names = [format_param(v) for v in vals]
        if len(set(names)) != len(names):
            raise MeasureError(f"measure '{measure}': duplicate values in {text!r}")
        return tuple(vals)

    def output_names(self, name: str, params) -> list[str]:
        return [f"{name}_{format_param(v)}" for v in params.values]


NEGATIVES_HELP = (
    "Negatives: by default the retrieved non-relevant documents, with relevant "
    "documents that were not retrieved counted as misses after the whole ranking "
    "(LingPipe's convention); with -N D, every non-relevant document of a "
    "collection of D documents, those not retrieved ranked after the retrieved "
    "ones and the missed relevant documents last (the CROC paper's full "
    "ranking). A topic without relevant documents scores 0; with no negatives, "
    "each retrieved relevant document counts as ranked above all of them."
)


# ---- ties (``ties=average``) ----

TIES_HELP = (
    "With ties=average (e.g. -m NAME.ties=average) documents with equal scores count in "
    "every order equally: the value is the mean over those orders (for auc_roc the "
    "Mann-Whitney count of tied pairs as one half, scikit-learn's roc_auc_score); the "
    "default, ties=docno, is trec_eval's order (equal scores by docno)."
)


@record(eq=False)
class TieGroups:
    """Per position ``(n, W)`` of a batch: the group of documents with scores equal to
    its own (compared as the ranking rule compares them) that it lies in."""

    start: np.ndarray  # int64: position (0-based) of the group's first document
    size: np.ndarray  # int64: documents in the group (1 past the end of a ranking)
    pos_before: np.ndarray  # int64: relevant documents ranked above the group
    pos_in: np.ndarray  # int64: relevant documents in the group
    valid: np.ndarray  # bool: a ranked document

    @property
    def neg_before(self) -> np.ndarray:
        return self.start - self.pos_before

    @property
    def neg_in(self) -> np.ndarray:
        return self.size - self.pos_in

    @property
    def share(self) -> np.ndarray:
        """float64: the chance that a uniformly random order of its group puts a
        relevant document at this position (``pos_in / size``); 0 past the end."""
        return np.where(self.valid, self.pos_in / np.maximum(self.size, 1), 0.0)


def tie_groups(b) -> TieGroups:
    """The groups of tied documents of every topic of batch ``b`` (its scores must
    have been kept: a measure asking for ``ties=average`` says so). Ties are
    defined by the ranking rule's own comparison (C floats in 9.0.8); with
    ``--order rank`` or ``file`` the scores rank nothing, and asking is an error."""
    from ..join.order import RankRule, compared_scores

    rule = RankRule.of(b.ctx)
    if rule.order != "score":
        raise MeasureError(f"ties=average averages over documents with equal scores; the ranking here is "
                           f"--order {rule.order}, not by score")
    if b.scores is None:
        raise MeasureError("ties=average needs the run's scores, which this evaluation did not keep")
    width = b.width
    key = compared_scores(b.scores, rule.single_precision)
    valid = np.asarray(b.valid, dtype=bool)
    pos = np.arange(width, dtype=np.int64)
    new = np.ones((b.n, width), dtype=bool)
    if width > 1:
        new[:, 1:] = key[:, 1:] != key[:, :-1]
    new |= ~valid
    start = np.maximum.accumulate(np.where(new, pos[None, :], 0), axis=1)
    last = np.ones((b.n, width), dtype=bool)
    last[:, :-1] = new[:, 1:]
    end = np.minimum.accumulate(np.where(last, pos[None, :], width - 1)[:, ::-1], axis=1)[:, ::-1] + 1
    cum = np.asarray(b.cum_rel, dtype=np.int64)
    before = np.where(start > 0, np.take_along_axis(cum, np.maximum(start - 1, 0), axis=1), 0)
    through = np.take_along_axis(cum, np.maximum(end - 1, 0), axis=1) if width else cum
    return TieGroups(start, end - start, before, through - before, valid)


def _prefix(values: np.ndarray) -> np.ndarray:
    out = np.zeros((values.shape[0], values.shape[1] + 1), dtype=np.float64)
    np.cumsum(values, axis=1, out=out[:, 1:])
    return out


def mean_over_group_ranks(values: np.ndarray, groups: TieGroups) -> np.ndarray:
    """float64 (n, W): at each position, the mean of ``values`` (n, W: a value per
    rank) over the positions of its group, i.e. the expected value at a document
    of the group placed uniformly at random within it (the value itself where
    the group is one document)."""
    values = np.asarray(values, dtype=np.float64)
    if values.shape[1] == 0:
        return values
    prefix = _prefix(values)
    end = groups.start + groups.size
    mean = (np.take_along_axis(prefix, end, axis=1) - np.take_along_axis(prefix, groups.start, axis=1)) \
        / np.maximum(groups.size, 1)
    return np.where(groups.size == 1, values, mean)


def mean_over_group_negatives(values: np.ndarray, groups: TieGroups) -> np.ndarray:
    """float64 (n, W): at each position, the mean of ``values`` (n, W + 1: a value
    per number of negatives ranked above, 0..W) over k = 0..(negatives in the
    group) more than those above the group: for a relevant document of the
    group placed uniformly at random among its negatives, that number is
    uniform on that range."""
    values = np.asarray(values, dtype=np.float64)
    if values.shape[1] <= 1:
        return values[:, :0]
    a = np.minimum(groups.neg_before, values.shape[1] - 1)
    k = np.where(groups.valid, groups.neg_in, 0)
    prefix = _prefix(values)
    top = np.minimum(a + k + 1, values.shape[1])
    mean = (np.take_along_axis(prefix, top, axis=1) - np.take_along_axis(prefix, a, axis=1)) / (k + 1)
    return np.where(k == 0, np.take_along_axis(values, a, axis=1), mean)


def tied_fpr_gains(b, gain) -> tuple[TieGroups, np.ndarray]:
    """The tie groups of ``b`` and, float64 (n, W), the expected ``gain(fpr)`` of
    a relevant document at each position's group (``gain`` maps rates (n, K) to
    values) over every order of the group; weighted by :attr:`TieGroups.share`
    and added up they give a topic's expected total."""
    groups = tie_groups(b)
    above = np.arange(b.width + 1, dtype=np.float64)[None, :]
    rates = safe_div(np.broadcast_to(above, (b.n, b.width + 1)), num_negatives(b)[:, None])
    return groups, mean_over_group_negatives(gain(rates), groups)


def tied_precision_sum(b) -> np.ndarray:
    """float64 (n,): the expected sum of the precisions at the retrieved relevant
    documents over every order of each group of tied documents (McSherry and
    Najork's tie-averaged average precision, times R). At the m-th position of a
    group of g documents, p of them relevant, t relevant above it and r
    documents above it, a relevant document stands with probability p/g, and
    together with the relevant ones above it in the group it expects
    p/g (t + 1) + (m - 1) p (p - 1) / (g (g - 1)); divided by its rank r + m."""
    groups = tie_groups(b)
    g = np.maximum(groups.size, 1).astype(np.float64)
    p = groups.pos_in.astype(np.float64)
    m = np.arange(b.width, dtype=np.float64)[None, :] - groups.start + 1.0
    pairs = safe_div(p * (p - 1.0), g * (g - 1.0))
    expected = (p / g) * (groups.pos_before + 1.0) + (m - 1.0) * pairs
    terms = np.where(groups.valid, expected / (np.arange(1, b.width + 1, dtype=np.float64)[None, :]), 0.0)
    return b.seq_sum(terms)
