"""Binary G (trec_eval ``binG``), an experimental gain measure.

Each relevant retrieved document (level >= ``-l``) earns
``1 / log2(2 + number of non-relevant documents ranked above it)``; unjudged
documents count as non-relevant. The sum is divided by the number of
relevant documents in the qrels, so unretrieved relevant documents earn 0.
A topic with no relevant document retrieved scores 0 (so does an empty
ranking). Summary: mean over topics. Source: trec_eval ``m_binG.c``.
"""
from __future__ import annotations

import numpy as np

from ... import _native
from ._base import Measure
from ._gains import log2_rank1


def _bing(b, p) -> np.ndarray:
    kernels = _native.extension("kernels")
    if kernels is not None:
        # the same terms summed in one walk of each ranking (_kernels.c)
        sums, found = np.empty(b.n), np.empty(b.n, dtype=bool)
        kernels.bing_sums(b.rel, b.width, b.num_ret, b.level, log2_rank1(b.width), sums, found)
        out = np.zeros(b.n)
        np.divide(sums, b.num_rel.astype(np.float64), out=out, where=found)
        return out
    # non-relevant documents above rank j+1 = j - (relevant above it)
    nonrel_above = np.arange(b.width)[None, :] - (b.cum_rel - b.is_rel)
    disc = log2_rank1(b.width)[np.clip(nonrel_above, 0, None)]  # log2(2 + nonrel_above)
    terms = np.where(b.is_rel, 1.0 / disc, 0.0)
    total = b.seq_sum(terms)
    out = np.zeros(b.n)
    found = b.is_rel.any(axis=1)  # the rank-by-rank test, as trec_eval's loop
    # relevant count 0 with a hit: inf, as in C (see map)
    np.divide(total, b.num_rel.astype(np.float64), out=out, where=found)
    return out


BING = Measure(
    name="binG",
    formula=(
        r"\mathrm{binG} = \frac{1}{R} \sum_{i:\, \mathrm{rel}_i = 1} \frac{1}{\log_2\bigl(2 + i - "
        r"\mathrm{rel}(i)\bigr)}\quad (i - \mathrm{rel}(i) \text{ non-relevant documents above rank } i)"
    ),
    help=(
        "Binary G (experimental): each relevant document retrieved earns "
        "1/log2(2 + non-relevant documents ranked above it); the total is divided by "
        "the number of relevant documents. 0 when none is retrieved."
    ),
    kernel=_bing,
    nicknames=frozenset({"all_trec"}),
)
