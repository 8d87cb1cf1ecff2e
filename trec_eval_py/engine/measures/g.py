"""Normalized gain G (trec_eval ``G``), an experimental gain measure.

G rewards a document by how close the ranking above it is to ideal: the
document at rank ``i`` with gain ``g`` earns
``g / log2(2 + cost(i) - gained(i))``, where ``gained(i)`` is the total gain
of the ranking through rank ``i`` and ``cost(i)`` is the running total of the
ideal ranking's gains with every rank charged at least 1 (ranks past the
ideal ranking cost 1). The sum is divided by the total gain of the ideal
ranking. Gains and ``level=gain`` parameters work as for :mod:`.ndcg`
(``-m G.1=3,2=1``). A topic with no positive ideal gain scores 0, as does an
empty ranking. Summary: mean over topics. Source: trec_eval ``m_G.c``.
"""
from __future__ import annotations

import numpy as np

from ... import _native
from ._base import Measure
from ._gains import batch_gains, c_log2, gain_pairs, running
from ._params import PairParams


def _g(b, p) -> np.ndarray:
    bg = batch_gains(b, gain_pairs(p, b.ctx.v10))
    n, w = bg.ret.shape
    iw = bg.ideal.shape[1]
    kernels = _native.extension("kernels")
    if kernels is not None:
        # the same running sums and terms in one walk of each ranking (_kernels.c)
        out = np.empty(n)
        kernels.g(np.ascontiguousarray(bg.ret), w, np.ascontiguousarray(bg.ideal), iw, out)
        return out
    ideal = np.zeros((n, w))
    ideal[:, : min(w, iw)] = bg.ideal[:, : min(w, iw)]
    cost = np.where(ideal >= 1.0, ideal, 1.0)
    gained = running(bg.ret)
    spent = running(cost)
    hit = bg.ret != 0.0
    terms = np.zeros((n, w))
    # a gain given to unjudged documents (-1=g) can outrun the ideal's cost: the
    # logarithm is then 0 or undefined and the term inf or nan, as in trec_eval
    terms[hit] = bg.ret[hit] / c_log2((2.0 + spent[hit]) - gained[hit])
    total = b.seq_sum(terms)
    best = b.seq_sum(bg.ideal)
    out = np.zeros(n)
    np.divide(total, best, out=out, where=best > 0.0)
    return out


G = Measure(
    name="G",
    formula=(
        r"G = \frac{1}{\sum_{i} g^*_i} \sum_{i:\, g_i \ne 0} \frac{g_i}{\log_2\bigl(2 + \sum_{j \le i} "
        r"\max(g^*_j, 1) - \sum_{j \le i} g_j\bigr)}\quad (g^*_j = 0 \text{ past the ideal ranking};\ 0 "
        r"\text{ if } \textstyle\sum_i g^*_i \le 0)"
    ),
    help=(
        "Normalized gain G (experimental): a document of gain g at rank i earns "
        "g/log2(2 + ideal gain so far (at least 1 per rank) - gain so far); the sum is "
        "divided by the ideal ranking's total gain. Gains as for ndcg (-m G.1=3,2=1)."
    ),
    kernel=_g,
    params=PairParams(),
    nicknames=frozenset({"all_trec"}),
)
