"""Reciprocal rank as a C/W/L measure (``cwl_rr``).

Kantor and Voorhees, "The TREC-5 Confusion Track", Information Retrieval
2(2-3), 2000. The user reads until the first document with some gain and
stops there: ``C(i) = 1`` before it, 0 from it on. The ``r`` ranks read are
weighed evenly, so the value is ``g(r) / r``: the reciprocal rank with binary
gains, the first useful document's gain over its rank with graded ones
(``max_rel=``: a document of gain 0.5 at rank 2 gives 0.25, where trec_eval's
``recip_rank`` at ``-l`` would give 0.5 or skip it). No relevant document
retrieved or an empty ranking: 0, with ``ED`` the whole ``depth``. See
:mod:`._cwl` for the gains and ETU, EC, ETC, ED. cwl_eval's ``RRCWLMetric``.

Source: Kantor and Voorhees, "The TREC-5 Confusion Track", Information
Retrieval 2(2-3), 2000; cwl_eval's ``RRCWLMetric``.
"""
from __future__ import annotations

import numpy as np

from ._cwl import cwl_measure


def _continuation(g, s, depth):
    return (np.cumsum(g > 0.0, axis=1) == 0).astype(np.float64)


CWL_RR = cwl_measure(
    "cwl_rr",
    "Reciprocal rank as a C/W/L measure: the gain of the first document with gain "
    "over its rank (1/rank with binary gains).",
    (),
    "ED",
    continuation=_continuation,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = [\, g_j = 0 \text{ for every } j \le i \,]"
    ),
)
