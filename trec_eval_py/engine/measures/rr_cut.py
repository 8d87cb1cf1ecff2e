"""Reciprocal rank within the top k (``rr_cut``), as in MS MARCO's MRR@10.

    rr_cut@k = 1 / (rank of the first relevant document)   if that rank <= k
             = 0                                             otherwise

A document is relevant at level ``-l`` or more. Averaged over topics this is
MRR@k. Default cutoff 10 (MS MARCO passage ranking).

Sources: E. M. Voorhees, "The TREC-8 question answering track report", 1999
(reciprocal rank); T. Nguyen et al., "MS MARCO: a human generated machine
reading comprehension dataset", 2016, and its evaluation script (MRR@10).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._params import IntCutoffs


def _rr_cut(b, p) -> np.ndarray:
    first = np.argmax(b.is_rel, axis=1)
    found = b.is_rel[np.arange(b.n), first]
    rank = first + 1
    cols = []
    for k in p.values:
        cols.append(np.where(found & (rank <= k), 1.0 / rank, 0.0))
    return np.stack(cols, axis=1)


rr_cut = Measure(
    name="rr_cut",
    formula=(
        r"\mathrm{rr\_cut}_k = \frac{[\, f \le k \,]}{f}, \qquad f = \min\{\, i : \mathrm{rel}_i = 1 "
        r"\,\}\quad (0 \text{ if there is none})"
    ),
    help=(
        "Reciprocal rank of the first relevant document if it is within the top k, "
        "else 0; the mean over topics is MRR@k (MS MARCO). Cutoffs: -m rr_cut.10 "
        "(default 10)."
    ),
    kernel=_rr_cut,
    params=IntCutoffs((10,)),
    nicknames=frozenset({"extra"}),
    since="extra",
)
