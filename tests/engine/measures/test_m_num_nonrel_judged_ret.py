"""num_nonrel_judged_ret: retrieved documents judged below the relevance level."""
from support.ranked_reference import random_topics, run

from trec_eval_py.engine.measures import Agg, Kind, registry


def test_hand_worked():
    # judged 0 and 1 (level 2 relevant), unpooled, unjudged, relevant
    out = run("num_nonrel_judged_ret", [[0, 1, -1, -2, 2]], [[0, 1, 2, -1]], relevance_level=2)
    assert out[0, 0] == 2


def test_matches_reference():
    rels, judged = random_topics(91, 300)
    got = run("num_nonrel_judged_ret", rels, judged)[:, 0]
    assert list(got) == [sum(1 for x in c if 0 <= x < 1) for c in rels]


def test_is_a_summed_count():
    m = registry()["num_nonrel_judged_ret"]
    assert m.kind is Kind.INT and m.aggregate is Agg.SUM
