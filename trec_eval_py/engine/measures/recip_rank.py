"""Reciprocal rank (trec_eval ``recip_rank``).

One over the rank of the first relevant document retrieved; 0 when none is.
Its mean over topics is the mean reciprocal rank (MRR), suited to tasks where
one relevant document is all the user wants. Source: trec_eval
``m_recip_rank.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure


def _recip_rank(b, p):
    found = b.is_rel.any(axis=1)  # the rank-by-rank test, as trec_eval's loop
    first = np.argmax(b.is_rel, axis=1)
    out = np.zeros(b.n, dtype=np.float64)
    np.divide(1.0, (first + 1).astype(np.float64), out=out, where=found)
    return out


recip_rank = Measure(
    name="recip_rank",
    formula=(
        r"\mathrm{recip\_rank} = \frac{1}{\min\{\, i : \mathrm{rel}_i = 1 \,\}}\quad (0 \text{ if no "
        r"relevant document is retrieved})"
    ),
    help=(
        "Reciprocal rank of the first relevant document retrieved (0 if none); averaged, "
        "this is MRR."
    ),
    kernel=_recip_rank,
    nicknames=frozenset({"official", "all_trec"}),
)
