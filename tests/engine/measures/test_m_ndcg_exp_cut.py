"""ndcg_exp_cut: a hand-worked value and agreement with a gdeval.pl-style loop."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from support.extra_reference import batches, close, one, ref_ndcg_exp, run_measure

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.measures import registry


def test_hand_worked():
    # ranking grades 3, 2, 0, 1; judgments 3, 2, 1, 1, 0
    dcg = 7 + 3 / math.log2(3) + 0 + 1 / math.log2(5)
    ideal = 7 + 3 / math.log2(3) + 1 / 2 + 1 / math.log2(5)
    assert close(one("ndcg_exp_cut", [3, 2, 0, 1], [3, 2, 1, 1, 0], None, "4"), dcg / ideal)
    # at 2 the ranking is ideal
    assert close(one("ndcg_exp_cut", [3, 2, 0, 1], [3, 2, 1, 1, 0], None, "2"), 1.0)


def test_exponential_gain_and_levels():
    # a grade-2 document first and a grade-1 second, versus the swap
    good = one("ndcg_exp_cut", [2, 1], [2, 1], None, "2")
    bad = one("ndcg_exp_cut", [1, 2], [2, 1], None, "2")
    assert close(good, 1.0)
    assert close(bad, (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3)))
    assert one("ndcg_exp_cut", [1, 0], [1, 2], EvalContext(relevance_level=2)) == one("ndcg_exp_cut", [1, 0], [1, 2])


def test_outputs_and_edges():
    m = registry()["ndcg_exp_cut"]
    assert m.output_names(m.params.parse("ndcg_exp_cut", None)) == ["ndcg_exp_cut_10", "ndcg_exp_cut_20"]
    assert one("ndcg_exp_cut", [], [2]) == 0.0
    assert one("ndcg_exp_cut", [0, -1], [0, 0]) == 0.0  # no positive grades


@settings(max_examples=300, deadline=None)
@given(batches(), st.lists(st.integers(1, 25), min_size=1, max_size=3, unique=True))
def test_matches_reference(case, cutoffs):
    tops, ctx = case
    cutoffs = sorted(cutoffs)
    v = run_measure("ndcg_exp_cut", tops, ctx, ",".join(map(str, cutoffs)))
    for i, (codes, judged) in enumerate(tops):
        for j, k in enumerate(cutoffs):
            assert close(v[i, j], ref_ndcg_exp(codes, judged, ctx, k))
