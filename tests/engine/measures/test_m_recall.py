"""recall: relevant in the top k over R."""
from support.ranked_reference import num_rel, random_topics, rel_in_top, run

CUTS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]


def test_hand_worked():
    out = run("recall", [[1, 0, 1, 0]], [[1, 1, 1, 1, 0]], "1,2,3,50")[0]
    assert list(out) == [1 / 4, 1 / 4, 2 / 4, 2 / 4]


def test_no_relevant_is_zero():
    assert list(run("recall", [[0, 0]], [[0]], "1,2")[0]) == [0.0, 0.0]


def test_matches_reference():
    rels, judged = random_topics(51, 400, max_len=40)
    got = run("recall", rels, judged)
    for i, (c, q) in enumerate(zip(rels, judged)):
        r = num_rel(q)
        assert list(got[i]) == [rel_in_top(c, k) / r if r else 0.0 for k in CUTS]
