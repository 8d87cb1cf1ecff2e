"""nDCG averaged at the R-level boundaries (trec_eval ``Rndcg``), experimental.

The ideal ranking lists the judged documents by decreasing gain; its
*R levels* are the ranks where the ideal gain changes value, plus its end
(where it drops to zero or below). ``Rndcg`` is the mean of ``dcg/ideal_dcg``
taken just before each of those ranks. When the ranking runs on past the end
of the ideal ranking (by more than one document), nDCG at the end of the
ranking is averaged in too.

For example with 5 documents of gain 3, 3 of gain 2 and 10 of gain 1, the
points are ranks 5, 8 and 18 (and the end of a ranking longer than 19).

Gains and ``level=gain`` parameters work as for :mod:`.ndcg`. A topic
without relevant documents (at ``-l``) scores 0; an empty ranking scores 0.
If no point can be measured (no positive gain anywhere, e.g. all gains set
to 0), trec_eval divides 0 by 0 and so do we. Summary: mean over topics.
Source: trec_eval ``m_Rndcg.c``.
"""
from __future__ import annotations

import numpy as np

from ... import _native
from ._base import Measure
from ._gains import batch_gains, discounted, gain_pairs, log2_rank1, running
from ._params import PairParams


def _rndcg(b, p) -> np.ndarray:
    bg = batch_gains(b, gain_pairs(p, b.ctx.v10))
    n, w = bg.ret.shape
    m = bg.ideal_len
    kernels = _native.extension("kernels")
    if kernels is not None:
        # the same running sums, points and terms in one walk of each ranking (_kernels.c)
        out = np.empty(n)
        kernels.rndcg(np.ascontiguousarray(bg.ret), w, np.ascontiguousarray(bg.ideal), bg.ideal.shape[1],
                      np.ascontiguousarray(m, dtype=np.int64), b.num_ret, b.num_rel,
                      log2_rank1(max(w, bg.ideal.shape[1])), out)
        return out
    width = max(w, bg.ideal.shape[1]) + 1
    # dcg / ideal dcg *before* rank j+1, for j = 0 .. width-1
    dcg = np.zeros((n, width))
    dcg[:, 1 : w + 1] = running(np.where(bg.ret != 0.0, discounted(bg.ret), 0.0))
    dcg[:, w + 1 :] = dcg[:, w : w + 1]
    ideal = np.zeros((n, width))
    iw = bg.ideal.shape[1]
    ideal[:, 1 : iw + 1] = running(discounted(bg.ideal))
    ideal[:, iw + 1 :] = ideal[:, iw : iw + 1]
    # the ideal gain at each position, 0 from the ideal end on; a point is
    # measured where it changes, up to and including the end (position m)
    gain = np.zeros((n, width))
    gain[:, :iw] = bg.ideal
    pos = np.arange(width)[None, :]
    change = np.zeros((n, width), dtype=bool)
    change[:, 1:] = gain[:, 1:] != gain[:, :-1]
    point = change & (pos >= 1) & (pos <= m[:, None]) & (ideal > 0.0)
    terms = np.where(point, dcg / np.where(point, ideal, 1.0), 0.0)
    total = b.seq_sum(terms)
    count = np.count_nonzero(point, axis=1)
    # the ranking goes on past the ideal end: one more point at its end
    tail = (m >= 1) & (m + 1 < b.num_ret)
    last_ideal = ideal[:, -1]
    total = np.where(tail, total + dcg[:, -1] / np.where(tail, last_ideal, 1.0), total)
    count = count + tail
    out = total / count
    return np.where(b.num_rel > 0, out, 0.0)


RNDCG = Measure(
    name="Rndcg",
    formula=(
        r"\mathrm{Rndcg} = \frac{1}{|B|} \sum_{b \in B} \frac{\mathrm{DCG}(\min(b, "
        r"n))}{\mathrm{IDCG}(\min(b, R^+))}, \qquad B = \{\, b \le R^+ : g^*_{b+1} \ne g^*_b \,\} \cup "
        r"\{\, n : n > R^+ + 1 \,\}\quad (g^*_{R^+ + 1} = 0;\ 0 \text{ if } R = 0)"
    ),
    help=(
        "nDCG averaged at the ideal ranking's R levels (experimental): at each rank "
        "where the ideal gain changes and at the ideal ranking's end (plus the end of a "
        "longer ranking). Gains as for ndcg (-m Rndcg.1=3,2=9). 0 without relevant "
        "documents."
    ),
    kernel=_rndcg,
    params=PairParams(),
    nicknames=frozenset({"all_trec"}),
)
