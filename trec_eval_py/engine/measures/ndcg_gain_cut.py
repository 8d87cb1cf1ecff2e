"""nDCG at cutoffs with chosen gains per relevance level (``ndcg_gain_cut``).

trec_eval's ``ndcg_cut`` gains a document's relevance level; ``ndcg`` takes
``level=gain`` parameters but has no cutoff. ``ndcg_gain_cut`` is ``ndcg_cut``
with a gain per level: ``-m ndcg_gain_cut.10,20,1=1,2=5`` (bare numbers are
cutoffs, ``level=gain`` pairs the gains; a level without a pair gains its own
value). It is what ir_measures asks for with ``nDCG(gains={1: 1, 2: 5})@10``:
its pytrec_eval provider replaces each judgment's level by its gain and runs
``ndcg_cut`` on that. So, as in ``ndcg_cut``:

* a retrieved document gains its level's gain when that gain is positive,
  otherwise (gain 0 or below, unjudged, judged with a negative level) nothing;
* the ideal ranking is the topic's judged documents ordered by gain, highest
  first, and only positive gains count;
* ``dcg@k = sum_{i<=k} gain_i / log2(i + 1)``, summed in rank order; the value
  is ``dcg@k`` over the ideal ``dcg@k``, 0 for a topic without positive gains.

``-l`` does not apply (the gains decide). Levels must be 0 or more (a negative
level means "not judged" in trec_eval's judgments and has no gain); gains may
be any numbers. Default cutoffs as ``ndcg_cut``'s. Summary: mean over topics.
Sources: trec_eval ``m_ndcg_cut.c``; ir_measures' pytrec_eval provider.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._gains import ndcg_at_cutoffs
from ._params import CutoffsAndGains
from .ndcg_cut import DEFAULT_CUTOFFS


def gains_of(levels: np.ndarray, pairs: tuple) -> np.ndarray:
    """float64, same shape: each relevance code's gain (0 when not positive).

    A level with a pair gains the pair's value, any other positive level its
    own value; codes below 0 (unjudged, not in the qrels, padding) gain 0.
    """
    out = np.where(levels > 0, levels, 0).astype(np.float64)
    for level, gain in pairs:  # the last pair naming a level wins
        out = np.where(levels == level, np.float64(gain), out)
    return np.where(out > 0.0, out, 0.0)


def _ndcg_gain_cut(b, p) -> np.ndarray:
    cutoffs, pairs = p.values
    gains = np.where(b.valid, gains_of(b.rel, pairs), 0.0)
    ideal = -np.sort(-gains_of(b.judged, pairs), axis=1)  # best first
    return ndcg_at_cutoffs(gains, ideal, cutoffs)


NDCG_GAIN_CUT = Measure(
    name="ndcg_gain_cut",
    formula=(
        r"\mathrm{ndcg\_gain\_cut}_k = \frac{\sum_{i=1}^{\min(k, n)} \max(g_i, 0) / \log_2(i + "
        r"1)}{\sum_{i=1}^{\min(k, R^+)} g^*_i / \log_2(i + 1)}\quad (g = \text{the gain given to each "
        r"level};\ 0 \text{ without positive gains})"
    ),
    help=(
        "nDCG at cutoffs with a gain per relevance level: ndcg_cut where level=gain pairs "
        "replace the level as gain (ir_measures' nDCG(gains={...})@k). -m ndcg_gain_cut.10,1=1,2=5 "
        "(numbers are cutoffs, level=gain pairs the gains; other levels gain their value)."
    ),
    kernel=_ndcg_gain_cut,
    params=CutoffsAndGains(DEFAULT_CUTOFFS),
    nicknames=frozenset({"extra"}),
    since="extra",
)
