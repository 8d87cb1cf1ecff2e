"""binG: hand-worked cases and the rank-by-rank reference."""
import math

import pytest
from support import gain_reference as ref
from support.gain_helpers import column
from support.judged_topics import random_topics


def test_hand_worked():
    # relevant at ranks 1, 3, 6 with 0, 1, 3 non-relevant (or unjudged) docs above
    codes = [1, 0, 2, -1, 0, 1]
    judged = [1, 2, 1, 1, 0, 0]  # 4 relevant
    want = (1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(5)) / 4
    assert column("binG", [codes], [judged]) == [want]


def test_relevance_level():
    codes, judged = [1, 2], [1, 2]
    assert column("binG", [codes], [judged], relevance_level=2) == [1 / math.log2(3) / 1]


def test_nothing_relevant_retrieved_and_empty():
    assert column("binG", [[0, -1], [], [0]], [[1, 0], [1], [0]]) == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_matches_reference(level):
    rels, judged = random_topics(20 + level, 300)
    got = column("binG", rels, judged, relevance_level=level)
    assert got == [ref.bing(c, j, level) for c, j in zip(rels, judged)]
