"""G: hand-worked cases and the rank-by-rank reference."""
import math

import pytest

import gain_reference as ref
from gain_helpers import column
from judged_topics import random_topics


def test_hand_worked():
    # qrels: one level-2, one level-1 document; ranking: level 1, level 0, level 2
    codes, judged = [1, 0, 2], [2, 1, 0]
    # ideal gains 2, 1, then 0; cost per rank max(ideal, 1): 2, 1, 1
    # rank 1: g=1, gained 1, cost 2 -> 1/log2(2+2-1)
    # rank 3: g=2, gained 3, cost 4 -> 2/log2(2+4-3)
    want = (1 / math.log2(3) + 2 / math.log2(3)) / 3
    assert column("G", [codes], [judged]) == [want]


def test_gain_overrides():
    codes, judged = [2, 1], [2, 1]
    # gains: level 1 -> 3, level 2 -> 1; ideal 3 (level 1) then 1 (level 2)
    # rank 1: g=1, gained 1, cost 3 -> 1/log2(4); rank 2: g=3, gained 4, cost 4 -> 3/log2(2)
    want = (1 / math.log2(4) + 3 / math.log2(2)) / 4
    assert column("G", [codes], [judged], "1=3,2=1") == [want]


def test_no_positive_gain_and_empty():
    assert column("G", [[0], []], [[0], [1]]) == [0.0, 0.0]


@pytest.mark.parametrize("params", [None, "1=3,2=1", "0=2,3=0", "2=-1"])
def test_matches_reference(params):
    rels, judged = random_topics(31, 300)
    prs = [] if params is None else [(int(k), float(v)) for k, v in (x.split("=") for x in params.split(","))]
    got = column("G", rels, judged, params)
    assert got == [ref.g_measure(c, j, prs) for c, j in zip(rels, judged)]
