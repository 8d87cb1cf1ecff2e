"""Rndcg: hand-worked cases and the rank-by-rank reference."""
import math

import pytest
from support import gain_reference as ref
from support.gain_helpers import column
from support.judged_topics import random_topics

L2, L3, L4, L5 = (math.log2(k) for k in (2, 3, 4, 5))


def test_hand_worked():
    # qrels: levels 2, 1, 1, 0 -> ideal gains 2, 1, 1; R levels after rank 1 and rank 3
    codes, judged = [1, 2, 0, -1, 0, 1], [2, 1, 1, 0]
    d = [0.0, 1 / L2, 1 / L2 + 2 / L3, 1 / L2 + 2 / L3]
    i = [0.0, 2 / L2, 2 / L2 + 1 / L3, 2 / L2 + 1 / L3 + 1 / L4]
    d_end = d[3] + 1 / math.log2(7)
    # points: before rank 2, before rank 4 (ideal end), and the end of the longer ranking
    want = (d[1] / i[1] + d[3] / i[3] + d_end / i[3]) / 3
    assert column("Rndcg", [codes], [judged]) == [want]


def test_equal_gains_are_one_level():
    # levels 1 and 2 both gain 2: no boundary between them
    codes, judged = [2, 1], [2, 1]
    assert column("Rndcg", [codes], [judged], "1=2") == [1.0]


def test_no_relevant_and_empty():
    assert column("Rndcg", [[0], []], [[0], [1, 1]]) == [0.0, 0.0]


def test_all_gains_zero_divides_zero_by_zero():
    assert math.isnan(column("Rndcg", [[1]], [[1, 0]], "1=0")[0])


@pytest.mark.parametrize("params", [None, "1=3,2=3", "3=1,1=4", "0=1"])
def test_matches_reference(params):
    rels, judged = random_topics(51, 300)
    prs = [] if params is None else [(int(k), float(v)) for k, v in (x.split("=") for x in params.split(","))]
    got = column("Rndcg", rels, judged, params)
    want = [ref.rndcg(c, j, prs) for c, j in zip(rels, judged)]
    assert [("nan" if math.isnan(x) else x) for x in got] == [("nan" if math.isnan(x) else x) for x in want]
