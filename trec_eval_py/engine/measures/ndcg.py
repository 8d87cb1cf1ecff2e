"""Normalized discounted cumulative gain (trec_eval ``ndcg``).

Järvelin and Kekäläinen's nDCG (ACM TOIS 20(4), 2002) over the whole ranking:
the document at rank ``r`` contributes ``gain / log2(r + 1)``, and the sum is
divided by the same sum for the ideal ranking built from the topic's qrels.

Gains default to the relevance level (level 2 gains 2). ``-m ndcg.1=3,2=9``
overrides some levels; unlisted levels keep their own value as gain, level 0
may be given a gain, and gains may be zero or negative (negative gains lower
the score; the ideal ranking only uses the positive-gain documents). A
parameter may also name ``-1`` (retrieved but not in the qrels). See
:mod:`._gains` for how the gain table is built and sorted, quirks included.
Under trec_eval 9.0.8 a parameter name that is not a number means level 0;
under 10.0 such a pair is ignored.

A topic whose ideal ranking has no positive gain scores 0. An empty ranking
scores 0. Summary: mean over topics. Source: trec_eval ``m_ndcg.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._gains import batch_gains, dcg_at, gain_pairs
from ._params import PairParams


def dcg_parts(b, params, strict: bool | None = None):
    """``(dcg, ideal_dcg)`` per topic, each summed in rank order."""
    strict = b.ctx.v10 if strict is None else strict
    bg = batch_gains(b, gain_pairs(params, strict))
    dcg = dcg_at(bg.ret, [-1], skip_zero=True)[:, 0]
    ideal = dcg_at(bg.ideal, [-1])[:, 0]
    return dcg, ideal


def _ndcg(b, p) -> np.ndarray:
    dcg, ideal = dcg_parts(b, p)
    out = np.zeros(b.n)
    np.divide(dcg, ideal, out=out, where=ideal > 0.0)
    return out


NDCG = Measure(
    name="ndcg",
    formula=(
        r"\mathrm{ndcg} = \frac{\mathrm{DCG}(n)}{\mathrm{IDCG}(R^+)}, \qquad \mathrm{DCG}(k) = "
        r"\sum_{i=1}^{k} \frac{g_i}{\log_2(i + 1)},\quad \mathrm{IDCG}(k) = \sum_{i=1}^{k} "
        r"\frac{g^*_i}{\log_2(i + 1)}\quad (0 \text{ if } \mathrm{IDCG}(R^+) \le 0)"
    ),
    help=(
        "Normalized discounted cumulative gain over the whole ranking: sum of "
        "gain/log2(rank+1) divided by the same sum for an ideal ranking of the judged "
        "documents. Gains are the relevance levels unless given as level=gain pairs, "
        "e.g. -m ndcg.1=3,2=9 (unlisted levels keep their level as gain; gains may be 0 "
        "or negative; level 0 may get a gain). Topics with no positive ideal gain score 0."
    ),
    kernel=_ndcg,
    params=PairParams(),
    nicknames=frozenset({"all_trec"}),
)
