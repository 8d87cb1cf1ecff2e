"""Slow per-topic counts for the set measures' reference implementations."""
from support.gain_helpers import column as compute  # noqa: F401 (the set measures' tests run their measure with it)


def counts(codes, judged, level=1):
    """(retrieved, relevant in qrels, relevant retrieved) as trec_eval counts them."""
    floor = max(level, 0)
    return len(codes), sum(1 for j in judged if j >= floor), sum(1 for c in codes if c >= floor)
