"""The U-measure as a C/W/L measure (``cwl_u``).

Sakai and Dou, "Summaries, Ranked Retrieval and Sessions: A Unified
Framework for Information Access Evaluation", SIGIR 2013. A reader's
interest falls linearly with the text (cost) read, reaching 0 after ``L``
units (``L=``, default 1000). cwl_eval's form: with ``t(i)`` the cost spent
before rank ``i`` (every document costs 1 here, so ``t(i) = i - 1``)

    W(i) = max(0, 1 - t(i)/L) / sum_j max(0, 1 - t(j)/L)   for i < depth,  W(depth) = 0

(cwl_eval leaves the last rank out), and C follows as ``W(i+1) / W(i)``. With
``L`` at most 1 only rank 1 counts. No relevant document retrieved or an empty
ranking: 0. ``depth=1`` has no rank left to weigh: every output is NaN (cwl_eval
divides 0 by 0 too). See :mod:`._cwl` for the gains and ETU, EC, ETC, ED.
cwl_eval's ``UMeasureCWLMetric`` (``U-L@L``).

Source: Sakai and Dou, "Summaries, Ranked Retrieval and Sessions", SIGIR 2013;
cwl_eval's ``UMeasureCWLMetric``.
"""
from __future__ import annotations

import numpy as np

from ._cwl import Field, cwl_measure


def _weights(s, depth):
    spent = np.arange(depth, dtype=np.float64)
    w = np.maximum(0.0, 1.0 - spent / s["L"])
    w[-1] = 0.0
    total = np.cumsum(w)[-1]
    return w / total if total > 0.0 else np.full(depth, np.nan)


CWL_U = cwl_measure(
    "cwl_u",
    "U-measure as a C/W/L measure (Sakai & Dou 2013): weights fall linearly with the "
    "cost read, to 0 after L units (L=1000 by default; each document costs 1).",
    (Field("L", 1000.0, "positive", "cost after which nothing more is read"),),
    "L=50",
    weights=_weights,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D - 1} W(i)\, g_i, \qquad W(i) = \frac{\max(0,\ 1 - (i - "
        r"1)/L)}{\sum_{j=1}^{D - 1} \max(0,\ 1 - (j - 1)/L)}"
    ),
)
