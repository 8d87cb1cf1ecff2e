"""INST, the adaptive C/W/L measure with a target (``cwl_inst``; ir_measures' ``INST``).

Moffat, Bailey, Scholer and Thomas, "INST: An Adaptive Metric for
Information Retrieval Evaluation", ADCS 2015. The user arrives wanting ``T``
units of gain (``T=``, default 1: one fully relevant document) and is the
more likely to go on the less of it they have found:

    C(i) = ((i + T + T_i - 1) / (i + T + T_i))^2,  T_i = T - (g(1) + ... + g(i))

INST is the expected rate of gain ``sum_i W(i) g(i)`` over ``depth`` ranks (see
:mod:`._cwl` for W, the gains and the other outputs ETU, EC, ETC, ED). With
gains in [0, 1] the denominator is at least ``2T``, so C is defined for every
``T > 0``. No relevant document retrieved (or an empty ranking): C is INSQ's
and INST is 0, with ED that of INSQ over ``depth`` ranks. cwl_eval's
``INSTCWLMetric``; this measure agrees with it to 1e-9 (tests/engine/measures/test_m_cwl.py).

Source: Moffat, Bailey, Scholer and Thomas, "INST: An Adaptive Metric for
Information Retrieval Evaluation", ADCS 2015; cwl_eval's ``INSTCWLMetric``.
"""
from __future__ import annotations

import numpy as np

from ._cwl import Field, cwl_measure, ranks


def _continuation(g, s, depth):
    t = s["T"]
    left = t - np.cumsum(g, axis=1)
    r = ranks(depth)
    return ((r + t + left - 1.0) / (r + t + left)) ** 2.0


CWL_INST = cwl_measure(
    "cwl_inst",
    "INST (Moffat et al. 2015): C/W/L measure whose user wants T units of gain "
    "(T=1 default) and continues with probability ((i+T+T_i-1)/(i+T+T_i))^2, T_i the "
    "gain still missing after rank i. Value: expected rate of gain.",
    (Field("T", 1.0, "positive", "gain the user wants"),),
    "T=3",
    continuation=_continuation,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = \Bigl(\frac{i + T + T_i - 1}{i + T + T_i}\Bigr)^2,\ T_i = T "
        r"- \textstyle\sum_{j \le i} g_j"
    ),
)
