"""recip_rank: one over the rank of the first relevant document."""
import pytest
from support.ranked_reference import random_topics, run


def reference(codes, level=1):
    for i, c in enumerate(codes):
        if c >= level:
            return 1.0 / (i + 1)
    return 0.0


def test_hand_worked():
    out = run("recip_rank", [[0, -1, 1, 1], [0, 0], []], [[1, 1, 0], [0, 0], [1]])[:, 0]
    assert list(out) == [1 / 3, 0.0, 0.0]


def test_level():
    assert run("recip_rank", [[1, 2]], [[1, 2]], relevance_level=2)[0, 0] == 0.5


@pytest.mark.parametrize("level", [1, 3])
def test_matches_reference(level):
    rels, judged = random_topics(41, 400)
    got = run("recip_rank", rels, judged, relevance_level=level)[:, 0]
    assert list(got) == [reference(c, level) for c in rels]
