"""``compare`` for papers and CI: every pair of runs, Tukey's HSD, one-sided
tests, FDR corrections, effect sizes, topic sets, wide tables and the
regression gate, on the bundled four-run collection (examples/compare) and on
synthetic ones."""
from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
import shutil
import subprocess

import numpy as np
import pytest
from scipy import stats
from support.golden import run_cli
from support.paths import ROOT
from support.synthetic import write_collection

from trec_eval_py.errors import UsageError
from trec_eval_py.tools.compare import significance as sig
from trec_eval_py.tools.compare.comparison import compare_runs, wide_cells

EX = ROOT / "examples" / "compare"
QRELS = str(EX / "qrels.txt")
RUNS = str(EX / "runs")
GOLDEN = ROOT / "fixtures" / "compare"
MEASURES = ["map", "P.10", "ndcg_cut.10"]


def _cli(args, capsysbinary):
    return run_cli(["compare", *args], capsysbinary)


# ---------------------------------------------------------------- runs and pairs

def test_directory_of_runs_is_expanded_like_batch():
    c = compare_runs(QRELS, [RUNS], "map")
    assert c.runs == ["bm25", "broken", "dense", "rm3"]  # sorted file names; the first is the baseline
    assert c.files[0].endswith("bm25.run")
    assert [r.run for r in c.rows] == ["broken", "dense", "rm3"]
    assert {r.baseline for r in c.rows} == {"bm25"}


def test_pairs_all_compares_every_pair_with_the_earlier_run_as_vs():
    c = compare_runs(QRELS, [RUNS], ["map", "P.10"], ["t", "wilcoxon"], pairs="all", correction="bh")
    pairs = list(itertools.combinations(c.runs, 2))
    for test in ("t", "wilcoxon"):
        rows = [r for r in c.rows if r.test == test]
        assert [(r.baseline, r.run) for r in rows] == [p for p in pairs for _ in range(2)]
        assert len(rows) == 12
        for r in rows:
            a, b = c.values[r.baseline][r.measure], c.values[r.run][r.measure]
            assert r.p_value == sig.run_test(test, a, b).p_value
        # corrected over all 12 (pair, measure) rows of the test
        assert [r.p_value_corrected for r in rows] == pytest.approx(
            sig.correct([r.p_value for r in rows], "bh").tolist())


def test_tukey_rows_come_from_one_family_wise_test_per_measure():
    c = compare_runs(QRELS, [RUNS], ["map", "P.10"], "tukey", pairs="all", permutations=4000, seed=3)
    for m in c.measures:
        table = np.column_stack([c.values[lab][m] for lab in c.runs])
        fam = sig.randomised_tukey_hsd(table, permutations=4000, seed=3)
        for r in (r for r in c.rows if r.measure == m):
            i, j = c.runs.index(r.baseline), c.runs.index(r.run)
            assert r.p_value == r.p_value_corrected == fam.p_values[i, j]
            assert r.correction == "family-wise" and r.method == "monte-carlo" and r.resamples == 4000
    classic = compare_runs(QRELS, [RUNS], ["map"], "tukey-classic")
    table = np.column_stack([classic.values[lab]["map"] for lab in classic.runs])
    assert [r.p_value for r in classic.rows] == pytest.approx(
        [sig.tukey_hsd_classic(table).p_values[0, j] for j in (1, 2, 3)])


def test_tukey_is_two_sided_only():
    with pytest.raises(UsageError, match="two-sided"):
        compare_runs(QRELS, [RUNS], "map", "tukey", alternative="greater")


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_alternative_reaches_every_test(alternative):
    c = compare_runs(QRELS, [RUNS], ["map"], "all", alternative=alternative, permutations=2000)
    for r in c.rows:
        a, b = c.values[r.baseline][r.measure], c.values[r.run][r.measure]
        assert r.alternative == alternative
        if r.test == "t":
            assert r.p_value == pytest.approx(stats.ttest_rel(b, a, alternative=alternative).pvalue, rel=1e-12)
            assert (r.ci_high == math.inf) if alternative == "greater" else (r.ci_low == -math.inf)
        if r.test == "wilcoxon":
            assert r.p_value == pytest.approx(stats.wilcoxon(b, a, alternative=alternative).pvalue, rel=1e-12)
    dense = next(r for r in c.rows if r.test == "t" and r.run == "dense")
    assert dense.significant == (alternative == "greater")


# ---------------------------------------------------------------- effect sizes, topics

