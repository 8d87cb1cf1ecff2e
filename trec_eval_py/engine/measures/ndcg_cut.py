"""nDCG at fixed cutoffs (trec_eval ``ndcg_cut``).

``ndcg_cut_k`` is the dcg of the top ``k`` documents divided by the dcg of
the top ``k`` of the ideal ranking. Unlike :mod:`.ndcg`, the gains cannot be
changed: a document's gain is its relevance level (levels 0 and below, and
unjudged documents, gain nothing), whatever ``-l`` is; the ideal ranking is
the qrels documents with positive level, highest level first. Ranks past the
end of a short ranking gain nothing. A topic without positive levels scores
0. Default cutoffs 5, 10, 15, 20, 30, 100, 200, 500, 1000. Summary: mean over
topics. Source: trec_eval ``m_ndcg_cut.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._gains import ndcg_at_cutoffs
from ._params import IntCutoffs

DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def _ndcg_cut(b, p) -> np.ndarray:
    gains = np.where(b.valid & (b.rel > 0), b.rel, 0).astype(np.float64)
    ideal = np.where(b.gain_judged > 0, b.gain_judged, 0).astype(np.float64)  # sorted best first
    return ndcg_at_cutoffs(gains, ideal, p.values)


NDCG_CUT = Measure(
    name="ndcg_cut",
    formula=(
        r"\mathrm{ndcg\_cut}_k = \frac{\sum_{i=1}^{\min(k, n)} \max(\ell_i, 0) / \log_2(i + "
        r"1)}{\sum_{i=1}^{\min(k, R^+)} \ell^*_i / \log_2(i + 1)}\quad (\ell^*_1 \ge \ell^*_2 \ge \cdots "
        r"> 0 \text{ the judged levels};\ 0 \text{ if there is none})"
    ),
    help=(
        "nDCG at cutoffs: dcg of the top k over the dcg of the ideal top k, with the "
        "relevance level as gain. Cutoffs: -m ndcg_cut.5,10"
    ),
    kernel=_ndcg_cut,
    params=IntCutoffs(DEFAULT_CUTOFFS),
    nicknames=frozenset({"all_trec"}),
)
