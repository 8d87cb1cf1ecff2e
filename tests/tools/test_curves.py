"""Curve points (trec_eval_py.tools.curves.curves and the ``curves`` subcommand): LingPipe's
documented curves, areas that agree with the measures, averages, the CLI."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.extra_reference import LINGPIPE, batches, close, make_batch, run_measure, step_area
from support.golden import run_cli as golden_cli
from support.paths import SEEDS

from trec_eval_py.errors import UsageError
from trec_eval_py.tools.curves.curves import batch_levels, batch_points, compute_curves, parse_curve


def points(kind, tops, ctx=None):
    return batch_points(make_batch(tops, ctx), parse_curve(kind))


def assert_points(got, want):
    assert len(got) == len(want), (got, want)
    for (x, y), (wx, wy) in zip(got, want):
        assert close(x, wx) and close(y, wy), (got, want)


def test_lingpipe_pr_curves():
    # prCurve(false) and prCurve(true) of the class documentation
    assert_points(points("pr", [(LINGPIPE, LINGPIPE)])[0], [(0.25, 0.5), (0.5, 0.5), (0.75, 0.6), (1.0, 4 / 9)])
    assert_points(points("ipr", [(LINGPIPE, LINGPIPE)])[0], [(0.75, 0.6), (1.0, 4 / 9)])


def test_lingpipe_roc_curves():
    # rocCurve gives (recall, rejection recall); ours is (fpr, tpr) = (1 - rr, recall)
    pts = points("roc", [(LINGPIPE, LINGPIPE)])[0]
    uninterpolated = [(0.25, 5 / 6), (0.5, 4 / 6), (0.75, 4 / 6), (1.0, 1 / 6)]
    interpolated = [(0.25, 5 / 6), (0.75, 4 / 6), (1.0, 1 / 6)]
    corners = [(1 - rr, r) for r, rr in interpolated]
    # the upper-left corners of the step curve are the interpolated points
    upper = [(x, y) for (x, y), (nx, ny) in zip(pts[:-1], pts[1:]) if ny == y and nx > x and y > 0]
    assert_points(upper, corners)
    # every uninterpolated point lies on the curve (on a vertical segment)
    for r, rr in uninterpolated:
        x = 1 - rr
        assert any(close(a[0], x) and close(b[0], x) and a[1] - 1e-12 <= r <= b[1] + 1e-12
                   for a, b in zip(pts[:-1], pts[1:]))
    assert_points([pts[0], pts[-1]], [(0, 0), (1, 1)])


def polyline_area(pts):
    return sum((x2 - x1) * y1 for (x1, y1), (x2, y2) in zip(pts[:-1], pts[1:]) if y1 == y2)


@settings(max_examples=200, deadline=None)
@given(batches(), st.sampled_from(["roc", "croc_exp.7", "croc_pow.1", "croc_log.80"]))
def test_roc_curve_area_is_the_measure(case, kind):
    tops, ctx = case
    measure = {"roc": ("auc_roc", None)}.get(kind) or (kind.split(".")[0], kind.split(".")[1])
    vals = run_measure(measure[0], tops, ctx, measure[1])
    for i, pts in enumerate(points(kind, tops, ctx)):
        if len(pts):
            assert close(polyline_area(pts), vals[i, 0])
            # a staircase: every step moves along one axis, up and to the right
            d = np.diff(pts, axis=0)
            assert ((d[:, 0] == 0) ^ (d[:, 1] == 0)).all() and (d >= 0).all()
        else:
            assert vals[i, 0] == 0


@settings(max_examples=200, deadline=None)
@given(batches())
def test_pr_curve_areas_are_the_measures(case):
    tops, ctx = case
    pr, ipr = run_measure("auc_pr", tops, ctx), run_measure("auc_ipr", tops, ctx)
    for i, (p, ip) in enumerate(zip(points("pr", tops, ctx), points("ipr", tops, ctx))):
        assert close(step_area(p), pr[i, 0])
        assert close(step_area(ip), ipr[i, 0])
        assert (np.diff(ip[:, 1]) < 0).all()  # interpolated precision strictly falls


def test_levels():
    b = make_batch([(LINGPIPE, LINGPIPE), ([0, 1], [1, 1]), ([], [1])])
    xs = np.linspace(0, 1, 11)
    ipr = batch_levels(b, parse_curve("ipr"), xs)
    assert close(ipr[0, 0], 0.6) and close(ipr[0, 8], 4 / 9) and close(ipr[0, 10], 4 / 9)
    assert close(ipr[1, 5], 0.5) and ipr[1, 6] == 0.0
    assert (ipr[2] == 0).all()
    roc = batch_levels(b, parse_curve("roc"), xs)
    # fprs of LingPipe's relevant documents: 1/6, 2/6, 2/6, 5/6
    assert list(roc[0]) == [0, 0, 0.25, 0.25, 0.75, 0.75, 0.75, 0.75, 0.75, 1, 1]
    assert batch_levels(b, parse_curve("pr"), xs) is None


def test_api_average_and_options():
    c = compute_curves(SEEDS / "lingpipe.qrels", SEEDS / "lingpipe.run", "ipr")
    assert c.topics == ["lingpipe"] and c.labels == ("recall", "precision")
    assert_points(c.points["lingpipe"], [(0.75, 0.6), (1.0, 4 / 9)])
    assert_points(c.average[[0, 7, 8]], [(0.0, 0.6), (0.7, 0.6), (0.8, 4 / 9)])
    qrels = {"a": {"d1": 1, "d2": 0}, "b": {"d3": 1}}
    run = {"a": {"d1": 2.0, "d2": 1.0}}
    one_topic = compute_curves(qrels, run, "roc")
    everything = compute_curves(qrels, run, "roc", complete=True)
    assert everything.topics == ["a", "b"] and len(everything.points["b"]) == 3  # (0,0) (1,0) (1,1)
    assert close(everything.average[5, 1], one_topic.average[5, 1] / 2)
    coll = compute_curves(qrels, run, "roc", num_docs_in_coll=5, topics=["a"])
    assert_points(coll.points["a"], [(0, 0), (0, 1), (1, 1)])
    assert compute_curves(qrels, run, "pr").average is None
    with pytest.raises(UsageError):
        compute_curves(qrels, run, "roc", topics=["zzz"])
    with pytest.raises(UsageError):
        compute_curves(qrels, run, "roc", levels=1)


def test_parse_curve():
    assert parse_curve("croc_exp").name == "croc_exp_7"
    assert parse_curve("croc_log.20").name == "croc_log_20"
    assert parse_curve("croc_pow").labels == ("f_fpr", "tpr")
    for bad in ("nope", "roc.3", "croc_exp.0", "croc_exp.x", "croc_exp.-1"):
        with pytest.raises(UsageError):
            parse_curve(bad)


def run_cli(args, capsysbinary):
    """The curves command in-process: (exit code, stdout, stderr)."""
    return golden_cli(["curves", *args], capsysbinary)


def test_cli_tsv(capsysbinary):
    code, out, err = run_cli([SEEDS / "lingpipe.qrels", SEEDS / "lingpipe.run", "--curve", "pr"], capsysbinary)
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "topic\trecall\tprecision",
        "lingpipe\t0.250000\t0.500000",
        "lingpipe\t0.500000\t0.500000",
        "lingpipe\t0.750000\t0.600000",
        "lingpipe\t1.000000\t0.444444",
    ]
    code, out, _ = run_cli([SEEDS / "lingpipe.qrels", SEEDS / "lingpipe.run", "--curve", "ipr", "--topic", "all",
                            "--levels", "3"], capsysbinary)
    assert out.splitlines() == ["topic\trecall\tprecision", "all\t0.000000\t0.600000", "all\t0.500000\t0.600000",
                                "all\t1.000000\t0.444444"]


def test_cli_json(capsysbinary):
    code, out, _ = run_cli([SEEDS / "croc.qrels", SEEDS / "croc.run", "--curve", "croc_exp.7", "--format", "json",
                            "--topic", "croc"], capsysbinary)
    assert code == 0
    d = json.loads(out)
    assert d["curve"] == "croc_exp_7" and d["alpha"] == 7.0 and d["x"] == "f_fpr" and "average" not in d
    xs = sorted({x for x, _ in d["topics"]["croc"]})
    f = lambda x: (1 - np.exp(-7 * x)) / (1 - np.exp(-7))  # noqa: E731
    assert np.allclose(xs, [0, f(0.2), f(0.4), 1], rtol=0, atol=1e-15)


def test_cli_errors(capsysbinary):
    base = [SEEDS / "lingpipe.qrels", SEEDS / "lingpipe.run"]
    for extra in (["--curve", "bogus"], ["--format", "xml"], ["--curve", "pr", "--topic", "all"], ["--topic", "x"]):
        code, out, err = run_cli(base + extra, capsysbinary)
        assert code != 0 and out == "" and err.startswith("trec_eval_py: ") and "Traceback" not in err
