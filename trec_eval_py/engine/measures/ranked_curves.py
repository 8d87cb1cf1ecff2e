"""Shared arithmetic of the curve-based measures (``auc_ipr``, ``auc_pr``,
``auc_roc``, ``max_F``, ``bep``, ``croc_*``, ``bedroc``, ``rie``) and of
:mod:`trec_eval_py.tools.curves`.

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


def croc_area(b, f=None) -> np.ndarray:
    """float64 (n,): area under the (concentrated) ROC step curve: the mean over
    the topic's relevant documents of ``1 - f(fpr)`` (missed ones add 0).
    ``f=None`` is the identity (plain ROC area)."""
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
