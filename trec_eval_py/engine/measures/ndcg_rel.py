"""nDCG averaged over relevant documents (trec_eval ``ndcg_rel``), experimental.

nDCG measured at a single cutoff depends a lot on where the cutoff falls
relative to the topic's gain levels. ``ndcg_rel`` instead averages nDCG taken
at the rank of each relevant document, where *relevant* means positive gain:
for each retrieved document with positive gain, ``dcg / ideal_dcg`` through
its rank (the ideal sum stops growing past the ideal ranking's end). Each
relevant document that was not retrieved contributes the nDCG at the end of
the ranking. The average is over the length of the ideal ranking (the number
of positive-gain documents in the qrels).

Gains and ``level=gain`` parameters work as for :mod:`.ndcg`. A topic whose
total is not positive scores 0 (this covers empty rankings and topics with
no positive gain). Summary: mean over topics. Source: trec_eval
``m_ndcg_rel.c``.
"""
from __future__ import annotations

import numpy as np

from ... import _native
from ._base import Measure
from ._gains import batch_gains, discounted, gain_pairs, log2_rank1, running
from ._params import PairParams


def _ndcg_rel(b, p) -> np.ndarray:
    bg = batch_gains(b, gain_pairs(p, b.ctx.v10))
    n, w = bg.ret.shape
    kernels = _native.extension("kernels")
    if kernels is not None:
        # the same running sums and terms in one walk of each ranking (_kernels.c)
        out = np.empty(n)
        kernels.ndcg_rel(np.ascontiguousarray(bg.ret), w, np.ascontiguousarray(bg.ideal), bg.ideal.shape[1],
                         np.ascontiguousarray(bg.ideal_len, dtype=np.int64), log2_rank1(max(w, bg.ideal.shape[1])),
                         out)
        return out
    dcg_run = running(np.where(bg.ret != 0.0, discounted(bg.ret), 0.0))
    ideal_run = running(discounted(bg.ideal))
    # ideal dcg through each retrieved rank, frozen once the ideal ranking ends
    ideal_at = ideal_run[:, np.minimum(np.arange(w), ideal_run.shape[1] - 1)]
    hit = bg.ret > 0.0
    terms = np.zeros((n, w))
    terms[hit] = dcg_run[hit] / ideal_at[hit]
    total = b.seq_sum(terms)
    dcg = dcg_run[:, -1]
    ideal = ideal_run[:, -1]
    missed = (bg.ideal_len - np.count_nonzero(hit, axis=1)).astype(np.float64)
    total = total + missed * dcg / ideal
    out = np.zeros(n)
    ok = total > 0.0
    out[ok] = total[ok] / bg.ideal_len[ok]
    return out


NDCG_REL = Measure(
    name="ndcg_rel",
    formula=(
        r"\mathrm{ndcg\_rel} = \frac{1}{R^+} \Bigl( \sum_{i:\, g_i > 0} "
        r"\frac{\mathrm{DCG}(i)}{\mathrm{IDCG}(\min(i, R^+))} + (R^+ - r^+)\, "
        r"\frac{\mathrm{DCG}(n)}{\mathrm{IDCG}(R^+)} \Bigr)\quad (r^+ = |\{ i : g_i > 0 \}|;\ 0 \text{ if "
        r"the sum is not positive})"
    ),
    help=(
        "nDCG averaged over the relevant (positive-gain) documents (experimental): "
        "nDCG at the rank of each one retrieved, and nDCG at the end of the ranking for "
        "each one not retrieved. Gains as for ndcg (-m ndcg_rel.1=3,2=9)."
    ),
    kernel=_ndcg_rel,
    params=PairParams(),
    nicknames=frozenset({"all_trec"}),
)
