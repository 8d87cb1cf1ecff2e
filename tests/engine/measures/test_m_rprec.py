"""Rprec: precision after R documents."""
import pytest
from support.ranked_reference import num_rel, random_topics, rel_in_top, run


def reference(codes, qrels, level=1):
    r = num_rel(qrels, level)
    look = min(len(codes), r)
    return rel_in_top(codes, look, level) / r if look else 0.0


def test_hand_worked():
    # R = 3: top 3 hold 2 relevant
    assert run("Rprec", [[1, 0, 2, 1]], [[1, 2, 1, 0]])[0, 0] == 2 / 3


def test_short_ranking_still_divides_by_R():
    assert run("Rprec", [[1]], [[1, 1, 1, 1]])[0, 0] == 1 / 4


def test_nothing_retrieved_or_no_relevant():
    assert list(run("Rprec", [[], [0, 0]], [[1], [0]])[:, 0]) == [0.0, 0.0]


@pytest.mark.parametrize("level", [0, 1, 2])
def test_matches_reference(level):
    rels, judged = random_topics(31, 400)
    got = run("Rprec", rels, judged, relevance_level=level)[:, 0]
    assert list(got) == [reference(c, q, level) for c, q in zip(rels, judged)]
