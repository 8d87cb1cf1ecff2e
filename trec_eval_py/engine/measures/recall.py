"""Recall at fixed cutoffs (trec_eval ``recall``).

``recall_k`` is the number of relevant documents in the top ``k`` divided by
the topic's number of relevant documents R. A ranking shorter than ``k``
counts as if padded with non-relevant documents. Topics without relevant
documents score 0. Default cutoffs 5, 10, 15, 20, 30, 100, 200, 500, 1000.
Source: trec_eval ``m_recall.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._params import IntCutoffs

DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def _recall(b, p):
    return np.stack([safe_div(b.cum_rel_at(k), b.num_rel) for k in p.values], axis=1)


recall = Measure(
    name="recall",
    formula=r"\mathrm{recall}_k = \frac{\mathrm{rel}(k)}{R}\quad (0 \text{ if } R = 0)",
    help=(
        "Recall at cutoffs: relevant documents in the top k divided by the topic's number "
        "of relevant documents (0 if it has none). Cutoffs: -m recall.5,10"
    ),
    kernel=_recall,
    params=IntCutoffs(DEFAULT_CUTOFFS),
    nicknames=frozenset({"all_trec"}),
)
