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

``auc_pr.ties=average`` is the mean of ``auc_pr`` over every order of each
group of documents with equal scores (McSherry and Najork 2008, "Computing
information retrieval performance measures efficiently in the presence of
tied scores", ECIR): at the m-th place of a tied group of g documents, p of
them relevant, with t relevant documents above the group, the expected sum
of the precisions is (p/g)(t + 1) + (m - 1) p (p - 1) / (g (g - 1)) over the
rank. scikit-learn's ``average_precision_score`` treats a tied group as one
threshold instead, every relevant document in it getting the precision at
the group's end: the two agree where no relevant document shares its score
with another document.

``auc_ipr_micro`` is BioCreative's micro-averaged AUC iP/R (the official
evaluation library, bc-evaluate 2.3.1, "Global test-set results"): one curve
for the whole set of topics instead of one per topic. The topics' rankings
are walked rank by rank together: after rank k, with TP(k) the relevant
documents among every topic's first k, RET(k) the documents there (a topic
with fewer than k counts all of its own) and R the relevant documents of all
topics averaged over, the curve has the point (recall TP(k)/R, precision
TP(k)/RET(k)). Its area is that of the interpolated curve, as for
``auc_ipr``. Per topic it equals ``auc_ipr`` (one topic's walk is its own
curve). Topics averaged over are the summary's: without ``-c`` the topics
with results (bc-evaluate's default), with ``-c`` every judged topic
(bc-evaluate's ``--all``), those without results adding their relevant
documents to R only. Under ``-Z`` the summary is the mean of the z-scores.

Sources: BioCreative II.5 result evaluation (2009), "AUC of the interpolated
P/R curve", and LingPipe's ``ScoredPrecisionRecallEvaluation.areaUnderPrCurve``
(interpolated / not). ``auc_pr`` is average precision (trec_eval ``map``) by
another route, as LingPipe notes. The micro-average: bc-evaluate 2.3.1
(F. Leitner, ``biocreative.evaluation.controller.protein``).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._params import Ties, tie_rule
from .ranked_curves import TIES_HELP, interpolated_precision_at_relevant, precision_at_relevant, tied_precision_sum

_EXTRA = frozenset({"extra"})


def pr_area(b, ties: str = "docno"):
    if ties == "average":
        return safe_div(tied_precision_sum(b), b.num_rel)
    return safe_div(b.seq_sum(precision_at_relevant(b)), b.num_rel)


def ipr_area(b):
    return safe_div(b.seq_sum(interpolated_precision_at_relevant(b)), b.num_rel)


auc_ipr = Measure(
    name="auc_ipr",
    formula=r"\mathrm{auc\_ipr} = \frac{1}{R} \sum_{t=1}^{\mathrm{rel}(n)} \max_{u \ge t} \frac{u}{\rho_u}",
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
    formula=r"\mathrm{auc\_pr} = \frac{1}{R} \sum_{t=1}^{\mathrm{rel}(n)} \frac{t}{\rho_t}",
    help=(
        "Area under the uninterpolated precision/recall step curve (LingPipe "
        "areaUnderPrCurve(false)): (1/R) * sum over the retrieved relevant documents of "
        "the precision at each one's rank. Equal to average precision (map). "
        "Unretrieved relevant documents add 0; no relevant documents: 0. " + TIES_HELP
        + " scikit-learn's average_precision_score instead gives every relevant document of a "
        "tied group the precision at the group's end."
    ),
    kernel=lambda b, p: pr_area(b, tie_rule(p)),
    params=Ties(),
    nicknames=_EXTRA,
    since="extra",
)


def _ranking_parts(b, p) -> np.ndarray:
    """Per topic, one float array: documents retrieved, relevant documents, then
    the ranks of the retrieved relevant ones (what the micro walk needs)."""
    out = np.empty(b.n, dtype=object)
    ranks = np.asarray(b.ranks, dtype=np.float64)
    for i in range(b.n):
        rel_ranks = ranks[: b.width][b.is_rel[i]]
        out[i] = np.concatenate([[float(b.num_ret[i]), float(b.num_rel[i])], rel_ranks])
    return out


def interpolated_area(recall: np.ndarray, precision: np.ndarray) -> float:
    """Area under the interpolated curve through the points ``(recall, precision)``
    (recall not decreasing): for each recall reached, the best precision at it
    or any higher recall, held back to the previous such recall. Added from the
    lowest recall up over the points where the interpolated precision steps
    down, as bc-evaluate adds them."""
    if len(recall) == 0:
        return 0.0
    # best precision at each distinct recall, then the points that beat every higher recall
    distinct, first = np.unique(recall, return_index=True)
    best = np.maximum.reduceat(precision, first)
    kept, last_p = [], 0.0
    for j in range(len(distinct) - 1, -1, -1):
        if best[j] > last_p:
            kept.append(j)
            last_p = best[j]
    area, last_r = 0.0, 0.0
    for j in reversed(kept):
        area += float(best[j]) * (float(distinct[j]) - last_r)
        last_r = float(distinct[j])
    return area


def micro_ipr_area(parts, filled=None) -> float:
    """bc-evaluate's micro-averaged AUC iP/R of the topics whose
    :func:`_ranking_parts` are ``parts`` (see the module docstring); ``filled``
    marks topics ``-c`` filled in (they retrieve nothing: 10.0's placeholder
    document is no result)."""
    n = len(parts)
    filled = np.zeros(n, dtype=bool) if filled is None else np.asarray(filled, dtype=bool)
    total_rel = 0.0
    depth = [0] * n
    rel_ranks = []
    for t in range(n):
        a = np.asarray(parts[t], dtype=np.float64)
        total_rel += a[1]
        if not filled[t]:
            depth[t] = int(a[0])
            rel_ranks.append(a[2:].astype(np.int64))
    longest = max(depth, default=0)
    if longest == 0:
        return 0.0
    # documents and relevant documents first seen at each rank, over all topics
    at_rank = np.bincount(np.array(depth, dtype=np.int64), minlength=longest + 1)
    ret = np.cumsum((n - np.cumsum(at_rank))[:longest])  # RET(k), k = 1..longest
    ranks = np.concatenate(rel_ranks) if rel_ranks else np.zeros(0, dtype=np.int64)
    tp = np.cumsum(np.bincount(ranks, minlength=longest + 1)[1:longest + 1])
    precision = tp / ret.astype(np.float64)
    recall = tp / total_rel if total_rel > 0 else np.zeros(longest)
    return interpolated_area(recall, precision)


def _micro_summary(values, info):
    if info.parts is None:  # -Z: the mean of the z-scores
        return info.of(auc_ipr_micro.aggregate, values)
    return micro_ipr_area(info.parts, info.filled)


auc_ipr_micro = Measure(
    name="auc_ipr_micro",
    formula=(
        r"\mathrm{auc\_ipr\_micro} = \sum_{k \ge 1} \frac{\mathrm{TP}(k) - \mathrm{TP}(k - 1)}{\sum_q "
        r"R_q} \max_{k' \ge k} \frac{\mathrm{TP}(k')}{\mathrm{RET}(k')}, \qquad \mathrm{TP}(k) = \sum_q "
        r"\mathrm{rel}_q(\min(k, n_q)),\ \mathrm{RET}(k) = \sum_q \min(k, n_q)"
    ),
    help=(
        "Micro-averaged AUC iP/R (BioCreative's bc-evaluate, 'Global test-set results'): the "
        "area under the interpolated precision/recall curve of all topics walked rank by rank "
        "together (after rank k: relevant documents in every topic's first k over all relevant "
        "documents, and over all documents in every topic's first k). Per topic it is auc_ipr. "
        "The topics are the summary's: those with results, or with -c every judged topic."
    ),
    kernel=lambda b, p: ipr_area(b),
    parts=_ranking_parts,
    summary=_micro_summary,
    nicknames=_EXTRA,
    since="extra",
)
