"""Inferred average precision (trec_eval ``infAP``).

Meant for qrels whose pool was only sampled for judging. A ranked document is
one of: not in the pool (not in the qrels), pooled but not judged (in the
qrels with a negative level), judged relevant, or judged non-relevant. At a
judged relevant document in 0-based position ``k > 0`` the expected precision
is estimated as::

    1/(k+1) + k/(k+1) * (pooled above / k) * ((rel above + eps) / (judged above + 2 eps))

where "pooled above" counts the documents above it that are in the qrels
(judged or not), "judged above" the judged ones, and ``eps`` is 0.00001; at
position 0 it is 1. The topic's value is the sum over relevant documents
retrieved divided by the number of relevant documents in the qrels (0 if
none). The summary is the arithmetic mean.

Source: trec_eval ``m_infap.c``; Yilmaz and Aslam, "Estimating Average
Precision with Incomplete and Imperfect Judgments", CIKM 2006.
"""
from __future__ import annotations

import numpy as np

from ... import _native
from ..join.batch import UNJUDGED
from ._base import Measure, safe_div
from ._set_counts import judged_nonrel, judged_rel, num_rel

EPSILON = 0.00001


def inf_ap(b) -> np.ndarray:
    kernels = _native.extension("kernels")
    if kernels is not None:
        # the same estimates summed in one walk of each ranking (_kernels.c)
        sums = np.empty(b.n)
        kernels.infap_sums(b.rel, b.width, b.num_ret, b.level, sums)
        return safe_div(sums, num_rel(b))
    rel = judged_rel(b)
    rel_above = np.cumsum(rel, axis=1) - 1  # excluding the document itself (where it is relevant)
    nonrel_above = np.cumsum(judged_nonrel(b), axis=1)
    unjudged_above = np.cumsum((b.rel == UNJUDGED) & b.valid, axis=1)
    fj = np.arange(b.width, dtype=np.float64)[None, :]
    pooled = (rel_above + nonrel_above + unjudged_above).astype(np.float64)
    est = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (pooled / fj) * (
        (rel_above.astype(np.float64) + EPSILON)
        / ((rel_above + nonrel_above).astype(np.float64) + 2 * EPSILON)
    )
    est[:, :1] = 1.0  # a relevant document at the top counts fully
    terms = np.where(rel, est, 0.0)
    return safe_div(b.seq_sum(terms), num_rel(b))


infAP = Measure(
    name="infAP",
    formula=(
        r"\mathrm{infAP} = \frac{1}{R} \sum_{i:\, \mathrm{rel}_i = 1} E_i, \qquad E_1 = 1, \qquad E_i = "
        r"\frac{1}{i} + \frac{i - 1}{i} \cdot \frac{p_{<i}}{i - 1} \cdot \frac{r_{<i} + \epsilon}{r_{<i} "
        r"+ \bar r_{<i} + 2\epsilon}\ (i > 1), \qquad \epsilon = 10^{-5}"
    ),
    help=(
        "Inferred average precision, for pools judged by sampling: precision at each relevant "
        "document is estimated from the judged documents above it, scaled by the share of "
        "pooled documents above it; unpooled documents count as non-relevant, pooled-but-"
        "unjudged ones (negative qrels level) are assumed relevant in the same proportion as "
        "the judged ones. Averaged over the relevant documents in the qrels. Yilmaz & Aslam, "
        "CIKM 2006."
    ),
    kernel=lambda b, p: inf_ap(b),
    nicknames=frozenset({"all_trec"}),
)
