"""NERR, the C/W/L measures "not (but nearly)" ERR (``cwl_nerr8`` ... ``cwl_nerr11``).

Azzopardi, Mackenzie and Moffat, "ERR is not C/W/L: Exploring the
Relationship Between Expected Reciprocal Rank and Other Metrics", ICTIR 2021,
equations 8 to 11; ir_measures' ``NERR8@k``, ``NERR9@k``, ``NERR10(p=..)``,
``NERR11(T=..)``. ERR's user stops at a document with probability its gain;
these measures keep that stopping rule inside C/W/L, multiplying the
continuation by ``1 - g(i)``:

* ``cwl_nerr8`` (eq. 8): ``C(i) = 1 - g(i)`` for ``i < k``, 0 from rank ``k``
  (``k=``, default 10).
* ``cwl_nerr9`` (eq. 9): ``C(i) = i / (i + 1) * (1 - g(i))`` for ``i < k``, 0 from ``k``.
* ``cwl_nerr10`` (eq. 10): ``C(i) = p * (1 - g(i))`` (``p=``, default 0.9), as RBP.
* ``cwl_nerr11`` (eq. 11): ``C(i) = ((i + 2T - 1) / (i + 2T))^2 * (1 - g(i))``
  (``T=``, default 1), as INSQ.

A fully relevant document (gain 1) ends the scan. The value is the expected
rate of gain ``sum_i W(i) g(i)`` over ``depth`` ranks (see :mod:`._cwl` for W,
the gains and ETU, EC, ETC, ED). No relevant document retrieved or an empty
ranking: 0. cwl_eval's ``NERReq8CWLMetric`` ... ``NERReq11CWLMetric``.

Source: Azzopardi, Mackenzie and Moffat, "ERR is not C/W/L", ICTIR 2021,
equations 8 to 11; cwl_eval's ``NERReq8CWLMetric`` ... ``NERReq11CWLMetric``.
"""
from __future__ import annotations

import numpy as np

from ._cwl import Field, cwl_measure, ranks

_K = Field("k", 10.0, "whole", "rank cutoff")


def _before(k: float, depth: int) -> np.ndarray:
    """bool (depth,): the ranks before the cutoff ``k``."""
    return ranks(depth) < k


def _eq8(g, s, depth):
    return np.where(_before(s["k"], depth), 1.0 - g, 0.0)


def _eq9(g, s, depth):
    r = ranks(depth)
    return np.where(_before(s["k"], depth), (r / (r + 1.0)) * (1.0 - g), 0.0)


def _eq10(g, s, depth):
    return s["p"] * (1.0 - g)


def _eq11(g, s, depth):
    t = s["T"]
    r = ranks(depth)
    return ((r + 2.0 * t - 1.0) / (r + 2.0 * t)) ** 2.0 * (1.0 - g)


CWL_NERR8 = cwl_measure(
    "cwl_nerr8",
    "NERR, equation 8 (Azzopardi et al. 2021): C/W/L measure continuing with probability "
    "1 - gain up to the cutoff k (k=10). ir_measures' NERR8@k.",
    (_K,), "k=20", continuation=_eq8,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = [\, i < k \,]\, (1 - g_i)"
    ),
)
CWL_NERR9 = cwl_measure(
    "cwl_nerr9",
    "NERR, equation 9 (Azzopardi et al. 2021): continues with probability i/(i+1) * "
    "(1 - gain) at rank i up to the cutoff k (k=10). ir_measures' NERR9@k.",
    (_K,), "k=20", continuation=_eq9,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = [\, i < k \,]\, \frac{i}{i + 1} (1 - g_i)"
    ),
)
CWL_NERR10 = cwl_measure(
    "cwl_nerr10",
    "NERR, equation 10 (Azzopardi et al. 2021): continues with probability p * (1 - gain), "
    "p=0.9 by default. ir_measures' NERR10(p=..).",
    (Field("p", 0.9, "prob", "persistence"),), "p=0.8", continuation=_eq10,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = p\, (1 - g_i)"
    ),
)
CWL_NERR11 = cwl_measure(
    "cwl_nerr11",
    "NERR, equation 11 (Azzopardi et al. 2021): continues with INSQ's probability "
    "((i+2T-1)/(i+2T))^2 times (1 - gain), T=1 by default. ir_measures' NERR11(T=..).",
    (Field("T", 1.0, "positive", "gain the user expects to need"),), "T=2", continuation=_eq11,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = \Bigl(\frac{i + 2T - 1}{i + 2T}\Bigr)^2 (1 - g_i)"
    ),
)
