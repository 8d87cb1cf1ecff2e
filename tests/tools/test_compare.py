"""``trec_eval_py compare`` and :func:`trec_eval_py.tools.compare.comparison.compare_runs`:
pairing by topic, filled-in topics, corrections, output formats, seeds."""
from __future__ import annotations

import csv
import io
import json

import pytest
from scipy import stats
from support.golden import run_cli
from support.paths import EXAMPLES
from support.synthetic import write_collection

import trec_eval_py as te
from trec_eval_py.errors import UsageError
from trec_eval_py.tools.compare.comparison import compare_runs, run_labels
from trec_eval_py.tools.compare.significance import correct

JSON_KEYS = {"run", "measure", "baseline_mean", "mean", "delta", "p_value", "p_value_corrected",
             "test", "wins", "ties", "losses"}


def test_means_and_wins_match_evaluation(tmp_path):
    qrels, runs = write_collection(tmp_path)
    c = compare_runs(qrels, runs, ["map", "P.10", "ndcg"], "t")
    assert c.runs == ["sys0", "sys1", "sys2"]
    for r in c.rows:
        base = te.evaluate(qrels, runs[0], [r.measure.replace("_", ".")], complete=True)
        other = te.evaluate(qrels, runs[int(r.run[-1])], [r.measure.replace("_", ".")], complete=True)
        assert r.baseline_mean == base.summary[r.measure]
        assert r.mean == other.summary[r.measure]
        a, b = base.values[r.measure], other.values[r.measure]
        assert (r.wins, r.ties, r.losses) == (int((b > a).sum()), int((b == a).sum()), int((b < a).sum()))
        assert r.delta == pytest.approx(r.mean - r.baseline_mean)
        assert r.relative_delta == pytest.approx(r.delta / r.baseline_mean)
        assert r.p_value == pytest.approx(stats.ttest_rel(b, a).pvalue, rel=1e-12)
        assert r.topics == 30 and r.filled == 0


def test_correction_spans_every_run_and_measure(tmp_path):
    qrels, runs = write_collection(tmp_path, seed=1)
    for method in ("holm", "bonferroni", "none"):
        c = compare_runs(qrels, runs, ["map", "P.10"], ["t", "wilcoxon"], correction=method)
        for test in ("t", "wilcoxon"):
            rows = [r for r in c.rows if r.test == test]
            assert len(rows) == 4  # 2 runs x 2 measures
            expected = correct([r.p_value for r in rows], method)
            assert [r.p_value_corrected for r in rows] == pytest.approx(expected.tolist())
            assert all(r.significant == (r.p_value_corrected <= 0.05) for r in rows)


def test_missing_topics_score_zero_and_are_counted(tmp_path, capsysbinary):
    qrels, runs = write_collection(tmp_path, n_runs=2, drop={(1, 3), (1, 7)})
    c = compare_runs(qrels, runs, ["map"], "sign")
    assert c.filled == {"sys0": 0, "sys1": 2}
    r = c.rows[0]
    assert (r.filled, r.filled_baseline, r.topics) == (2, 0, 30)
    vals = c.values["sys1"]["map"]
    assert vals[c.topics.index("T3")] == 0.0 and vals[c.topics.index("T7")] == 0.0
    # the run's mean is over all 30 topics, as trec_eval -c averages
    assert r.mean == te.evaluate(qrels, runs[1], ["map"], complete=True).summary["map"]
    code, out, _ = run_cli(["compare", qrels, *runs], capsysbinary)
    assert code == 0 and "filled in:  sys0 0, sys1 2" in out


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
def test_seeded_runs_repeat_exactly(tmp_path, capsysbinary, test):
    qrels, runs = write_collection(tmp_path, seed=2)
    args = ["compare", qrels, *runs, "-m", "map", "-m", "P.5", "--test", test, "--permutations", "3000",
            "--format", "json"]
    first = run_cli(args + ["--seed", "7"], capsysbinary)
    second = run_cli(args + ["--seed", "7"], capsysbinary)
    other = run_cli(args + ["--seed", "8"], capsysbinary)
    assert first[0] == 0 and first == second
    assert json.loads(first[1]) != json.loads(other[1])
    recs = json.loads(first[1])
    assert all(r["method"] in ("monte-carlo", "bootstrap") and r["resamples"] == 3000 for r in recs)


def test_all_tests_and_json_keys(tmp_path, capsysbinary):
    qrels, runs = write_collection(tmp_path, seed=3)
    code, out, err = run_cli(["compare", qrels, *runs, "-m", "map", "-m", "P.10", "--test", "all",
                              "--permutations", "2000", "--format", "json"], capsysbinary)
    assert code == 0, err
    recs = json.loads(out)
    assert isinstance(recs, list) and len(recs) == 5 * 2 * 2
    assert {r["test"] for r in recs} == {"t", "wilcoxon", "randomization", "bootstrap", "sign"}
    for r in recs:
        assert set(r) >= JSON_KEYS
        assert r["wins"] + r["ties"] + r["losses"] == 30
        assert 0 <= r["p_value"] <= r["p_value_corrected"] <= 1
    assert all(r["ci_low"] <= r["delta"] <= r["ci_high"] for r in recs)


