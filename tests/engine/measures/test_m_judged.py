"""judged: hand-worked values and a reference loop."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from support.extra_reference import batches, one, ref_judged, run_measure

from trec_eval_py.engine.measures import registry


def test_hand_worked():
    # judged 0 and 2 count; not in the qrels (-1) and pooled-unjudged (-2) do not
    assert one("judged", [0, -1, 2, -2], [0, 2, -1], None, "4") == 0.5
    assert one("judged", [0, -1, 2, -2], [0, 2, -1], None, "1") == 1.0
    # a short ranking is measured over what it has
    assert one("judged", [1, -1], [1], None, "10") == 0.5


def test_outputs_and_edges():
    m = registry()["judged"]
    assert m.output_names(m.params.parse("judged", None)) == ["judged_10"]
    assert one("judged", [], [1]) == 0.0


@settings(max_examples=300, deadline=None)
@given(batches(), st.lists(st.integers(1, 25), min_size=1, max_size=3, unique=True))
def test_matches_reference(case, cutoffs):
    tops, ctx = case
    cutoffs = sorted(cutoffs)
    v = run_measure("judged", tops, ctx, ",".join(map(str, cutoffs)))
    for i, (codes, judged) in enumerate(tops):
        for j, k in enumerate(cutoffs):
            assert v[i, j] == ref_judged(codes, judged, ctx, k)
