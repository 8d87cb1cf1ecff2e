"""relative_P: relevant in the top k over min(k, R)."""
from support.ranked_reference import num_rel, random_topics, rel_in_top, run


def test_hand_worked():
    # R = 2: k = 1 -> 1/1, k = 3 -> 2/2, k = 4 -> 2/2
    out = run("relative_P", [[1, 0, 1, 0]], [[1, 1, 0]], "1,3,4")[0]
    assert list(out) == [1.0, 1.0, 1.0]
    out = run("relative_P", [[0, 1, 0]], [[1, 1, 1]], "1,2,5")[0]
    assert list(out) == [0.0, 1 / 2, 1 / 3]


def test_no_relevant_is_zero():
    assert list(run("relative_P", [[0]], [[0]], "1,5")[0]) == [0.0, 0.0]


def test_matches_reference():
    cuts = [1, 2, 3, 7, 12, 30]
    rels, judged = random_topics(61, 400)
    got = run("relative_P", rels, judged, ",".join(map(str, cuts)), relevance_level=2)
    for i, (c, q) in enumerate(zip(rels, judged)):
        r = num_rel(q, 2)
        assert list(got[i]) == [rel_in_top(c, k, 2) / min(k, r) if r else 0.0 for k in cuts]