def test_text_csv_latex(tmp_path, capsysbinary):
    qrels, runs = write_collection(tmp_path, seed=4)
    code, text, _ = run_cli(["compare", qrels, *runs, "-m", "map", "-m", "P.10"], capsysbinary)
    assert code == 0
    assert "baseline:   sys0" in text and "paired t-test" in text
    assert "holm correction over 4 comparisons" in text
    table = [ln.split() for ln in text.splitlines() if ln.startswith("sys")]
    assert [(row[0], row[1]) for row in table] == [("sys1", "map"), ("sys1", "P_10"), ("sys2", "map"), ("sys2", "P_10")]

    code, out, _ = run_cli(["compare", qrels, *runs, "-m", "map", "--format", "csv"], capsysbinary)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["run"] for r in rows] == ["sys1", "sys2"] and set(rows[0]) >= JSON_KEYS

    code, out, _ = run_cli(["compare", qrels, *runs, "-m", "map", "--format", "long-latex", "--test", "sign"],
                           capsysbinary)
    assert out.count(r"\\") == 3 and r"\begin{tabular}" in out and r"\toprule" in out
    # the wide table: header, three runs, the key
    code, out, _ = run_cli(["compare", qrels, *runs, "-m", "map", "--format", "latex", "--test", "sign"], capsysbinary)
    assert out.count(r"\\") == 4 and r"\caption{" in out and r"\begin{table}" in out

    dest = tmp_path / "out.json"
    code, out, _ = run_cli(["compare", qrels, *runs, "--format", "json", "-o", str(dest)], capsysbinary)
    assert code == 0 and out == "" and len(json.loads(dest.read_text())) == 2


def test_bundled_example(capsysbinary):
    code, out, err = run_cli(["compare", str(EXAMPLES / "qrels.txt"), str(EXAMPLES / "run_a.txt"),
                              str(EXAMPLES / "run_b.txt"), "-m", "map", "--test", "randomization"], capsysbinary)
    assert code == 0, err
    assert "exact: all sign assignments" in out


@pytest.mark.parametrize("args,message,code", [
    (["--test", "z"], "unknown test 'z'", 1),
    (["--correction", "fdr"], "unknown --correction 'fdr'", 1),
    (["--format", "xml"], "unknown --format", 1),
    (["--alpha", "2"], "alpha must be between 0 and 1", 1),
    (["--permutations", "0"], "at least 1", 1),
    (["-m", "runid"], "no measure with per-topic numbers", 1),
    (["-m", "nosuch"], "nosuch", 1),
])
def test_bad_options(tmp_path, capsysbinary, args, message, code):
    qrels, runs = write_collection(tmp_path, n_topics=4, n_runs=2)
    got, _, err = run_cli(["compare", qrels, *runs, *args], capsysbinary)
    assert got == code and message in err and "Traceback" not in err


def test_needs_two_runs(tmp_path, capsysbinary):
    qrels, runs = write_collection(tmp_path, n_topics=4, n_runs=1)
    code, _, err = run_cli(["compare", qrels, runs[0]], capsysbinary)
    assert code == 1 and "at least one other run" in err
    with pytest.raises(UsageError):
        compare_runs(qrels, runs, "map")


def test_run_labels():
    assert run_labels(["a", "b"], ["x/1", "y/2"]) == ["a", "b"]
    assert run_labels(["a", "a"], ["x/1", "y/2"]) == ["1", "2"]
    assert run_labels(["a", "a"], ["x/r", "y/r"]) == ["x/r", "y/r"]
    assert run_labels(["a", "a"], ["r", "r"]) == ["r (1)", "r (2)"]


def test_every_row_has_an_interval_of_the_mean_difference(tmp_path):
    """Tests without an interval of their own (rank, sign, randomization) report
    the paired bootstrap interval, the same one for each such test of a pair."""
    from trec_eval_py.tools.compare.significance import bootstrap

    qrels, runs = write_collection(tmp_path, seed=4)
    c = compare_runs(qrels, runs, ["map"], "all", permutations=3000, seed=9)
    for r in c.rows:
        assert r.ci_low is not None and r.ci_low <= r.delta <= r.ci_high
        assert r.ci_method == ("t" if r.test == "t" else "bootstrap")
    for run in ("sys1", "sys2"):
        rows = [r for r in c.rows if r.run == run and r.test in ("wilcoxon", "randomization", "sign")]
        base, other = c.values["sys0"]["map"], c.values[run]["map"]
        boot = bootstrap(base, other, resamples=3000, seed=9)
        assert {(r.ci_low, r.ci_high) for r in rows} == {(boot.ci_low, boot.ci_high)}


