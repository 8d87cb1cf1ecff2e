"""Mean average precision (trec_eval ``map``).

For one topic, average precision is the sum, over the relevant documents
retrieved, of the precision at the rank of each, divided by the number of
relevant documents in the judgments (so unretrieved relevant documents count
as precision 0). A topic with no relevant documents scores 0. The summary is
the arithmetic mean over topics.

Source: trec_eval ``m_map.c``; Buckley and Voorhees, "Retrieval System
Evaluation", in TREC: Experiment and Evaluation in IR (2005).
"""
from __future__ import annotations

import numpy as np

from ... import _native
from ._base import Measure


def average_precision(b) -> np.ndarray:
    """Per-topic average precision, summed in rank order as trec_eval does.

    As in trec_eval, the sum is divided by the relevant count whenever some
    document passed the rank-by-rank test; with a negative ``-l`` that can be an
    unjudged document of a topic without relevant judgments (10.0's ``-c``
    placeholder), and then the value is ``inf`` as there."""
    kernels = _native.extension("kernels")
    if kernels is not None:
        # the same precisions summed in one walk of each ranking (_kernels.c)
        sums, found = np.empty(b.n), np.empty(b.n, dtype=bool)
        kernels.ap_sums(b.rel, b.width, b.num_ret, b.level, sums, found)
        out = np.zeros(b.n)
        np.divide(sums, b.num_rel.astype(np.float64), out=out, where=found)
        return out
    terms = np.where(b.is_rel, b.prec_at_rank, 0.0)
    out = np.zeros(b.n)
    np.divide(b.seq_sum(terms), b.num_rel.astype(np.float64), out=out, where=b.is_rel.any(axis=1))
    return out


MAP = Measure(
    name="map",
    formula=(
        r"\mathrm{AP} = \frac{1}{R} \sum_{i=1}^{n} \mathrm{rel}_i \, \frac{\mathrm{rel}(i)}{i}\quad (0 "
        r"\text{ if } R = 0), \qquad \mathrm{map} = \frac{1}{|Q|} \sum_{q \in Q} \mathrm{AP}_q"
    ),
    help=(
        "Mean average precision: per topic, the mean over all relevant documents of the "
        "precision at the rank where each was retrieved (0 for those not retrieved). "
        "Topics without relevant documents score 0."
    ),
    kernel=lambda b, p: b.memo(average_precision),
    nicknames=frozenset({"official", "all_trec"}),
)
