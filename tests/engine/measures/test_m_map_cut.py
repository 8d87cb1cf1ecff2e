"""map_cut: average precision counting only the top k, over R."""
from support.ranked_reference import average_precision, random_topics, run


def test_hand_worked():
    # R = 3, relevant at ranks 1 and 3
    out = run("map_cut", [[1, 0, 1]], [[1, 1, 1]], "1,2,3,10")[0]
    assert list(out) == [1 / 3, 1 / 3, (1 + 2 / 3) / 3, (1 + 2 / 3) / 3]


def test_no_relevant_is_zero():
    assert list(run("map_cut", [[0]], [[0]], "5")[0]) == [0.0]


def test_matches_reference():
    cuts = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
    rels, judged = random_topics(81, 400, max_len=60)
    got = run("map_cut", rels, judged)
    for i, (c, q) in enumerate(zip(rels, judged)):
        assert list(got[i]) == [average_precision(c, q, cut=k) for k in cuts]
