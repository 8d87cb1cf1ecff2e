"""bep: LingPipe's example, its zero cases, the diagonal met at a drop or at (1, 1),
and a geometric reference walking the interpolated curve as a polyline."""
from __future__ import annotations

from hypothesis import given, settings
from support.extra_reference import LINGPIPE, batches, close, one, ranks_to_codes, ref_bep, run_measure


def test_lingpipe_ten_cases():
    # interpolated curve flat at 0.6 up to recall 0.75: break-even at 0.6
    assert close(one("bep", LINGPIPE, LINGPIPE), 0.6)


def test_never_crossing_is_zero():
    # one of four relevant documents, at rank 1: (0.25, 1.0) only
    assert one("bep", [1, 0], [1, 1, 1, 1]) == 0.0
    # BioCreative system B: (0.25, 0.5), (0.5, 0.667) -> recall never above
    assert one("bep", ranks_to_codes(10, {2, 3}), [1] * 4) == 0.0
    assert one("bep", [], [1]) == 0.0


def test_drop_past_the_diagonal_meets_it_at_the_drop():
    # points (0.5, 1.0), (1.0, 0.2): the curve falls from 1.0 to 0.2 at recall
    # 0.5, crossing the diagonal at (0.5, 0.5); LingPipe's code said 0.2
    assert close(one("bep", ranks_to_codes(10, {1, 10}), [1, 1]), 0.5)


def test_perfect_ranking_touches_the_diagonal_at_one():
    # the curve is flat at 1 up to recall 1: it meets the diagonal at (1, 1)
    assert one("bep", [1, 1, 1, 0, 0], [1, 1, 1]) == 1.0
    assert one("bep", [1], [1]) == 1.0
    # ... but not when a relevant document is missed: the curve ends at (0.75, 1)
    assert one("bep", [1, 1, 1, 0], [1, 1, 1, 1]) == 0.0


def test_meeting_the_diagonal_exactly_at_a_point():
    # relevant at ranks 1 and 4 of R = 2: (0.5, 1.0), (1.0, 0.5): drop at 0.5
    assert close(one("bep", ranks_to_codes(6, {1, 4}), [1, 1]), 0.5)
    # relevant at ranks 2 and 4 of R = 2: flat at 0.5 from 0 to 1: 0.5
    assert close(one("bep", ranks_to_codes(6, {2, 4}), [1, 1]), 0.5)


@settings(max_examples=300, deadline=None)
@given(batches())
def test_matches_reference_and_stays_below_max_f(case):
    tops, ctx = case
    v = run_measure("bep", tops, ctx)
    f1 = run_measure("max_F", tops, ctx)
    for i, (codes, judged) in enumerate(tops):
        assert close(v[i, 0], ref_bep(codes, judged, ctx))
        assert v[i, 0] <= f1[i, 0] + 1e-15
