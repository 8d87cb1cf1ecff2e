"""Precision at fixed cutoffs (trec_eval ``P``).

``P_k`` is the number of relevant documents among the top ``k`` divided by
``k``, even when fewer than ``k`` documents were retrieved (the missing ranks
count as non-relevant). Default cutoffs 5, 10, 15, 20, 30, 100, 200, 500, 1000.

Source: trec_eval ``m_P.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._params import IntCutoffs

DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def _precision(b, p) -> np.ndarray:
    return np.stack([b.cum_rel_at(k) / float(k) for k in p.values], axis=1)


P = Measure(
    name="P",
    formula=r"\mathrm{P}_k = \frac{\mathrm{rel}(k)}{k}",
    help=(
        "Precision at cutoffs: relevant documents in the top k divided by k. Ranks past "
        "the end of a short ranking count as non-relevant. Cutoffs: -m P.5,10"
    ),
    kernel=_precision,
    params=IntCutoffs(DEFAULT_CUTOFFS),
    nicknames=frozenset({"official", "all_trec"}),
)
