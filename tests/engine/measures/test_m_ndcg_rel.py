"""ndcg_rel: hand-worked cases and the rank-by-rank reference."""
import math

import pytest
from support import gain_reference as ref
from support.gain_helpers import column
from support.judged_topics import random_topics

L2, L3, L4 = math.log2(2), math.log2(3), math.log2(4)


def test_hand_worked():
    # qrels levels 2, 1, 1; ranking: level 1, not judged, level 2
    codes, judged = [1, -1, 2], [2, 1, 1]
    i1, i3 = 2 / L2, 2 / L2 + 1 / L3 + 1 / L4  # ideal dcg through ranks 1 and 3
    d1, d3 = 1 / L2, 1 / L2 + 2 / L4
    # nDCG at rank 1 and rank 3, plus one relevant doc never retrieved (nDCG at the end)
    want = (d1 / i1 + d3 / i3 + 1 * d3 / i3) / 3
    assert column("ndcg_rel", [codes], [judged]) == [want]


def test_zero_and_empty():
    assert column("ndcg_rel", [[], [0, -1], [1]], [[1], [1, 0], [0]]) == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("params", [None, "1=3,2=9", "0=1", "2=0"])
def test_matches_reference(params):
    rels, judged = random_topics(41, 300)
    prs = [] if params is None else [(int(k), float(v)) for k, v in (x.split("=") for x in params.split(","))]
    got = column("ndcg_rel", rels, judged, params)
    assert got == [ref.ndcg_rel(c, j, prs) for c, j in zip(rels, judged)]
