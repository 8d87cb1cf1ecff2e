"""Average precision as a C/W/L measure (``cwl_ap``), cwl_eval's definition.

Moffat et al., ACM TOIS 35(3), 2017 (AP's user model); Harman, "Evaluation
Issues in Information Retrieval", IP&M 28(4), 1992. With
``S(i) = sum_{j >= i} g(j) / j`` over the ``depth`` ranks the user continues
with ``C(i) = S(i+1) / S(i)`` (0 once no gain is left below rank ``i``), so

    W(i) = S(i) / (g(1) + ... + g(depth))

and the value is ``sum_i g(i) * S(i) / sum_i g(i)``. With binary gains that is
the sum of the precision at each relevant document retrieved divided by the
number of relevant documents *retrieved* (within ``depth``), not by the
number judged relevant as trec_eval's ``map`` divides: a run that finds one
relevant document at rank 1 of ten judged relevant scores 1 here, 0.1 in
``map``. No relevant document retrieved or an empty ranking: 0 (W puts all
weight on rank 1, so ED is 1). See :mod:`._cwl` for the gains and ETU, EC,
ETC, ED. cwl_eval's ``APCWLMetric``.

Source: Moffat et al., ACM TOIS 35(3), 2017; cwl_eval's ``APCWLMetric``.
"""
from __future__ import annotations

import numpy as np

from ._cwl import cwl_measure, ranks


def _continuation(g, s, depth):
    share = g / ranks(depth)
    below = np.cumsum(share[:, ::-1], axis=1)[:, ::-1]  # S(i)
    c = np.zeros_like(g)
    np.divide(below[:, 1:], below[:, :-1], out=c[:, :-1], where=below[:, 1:] > 0.0)
    return c


CWL_AP = cwl_measure(
    "cwl_ap",
    "Average precision as a C/W/L measure (cwl_eval's AP): the precision at each "
    "relevant document retrieved, averaged over the relevant documents retrieved "
    "(not over all judged relevant, as map does).",
    (),
    "ED",
    continuation=_continuation,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = \frac{S(i + 1)}{S(i)},\ S(i) = \sum_{j \ge i} \frac{g_j}{j}"
    ),
)
