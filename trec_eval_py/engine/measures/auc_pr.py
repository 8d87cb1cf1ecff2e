"""Areas under the precision/recall step curve: ``auc_pr`` and ``auc_ipr``.

The operating points of a topic are the ranks of its retrieved relevant
documents: at the i-th of them (rank r_i) recall is i/R and precision i/r_i,
with R the number of relevant documents in the judgments. Read as a step
function (precision p_i on the recall interval ((i-1)/R, i/R]) the curve
encloses

    auc_pr  = (1/R) * sum_i p_i
    auc_ipr = (1/R) * sum_i max_{j >= i} p_j

``auc_ipr`` replaces each precision by the interpolated precision, the best
precision at that or any higher recall. Relevant documents never retrieved
add nothing (the curve stops at the recall reached). Topics without relevant
documents score 0. Sums run in rank order.

Sources: BioCreative II.5 result evaluation (2009), "AUC of the interpolated
P/R curve", and LingPipe's ``ScoredPrecisionRecallEvaluation.areaUnderPrCurve``
(interpolated / not). ``auc_pr`` is average precision (trec_eval ``map``) by
another route, as LingPipe notes.
"""
from __future__ import annotations

from ._base import Measure, safe_div
from .ranked_curves import interpolated_precision_at_relevant, precision_at_relevant

_EXTRA = frozenset({"extra"})


def pr_area(b):
    return safe_div(b.seq_sum(precision_at_relevant(b)), b.num_rel)


def ipr_area(b):
    return safe_div(b.seq_sum(interpolated_precision_at_relevant(b)), b.num_rel)


auc_ipr = Measure(
    name="auc_ipr",
    help=(
        "Area under the interpolated precision/recall curve (BioCreative II.5's AUC iP/R; "
        "LingPipe areaUnderPrCurve(true)): (1/R) * sum over the retrieved relevant documents "
        "of the best precision at that or any later relevant document, R the number of "
        "relevant documents. Unretrieved relevant documents add 0; no relevant documents: 0."
    ),
    kernel=lambda b, p: ipr_area(b),
    nicknames=_EXTRA,
    since="extra",
)

auc_pr = Measure(
    name="auc_pr",
    help=(
        "Area under the uninterpolated precision/recall step curve (LingPipe "
        "areaUnderPrCurve(false)): (1/R) * sum over the retrieved relevant documents of "
        "the precision at each one's rank. Equal to average precision (map). "
        "Unretrieved relevant documents add 0; no relevant documents: 0."
    ),
    kernel=lambda b, p: pr_area(b),
    nicknames=_EXTRA,
    since="extra",
)
