"""Accumulation (ac, cac_*, pac) and pROC curves: per-topic areas are the
measures, the best/worst bounds the CROC paper shades, averages, the paper's
five positives, figures with the shaded regions."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

os.environ.setdefault("MPLBACKEND", "Agg")

from support.extra_reference import batches, close, full_list, make_batch, ranks_to_codes, run_measure

from trec_eval_py.tools.curves.curves import batch_bounds, batch_levels, batch_points, compute_curves, parse_curve

PAPER = ranks_to_codes(10, [1, 2, 4, 5, 7])
KINDS = {"ac": ("auc_ac", None), "cac_exp.7": ("cac_exp", "7"), "cac_log.80": ("cac_log", "80"),
         "cac_pow.2": ("cac_pow", "2"), "pac": ("auc_pac", None), "proc": ("auc_proc", None)}


def polyline_area(pts):
    return sum((x2 - x1) * y1 for (x1, y1), (x2, y2) in zip(pts[:-1], pts[1:]) if y1 == y2)


def test_paper_example_ac_curve():
    # positives at ranks 1,2,4,5,7 of 10: the curve rises by 1/5 at x = .1,.2,.4,.5,.7
    pts = batch_points(make_batch([(PAPER, PAPER)]), parse_curve("ac"))[0]
    rises = [x for (x, y), (x2, y2) in zip(pts[:-1], pts[1:]) if x == x2 and y2 > y]
    assert np.allclose(rises, [0.1, 0.2, 0.4, 0.5, 0.7])
    best, worst = batch_bounds(make_batch([(PAPER, PAPER)]), parse_curve("ac"))[0]
    # best: ranks 1..5 -> 1 - mean(.1..,.5) = 0.7; worst: ranks 6..10 -> 1 - 0.8 = 0.2
    assert close(polyline_area(best), 0.7) and close(polyline_area(worst), 0.2)


def test_proc_raw_log_scale():
    # x = 1 - log10(max(fpr, 0.5/N)) / log10(0.5/N); the raw value is (x - 1) log10(2N)
    pts = batch_points(make_batch([(PAPER, PAPER)]), parse_curve("proc"))[0]
    xs = sorted({x for x, _ in pts})
    raw = [(x - 1) * math.log10(20) for x in xs]
    assert np.allclose(raw, [math.log10(0.05), math.log10(0.2), math.log10(0.4), 0.0])


@settings(max_examples=150, deadline=None)
@given(batches(), st.sampled_from(sorted(KINDS)))
def test_area_is_the_measure_and_bounds_hold(case, kind):
    tops, ctx = case
    name, params = KINDS[kind]
    vals = run_measure(name, tops, ctx, params)
    b = make_batch(tops, ctx)
    spec = parse_curve(kind)
    pts_all = batch_points(b, spec)
    bounds = batch_bounds(b, spec)
    xs = np.linspace(0, 1, 21)
    levels = batch_levels(b, spec, xs)
    for i, pts in enumerate(pts_all):
        if len(pts) == 0:
            assert vals[i, 0] == 0
            continue
        assert close(polyline_area(pts), vals[i, 0])
        d = np.diff(pts, axis=0)
        assert ((d[:, 0] == 0) ^ (d[:, 1] == 0)).all() and (d >= 0).all()
        assert tuple(pts[0]) == (0, 0) and tuple(pts[-1]) == (1, 1)
        if bounds is not None:
            best, worst = bounds[i]
            assert polyline_area(worst) - 1e-12 <= vals[i, 0] <= polyline_area(best) + 1e-12
            # the best curve is the curve of the list with every relevant document first
            codes, judged = tops[i]
            lst = full_list(codes, judged, ctx)
            p = sum(lst)
            ideal = make_batch([([1] * p + [0] * (len(lst) - p), [1] * p + [0] * (len(lst) - p))])
            assert np.allclose(batch_points(ideal, spec)[0], best)
        # vertical average: the (right-continuous) staircase's height at each level
        want = [max(y for x, y in pts if x <= lv) for lv in xs]
        assert np.allclose(levels[i], want)


def test_average_and_bounds_in_json():
    qrels = {"a": {"d1": 1, "d2": 0, "d3": 1}, "b": {"d4": 1, "d5": 0}}
    run = {"a": {"d1": 3.0, "d2": 2.0, "d3": 1.0}, "b": {"d5": 2.0, "d4": 1.0}}
    c = compute_curves(qrels, run, "ac", levels=3)
    assert c.labels == ("fdp", "tpr")
    # topic a: positives at 1/3 and 3/3; topic b: at 2/2. Levels 0, .5, 1
    assert np.allclose(c.average[:, 1], [0, (0.5 + 0) / 2, 1.0])
    # best a: 1/3, 2/3 -> at .5 tpr .5; best b: 1/2 -> 1. worst a: 2/3, 1 -> 0; worst b: 1 -> 0
    assert np.allclose(c.average_bounds[:, 1], [0, 0.75, 1]) and np.allclose(c.average_bounds[:, 2], [0, 0, 1])
    d = c.to_dict()
    assert set(d["bounds"]) == {"a", "b"} and d["average_bounds"][1][1] == 0.75
    assert compute_curves(qrels, run, "roc").bounds is None


def test_parse():
    assert parse_curve("cac_exp").name == "cac_exp_7" and parse_curve("cac_exp").labels == ("f_fdp", "tpr")
    assert parse_curve("pac").labels == ("plog_fdp", "tpr") and parse_curve("proc").labels == ("plog_fpr", "tpr")
    from trec_eval_py.errors import UsageError

    for bad in ("ac.3", "cac_exp.0", "pac.1"):
        with pytest.raises(UsageError):
            parse_curve(bad)


def test_figure_shades_the_unreachable_regions():
    pytest.importorskip("matplotlib")
    from trec_eval_py.tools.curves import plotting

    qrels = {"a": {"d1": 1, "d2": 0, "d3": 1, "d4": 0}}
    run = {"a": {"d1": 4.0, "d2": 3.0, "d3": 2.0, "d4": 1.0}}
    fig = plotting.make_plot("cac", qrels, [run], croc_alpha=7.0)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "above the best ranking" in labels and "below the worst ranking" in labels
    assert "cac_exp_7" in ax.get_title()
    fig = plotting.make_plot("proc", qrels, [run])
    assert "auc_proc" in fig.axes[0].get_title()
