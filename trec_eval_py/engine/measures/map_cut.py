"""Average precision cut off at fixed ranks (trec_eval ``map_cut``).

``map_cut_k`` is average precision (see :mod:`.map`) counting only the
relevant documents in the top ``k``: the precisions at their ranks are added
in rank order and divided by the topic's total relevant count R (not by the
number found above ``k``). Topics without relevant documents score 0.
Default cutoffs 5, 10, 15, 20, 30, 100, 200, 500, 1000. Source: trec_eval
``m_map_cut.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._params import IntCutoffs

DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def _map_cut(b, p):
    terms = np.where(b.is_rel, b.prec_at_rank, 0.0)
    # running sums along the row are exactly the left-to-right partial sums
    partial = np.cumsum(terms, axis=1)
    return np.stack(
        [safe_div(partial[:, min(k, b.width) - 1], b.num_rel) for k in p.values], axis=1
    )


map_cut = Measure(
    name="map_cut",
    formula=(
        r"\mathrm{map\_cut}_k = \frac{1}{R} \sum_{i=1}^{\min(k, n)} \mathrm{rel}_i \, "
        r"\frac{\mathrm{rel}(i)}{i}\quad (0 \text{ if } R = 0)"
    ),
    help=(
        "Average precision at cutoffs: the precisions at the ranks of the relevant "
        "documents in the top k, summed and divided by the topic's number of relevant "
        "documents. Cutoffs: -m map_cut.10,100"
    ),
    kernel=_map_cut,
    params=IntCutoffs(DEFAULT_CUTOFFS),
    nicknames=frozenset({"all_trec"}),
)
