"""Time-biased gain as a C/W/L measure (``cwl_tbg``).

Smucker and Clarke, "Time-Based Calibration of Effectiveness Measures",
SIGIR 2012. Gain decays with the time (cost) spent before reaching a
document, halving every ``h`` units (``h=``, the half-life, default 224, the
paper's seconds). cwl_eval's form: with ``t(i)`` the cost spent before rank
``i`` (``t(1) = 0``; every document costs 1 here, so ``t(i) = i - 1``) the
weights are

    W(i) = D(t(i)) / sum_j D(t(j)),   D(x) = h * 2^(-x/h) / ln 2

(the decay integrated from ``x`` on), and C follows as ``W(i+1) / W(i)``
(0 at the last rank). With unit costs this is RBP with persistence
``2^(-1/h)``; the value is the expected rate of gain, not the paper's sum of
decayed gains. No relevant document retrieved or an empty ranking: 0. See
:mod:`._cwl` for the gains and ETU, EC, ETC, ED. cwl_eval's ``TBGCWLMetric``
(``TBG-H@h``).

Source: Smucker and Clarke, "Time-Based Calibration of Effectiveness Measures",
SIGIR 2012; cwl_eval's ``TBGCWLMetric``.
"""
from __future__ import annotations

import math

import numpy as np

from ._cwl import Field, cwl_measure


def _weights(s, depth):
    h = s["h"]
    spent = np.arange(depth, dtype=np.float64)  # cost before each rank
    decay = h * np.power(2.0, -spent / h) / math.log(2.0)
    return decay / np.cumsum(decay)[-1]  # the total added in rank order


CWL_TBG = cwl_measure(
    "cwl_tbg",
    "Time-biased gain as a C/W/L measure (Smucker & Clarke 2012): weights decay by "
    "half every h units of cost (h=224 by default; each document costs 1).",
    (Field("h", 224.0, "positive", "half-life, in units of cost"),),
    "h=100",
    weights=_weights,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\Delta(i - 1)}{\sum_{j=1}^{D} "
        r"\Delta(j - 1)}, \qquad \Delta(x) = \frac{h\, 2^{-x/h}}{\ln 2}"
    ),
)
