"""Slow, plain-loop versions of the rank-based measures, for comparing with
the vectorised kernels, plus small helpers to run one measure on lists.

The loops walk a ranking the way the measures are defined (one document at a
time, sums added in rank order) so results can be compared exactly.
"""
from __future__ import annotations

import math
import random
from fractions import Fraction

from trec_eval_py.engine.join import EvalContext, TopicBatch
from trec_eval_py.engine.measures import registry

NONPOOL = -1
UNJUDGED = -2
#: 0.0/0.0 as x86 computes it: a NaN with the sign bit set
MINUS_NAN = -math.nan


def run(name, rels, judged, params=None, **ctx):
    """float/obj array (n, k): measure ``name`` on topics given as lists."""
    m = registry()[name]
    p = m.params.parse(name, params)
    b = TopicBatch.from_lists(rels, judged, EvalContext(**ctx))
    return m.compute(b, p)


def random_topics(seed: int, n: int, max_len: int = 25, levels=(0, 0, 0, 1, 1, 2, 3, 12)):
    """(rels, judged): n random topics; rankings mix judged, unjudged (-2) and
    unpooled (-1) documents; qrels also hold documents never retrieved."""
    rng = random.Random(seed)
    rels, judged = [], []
    for _ in range(n):
        ranked = []
        qrels = []
        for _ in range(rng.randint(0, max_len)):
            r = rng.random()
            if r < 0.15:
                ranked.append(NONPOOL)
            elif r < 0.25:
                ranked.append(UNJUDGED)
                qrels.append(-1)
            else:
                lv = rng.choice(levels)
                ranked.append(lv)
                qrels.append(lv)
        qrels += [rng.choice(levels) for _ in range(rng.randint(0, 8))]
        rels.append(ranked)
        judged.append(qrels)
    return rels, judged


def num_rel(qrels, level=1):
    """Relevant judgments: judged (level >= 0) and at least -l, as trec_eval counts them."""
    return sum(1 for q in qrels if q >= max(level, 0))


def num_rel_ret(codes, level=1):
    """Relevant documents retrieved as trec_eval's join counts them: judged ones only."""
    return sum(1 for c in codes if c >= max(level, 0))


def average_precision(codes, qrels, level=1, cut=None):
    found, total = 0, 0.0
    for i, c in enumerate(codes[:cut] if cut is not None else codes):
        if c >= level:
            found += 1
            total += found / (i + 1)
    r = num_rel(qrels, level)
    return total / r if found else 0.0


def rel_in_top(codes, k, level=1):
    return sum(1 for c in codes[:k] if c >= level)


def to_count(x: float, v10: bool) -> int:
    """A fraction of R as a document count: 9.0.8 truncates x + 0.9, 10.0 rounds
    half away from zero (worked out exactly with fractions)."""
    if not v10:
        return int(x + 0.9)
    f = Fraction(abs(x))
    n = math.floor(f)
    if f - n >= Fraction(1, 2):
        n += 1
    return n if x >= 0 else -n


def interpolation_walk(codes, qrels, fractions, level=1, v10=False):
    """(values, added): what trec_eval's bottom-up walk assigns each recall level,
    and the order in which it assigns them (the order 11pt_avg adds them)."""
    r = num_rel(qrels, level)
    counts = [to_count(f * r, v10) for f in fractions]
    ret = len(codes)
    nrr = num_rel_ret(codes, level)  # the walk starts from the judged count ...
    values = [0.0] * len(fractions)
    added = []
    j = len(counts) - 1
    while j >= 0 and counts[j] > nrr:
        j -= 1
    best = nrr / ret if ret else MINUS_NAN
    seen = nrr
    rank = ret
    while rank > 0 and seen > 0:
        best = max(best, seen / rank)
        if codes[rank - 1] >= level:  # ... and steps down on the rank-by-rank test
            while j >= 0 and counts[j] == seen:
                values[j] = best
                added.append(j)
                j -= 1
            seen -= 1
        rank -= 1
    while j >= 0:
        values[j] = best
        added.append(j)
        j -= 1
    return values, added


def same(a, b) -> bool:
    """Exact float equality, NaNs equal when their signs agree."""
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b) and math.copysign(1, a) == math.copysign(1, b)
    return a == b
