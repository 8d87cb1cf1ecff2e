"""set_P: relevant retrieved / retrieved."""
from support.judged_topics import random_topics
from support.set_reference import compute, counts


def test_hand_worked():
    assert compute("set_P", [[1, 0, -1, 2, -2]], [[1, 0, 2, -1, 1]]) == [2 / 5]


def test_short_ranking_not_padded_and_empty():
    assert compute("set_P", [[1], []], [[1, 1], [1]]) == [1.0, 0.0]


def test_level():
    assert compute("set_P", [[1, 2, 0, 3]], [[1, 2, 0, 3]], relevance_level=2) == [0.5]


def test_matches_reference():
    rels, judged = random_topics(3, 300)
    want = []
    for c, j in zip(rels, judged):
        ret, _, rr = counts(c, j)
        want.append(rr / ret if ret else 0.0)
    assert compute("set_P", rels, judged) == want
