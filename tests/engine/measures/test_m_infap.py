"""infAP: hand-worked cases and a loop-by-loop reference on random topics."""
import pytest
from support.gain_helpers import column
from support.judged_topics import random_topics

EPS = 0.00001


def infap(rels, judged, level=1):
    return column("infAP", rels, judged, relevance_level=level)


def reference(codes, judged, level):
    R = sum(1 for j in judged if j >= 0 and j >= level)
    total = 0.0
    rel = nonrel = unjudged = 0
    for k, c in enumerate(codes):
        if c == -1:
            continue
        if c == -2:
            unjudged += 1
            continue
        if c < level:
            nonrel += 1
            continue
        if k == 0:
            total += 1.0
        else:
            pooled_above = rel + nonrel + unjudged
            total += 1.0 / (k + 1.0) + (k / (k + 1.0)) * (pooled_above / k) * ((rel + EPS) / (rel + nonrel + 2 * EPS))
        rel += 1
    return total / R if R else 0.0


def test_fully_judged_top_document():
    assert infap([[1]], [[1, 1]]) == [0.5]


def test_hand_worked():
    # rel at 0-based 0 and 4; above the second: 1 rel, 1 nonrel, 1 pooled-unjudged, 1 unpooled
    codes = [1, -1, 0, -2, 1]
    judged = [1, 0, -1, 1, 1]
    second = 1 / 5 + (4 / 5) * (3 / 4) * ((1 + EPS) / (2 + 2 * EPS))
    assert infap([codes], [judged]) == [(1.0 + second) / 3]
    assert abs(second - 0.5) < 1e-6  # sanity: about 1/5 + 3/5 * 1/2


def test_unjudged_counts_as_pooled():
    # an unjudged pooled doc above keeps precision high; an unpooled one lowers it
    pooled = infap([[-2, 1]], [[-1, 1]])[0]
    unpooled = infap([[-1, 1]], [[1]])[0]
    assert pooled > unpooled
    assert unpooled == 1 / 2 + (1 / 2) * (0 / 1) * (EPS / (2 * EPS))


def test_empty_and_no_relevant():
    assert infap([[], [0, -1]], [[1], [0]]) == [0.0, 0.0]


@pytest.mark.parametrize("level", [0, 1, 2])
def test_matches_reference(level):
    rels, judged = random_topics(40 + level, 300)
    assert infap(rels, judged, level) == [reference(c, j, level) for c, j in zip(rels, judged)]
