"""err: hand-worked values and agreement with a gdeval.pl-style loop."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from support.extra_reference import batches, close, one, ref_err, run_measure

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.measures import registry


def test_hand_worked():
    # grades 4, 0, 2: R = 15/16, 0, 3/16
    v = one("err", [4, 0, 2], [4, 2, 0], None, "3")
    assert close(v, 15 / 16 + (1 - 15 / 16) * (3 / 16) / 3)
    # a cutoff of 1 sees only the first document
    assert close(one("err", [4, 0, 2], [4, 2, 0], None, "1"), 15 / 16)
    # binary judgments: each relevant document satisfies with probability 1/16
    assert close(one("err", [0, 1], [1, 0]), (1 / 16) / 2)


def test_grades_are_used_as_given():
    # -l does not change the gains; grades above 4 count as 4; unjudged as 0
    assert one("err", [1, 0], [1], EvalContext(relevance_level=2)) == one("err", [1, 0], [1])
    assert one("err", [7], [7]) == one("err", [4], [4])
    assert one("err", [-1, -2, 1], [1, -1]) == one("err", [0, 0, 1], [1, 0])


def test_outputs_and_edges():
    m = registry()["err"]
    assert m.output_names(m.params.parse("err", None)) == ["err_20"]
    assert m.output_names(m.params.parse("err", "20,5")) == ["err_5", "err_20"]
    assert one("err", [], [1]) == 0.0
    assert one("err", [0, 0], []) == 0.0
    # a perfect first document at the highest grade still leaves 1/16
    assert one("err", [4], [4]) == 15 / 16 and not math.isclose(one("err", [4], [4]), 1.0)


@settings(max_examples=300, deadline=None)
@given(batches(), st.lists(st.integers(1, 25), min_size=1, max_size=3, unique=True))
def test_matches_reference(case, cutoffs):
    tops, ctx = case
    cutoffs = sorted(cutoffs)
    v = run_measure("err", tops, ctx, ",".join(map(str, cutoffs)))
    for i, (codes, judged) in enumerate(tops):
        for j, k in enumerate(cutoffs):
            assert v[i, j] == ref_err(codes, judged, ctx, k)  # same operations, same order
