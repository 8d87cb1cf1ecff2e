"""set_recall: relevant retrieved / R."""
from support.judged_topics import random_topics
from support.set_reference import compute, counts


def test_hand_worked():
    assert compute("set_recall", [[1, 0, -1, 2, -2]], [[1, 0, 2, -1, 1]]) == [2 / 3]


def test_unjudged_level_is_not_relevant():
    # the -1 qrels entry is pooled but unjudged: not part of R
    assert compute("set_recall", [[1]], [[1, -1]]) == [1.0]


def test_zero_cases():
    assert compute("set_recall", [[], [0, -1]], [[1], [0]]) == [0.0, 0.0]


def test_matches_reference():
    rels, judged = random_topics(5, 300)
    want = []
    for c, j in zip(rels, judged):
        _, R, rr = counts(c, j)
        want.append(rr / R if R else 0.0)
    assert compute("set_recall", rels, judged) == want
