"""``trec_eval_py correlate``: system-ranking correlation of two evaluations.

Kendall's tau-b and Spearman's rho are checked against scipy; tau_AP against
a slow pure-Python reading of its definitions (Yilmaz, Aslam and Robertson,
SIGIR 2008; Urbano and Marrero, ICTIR 2017), hand-worked examples and the
values published with Urbano's R package ``ircor``; the result-file readers
against the evaluations they were written from.
"""
from __future__ import annotations

import json
import math
import os
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.golden import run_cli
from support.paths import ROOT

from trec_eval_py.errors import InputError, UsageError
from trec_eval_py.tools.organiser.correlation import (
    correlate_files,
    correlation,
    evaluate_sides,
    kendall_tau,
    read_evaluations,
    render_correlation,
    spearman_rho,
    tau_ap,
    tau_ap_directed,
)

stats = pytest.importorskip("scipy.stats")

EX = ROOT / "examples" / "agreement"
RUNS = sorted((EX / "runs").glob("*.run"))
REL = 1e-12


# ---------------------------------------------------------------- slow references

def slow_tau_ap(truth, estimate):
    """Yilmaz et al.'s tau_AP, as written in the paper (no ties): walk the
    estimated ranking from its second item; C(i) = items above rank i that the
    truth also puts above the item at rank i."""
    n = len(truth)
    ranking = sorted(range(n), key=lambda k: -estimate[k])
    total = 0.0
    for i in range(1, n):
        item = ranking[i]
        c = sum(1 for j in ranking[:i] if truth[j] > truth[item])
        total += c / i
    return 2.0 / (n - 1) * total - 1.0


def slow_tau_ap_b(x, y):
    """Urbano and Marrero's tau_AP_b, from its definition: for each item not in
    the top tie group of one ranking, the share of the items strictly above its
    group that the other ranking also puts strictly above it; 2 * mean - 1 per
    direction, then the mean of both directions."""
    def one(truth, est):
        shares = []
        for i in range(len(est)):
            above = [j for j in range(len(est)) if est[j] > est[i]]
            if above:
                shares.append(sum(1 for j in above if truth[j] > truth[i]) / len(above))
        return 2.0 * sum(shares) / len(shares) - 1.0 if shares else math.nan
    return (one(x, y) + one(y, x)) / 2.0


# ---------------------------------------------------------------- hand-worked

def test_swap_at_the_top_costs_more_than_at_the_bottom():
    # the truth ranks systems 1 2 3 4; Kendall's tau sees one swap either way: (5 - 1) / 6 = 2/3.
    # swap at the top, estimate 2 1 3 4: C = 0/1, 2/2, 3/3 -> tau_AP = 2/3 * 2 - 1 = 1/3
    # swap at the bottom, estimate 1 2 4 3: C = 1/1, 2/2, 2/3 -> tau_AP = 2/3 * 8/3 - 1 = 7/9
    truth = [4.0, 3.0, 2.0, 1.0]
    top = [3.0, 4.0, 2.0, 1.0]
    bottom = [4.0, 3.0, 1.0, 2.0]
    assert kendall_tau(truth, top) == pytest.approx(2 / 3, rel=REL)
    assert kendall_tau(truth, bottom) == pytest.approx(2 / 3, rel=REL)
    assert tau_ap_directed(truth, top) == pytest.approx(1 / 3, rel=REL)
    assert tau_ap_directed(truth, bottom) == pytest.approx(7 / 9, rel=REL)


def test_tau_ap_with_ties_by_hand():
    # truth 3 2 1, estimate 2 2 1 (the first two tied): item 3 (lowest) has both above,
    # the truth agrees for both: share 1; the tied pair has nothing strictly above: skipped.
    # B vs A = 2 * 1 - 1 = 1. The other way (the tied scores as truth): item 2 has item 1
    # above it in A, but the truth ties them: share 0; item 3 has 2 above, both right: 1.
    # A vs B = 2 * (0 + 1) / 2 - 1 = 0; the mean 0.5
    a, b = [3.0, 2.0, 1.0], [2.0, 2.0, 1.0]
    assert tau_ap_directed(a, b) == 1.0
    assert tau_ap_directed(b, a) == 0.0
    assert tau_ap(a, b) == 0.5