def test_effect_sizes_in_rows_json_csv_and_text(capsysbinary):
    c = compare_runs(QRELS, [RUNS], ["map"], "t")
    for r in c.rows:
        d, g = sig.effect_sizes(c.values["bm25"]["map"], c.values[r.run]["map"])
        assert (r.effect_size, r.hedges_g) == (d, g)
        t = stats.ttest_rel(c.values[r.run]["map"], c.values["bm25"]["map"]).statistic
        assert d == pytest.approx(t / math.sqrt(len(c.topics)))
    code, out, _ = _cli([QRELS, RUNS, "--format", "json"], capsysbinary)
    recs = json.loads(out)
    assert [rec["effect_size"] for rec in recs] == [r.effect_size for r in c.rows]
    assert all("hedges_g" in rec for rec in recs)
    code, out, _ = _cli([QRELS, RUNS, "--format", "csv"], capsysbinary)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [float(x["effect_size"]) for x in rows] == [r.effect_size for r in c.rows]
    code, out, _ = _cli([QRELS, RUNS], capsysbinary)
    header = next(ln for ln in out.splitlines() if ln.startswith("run "))
    assert header.split()[9:11] == ["d", "g"]
    dense = next(ln for ln in out.splitlines() if ln.startswith("dense"))
    assert f"{c.rows[1].effect_size:+.2f}" in dense.split()


def test_topics_from_intersection(tmp_path, capsysbinary):
    qrels, runs = write_collection(tmp_path, n_topics=12, n_runs=3, drop={(1, 3), (2, 7), (2, 3)})
    full = compare_runs(qrels, runs, ["map"], "t")
    inter = compare_runs(qrels, runs, ["map"], "t", topics_from="intersection")
    assert len(full.topics) == 12 and len(inter.topics) == 10
    assert "T3" not in inter.topics and "T7" not in inter.topics
    assert inter.filled == {"sys0": 0, "sys1": 0, "sys2": 0} and full.filled["sys2"] == 2
    keep = [full.topics.index(t) for t in inter.topics]
    for lab in inter.runs:
        assert np.array_equal(inter.values[lab]["map"], full.values[lab]["map"][keep])
    assert all(r.topics == 10 and r.topics_from == "intersection" for r in inter.rows)
    code, out, _ = _cli([qrels, *runs, "--topics-from", "intersection"], capsysbinary)
    assert "topics:     10 of the qrels' 12 (only topics every run answered; 2 left out)" in out
    code, out, _ = _cli([qrels, *runs], capsysbinary)
    assert "topics:     12 (every topic of the qrels;" in out
    code, out, _ = _cli([qrels, *runs, "--format", "latex"], capsysbinary)
    assert "topics: 12 (every topic of the qrels;" in out


# ---------------------------------------------------------------- text output labels its interval

def test_text_labels_which_interval_is_printed(capsysbinary):
    code, out, _ = _cli([QRELS, RUNS, "--test", "t", "--test", "wilcoxon", "--test", "bootstrap",
                         "--permutations", "2000"], capsysbinary)
    assert code == 0
    sections = out.split("\n\n")[1:]
    t_sec, w_sec, b_sec = sections
    assert "interval: 95% t interval of the mean difference" in t_sec and "95% CI (t)" in t_sec
    assert ("interval: 95% paired bootstrap percentile interval of the mean difference "
            "(2000 resamples, seed 1), not part of this test") in w_sec
    assert "95% CI (bootstrap*)" in w_sec
    assert "interval: 95% percentile interval of this bootstrap" in b_sec
    code, out, _ = _cli([QRELS, RUNS, "--alternative", "greater"], capsysbinary)
    assert "p-values:   one-sided (is the run higher?)" in out
    assert "interval: one-sided 95% t interval" in out and "+inf]" in out


# ---------------------------------------------------------------- LaTeX marks per direction

def test_long_latex_marks_better_and_worse_apart(capsysbinary):
    code, out, _ = _cli([QRELS, RUNS, "-m", "P.10", "--format", "long-latex"], capsysbinary)
    rows = {ln.split(" & ")[0]: ln for ln in out.splitlines() if " & " in ln and not ln.startswith("Run")}
    assert r"$^{\downarrow}$" in rows["broken"] and r"\uparrow" not in rows["broken"]
    assert r"$^{\uparrow}$" in rows["dense"] and r"\downarrow" not in rows["dense"]
    assert "uparrow" not in rows["rm3"] and "downarrow" not in rows["rm3"]


# ---------------------------------------------------------------- wide tables

def test_wide_cells_bold_best_direction_and_letters():
    c = compare_runs(QRELS, [RUNS], MEASURES, "t", pairs="all")
    cells = wide_cells(c)
    means = c.means()
    letter = dict(zip(c.runs, "abcd"))
    for m in c.measures:
        best = max(means[lab][m] for lab in c.runs)
        for lab in c.runs:
            cell = cells[lab][m]
            assert cell.best == (means[lab][m] == best)
            vs = [r for r in c.rows if r.measure == m and r.baseline == "bm25" and r.run == lab]
            assert cell.vs_baseline == (vs[0].direction if vs else "")
            beaten = set()
            for r in c.rows:
                if r.measure == m and r.significant:
                    winner, loser = (r.run, r.baseline) if r.delta > 0 else (r.baseline, r.run)
                    if winner == lab:
                        beaten.add(letter[loser])
            assert set(cell.beats) == beaten
    # the collection has both directions
    assert cells["dense"]["map"].vs_baseline == "better" and cells["broken"]["P_10"].vs_baseline == "worse"


