"""Relative precision at fixed cutoffs (trec_eval ``relative_P``).

``relative_P_k`` is the number of relevant documents in the top ``k`` divided
by the most that could be there, ``min(k, R)``: precision while ``k <= R`` and
recall beyond. Short rankings count as padded with non-relevant documents.
Topics without relevant documents score 0. Default cutoffs 5, 10, 15, 20, 30,
100, 200, 500, 1000. Source: trec_eval ``m_rel_P.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._params import IntCutoffs

DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def _relative_p(b, p):
    return np.stack(
        [safe_div(b.cum_rel_at(k), np.minimum(k, b.num_rel)) for k in p.values], axis=1
    )


relative_P = Measure(
    name="relative_P",
    formula=r"\mathrm{relative\_P}_k = \frac{\mathrm{rel}(k)}{\min(k,\ R)}\quad (0 \text{ if } R = 0)",
    help=(
        "Relative precision at cutoffs: relevant documents in the top k divided by "
        "min(k, R), the best possible; equals P_k up to R and recall after. 0 for topics "
        "without relevant documents. Cutoffs: -m relative_P.5,10"
    ),
    kernel=_relative_p,
    params=IntCutoffs(DEFAULT_CUTOFFS),
    nicknames=frozenset({"all_trec"}),
)
