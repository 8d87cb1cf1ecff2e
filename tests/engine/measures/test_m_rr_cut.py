"""rr_cut: LingPipe's reciprocal rank, the cutoff, and a reference loop."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from support.extra_reference import LINGPIPE, batches, one, ref_rr_cut, run_measure

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.measures import registry


def test_lingpipe_reciprocal_rank():
    assert one("rr_cut", LINGPIPE, LINGPIPE) == 0.5


def test_cutoff_and_level():
    codes = [0, 0, 0, 1]
    assert one("rr_cut", codes, [1], None, "4") == 0.25
    assert one("rr_cut", codes, [1], None, "3") == 0.0
    assert one("rr_cut", [1, 2], [1, 2], EvalContext(relevance_level=2)) == 0.5


def test_outputs_and_edges():
    m = registry()["rr_cut"]
    assert m.output_names(m.params.parse("rr_cut", None)) == ["rr_cut_10"]
    assert one("rr_cut", [], [1]) == 0.0


@settings(max_examples=300, deadline=None)
@given(batches(), st.lists(st.integers(1, 25), min_size=1, max_size=3, unique=True))
def test_matches_reference(case, cutoffs):
    tops, ctx = case
    cutoffs = sorted(cutoffs)
    v = run_measure("rr_cut", tops, ctx, ",".join(map(str, cutoffs)))
    for i, (codes, judged) in enumerate(tops):
        for j, k in enumerate(cutoffs):
            assert v[i, j] == ref_rr_cut(codes, judged, ctx, k)
