"""ndcg, dcg and ideal_dcg: hand-worked cases and the rank-by-rank reference."""
import math

import pytest
from support import gain_reference as ref
from support.gain_helpers import column
from support.judged_topics import random_topics

from trec_eval_py.engine.measures import registry

L2, L3, L4, L5 = math.log2(2), math.log2(3), math.log2(4), math.log2(5)


def test_hand_worked_default_gains():
    # qrels levels 2, 1, 0, 0; ranking: level 1, level 0, level 2, not in qrels
    codes, judged = [1, 0, 2, -1], [2, 1, 0, 0]
    dcg = 1 / L2 + 2 / L4
    ideal = 2 / L2 + 1 / L3
    assert column("dcg", [codes], [judged]) == [dcg]
    assert column("ideal_dcg", [codes], [judged]) == [ideal]
    assert column("ndcg", [codes], [judged]) == [dcg / ideal]


def test_gain_overrides_levels_not_listed_keep_their_value():
    # 1=3, 4=4.5 given; level 2 keeps 2, level 3 keeps 3
    codes, judged = [2, 1, 3, 0], [3, 2, 1, 0]
    dcg = 2 / L2 + 3 / L3 + 3 / L4
    ideal = 3 / L2 + 3 / L3 + 2 / L4  # levels 3 and 1 (both gain 3) then level 2
    got = column("ndcg", [codes], [judged], "1=3,4=4.5")
    assert got == [dcg / ideal]


def test_level_zero_and_negative_gains():
    codes, judged = [0, 1, 0], [1, 0, 0]
    # level 0 gains -1: two such docs lower dcg; the ideal uses positive gains only
    dcg = -1 / L2 + 1 / L3 - 1 / L4
    assert column("dcg", [codes], [judged], "0=-1") == [dcg]
    assert column("ideal_dcg", [codes], [judged], "0=-1") == [1.0]
    assert column("ndcg", [codes], [judged], "0=-1") == [dcg]
    # level 0 with a positive gain joins the ideal ranking after level 1
    assert column("ideal_dcg", [codes], [judged], "0=0.5") == [1 / L2 + 0.5 / L3 + 0.5 / L4]


def test_unjudged_docs_can_be_given_a_gain():
    # "-1" names documents missing from the qrels; they never enter the ideal ranking
    assert column("dcg", [[-1, 1]], [[1]], "-1=2") == [2 / L2 + 1 / L3]
    assert column("ideal_dcg", [[-1, 1]], [[1]], "-1=2") == [1.0]


def test_no_positive_gain_and_empty_ranking():
    assert column("ndcg", [[0, 0], [], [1]], [[0, 0], [2, 1], [1]], "1=0") == [0.0, 0.0, 0.0]
    assert column("ideal_dcg", [[]], [[2, 1]]) == [2 / L2 + 1 / L3]
    assert column("ndcg", [[]], [[2, 1]]) == [0.0]


def test_param_names_differ_between_versions():
    # "x" is level 0 for 9.0.8 (atol), ignored by 10.0
    codes, judged = [0, 1], [1, 0]
    assert column("dcg", [codes], [judged], "x=2", compat="9.0.8") == [2 / L2 + 1 / L3]
    assert column("dcg", [codes], [judged], "x=2", compat="10.0") == [1 / L3]


def test_output_names_and_nicknames():
    reg = registry()
    assert reg["ndcg"].output_names(reg["ndcg"].params.parse("ndcg", "1=3,2=9")) == ["ndcg_1=3,2=9"]
    assert reg["ndcg"].in_nickname("all_trec", "9.0.8")
    for name in ("dcg", "ideal_dcg"):
        assert reg[name].since == "10.0"
        assert not reg[name].in_nickname("all_trec", "10.0")


@pytest.mark.parametrize("params", [None, "1=3,2=9", "0=-1,1=2,2=5,3=10,12=1", "2=0,3=1", "3=-2,1=7"])
def test_matches_reference(params):
    rels, judged = random_topics(11, 300)
    prs = [] if params is None else [(int(k), float(v)) for k, v in (x.split("=") for x in params.split(","))]
    for name, fn in (("ndcg", ref.ndcg), ("dcg", lambda c, j, p: ref.dcg_ideal(c, j, p)[0]),
                     ("ideal_dcg", lambda c, j, p: ref.dcg_ideal(c, j, p)[1])):
        got = column(name, rels, judged, params)
        want = [fn(c, j, prs) for c, j in zip(rels, judged)]
        assert got == want, name


def test_long_rankings_match_reference():
    rels, judged = random_topics(4, 40, max_judged=400, max_extra=300)
    got = column("ndcg", rels, judged)
    assert got == [ref.ndcg(c, j) for c, j in zip(rels, judged)]
