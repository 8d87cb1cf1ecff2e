"""set_map: rel_ret^2 / (retrieved * R)."""
from support.judged_topics import random_topics
from support.set_reference import compute, counts


def test_hand_worked():
    # 5 retrieved, R = 3, 2 relevant retrieved -> 4 / 15 (= set_P * set_recall)
    assert compute("set_map", [[1, 0, -1, 2, -2]], [[1, 0, 2, -1, 1]]) == [4 / 15]


def test_zero_cases():
    assert compute("set_map", [[], [0, -1]], [[1], [0]]) == [0.0, 0.0]


def test_matches_reference():
    rels, judged = random_topics(6, 300)
    want = []
    for c, j in zip(rels, judged):
        ret, R, rr = counts(c, j)
        want.append((float(rr) * float(rr)) / (float(ret) * float(R)) if ret and R else 0.0)
    assert compute("set_map", rels, judged) == want
