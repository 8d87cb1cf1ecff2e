"""nDCG at cutoffs with exponential gains (``ndcg_exp_cut``), gdeval / Burges style.

    DCG@k  = sum_{i=1..k} (2^g_i - 1) / log2(i + 1)
    nDCG@k = DCG@k / IDCG@k

g_i is the judged grade of the document at rank i (unjudged and negative
grades: 0). IDCG@k is the DCG@k of the ideal ranking: the topic's judged
grades sorted from best to worst. Discounts are computed as gdeval.pl does,
log(i + 1) / log(2); sums run in rank order. The grades are used as they are:
``-l`` does not apply. Topics without positive grades score 0 (gdeval skips
them). Default cutoffs 10 and 20 (gdeval reports 20).

Unlike trec_eval's ``ndcg_cut`` (gain = grade), a grade-3 document is worth 7
times a grade-1 one here.

Sources: C. Burges et al., "Learning to rank using gradient descent", ICML
2005; gdeval.pl of the TREC Web track.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._params import IntCutoffs


def _dcg_cumulative(levels: np.ndarray) -> np.ndarray:
    gains = np.exp2(np.maximum(levels, 0).astype(np.float64)) - 1.0
    disc = np.log(np.arange(levels.shape[1], dtype=np.float64) + 2.0) / np.log(2.0)
    return np.cumsum(gains / disc[None, :], axis=1)


def _ndcg_exp(b, p) -> np.ndarray:
    dcg = _dcg_cumulative(b.rel)
    ideal = _dcg_cumulative(b.judged)
    wj = b.judged.shape[1]
    cols = []
    for k in p.values:
        cols.append(safe_div(dcg[:, min(k, b.width) - 1], ideal[:, min(k, wj) - 1]))
    return np.stack(cols, axis=1)


ndcg_exp_cut = Measure(
    name="ndcg_exp_cut",
    formula=(
        r"\mathrm{ndcg\_exp\_cut}_k = \frac{\sum_{i=1}^{\min(k, n)} (2^{\max(\ell_i, 0)} - 1) / "
        r"\log_2(i + 1)}{\sum_{i=1}^{k} (2^{\max(\ell^*_i, 0)} - 1) / \log_2(i + 1)}"
        r"\quad (\ell_i = 0 \text{ for unjudged documents};\ \ell^* \text{ the judged grades, best "
        r"first};\ 0 \text{ without positive grades})"
    ),
    help=(
        "nDCG at cutoff k with exponential gain 2^grade - 1 and discount log2(rank + 1) "
        "(Burges et al. 2005; gdeval.pl's arithmetic), normalised by the DCG@k of the "
        "judged grades in best order. Unjudged documents gain 0; -l does not apply. "
        "Topics without positive grades: 0. Cutoffs: -m ndcg_exp_cut.10,20 (default 10,20)."
    ),
    kernel=_ndcg_exp,
    params=IntCutoffs((10, 20)),
    nicknames=frozenset({"extra"}),
    since="extra",
)
