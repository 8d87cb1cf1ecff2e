"""yaap: log((1 + S) / (1 + R - S)), S the sum of precisions at relevant docs."""
import math

import pytest
from support.judged_topics import random_topics
from support.set_reference import compute


def reference(codes, judged, level):
    R = sum(1 for j in judged if j >= max(level, 0))
    s, found = 0.0, 0
    for k, c in enumerate(codes):
        if c >= level:
            found += 1
            s += found / (k + 1)
    return math.log((1.0 + s) / (1.0 + R - s))


def test_hand_worked():
    # relevant at ranks 1 and 3 of R = 3: S = 1 + 2/3
    s = 1.0 + 2 / 3
    assert compute("yaap", [[1, 0, 1]], [[1, 0, 1, 1]]) == [math.log((1 + s) / (1 + 3 - s))]


def test_perfect_and_none():
    assert compute("yaap", [[1, 1]], [[1, 1]]) == [math.log(3.0)]
    assert compute("yaap", [[0, -1]], [[0, 1]]) == [math.log(1 / 2)]
    assert compute("yaap", [[0]], [[0]]) == [0.0]


def test_empty_ranking():
    # an empty ranking: log(1 / (1 + R)) (-c's topics: see tests/engine/join/test_complete.py)
    assert compute("yaap", [[1], []], [[1], [1, 1]])[1] == math.log(1 / 3)



@pytest.mark.parametrize("level,compat", [(1, "9.0.8"), (2, "10.0"), (0, "10.0")])
def test_matches_reference(level, compat):
    rels, judged = random_topics(9 + level, 300)
    got = compute("yaap", rels, judged, relevance_level=level, compat=compat)
    assert got == [reference(c, j, level) for c, j in zip(rels, judged)]