def _wide(fmt, capsysbinary, *extra):
    code, out, err = _cli([QRELS, RUNS, "-m", "map", "-m", "P.10", "-m", "ndcg_cut.10", "--pairs", "all",
                           "--format", fmt, *extra], capsysbinary)
    assert code == 0, err
    return out


def test_wide_latex_golden(capsysbinary):
    out = _wide("latex", capsysbinary)
    assert out == (GOLDEN / "wide_pairs_all_t.tex").read_text()


def test_wide_markdown_and_html_golden(capsysbinary):
    assert _wide("markdown", capsysbinary) == (GOLDEN / "wide_pairs_all_t.md").read_text()
    assert _wide("md", capsysbinary) == (GOLDEN / "wide_pairs_all_t.md").read_text()
    table = (GOLDEN / "wide_pairs_all_t.html").read_text()
    page = _wide("html", capsysbinary)  # a page of its own: the arrows need its charset
    assert page.startswith("<!DOCTYPE html>\n") and '<meta charset="utf-8">' in page
    assert page.count(table) == 1 and page.endswith(table + "</body>\n</html>\n")
    assert table.count("<tr>") == 5 and table.count("<b>") == 3
    c = compare_runs(QRELS, [RUNS], MEASURES, "t", pairs="all")
    assert c.format("html", fragment=True) == table


def test_wide_table_baseline_first_and_arrows_without_pairs_all(capsysbinary):
    code, out, _ = _cli([QRELS, RUNS, "-m", "P.10", "--format", "markdown"], capsysbinary)
    body = [ln for ln in out.splitlines() if ln.startswith("| ") and not ln.startswith("| Run")]
    assert [ln.split(" | ")[0] for ln in body] == ["| bm25", "| broken", "| dense", "| rm3"]
    assert body[1].endswith("0.3150 ↓ |") and body[2].endswith("**0.5900** ↑ |")
    assert "<sup>" not in out and "letters" not in out


def _has_booktabs() -> bool:
    probe = subprocess.run(["kpsewhich", "booktabs.sty"], capture_output=True, text=True)
    return probe.returncode == 0 and probe.stdout.strip() != ""


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no pdflatex on this machine")
@pytest.mark.parametrize("fmt", ["latex", "long-latex"])
def test_latex_tables_compile(tmp_path, capsysbinary, fmt):
    table = _wide(fmt, capsysbinary, "--test", "t", "--test", "wilcoxon")
    # booktabs when installed; otherwise its three rules as plain \hline (texlive-latex-base lacks it)
    rules = ("\\usepackage{booktabs}\n" if _has_booktabs() else
             "\\newcommand{\\toprule}{\\hline}\\newcommand{\\midrule}{\\hline}\\newcommand{\\bottomrule}{\\hline}\n")
    doc = ("\\documentclass{article}\n\\usepackage[margin=1cm]{geometry}\n" + rules
           + "\\begin{document}\n" + table + "\\end{document}\n")
    (tmp_path / "t.tex").write_text(doc)
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout[-2000:]
    log = (tmp_path / "t.log").read_text(errors="replace")
    assert "Overfull" not in log or fmt == "long-latex"
    assert (tmp_path / "t.pdf").stat().st_size > 0


# ---------------------------------------------------------------- the CI gate

def test_fail_if_worse_exits_3_and_names_the_regression(capsysbinary):
    code, out, err = _cli([QRELS, RUNS, "-m", "map", "-m", "P.10", "--fail-if", "worse"], capsysbinary)
    assert code == 3
    assert "baseline:   bm25" in out  # the report is still printed
    assert err.count("\n") == 1
    assert re.search(r"--fail-if worse: significantly worse than bm25: broken on P_10 \(paired t-test, "
                     r"corrected p 0\.0\d+\)", err)
    assert "dense" not in err


def test_fail_if_different_counts_better_too(capsysbinary):
    bm25, dense = str(EX / "runs" / "bm25.run"), str(EX / "runs" / "dense.run")
    assert _cli([QRELS, bm25, dense, "--fail-if", "worse"], capsysbinary)[0] == 0
    code, _, err = _cli([QRELS, bm25, dense, "--fail-if", "different"], capsysbinary)
    assert code == 3 and "dense on map" in err