@pytest.mark.parametrize("args,message", [
    # a greater test never finds a worse run: the gate could never fire
    (["--alternative", "greater", "--fail-if", "worse"], "cannot fire"),
    (["--alternative", "less", "--fail-if", "different"], "either way"),
    (["--alternative", "greater", "--fail-if", "different"], "either way"),
    (["--test", "tukey", "--alternative", "less"], "two-sided"),
    (["--test", "tukey", "--correction", "bonferroni"], "nothing to correct"),
    (["--test", "tukey-classic", "--correction", "holm"], "nothing to correct"),
    (["--test", "t", "--permutations", "500"], "draws nothing"),
    (["--seed", "3"], "draws nothing"),  # the default test, t
    (["--unit", "positives", "--format", "latex"], "use --format long-latex"),
    (["--test", "t-paired"], "unknown test"),  # a test of --unit positives
])
def test_contradictory_options_are_refused_with_one_line(tmp_path, capsysbinary, args, message):
    qrels, runs = write_collection(tmp_path, n_topics=4, n_runs=2)
    got, out, err = run_cli(["compare", qrels, *runs, *args], capsysbinary)
    assert got == 1 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert out == ""


@pytest.mark.parametrize("args", [
    ["--alternative", "less", "--fail-if", "worse"],
    ["--test", "tukey", "--correction", "none"],
    ["--test", "t", "--test", "randomization", "--permutations", "500", "--seed", "2"],
    ["--test", "tukey", "--test", "t", "--correction", "bh"],
])
def test_compatible_options_run(tmp_path, capsysbinary, args):
    qrels, runs = write_collection(tmp_path, n_topics=4, n_runs=2)
    got, out, err = run_cli(["compare", qrels, *runs, *args], capsysbinary)
    assert got in (0, 3) and out, err


def test_fail_if_worse_fires_on_a_worse_run(tmp_path, capsysbinary):
    # run 0 is the better one here: run 2 as baseline, run 0 about a third worse on map
    qrels, runs = write_collection(tmp_path, n_topics=30, n_runs=3)
    base, worse = runs[2], runs[0]
    c = compare_runs(qrels, [base, worse], ["map"])
    assert c.rows[0].relative_delta < -0.2 and c.rows[0].p_value < 0.01
    for alt in ("two-sided", "less"):
        got, _, err = run_cli(["compare", qrels, base, worse, "--fail-if", "worse", "--alternative", alt],
                              capsysbinary)
        assert got == 3 and "significantly worse" in err, (alt, err)


def _far_apart(tmp_path, topics=60):
    """Qrels and three runs: ``a`` ranks the three relevant documents of each topic near the top,
    ``b`` and ``c`` below four to six others; differences so large that tukey-classic's
    studentized range underflows to p = 0.0 in scipy and the t-test's p is about 1e-21."""
    import random

    rng = random.Random(3)
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 d{d} {int(d < 3)}\n" for t in range(1, topics + 1) for d in range(10)))
    runs = tmp_path / "runs"
    runs.mkdir()
    for name, skip in (("a", 0), ("b", 4), ("c", 4)):
        lines = []
        for t in range(1, topics + 1):
            others = list(range(3, 10))
            rng.shuffle(others)
            k = skip + rng.randint(0, 2)
            order = others[:k] + [0, 1, 2] + others[k:]
            lines += [f"{t} Q0 d{d} {r + 1} {20 - r} {name}\n" for r, d in enumerate(order)]
        (runs / f"{name}.run").write_text("".join(lines))
    return qrels, runs


def test_a_p_value_below_the_floating_resolution_prints_as_a_bound(tmp_path, capsysbinary):
    qrels, runs = _far_apart(tmp_path)
    c = compare_runs(qrels, sorted(runs.iterdir()), ["map"], ["tukey-classic", "t"])
    p = {(r.run, r.test): r.p_value for r in c.rows}
    assert p[("b", "tukey-classic")] == 0.0 and 0 < p[("b", "t")] < 1e-16  # underflow, and a real tiny p
    code, out, _ = run_cli(["compare", "--test", "tukey-classic", "--test", "t", "-m", "map", qrels, runs],
                           capsysbinary)
    assert code == 0 and "0.0e+00" not in out
    rows = [ln.split() for ln in out.splitlines() if ln.startswith(("b ", "c "))]
    assert len(rows) == 4 and all(ln[6:10] == ["<", "1e-16", "<", "1e-16"] for ln in rows)
    code, _, err = run_cli(["compare", "--test", "tukey-classic", "-m", "map", "--fail-if", "worse", qrels, runs],
                           capsysbinary)
    assert code == 3 and "corrected p < 1e-16)" in err and "corrected p 0)" not in err
