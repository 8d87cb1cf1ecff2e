"""The tools take the main command's judgment (-R) and results (-T) formats.

compare, batch, plot and curves read CodiEsp, preference and judgment-group
files as the main command does, and their numbers are the main command's
per-topic values for the same files (with -c: every judged topic counts, a
topic without results scores 0). A combination that cannot work is one
line naming the flag, a non-zero exit and no traceback.
"""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

os.environ.setdefault("MPLBACKEND", "Agg")  # never open a window

from support.golden import run_cli  # noqa: E402
from support.paths import FIXTURES  # noqa: E402

from trec_eval_py.errors import UsageError  # noqa: E402
from trec_eval_py.tools.compare.comparison import paired_values  # noqa: E402
from trec_eval_py.tools.curves.curves import compute_curves  # noqa: E402
from trec_eval_py.tools.grading.leaderboard import build_leaderboard  # noqa: E402

FIX = FIXTURES
CODIESP = FIX / "codiesp"
GOLD, PRED = CODIESP / "toy_gs_D.tsv", CODIESP / "toy_pred_D.tsv"
CODIESP_FLAGS = ["-R", "codiesp", "-T", "codiesp", "--valid-codes", str(CODIESP / "toy_codes_D.tsv")]
CODIESP_OPTS = dict(rel_format="codiesp", results_format="codiesp", valid_codes=str(CODIESP / "toy_codes_D.tsv"))
INPUTS = FIX / "golden" / "inputs"
PREFS, PREFS_RUN = INPUTS / "prefs.test", INPUTS / "prefs.results.test"
JG, JG_RUN = INPUTS / "qrels.123", INPUTS / "results.test"

# (flags, options, judgments, runs, measures): codiesp and two other formats
CASES = {
    "codiesp": (CODIESP_FLAGS, CODIESP_OPTS, GOLD, [PRED, GOLD], ["map", "P.5"]),
    "prefs": (["-R", "prefs"], dict(rel_format="prefs"), PREFS, [PREFS_RUN, PREFS_RUN], ["prefs_simp", "prefs_pair"]),
    "qrels_jg": (["-R", "qrels_jg"], dict(rel_format="qrels_jg"), JG, [JG_RUN, JG_RUN], ["map_avgjg", "P_avgjg.5"]),
}


def main_values(capsysbinary, flags, qrels, run, measures):
    """``{(measure, topic): value}`` the main command prints with -q -c (topic 'all' too)."""
    args = ["-q", "-c", *flags, *[a for m in measures for a in ("-m", m)], qrels, run]
    code, out, err = run_cli(args, capsysbinary)
    assert code == 0 and err == "", err
    values = {}
    for line in out.splitlines():
        name, topic, value = line.split("\t")
        values[(name.strip(), topic)] = float(value)
    return values


def measure_names(values):
    return sorted({m for m, _ in values})


def topics_of(values):
    return sorted({t for _, t in values if t != "all"})


@pytest.mark.parametrize("case", CASES)
def test_compare_per_topic_is_the_main_commands(case, capsysbinary):
    flags, opts, qrels, runs, measures = CASES[case]
    expected = [main_values(capsysbinary, flags, qrels, r, measures) for r in runs]
    topics, labels, _files, _filled, values, _n = paired_values(qrels, runs, measures, **opts)
    assert len(labels) == 2
    for lab, exp in zip(labels, expected):
        assert sorted(values[lab]) == measure_names(exp)
        for m, per_topic in values[lab].items():
            # a topic the main command does not print is one without results: it counts 0
            want = [exp.get((m, t), 0.0) for t in topics]
            np.testing.assert_allclose(per_topic, want, rtol=0, atol=5e-5)
            assert abs(per_topic.mean() - exp[(m, "all")]) < 5e-5


