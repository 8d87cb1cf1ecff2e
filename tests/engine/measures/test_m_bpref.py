"""bpref: hand-worked cases and a loop-by-loop reference on random topics."""
import pytest
from support.judged_topics import random_topics

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.join.batch import TopicBatch
from trec_eval_py.engine.measures import registry


def bpref(rels, judged, level=1, **ctx):
    b = TopicBatch.from_lists(rels, judged, EvalContext(relevance_level=level, **ctx))
    return registry()["bpref"].compute(b, registry()["bpref"].params.parse("bpref", None))[:, 0].tolist()


def reference(codes, judged, level):
    """Straight from the definition: judged docs only, nonrel above each rel capped at R."""
    R = sum(1 for j in judged if j >= 0 and j >= level)
    N = sum(1 for j in judged if 0 <= j < level)
    total, nonrel_seen = 0.0, 0
    for c in codes:
        if c < 0:
            continue  # not judged: skipped entirely
        if c < level:
            nonrel_seen += 1
        elif nonrel_seen == 0:
            total += 1.0
        else:
            total += 1.0 - min(nonrel_seen, R) / min(N, R)
    return total / R if R else 0.0


def test_hand_worked():
    # R = 4, N = 4; relevant at ranks 1, 4, 7 with 0, 1, 2 judged non-relevant above
    codes = [1, 0, -1, 1, -2, 0, 1]
    judged = [1, 0, 1, -1, 0, 1, 1, 0, 0]
    assert bpref([codes], [judged]) == [(1.0 + 0.75 + 0.5) / 4]


def test_cap_at_R():
    # R = 1, many non-relevant above: capped at min(N, R) = 1 -> 1 - 1/1 = 0
    assert bpref([[0, 0, 0, 1]], [[0, 0, 0, 1, 0]]) == [0.0]
    # N < R: the denominator is N
    assert bpref([[0, 1, 1]], [[0, 1, 1, 1]]) == [(0.0 + 0.0) / 3]


def test_unjudged_and_unpooled_are_ignored():
    assert bpref([[-1, -2, 1]], [[1, -1]]) == [1.0]


def test_no_relevant_and_empty():
    assert bpref([[0, 0], []], [[0, 0], [1, 0]]) == [0.0, 0.0]


def test_level_zero_makes_every_judged_doc_relevant():
    assert bpref([[0, 1, -1]], [[0, 1, 0]], level=0) == [2 / 3]


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_matches_reference(level):
    rels, judged = random_topics(7 + level, 300)
    got = bpref(rels, judged, level=level)
    want = [reference(c, j, level) for c, j in zip(rels, judged)]
    assert got == want