#: the test data of Urbano's R package ircor (tests/testthat/helper_data.R) and the
#: values its tests expect, published to four decimals
IRCOR = {
    "set1": ([0.897, 0.372, 0.908, 0.898, 0.661, 0.062, 0.177, 0.384, 0.498, 0.992],
             [0.82, 0.406, 0.817, 0.953, 0.673, 0.073, 0.364, 0.547, 0.589, 0.988],
             [0.9, 0.4, 0.9, 0.9, 0.7, 0.1, 0.2, 0.4, 0.5, 1],
             [0.8, 0.4, 0.8, 1, 0.7, 0.1, 0.4, 0.5, 0.6, 1]),
    "set2": ([0.266, 0.573, 0.202, 0.945, 0.629, 0.206, 0.687, 0.77, 0.718, 0.38],
             [0.263, 0.843, 0.728, 0.928, 0.08, 0.114, 0.467, 0.641, 0.973, 0.644],
             [0.3, 0.6, 0.2, 0.9, 0.6, 0.2, 0.7, 0.8, 0.7, 0.4],
             [0.3, 0.8, 0.7, 0.9, 0.1, 0.1, 0.5, 0.6, 1, 0.6]),
    "set3": ([0.185, 0.573, 0.944, 0.129, 0.468, 0.553, 0.761, 0.405, 0.976, 0.445],
             [0.845, 0.272, 0.275, 0.924, 0.605, 0.334, 0.162, 0.872, 0.018, 0.25],
             [0.2, 0.6, 0.9, 0.1, 0.5, 0.6, 0.8, 0.4, 1, 0.4],
             [0.8, 0.3, 0.3, 0.9, 0.6, 0.3, 0.2, 0.9, 0, 0.2]),
}
#: set: (tauAP(x, y), tauAP_b(x, y), tauAP_b(x.ties, y.ties))
IRCOR_EXPECTED = {"set1": (0.8519, 0.8333, 0.7321), "set2": (0.2504, 0.2880, 0.297),
                  "set3": (-0.6971, -0.668, -0.7047)}


@pytest.mark.parametrize("name", sorted(IRCOR))
def test_ircor_published_values(name):
    x, y, xt, yt = IRCOR[name]
    directed, sym, tied = IRCOR_EXPECTED[name]
    # published to four decimals (0.297 and -0.668 to three): equal once rounded as published
    assert round(tau_ap_directed(x, y), 4) == directed
    assert round(tau_ap(x, y), 4) == sym
    digits = len(str(tied).split(".")[1])
    assert round(tau_ap(xt, yt), digits) == tied
    assert round(tau_ap(yt, xt), digits) == tied


# ---------------------------------------------------------------- against references

no_ties = st.integers(2, 30).flatmap(lambda n: st.tuples(st.permutations(list(range(n))),
                                                         st.permutations(list(range(n)))))
with_ties = st.integers(2, 30).flatmap(lambda n: st.tuples(st.lists(st.integers(0, 6), min_size=n, max_size=n),
                                                           st.lists(st.integers(0, 6), min_size=n, max_size=n)))


@settings(max_examples=200, deadline=None)
@given(no_ties)
def test_tau_ap_matches_the_paper_without_ties(xy):
    x, y = (np.array(v, dtype=float) for v in xy)
    assert tau_ap_directed(x, y) == pytest.approx(slow_tau_ap(x, y), rel=REL, abs=1e-12)
    assert tau_ap(x, y) == pytest.approx((slow_tau_ap(x, y) + slow_tau_ap(y, x)) / 2, rel=REL, abs=1e-12)
    assert tau_ap(x, x) == 1.0 and tau_ap(x, -x) == pytest.approx(-1.0, rel=REL)


