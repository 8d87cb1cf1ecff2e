"""auc_pr and auc_ipr: the seeds' worked examples and reference agreement."""
from __future__ import annotations

from hypothesis import given, settings
from support.extra_reference import (
    LINGPIPE,
    batches,
    close,
    make_batch,
    one,
    ranks_to_codes,
    ref_auc_ipr,
    ref_auc_pr,
    run_measure,
)

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.measures import registry


def test_lingpipe_ten_cases():
    # precisions at the four correct cases: 1/2, 2/4, 3/5, 4/9
    assert close(one("auc_pr", LINGPIPE, LINGPIPE), (1 / 2 + 2 / 4 + 3 / 5 + 4 / 9) / 4)
    assert round(one("auc_pr", LINGPIPE, LINGPIPE), 2) == 0.51
    # interpolated: 3/5 for the first three, 4/9 for the last
    assert close(one("auc_ipr", LINGPIPE, LINGPIPE), (3 * (3 / 5) + 4 / 9) / 4)
    assert round(one("auc_ipr", LINGPIPE, LINGPIPE), 2) == 0.56


def test_biocreative_systems():
    judged = [1, 1, 1, 1] + [0] * 16
    a = ranks_to_codes(10, {1, 10})
    b = ranks_to_codes(10, {2, 3})
    # A: 1.0 * 0.25 + 0.2 * (0.5 - 0.25); B: 0.5 * 0.666
    assert close(one("auc_ipr", a, judged), 0.3)
    assert close(one("auc_ipr", b, judged), 0.5 * (2 / 3))
    assert round(one("auc_ipr", b, judged), 3) == 0.333
    assert one("auc_ipr", b, judged) > one("auc_ipr", a, judged)


def test_lecture_average_precision():
    six = [1] * 6 + [0] * 6
    assert close(one("auc_pr", ranks_to_codes(10, {1, 3, 8, 9}), six), (1 + 2 / 3 + 3 / 8 + 4 / 9) / 6)
    assert round(one("auc_pr", ranks_to_codes(10, {1, 3, 8, 9}), six), 2) == 0.41
    four = [1] * 4 + [0] * 6
    assert round(one("auc_pr", ranks_to_codes(10, {1, 3, 9, 10}), four), 2) == 0.6
    assert round(one("auc_pr", ranks_to_codes(10, {2, 5, 6, 7}), four), 2) == 0.49


def test_edges():
    assert one("auc_pr", [], [1, 1]) == 0.0
    assert one("auc_ipr", [0, 0], [0, 0]) == 0.0
    assert one("auc_ipr", [1, 1], [1, 1]) == 1.0
    # unretrieved relevant documents cap the area at the recall reached
    assert one("auc_ipr", [1], [1, 1, 1, 1]) == 0.25
    # -l moves what is relevant
    assert one("auc_pr", [1, 2], [1, 2], EvalContext(relevance_level=2)) == 0.5


@settings(max_examples=300, deadline=None)
@given(batches())
def test_matches_reference(case):
    tops, ctx = case
    pr = run_measure("auc_pr", tops, ctx)
    ipr = run_measure("auc_ipr", tops, ctx)
    for i, (codes, judged) in enumerate(tops):
        assert close(pr[i, 0], ref_auc_pr(codes, judged, ctx))
        assert close(ipr[i, 0], ref_auc_ipr(codes, judged, ctx))
        assert ipr[i, 0] >= pr[i, 0]


@settings(max_examples=100, deadline=None)
@given(batches())
def test_auc_pr_is_average_precision(case):
    tops, ctx = case
    m = registry()["map"]
    ap = m.compute(make_batch(tops, ctx), m.params.parse("map", None))
    assert (run_measure("auc_pr", tops, ctx) == ap).all()
