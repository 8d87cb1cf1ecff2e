"""ndcg_gain_cut: ndcg_cut with a gain per level, against ndcg_cut on relabelled judgments."""
import math

import pytest
from support.gain_helpers import column, compute
from support.judged_topics import random_topics

from trec_eval_py.engine.measures import registry
from trec_eval_py.errors import MeasureError


def test_hand_worked():
    # ranking: levels 2, 0, unjudged, 1; judged 2, 1, 0. Gains 1 -> 3, 2 -> 1
    codes, judged = [2, 0, -1, 1], [2, 1, 0]
    dcg = 1.0 + 0.0 + 0.0 + 3.0 / math.log2(5)
    ideal = 3.0 + 1.0 / math.log2(3)
    assert column("ndcg_gain_cut", [codes], [judged], "4,1=3,2=1") == [dcg / ideal]
    # level 0 given a gain: judged non-relevant documents count, unjudged ones still do not
    got = column("ndcg_gain_cut", [[0, -1, -2]], [[0, -1]], "3,0=2")
    assert got == [1.0]


def _relabel(rels, judged, gains):
    """The judgments with each level replaced by its gain (ir_measures' route)."""
    def one(level):
        return gains.get(level, level) if level >= 0 else level
    return [[one(c) for c in r] for r in rels], [[one(j) for j in js] for js in judged]


@pytest.mark.parametrize("gains", [{}, {1: 3, 2: 1}, {0: 1, 3: 0}, {1: 0, 2: 9, 3: 4}, {2: -3}])
def test_is_ndcg_cut_on_relabelled_judgments(gains):
    rels, judged = random_topics(91, 300)
    pairs = ",".join(f"{k}={v}" for k, v in gains.items())
    text = "1,3,5,10,20" + ("," + pairs if pairs else "")
    got = compute("ndcg_gain_cut", rels, judged, text)
    # negative gains: ndcg_cut reads a negative level as unjudged, which gains nothing either
    rels2, judged2 = _relabel(rels, judged, gains)
    rels2 = [[c if c >= 0 else -2 for c in r] for r in rels2]
    want = compute("ndcg_cut", rels2, judged2, "1,3,5,10,20")
    assert got.tolist() == want.tolist()


def test_without_gains_it_is_ndcg_cut():
    rels, judged = random_topics(92, 200)
    assert compute("ndcg_gain_cut", rels, judged).tolist() == compute("ndcg_cut", rels, judged).tolist()


def test_params_and_names():
    m = registry()["ndcg_gain_cut"]
    p = m.params.parse("ndcg_gain_cut", "20,5,1=3,2=1.5")
    assert p.values == ((5, 20), ((1, 3.0), (2, 1.5)))
    assert m.output_names(p) == ["ndcg_gain_cut_5", "ndcg_gain_cut_20"]
    assert m.output_names(m.params.parse("ndcg_gain_cut", "2=4"))[0] == "ndcg_gain_cut_5"
    for bad in ("10,-1=3", "10,x=3", "10,1=y", "0", "5,5"):
        with pytest.raises(MeasureError):
            m.params.parse("ndcg_gain_cut", bad)
    assert m.since == "extra" and "extra" in m.nicknames
