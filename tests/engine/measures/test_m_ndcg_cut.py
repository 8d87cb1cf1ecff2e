"""ndcg_cut: hand-worked cases and the rank-by-rank reference."""
import math

import pytest
from support import gain_reference as ref
from support.gain_helpers import compute
from support.judged_topics import random_topics


def test_hand_worked():
    codes, judged = [0, 2, 1], [2, 1, 1, 0]
    d = [0.0, 2 / math.log2(3), 2 / math.log2(3) + 1 / math.log2(4)]
    i = [2.0, 2 + 1 / math.log2(3), 2 + 1 / math.log2(3) + 1 / math.log2(4)]
    got = compute("ndcg_cut", [codes], [judged], "1,2,5")[0].tolist()
    assert got == [d[0] / i[0], d[1] / i[1], d[2] / i[2]]


def test_gain_is_the_level_whatever_l_is():
    got = compute("ndcg_cut", [[1, 2]], [[2, 1]], "2", relevance_level=2)[0].tolist()
    assert got == [(1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))]


def test_default_cutoffs_and_empty():
    out = compute("ndcg_cut", [[], [0]], [[1], [0]])
    assert out.shape == (2, 9) and out.tolist() == [[0.0] * 9, [0.0] * 9]


@pytest.mark.parametrize("cuts", ["1,3,5", "2,10,100"])
def test_matches_reference(cuts):
    rels, judged = random_topics(61, 300, max_judged=20, max_extra=10)
    ks = [int(x) for x in cuts.split(",")]
    got = compute("ndcg_cut", rels, judged, cuts).tolist()
    assert got == [[ref.ndcg_cut(c, j, k) for k in ks] for c, j in zip(rels, judged)]
