"""success: whether a relevant document is in the top k."""
from support.ranked_reference import random_topics, rel_in_top, run


def test_hand_worked():
    out = run("success", [[0, 0, 1], [], [0]], [[1], [1], [1]])
    assert [list(r) for r in out] == [[0.0, 1.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]


def test_cutoffs():
    assert list(run("success", [[0, 1]], [[1]], "2,1")[0]) == [0.0, 1.0]


def test_matches_reference():
    rels, judged = random_topics(71, 300)
    got = run("success", rels, judged)
    for i, c in enumerate(rels):
        assert list(got[i]) == [1.0 if rel_in_top(c, k) else 0.0 for k in (1, 5, 10)]
