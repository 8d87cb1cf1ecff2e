"""bep: LingPipe's example, its zero case, and a LingPipe-literal reference."""
from __future__ import annotations

from hypothesis import given, settings

from extra_reference import LINGPIPE, batches, close, one, ranks_to_codes, ref_bep, run_measure


def test_lingpipe_ten_cases():
    # interpolated curve flat at 0.6 up to recall 0.75: break-even at 0.6
    assert close(one("bep", LINGPIPE, LINGPIPE), 0.6)


def test_never_crossing_is_zero():
    # one of four relevant documents, at rank 1: (0.25, 1.0) only
    assert one("bep", [1, 0], [1, 1, 1, 1]) == 0.0
    # BioCreative system B: (0.25, 0.5), (0.5, 0.667) -> recall never above
    assert one("bep", ranks_to_codes(10, {2, 3}), [1] * 4) == 0.0
    assert one("bep", [], [1]) == 0.0


def test_value_of_the_step_after_a_drop():
    # points (0.5, 1.0), (1.0, 0.2): LingPipe reports 0.2
    assert close(one("bep", ranks_to_codes(10, {1, 10}), [1, 1]), 0.2)


@settings(max_examples=300, deadline=None)
@given(batches())
def test_matches_reference_and_stays_below_max_f(case):
    tops, ctx = case
    v = run_measure("bep", tops, ctx)
    f1 = run_measure("max_F", tops, ctx)
    for i, (codes, judged) in enumerate(tops):
        assert close(v[i, 0], ref_bep(codes, judged, ctx))
        assert v[i, 0] <= f1[i, 0] + 1e-15
