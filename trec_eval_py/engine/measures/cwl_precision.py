"""Precision at k as a C/W/L measure (``cwl_P``).

The user reads exactly ``k`` documents (``k=``, default 10): ``C(i) = 1`` for
``i < k``, 0 from rank ``k``, so ``W(i) = 1/k`` on ranks ``1..k`` and the value
is the mean gain of the top ``k``: P@k with binary gains, graded precision
with ``max_rel=``. A ranking shorter than ``k`` counts its missing ranks as
gain 0, as trec_eval's ``P`` does. ``ETU`` is the gain of the top ``k``
(cumulated gain CG@k), ``ED`` is ``k``. ``k`` beyond ``depth`` reads
``depth`` documents (cwl_eval stops with an error there). See :mod:`._cwl` for
the gains. cwl_eval's ``PrecisionCWLMetric`` (``P@k``).

Source: cwl_eval's ``PrecisionCWLMetric``; Moffat et al., ACM TOIS 35(3), 2017
(the C/W/L framework).
"""
from __future__ import annotations

from ._cwl import Field, cwl_measure, ranks


def _continuation(g, s, depth):
    return (ranks(depth) < s["k"]).astype(float)


CWL_P = cwl_measure(
    "cwl_P",
    "Precision at k as a C/W/L measure: the mean gain of the top k (k=10); binary "
    "gains (level at least -l) or graded ones with max_rel=.",
    (Field("k", 10.0, "whole", "rank cutoff"),),
    "k=5",
    continuation=_continuation,
    static=True,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = [\, i < k \,]"
    ),
)
