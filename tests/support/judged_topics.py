"""Random topics with consistent rankings and qrels, for reference comparisons.

A topic is a list of qrels levels (negative = pooled but not judged) and a
ranking that mixes some of those documents with documents outside the qrels,
given as the relevance codes the join stage produces (level, -1 not in the
qrels, -2 in the qrels with a negative level).
"""
from __future__ import annotations

import random

NONPOOL = -1
UNJUDGED = -2


def random_topic(rng: random.Random, max_judged: int = 12, max_extra: int = 6, levels=(-1, 0, 0, 1, 2, 3)):
    """(codes, judged): one topic's ranking codes and its qrels levels."""
    judged = [rng.choice(levels) for _ in range(rng.randint(0, max_judged))]
    picked = [i for i in range(len(judged)) if rng.random() < 0.6]
    codes = [UNJUDGED if judged[i] < 0 else judged[i] for i in picked]
    codes += [NONPOOL] * rng.randint(0, max_extra)
    rng.shuffle(codes)
    return codes, judged


def random_topics(seed: int, n: int, **kw):
    rng = random.Random(seed)
    topics = [random_topic(rng, **kw) for _ in range(n)]
    return [t[0] for t in topics], [t[1] for t in topics]