def test_fail_if_uses_the_corrected_p_values(capsysbinary):
    # broken is worse on map at p = 0.03 but not after Holm's correction over 3 runs
    args = [QRELS, RUNS, "-m", "map", "--fail-if", "worse"]
    assert _cli(args, capsysbinary)[0] == 0
    assert _cli(args + ["--correction", "none"], capsysbinary)[0] == 3


def test_fail_if_only_looks_at_the_baseline(capsysbinary):
    # with --pairs all, rm3 beats broken; neither is worse than the baseline on map
    code, _, _ = _cli([QRELS, RUNS, "-m", "map", "--pairs", "all", "--test", "tukey", "--permutations", "3000",
                       "--fail-if", "worse"], capsysbinary)
    assert code == 0


@pytest.mark.parametrize("args,message", [
    (["--pairs", "some"], "unknown --pairs 'some'"),
    (["--alternative", "bigger"], "unknown --alternative 'bigger'"),
    (["--topics-from", "run"], "unknown --topics-from 'run'"),
    (["--fail-if", "better"], "unknown --fail-if 'better'"),
    (["--correction", "fdr"], "unknown --correction 'fdr'"),
    (["--test", "tukey", "--alternative", "less"], "Tukey's HSD is two-sided"),
])
def test_bad_new_options(capsysbinary, args, message):
    code, _, err = _cli([QRELS, RUNS, *args], capsysbinary)
    assert code == 1 and message in err and "Traceback" not in err


def _api_refusals():
    from trec_eval_py.tools.compare.options import check_values
    from trec_eval_py.tools.compare.positives import compare_positive_runs

    runs = [str(EX / "runs" / "bm25.run"), str(EX / "runs" / "rm3.run")]
    good = compare_runs(QRELS, runs, "map")
    return {
        "pairs": lambda: compare_runs(QRELS, runs, "map", pairs="some"),
        "alternative": lambda: compare_runs(QRELS, runs, "map", alternative="bigger"),
        "topics_from": lambda: compare_runs(QRELS, runs, "map", topics_from="run"),
        "correction": lambda: compare_positive_runs(QRELS, runs, "auc_roc", correction="fdr"),
        "permutations": lambda: compare_runs(QRELS, runs, "map", permutations=0),
        "fail_if": lambda: good.failures("better"),
        "unit": lambda: check_values(unit="areas"),
    }


@pytest.mark.parametrize("param, flag, value, says", [
    ("pairs", "--pairs", "some", "unknown {} 'some'; choose one of baseline, all"),
    ("alternative", "--alternative", "bigger", "unknown {} 'bigger'; choose one of two-sided, greater, less"),
    ("topics_from", "--topics-from", "run", "unknown {} 'run'; choose one of qrels, intersection"),
    ("correction", "--correction", "fdr", "unknown {} 'fdr'; choose one of holm, bonferroni, bh, by, none"),
    ("permutations", "--permutations", "0", "{} must be at least 1, not 0"),
    ("fail_if", "--fail-if", "better", "unknown {} 'better'; choose one of worse, different"),
    ("unit", "--unit", "areas", "unknown {} 'areas'; choose one of topics, positives"),
])
def test_the_command_and_the_python_api_refuse_a_bad_value_alike(capsysbinary, param, flag, value, says):
    """The seven value checks live in the tool (tools.compare.options.check_values): the
    command says them with its flags before reading a file, Python with its parameters."""
    code, out, err = _cli([QRELS, "/nonexistent/baseline.run", RUNS, flag, value], capsysbinary)
    assert (code, out, err) == (1, "", f"trec_eval_py: {says.format(flag)}\n")
    with pytest.raises(UsageError) as e:
        _api_refusals()[param]()
    assert str(e.value) == says.format(param)


def test_zip_of_runs_is_read_like_batch(tmp_path):
    import zipfile

    archive = tmp_path / "runs.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for name in ("bm25", "dense"):
            z.write(EX / "runs" / f"{name}.run", f"team/{name}.run")
    c = compare_runs(QRELS, [str(archive)], "map")
    direct = compare_runs(QRELS, [str(EX / "runs" / "bm25.run"), str(EX / "runs" / "dense.run")], "map")
    assert c.runs == ["bm25", "dense"] and c.files == [f"{archive}/team/bm25.run", f"{archive}/team/dense.run"]
    assert c.rows[0].p_value == direct.rows[0].p_value


def test_resampling_reports_progress():
    calls = []
    compare_runs(QRELS, [str(EX / "runs" / "bm25.run"), str(EX / "runs" / "rm3.run")], "map",
                 ["randomization", "tukey"], permutations=5000,
                 progress=lambda done, total: calls.append((done, total)))
    assert calls and all(0 < d <= t == 5000 for d, t in calls)
    assert sum(1 for d, t in calls if d == t) >= 3  # randomization, its bootstrap interval, tukey
