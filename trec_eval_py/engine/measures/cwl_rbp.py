"""Rank-biased precision and net present value as C/W/L measures (``cwl_rbp``, ``cwl_npv``).

Moffat and Zobel, "Rank-Biased Precision for Measurement of Retrieval
Effectiveness", ACM TOIS 27(1), 2008. The user goes on with a fixed
probability: ``C(i) = p`` (``p=``, default 0.9, cwl_eval's theta). Over
``depth`` ranks the weights are ``W(i) = p^(i-1) / (1 + p + ... + p^(depth-1))``:
RBP normalised over the ranks scored rather than by ``1 - p`` (``rbp``,
trec_eval 10.0's, sums ``(1 - p) p^(i-1) g(i)``); the two differ by the factor
``1 - p^depth``, below 1e-45 for p = 0.9 and depth 1000, but not for p near 1.
``p = 1`` weighs the ``depth`` ranks evenly.

``cwl_npv`` is the same model seen as an economic one (cwl_eval's
``NPVCWLMetric``): a user who discounts the future at rate ``rate=`` (default
0.1) continues with ``C(i) = 1 / (1 + rate)``.

No relevant document retrieved or an empty ranking: 0. See :mod:`._cwl` for
the gains and ETU, EC, ETC, ED. cwl_eval's ``RBPCWLMetric`` (``RBP@p``).

Source: Moffat and Zobel, "Rank-Biased Precision for Measurement of Retrieval
Effectiveness", ACM TOIS 27(1), 2008; cwl_eval's ``RBPCWLMetric`` and
``NPVCWLMetric``.
"""
from __future__ import annotations

import numpy as np

from ._cwl import Field, cwl_measure


def _rbp(g, s, depth):
    return np.ones(depth) * s["p"]


def _npv(g, s, depth):
    return np.ones(depth) * (1.0 / (1.0 + s["rate"]))


CWL_RBP = cwl_measure(
    "cwl_rbp",
    "Rank-biased precision as a C/W/L measure (Moffat & Zobel 2008): continues with "
    "probability p (p=0.9), weights normalised over the depth ranks.",
    (Field("p", 0.9, "prob", "persistence"),),
    "p=0.8",
    continuation=_rbp,
    static=True,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = p"
    ),
)

CWL_NPV = cwl_measure(
    "cwl_npv",
    "Net present value (cwl_eval's NPV): RBP with persistence 1/(1+rate), rate=0.1 by "
    "default (the discount per document).",
    (Field("rate", 0.1, "nonneg", "discount rate per document"),),
    "rate=0.2",
    continuation=_npv,
    static=True,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = \frac{1}{1 + \mathit{rate}}"
    ),
)
