"""Scaled DCG at a cutoff as a C/W/L measure (``cwl_sdcg``; ir_measures' ``SDCG@k``).

Jarvelin and Kekalainen's discounted cumulative gain (ACM TOIS 20(4), 2002)
with the discount ``1 / log2(i + 1)`` turned into weights: the continuation

    C(i) = log2(i + 1) / log2(i + 2)  for i < k,  0 from rank k  (k=, default 10)

gives ``W(i) = (1 / log2(i + 1)) / sum_{j <= k} 1 / log2(j + 1)``, so the value
is DCG@k divided by the DCG@k of a ranking whose first ``k`` documents all
gain 1: nDCG with an ideal that assumes at least ``k`` fully relevant
documents exist, whatever the judgments say (unlike ``ndcg_cut``, which
normalises by the topic's own ideal ranking). No relevant document retrieved
or an empty ranking: 0. ``k`` beyond ``depth`` is ``depth``. See
:mod:`._cwl` for the gains and ETU, EC, ETC, ED. cwl_eval's ``NDCGCWLMetric``
(reported there as ``NDCG-k@k``).

Source: Jarvelin and Kekalainen, ACM TOIS 20(4), 2002; cwl_eval's
``NDCGCWLMetric``.
"""
from __future__ import annotations

import numpy as np

from ._cwl import Field, cwl_measure, log_ratio


def _continuation(g, s, depth):
    stop = min(int(s["k"]), depth + 1)
    c = np.zeros(depth, dtype=np.float64)
    c[: stop - 1] = [log_ratio(i) for i in range(1, stop)]
    return c


CWL_SDCG = cwl_measure(
    "cwl_sdcg",
    "Scaled DCG at k (C/W/L form of Jarvelin & Kekalainen 2002): DCG@k (log2 discount) "
    "over the DCG@k of k documents of gain 1; k=10 by default. ir_measures' SDCG@k.",
    (Field("k", 10.0, "whole", "rank cutoff"),),
    "k=5",
    continuation=_continuation,
    static=True,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = [\, i < k \,]\, \frac{\log_2(i + 1)}{\log_2(i + 2)}"
    ),
)