@pytest.mark.parametrize("case", CASES)
def test_compare_cli_means_are_the_main_commands(case, capsysbinary):
    flags, _opts, qrels, runs, measures = CASES[case]
    expected = [main_values(capsysbinary, flags, qrels, r, measures) for r in runs]
    args = ["compare", *flags, *[a for m in measures for a in ("-m", m)], "--format", "json", qrels, *runs]
    code, out, err = run_cli(args, capsysbinary)
    assert code == 0, err
    rows = json.loads(out)
    assert {r["measure"] for r in rows} == set(measure_names(expected[0]))
    for r in rows:
        assert abs(r["baseline_mean"] - expected[0][(r["measure"], "all")]) < 5e-5
        assert abs(r["mean"] - expected[1][(r["measure"], "all")]) < 5e-5


@pytest.mark.parametrize("case", CASES)
def test_batch_per_topic_is_the_main_commands(case, capsysbinary):
    flags, _opts, qrels, runs, measures = CASES[case]
    run = runs[0]
    expected = main_values(capsysbinary, flags, qrels, run, measures)
    args = ["batch", *flags, *[a for m in measures for a in ("-m", m)], "--format", "json", "--per-topic",
            "-j", "1", qrels, run]
    code, out, err = run_cli(args, capsysbinary)
    assert code == 0, err
    (entry,) = json.loads(out)["runs"]
    assert entry["error"] is None
    got = {(m, t): v for t, row in entry["per_topic"].items() for m, v in row.items()}
    got.update({(m, "all"): v for m, v in entry["summary"].items()})
    assert set(got) == set(expected)
    for k, v in expected.items():
        assert abs(got[k] - v) < 5e-5, k


def test_batch_api_and_report_with_codiesp(tmp_path, capsysbinary):
    expected = main_values(capsysbinary, CODIESP_FLAGS, GOLD, PRED, ["map"])
    board = build_leaderboard(GOLD, [str(PRED)], ["map"], jobs=1, **CODIESP_OPTS)
    (entry,) = board.entries
    assert entry.ok and entry.topics == 2 and board.topics_total == 3
    assert abs(entry.evaluation.summary["map"] - expected[("map", "all")]) < 5e-5
    report = tmp_path / "report"
    code, _out, err = run_cli(["batch", *CODIESP_FLAGS, "-m", "map", "-j", "1", "--report", report, GOLD, PRED],
                              capsysbinary)
    assert code == 0, err
    assert f"| {expected[('map', 'all')]:.4f} |" in (report / "leaderboard.md").read_text()


def test_curves_with_codiesp_agree_with_the_main_command(capsysbinary):
    """The pr curve has one point per relevant document retrieved, the last at
    the topic's recall (the main command's num_rel_ret and recall)."""
    expected = main_values(capsysbinary, CODIESP_FLAGS, GOLD, PRED, ["num_rel_ret", "num_rel", "P.1000"])
    code, out, err = run_cli(["curves", *CODIESP_FLAGS, "--curve", "pr", GOLD, PRED], capsysbinary)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "topic\trecall\tprecision"
    points: dict[str, list] = {}
    for line in lines[1:]:
        t, r, p = line.split("\t")
        points.setdefault(t, []).append((float(r), float(p)))
    assert sorted(points) == topics_of(expected)
    for t, pts in points.items():
        assert len(pts) == expected[("num_rel_ret", t)]
        assert abs(pts[-1][0] - expected[("num_rel_ret", t)] / expected[("num_rel", t)]) < 1e-6
    api = compute_curves(GOLD, PRED, "pr", **CODIESP_OPTS)
    assert sorted(api.points) == sorted(points)


