"""set_relative_P: relevant retrieved / min(retrieved, R)."""
from support.judged_topics import random_topics
from support.set_reference import compute, counts


def test_hand_worked():
    # 5 retrieved, R = 3, 2 relevant retrieved -> 2 / 3
    assert compute("set_relative_P", [[1, 0, -1, 2, -2]], [[1, 0, 2, -1, 1]]) == [2 / 3]
    # 2 retrieved, R = 4, 1 relevant retrieved -> 1 / 2
    assert compute("set_relative_P", [[1, 0]], [[1, 0, 1, 1, 1]]) == [0.5]


def test_zero_cases():
    assert compute("set_relative_P", [[], [0, -1]], [[1], [0]]) == [0.0, 0.0]


def test_matches_reference():
    rels, judged = random_topics(4, 300)
    want = []
    for c, j in zip(rels, judged):
        ret, R, rr = counts(c, j)
        want.append(rr / min(ret, R) if ret and R else 0.0)
    assert compute("set_relative_P", rels, judged) == want
