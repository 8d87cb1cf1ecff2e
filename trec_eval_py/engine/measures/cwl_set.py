"""The search economic measure SET as a C/W/L measure (``cwl_set``).

Azzopardi, "Modelling Interaction with Economic Models of Search", SIGIR
2014: the total gain of reading ``i`` documents grows as ``i^beta``
(``beta=``, default 0.5; diminishing returns below 1). cwl_eval turns that
into weights on the observed gains: with ``w(i) = (i + 1)^beta - i^beta`` the
user continues with ``C(i) = w(i + 1) / w(i)`` for ``i < k`` (``k=``, default
10) and stops at ``k``, so ``W(i)`` is proportional to ``w(i)`` on ranks
``1..k``. ``beta=1`` is P@k. No relevant document retrieved or an empty
ranking: 0. See :mod:`._cwl` for the gains and ETU, EC, ETC, ED. cwl_eval's
``SETCWLMetric`` (``SET-k@k-b@beta``).

Source: Azzopardi, "Modelling Interaction with Economic Models of Search",
SIGIR 2014; cwl_eval's ``SETCWLMetric``.
"""
from __future__ import annotations

import math

import numpy as np

from ._cwl import Field, cwl_measure


def _continuation(g, s, depth):
    beta = s["beta"]
    stop = min(int(s["k"]), depth + 1)

    def w(i):
        return math.pow(i + 1, beta) - math.pow(i, beta)

    c = np.zeros(depth, dtype=np.float64)
    c[: stop - 1] = [w(i + 1) / w(i) for i in range(1, stop)]
    return c


CWL_SET = cwl_measure(
    "cwl_set",
    "Search economic measure (Azzopardi 2014) as a C/W/L measure: rank i weighs "
    "(i+1)^beta - i^beta on ranks 1..k (beta=0.5, k=10).",
    (Field("beta", 0.5, "positive", "exponent of the gain curve"),
     Field("k", 10.0, "whole", "rank cutoff")),
    "beta=0.3,k=20",
    continuation=_continuation,
    static=True,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = [\, i < k \,]\, \frac{w(i + 1)}{w(i)},\ w(i) = (i + 1)^\beta "
        r"- i^\beta"
    ),
)
