"""Mean average precision (trec_eval ``map``).

For one topic, average precision is the sum, over the relevant documents
retrieved, of the precision at the rank of each, divided by the number of
relevant documents in the judgments (so unretrieved relevant documents count
as precision 0). A topic with no relevant documents scores 0. The summary is
the arithmetic mean over topics.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div


def average_precision(b) -> np.ndarray:
    """Per-topic average precision, summed in rank order as trec_eval does."""
    terms = np.where(b.is_rel, b.prec_at_rank, 0.0)
    return safe_div(b.seq_sum(terms), b.num_rel)


MAP = Measure(
    name="map",
    help=(
        "Mean average precision: per topic, the mean over all relevant documents of the "
        "precision at the rank where each was retrieved (0 for those not retrieved). "
        "Topics without relevant documents score 0."
    ),
    kernel=lambda b, p: b.memo(average_precision),
    nicknames=frozenset({"official", "all_trec"}),
)
