"""max_F: LingPipe's example, beta, and a reference over every cutoff."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.extra_reference import LINGPIPE, batches, close, one, ref_max_f, run_measure

from trec_eval_py.engine.measures import registry
from trec_eval_py.errors import MeasureError


def test_lingpipe_ten_cases():
    # best at recall 0.75, precision 0.6
    v = one("max_F", LINGPIPE, LINGPIPE)
    assert close(v, 2 * 0.75 * 0.6 / (0.75 + 0.6))
    assert round(v, 2) == 0.67


def test_beta_outputs():
    m = registry()["max_F"]
    p = m.params.parse("max_F", "2,0.5")
    assert m.output_names(p) == ["max_F_0.5", "max_F_2"]
    assert m.output_names(m.params.parse("max_F", None)) == ["max_F_1"]
    v = run_measure("max_F", [(LINGPIPE, LINGPIPE)], None, "0,1,2")[0]
    assert close(v[0], 0.6)  # beta 0 is the best precision at a relevant rank
    assert close(v[2], max(5 * p * r / (4 * p + r) for r, p in [(.25, .5), (.5, .5), (.75, .6), (1, 4 / 9)]))
    with pytest.raises(MeasureError):
        m.params.parse("max_F", "-1")
    with pytest.raises(MeasureError):
        m.params.parse("max_F", "1,1.0")


def test_edges():
    assert one("max_F", [], [1]) == 0.0
    assert one("max_F", [0, 0], [1]) == 0.0
    assert one("max_F", [1], [1]) == 1.0


@settings(max_examples=300, deadline=None)
@given(batches(), st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.7]))
def test_matches_reference(case, beta):
    tops, ctx = case
    v = run_measure("max_F", tops, ctx, repr(beta))
    for i, (codes, judged) in enumerate(tops):
        assert close(v[i, 0], ref_max_f(codes, judged, ctx, beta))
