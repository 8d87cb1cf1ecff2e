"""INSQ, INST's static predecessor (``cwl_insq``; ir_measures' ``INSQ``).

Moffat, Scholer and Thomas, "Models and Metrics: IR Evaluation as a User
Process", ADCS 2012. The user expects to need ``T`` relevant documents
(``T=``, default 1) and continues from rank ``i`` with probability

    C(i) = ((i + 2T - 1) / (i + 2T))^2

whatever they have found, so the weights W are fixed by ``T`` and ``depth``
alone. INSQ is the expected rate of gain ``sum_i W(i) g(i)`` (see :mod:`._cwl`
for W, the gains and the outputs ETU, EC, ETC, ED). No relevant document
retrieved or an empty ranking: 0 (ED is unchanged: it does not depend on the
gains). cwl_eval's ``INSQCWLMetric``.

Source: Moffat, Scholer and Thomas, "Models and Metrics: IR Evaluation as a
User Process", ADCS 2012; cwl_eval's ``INSQCWLMetric``.
"""
from __future__ import annotations

from ._cwl import Field, cwl_measure, ranks


def _continuation(g, s, depth):
    t = s["T"]
    r = ranks(depth)
    return ((r + 2.0 * t - 1.0) / (r + 2.0 * t)) ** 2.0


CWL_INSQ = cwl_measure(
    "cwl_insq",
    "INSQ (Moffat et al. 2012): C/W/L measure continuing with probability "
    "((i+2T-1)/(i+2T))^2 at rank i, T=1 by default (documents the user expects to need).",
    (Field("T", 1.0, "positive", "gain the user expects to need"),),
    "T=3",
    continuation=_continuation,
    static=True,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = \Bigl(\frac{i + 2T - 1}{i + 2T}\Bigr)^2"
    ),
)