@settings(max_examples=200, deadline=None)
@given(with_ties)
def test_tau_ap_b_matches_its_definition(xy):
    x, y = (np.array(v, dtype=float) for v in xy)
    ref = slow_tau_ap_b(x, y)
    ours = tau_ap(x, y)
    if math.isnan(ref):
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(ref, rel=REL, abs=1e-12)
        assert -1.0 - 1e-12 <= ours <= 1.0 + 1e-12
        assert tau_ap(y, x) == pytest.approx(ours, rel=REL, abs=1e-12)  # symmetric


@settings(max_examples=200, deadline=None)
@given(with_ties)
def test_kendall_and_spearman_match_scipy(xy):
    x, y = (np.array(v, dtype=float) for v in xy)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kt = stats.kendalltau(x, y, variant="b").statistic
        rho = stats.spearmanr(x, y).statistic
    for ours, ref in ((kendall_tau(x, y), kt), (spearman_rho(x, y), rho)):
        if math.isnan(ref):
            assert math.isnan(ours)
        else:
            assert ours == pytest.approx(ref, rel=1e-10, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(with_ties)
def test_swapped_pairs_are_the_discordant_ones(xy):
    x, y = (np.array(v, dtype=float) for v in xy)
    names = [f"r{i}" for i in range(len(x))]
    rep = correlation(names, x, y)
    pairs = {(i, j) for i in range(len(x)) for j in range(len(x)) if x[i] > x[j] and y[i] < y[j]}
    assert set(rep.swapped()) == pairs
    n = len(x)
    concordant = sum(1 for i in range(n) for j in range(i + 1, n) if (x[i] - x[j]) * (y[i] - y[j]) > 0)
    tied_x = sum(1 for i in range(n) for j in range(i + 1, n) if x[i] == x[j])
    tied_y = sum(1 for i in range(n) for j in range(i + 1, n) if y[i] == y[j])
    pairs_n = n * (n - 1) / 2
    den = math.sqrt((pairs_n - tied_x) * (pairs_n - tied_y))
    expected = (concordant - len(pairs)) / den if den else math.nan
    assert rep.statistics()["kendall_tau"] == pytest.approx(expected, rel=REL, abs=1e-12, nan_ok=True)


def test_undefined_values_and_float_noise():
    rep = correlation(["a", "b", "c", "d"], [0.1, 0.2, math.nan, 0.4], [0.3, 0.2, 0.1, 0.0])
    assert rep.names == ["a", "b", "d"] and rep.undefined == ["c"]
    # one mean (0.84) of the same per-topic values added up in two orders differs in
    # the last bits: a tie, not a swap
    s1 = sum([0.9] * 10 + [0.8] * 15) / 25
    s2 = sum([0.8] * 15 + [0.9] * 10) / 25
    assert s1 != s2
    rep = correlation(["x", "y", "z"], [0.5, 0.4, 0.3], [s1, s2, 0.1])
    assert rep.swapped() == [] and rep.summary()[9] == ("num_tied_B", 1, "pairs tied in B")
    one = correlation(["x", "y"], [1.0, 1.0], [1.0, 2.0]).statistics()
    assert math.isnan(one["kendall_tau"]) and math.isnan(one["spearman_rho"])
    # A's ranking (all tied) puts nothing above anything: undefined; B's puts y above x,
    # which A does not (a tie in the truth is not a right order): -1
    assert math.isnan(one["tau_ap_a_vs_b"]) and one["tau_ap_b_vs_a"] == -1.0 and math.isnan(one["tau_ap"])


# ---------------------------------------------------------------- result files and evaluating

@pytest.fixture(scope="module")
def sides():
    """The example runs evaluated with map and P.10 (-c)."""
    return evaluate_sides([str(r) for r in RUNS], [str(EX / "qrels.primary")], ["map", "P.10"], complete=True)


def _outputs(tmp_path, capsysbinary, fmt):
    """Result files of every example run, in ``fmt``, written by the command line."""
    qrels = EX / "qrels.primary"
    if fmt.startswith("batch"):
        kind = fmt.split("-")[1]
        code, out, _ = run_cli(["batch", qrels, EX / "runs", "-m", "map", "-m", "P.10", "--format", kind], capsysbinary)
        assert code == 0
        p = tmp_path / f"board.{kind}"
        p.write_text(out)
        return p
    pieces = []
    for r in RUNS:
        args = ["-c", "-m", "map", "-m", "P.10", "-m", "runid", qrels, r]
        if fmt == "trec-q":
            args = ["-q"] + args
        elif fmt != "trec":
            args = ["--format", fmt] + args
        code, out, _ = run_cli(args, capsysbinary)
        assert code == 0
        pieces.append(out)
    p = tmp_path / f"all.{fmt}"
    p.write_text("".join(pieces))
    return p


@pytest.mark.parametrize("fmt", ["trec", "trec-q", "csv", "json", "batch-csv", "batch-json"])
def test_result_files_give_the_evaluated_correlation(tmp_path, capsysbinary, sides, fmt):
    f = _outputs(tmp_path, capsysbinary, fmt)
    rep = correlate_files(f, f, ["map", "P_10"])
    assert len(rep.names) == len(RUNS)
    ours, ref = rep.statistics(), sides.statistics()
    tol = 1e-12 if fmt not in ("trec", "trec-q") else None
    if tol is None:  # trec_eval's text has 4 decimals: the ranking may tie where it did not
        assert ours["kendall_tau"] == pytest.approx(ref["kendall_tau"], abs=0.05)
    else:
        assert ours == pytest.approx(ref, rel=tol)
        # batch names a run by its path as given, the evaluations by its run id
        assert ([os.path.basename(r["run"]).removesuffix(".run") for r in rep.ranking()]
                == [r["run"] for r in sides.ranking()])


def test_runs_on_one_side_only(tmp_path):
    a = tmp_path / "a"
    b = tmp_path / "b"
    a.write_text("runid all r1\nmap all 0.3\nrunid all r2\nmap all 0.2\nrunid all r3\nmap all 0.1\n")
    b.write_text("runid all r3\nmap all 0.5\nrunid all r1\nmap all 0.1\nrunid all r4\nmap all 0.9\n"
                 "runid all r2\nmap all nan\n")
    rep = correlate_files(a, b)
    assert rep.names == ["r1", "r3"] and rep.only_a == [] and rep.only_b == ["r4"] and rep.undefined == ["r2"]
    assert rep.statistics()["kendall_tau"] == -1.0
    text = render_correlation(rep)
    assert re.search(r"\nnum_only_B +1 +runs in B only \(left out\): r4\n", text)
    assert "r1           r3          0.3000 > 0.1000  0.1000 < 0.5000" in text


@pytest.mark.parametrize("content, message", [
    ("runid all r1\nmap all 0.3\nmap 1\n", "x, line 3: expected 'measure topic value', found 2 fields: 'map 1'"),
    ("runid all r1\nmap all zero\n", "x, line 2: value 'zero' is not a number"),
    ("map all 0.3\n", "x, line 1: a summary value before any 'runid' line"),
    ("runid all r1\nmap all 0.3\nmap all 0.4\n", "x, line 3: map given twice for run r1"),
    ("runid all r1\nmap all 0.3\nrunid all r1\nmap all 0.4\n", "x, line 3: run r1 given twice (first on line 1)"),
    ("runid,topic,measure,value\nr1,all,map,0.3\nr1,all,map\n", "x, line 3: 3 fields under a header of 4"),
    ('{"runid": "r1", "summary": {"map": "high"}}', "x: document 1: map is not a number"),
    ('{"runid": "r1"', "x: not valid JSON"),
    ("", "x: no run's summary values"),
])
def test_bad_result_files(tmp_path, capsysbinary, content, message):
    bad = tmp_path / "x"
    bad.write_text(content)
    good = tmp_path / "good"
    good.write_text("runid all r1\nmap all 0.3\nrunid all r2\nmap all 0.2\n")
    with pytest.raises(InputError) as e:
        read_evaluations(bad)
    code, out, err = run_cli(["correlate", good, bad], capsysbinary)
    assert code != 0 and out == "" and len(err.splitlines()) == 1
    assert err.replace(str(bad), "x").startswith(f"trec_eval_py: {message}")
    assert str(e.value).replace(str(bad), "x").startswith(message)


def test_measure_choice(tmp_path):
    f = tmp_path / "f"
    f.write_text("runid all r1\nmap all 0.3\nP_10 all 0.5\nrunid all r2\nmap all 0.2\nP_10 all 0.6\n")
    assert correlate_files(f, f).statistics()["kendall_tau"] == 1.0  # map by default
    assert correlate_files(f, f, ["map", "P_10"]).statistics()["kendall_tau"] == -1.0
    g = tmp_path / "g"
    g.write_text("runid all r1\nP_5 all 0.3\nP_10 all 0.5\nrunid all r2\nP_5 all 0.2\nP_10 all 0.6\n")
    with pytest.raises(UsageError, match="holds several measures"):
        correlate_files(g, g)
    with pytest.raises(UsageError, match="no measure 'ndcg'"):
        correlate_files(g, g, ["ndcg"])


# ---------------------------------------------------------------- the command

def test_cli_two_qrels(capsysbinary):
    code, out, err = run_cli(["correlate", "-c", "--qrels", EX / "qrels.primary", "--qrels", EX / "qrels.secondary",
                              EX / "runs", "--format", "json"], capsysbinary)
    assert code == 0 and err == ""
    doc = json.loads(out)
    names = [r["run"] for r in doc["runs"]]
    assert len(names) == len(RUNS) and doc["summary"]["num_runs"] == len(RUNS)
    a = [r["A"] for r in doc["runs"]]
    b = [r["B"] for r in doc["runs"]]
    assert doc["summary"]["kendall_tau"] == pytest.approx(stats.kendalltau(a, b).statistic, rel=1e-10)
    assert doc["summary"]["spearman_rho"] == pytest.approx(stats.spearmanr(a, b).statistic, rel=1e-10)
    assert doc["summary"]["num_swapped"] == len(doc["swaps"])


def test_cli_plot(tmp_path, capsysbinary):
    pytest.importorskip("matplotlib")
    png = tmp_path / "scatter.png"
    code, out, err = run_cli(["correlate", "-c", "-m", "map", "-m", "P.10", "--qrels", EX / "qrels.primary",
                              *RUNS, "--plot", png, "--show", "summary"], capsysbinary)
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"wrote {png}" in err


@pytest.mark.parametrize("args, message", [
    (["a", "b", "c"], "correlate takes two result files"),
    (["--qrels", "Q", "r1", "r2"], "give two --qrels or two -m"),
    (["-m", "P", "-m", "map", "--qrels", "QRELS", "RUN", "RUN2"], "-m P gives"),
    (["-c", "F", "F"], "-c: evaluation flags apply with --qrels"),
    (["--format", "csv", "F", "F"], "--format csv writes one table"),
    (["--plot", "x.gif", "F", "F"], "cannot tell the figure format"),
])
def test_cli_usage_errors(tmp_path, capsysbinary, args, message):
    f = tmp_path / "f"
    f.write_text("runid all r1\nmap all 0.3\nrunid all r2\nmap all 0.2\n")
    sub = {"F": f, "Q": EX / "qrels.primary", "QRELS": EX / "qrels.primary", "RUN": RUNS[0], "RUN2": RUNS[1]}
    code, out, err = run_cli(["correlate", *[sub.get(a, a) for a in args]], capsysbinary)
    assert code != 0 and out == "" and message in err and len(err.splitlines()) == 1


def test_cli_bad_run_names_its_line(tmp_path, capsysbinary):
    bad = tmp_path / "bad.run"
    bad.write_text("401 Q0 DOC-401-001 1 0.5 bad\n401 Q0 DOC-401-002 2 high bad\n")
    code, out, err = run_cli(["correlate", "--qrels", EX / "qrels.primary", "--qrels", EX / "qrels.secondary",
                              RUNS[0], bad], capsysbinary)
    assert code != 0 and out == "" and len(err.splitlines()) == 1 and "bad.run, line 2" in err