def test_plot_per_topic_with_codiesp(capsysbinary, tmp_path):
    pytest.importorskip("matplotlib")
    from trec_eval_py.tools.curves.plotting import plot_per_topic

    base = main_values(capsysbinary, CODIESP_FLAGS, GOLD, PRED, ["map"])
    other = main_values(capsysbinary, CODIESP_FLAGS, GOLD, GOLD, ["map"])
    topics = topics_of(other)
    diffs = sorted((other[("map", t)] - base.get(("map", t), 0.0) for t in topics), reverse=True)
    fig = plot_per_topic(GOLD, [PRED, GOLD], "map", **CODIESP_OPTS)
    heights = [p.get_height() for p in fig.axes[0].patches]
    np.testing.assert_allclose(heights, diffs, rtol=0, atol=5e-5)  # the main command prints %.4f
    dest = tmp_path / "fig.png"
    code, _out, err = run_cli(["plot", *CODIESP_FLAGS, "--kind", "pr", "-o", dest, GOLD, PRED, GOLD], capsysbinary)
    assert code == 0, err
    assert dest.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("args, words", [
    (["curves", "-R", "prefs", PREFS, PREFS_RUN], "-R prefs"),
    (["curves", "-R", "qrels_jg", JG, JG_RUN], "-R qrels_jg"),
    (["compare", "-T", "nosuch", GOLD, PRED, PRED], "nosuch"),
    (["compare", *CODIESP_FLAGS, "-m", "prefs_simp", GOLD, PRED, PRED], "prefs_simp"),
    (["batch", "-R", "nosuch", GOLD, PRED], "nosuch"),
    (["compare", "-R", "qrels", "--valid-codes", CODIESP / "toy_codes_D.tsv", GOLD, PRED, PRED], "--valid-codes"),
])
def test_combinations_that_cannot_work(args, words, capsysbinary):
    code, out, err = run_cli(args, capsysbinary)
    assert code != 0
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert words in err


@pytest.mark.parametrize("kind", ["pr", "roc", "ac"])
def test_plot_curve_with_preference_judgments(kind, tmp_path, capsysbinary):
    pytest.importorskip("matplotlib")
    dest = tmp_path / "fig.png"
    code, out, err = run_cli(["plot", "-R", "prefs", "--kind", kind, "-o", dest, PREFS, PREFS_RUN], capsysbinary)
    assert code != 0 and err.count("\n") == 1
    assert err == "trec_eval_py: curves need judgments of single documents (-R qrels), not '-R prefs'\n"
    assert not dest.exists()


def test_api_rejects_curves_of_preferences():
    with pytest.raises(UsageError, match="-R prefs"):
        compute_curves(PREFS, PREFS_RUN, "pr", rel_format="prefs")


@pytest.mark.parametrize("flags, qrels", [(["-R", "prefs"], PREFS), (["-R", "qrels_jg"], JG),
                                          (["-R", "codiesp"], GOLD)])
def test_validate_reads_judgments_in_any_format(flags, qrels, tmp_path, capsysbinary):
    """--qrels in the -R format: the run's topics are checked against the judgments' topics."""
    from trec_eval_py.engine.pipeline import read_judgments

    judged = read_judgments(qrels, {"rel_format": flags[1]})
    topic = judged.qid[0].decode()
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.write_text(f"{topic} Q0 d1 1 2.0 r\n{topic} Q0 d2 2 1.0 r\n")
    bad.write_text("no-such-topic Q0 d1 1 2.0 r\n")
    code, out, err = run_cli(["validate", *flags, "--qrels", qrels, good, "--format", "json"], capsysbinary)
    assert code == 0, err + out
    assert json.loads(out)["ok"]
    code, out, err = run_cli(["validate", *flags, "--qrels", qrels, bad, "--format", "json"], capsysbinary)
    assert code == 3
    (report,) = json.loads(out)["files"]
    assert any(f["severity"] == "error" and "topic" in f["code"] for f in report["findings"])
    # read as qrels, the same file is an error (or, for codiesp's 2 fields, unreadable): -R is what reads it
    code, out, err = run_cli(["validate", "--qrels", qrels, good], capsysbinary)
    assert code != 0 and err.count("\n") == 1 and "Traceback" not in err
