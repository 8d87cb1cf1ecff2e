"""The CROC paper's six tests at the level of the positive instances
(trec_eval_py.tools.compare.positives): the paper's worked example, per-positive values
whose mean is the measure, and every test against scipy or enumeration."""
from __future__ import annotations

import itertools
import json
import math
import random

import numpy as np
import pytest

from trec_eval_py import evaluate
from trec_eval_py.errors import UsageError
from trec_eval_py.output import table as tb
from trec_eval_py.output.table import pvalue_text
from trec_eval_py.tools.compare.positives import (
    POSITIVE_TESTS,
    compare_positives,
    positive_tests,
    positive_values,
    rank_sum,
    unpaired_permutation,
    unpaired_t,
)

stats = pytest.importorskip("scipy.stats")

PAPER_QRELS = "".join(f"1 0 d{i} {int(i in (1, 2, 4, 5, 7))}\n" for i in range(1, 11)).encode()
PAPER_RUN = "".join(f"1 Q0 d{i} {i} {11 - i} sys\n" for i in range(1, 11)).encode()


def fexp(x, a=7.0):
    return (1 - math.exp(-a * x)) / (1 - math.exp(-a))


def test_paper_worked_example():
    # section 2.5: FPRs {0,0,.2,.2,.4}; AUC[CROC] is the mean of 1 - f of them
    v = positive_values(PAPER_QRELS, PAPER_RUN, "croc_exp.7")["1"]
    assert v.docnos == ("d1", "d2", "d4", "d5", "d7")
    assert np.allclose(v.values, [1 - fexp(x) for x in (0, 0, 0.2, 0.2, 0.4)], rtol=0, atol=1e-15)
    # AUC[CAC]: the mean of 1 - f of the ranks over N, {.1,.2,.4,.5,.7}
    c = positive_values(PAPER_QRELS, PAPER_RUN, "cac_exp.7")["1"]
    assert np.allclose(c.values, [1 - fexp(x) for x in (0.1, 0.2, 0.4, 0.5, 0.7)], rtol=0, atol=1e-15)
    assert math.isclose(v.area, evaluate(PAPER_QRELS, PAPER_RUN, ["croc_exp.7"]).summary["croc_exp_7"], rel_tol=1e-12)
    assert positive_values(PAPER_QRELS, PAPER_RUN, "auc_roc")["1"].values.tolist() == [1, 1, 0.8, 0.8, 0.6]


def _random_case(rng):
    qrels, run = [], []
    for q in range(1, rng.randint(1, 3) + 1):
        docs = [f"q{q}d{i}" for i in range(rng.randint(2, 25))]
        for d in docs:
            if rng.random() < 0.8:
                qrels.append(f"{q} 0 {d} {rng.choice([0, 0, 1, 2, -1])}\n")
        qrels.append(f"{q} 0 q{q}rel 1\n")
        for _k, d in enumerate(rng.sample(docs, rng.randint(1, len(docs)))):
            run.append(f"{q} Q0 {d} {rng.randint(1, 30)} {rng.randint(0, 9)} r\n")
    return "".join(qrels).encode(), "".join(run).encode()


@pytest.mark.parametrize("seed", range(40))
def test_mean_of_values_is_the_measure(seed):
    rng = random.Random(seed)
    qrels, run = _random_case(rng)
    opts = rng.choice([{}, {"num_docs_in_coll": rng.randint(1, 60)}, {"max_docs": rng.randint(0, 6)},
                       {"judged_only": True}, {"relevance_level": 2}, {"order": "rank"}, {"order": "file"},
                       {"compat": "10.0"}])
    for m in ("auc_roc", "croc_exp.7", "croc_log.80", "auc_ac", "cac_pow.2", "auc_proc", "auc_pac",
              "auc_roc_t.0.3", "auc_roc_fp.3"):
        vals = positive_values(qrels, run, m, **opts)
        ev = evaluate(qrels, run, [m], complete=True, **opts)
        # as compare counts them: a topic 9.0.8 does not evaluate under -c counts 0
        counted = ev.counted_values()[0]
        for i, qid in enumerate(ev.topics):
            want = counted[i]
            got = vals[qid].area if qid in vals else 0.0
            # the same additions in the same order as the measure's kernel: equal, not close
            assert got == want, (m, opts, qid)


ALTS = ("two-sided", "greater", "less")


@pytest.mark.parametrize("seed", range(60))
def test_unpaired_t_and_rank_sum_match_scipy(seed):
    rng = np.random.default_rng(seed)
    na, nb = int(rng.integers(2, 14)), int(rng.integers(2, 14))
    if seed % 2:  # ties
        a, b = rng.integers(0, 4, na) / 4, rng.integers(0, 4, nb) / 4
    else:
        a, b = rng.random(na), rng.random(nb) + 0.2
    for alt in ALTS:
        t = unpaired_t(a, b, alternative=alt)
        ref = stats.ttest_ind(b, a, alternative=alt)
        if np.isnan(ref.pvalue):
            assert np.isnan(t.p_value) or t.p_value == 1.0
        else:
            assert math.isclose(t.p_value, ref.pvalue, rel_tol=1e-9) and math.isclose(t.statistic, ref.statistic,
                                                                                        rel_tol=1e-9)
        u = rank_sum(a, b, alternative=alt)
        ref = stats.mannwhitneyu(b, a, alternative=alt)
        assert u.statistic == ref.statistic
        assert math.isclose(u.p_value, ref.pvalue, rel_tol=1e-9, abs_tol=1e-15), (alt, u, ref)


def _brute_unpaired(a, b, alt):
    pooled = list(b) + list(a)
    obs = np.mean(b) - np.mean(a)
    hits = total = 0
    for idx in itertools.combinations(range(len(pooled)), len(b)):
        g1 = [pooled[i] for i in idx]
        g2 = [pooled[i] for i in range(len(pooled)) if i not in idx]
        s = np.mean(g1) - np.mean(g2)
        total += 1
        if alt == "greater":
            hits += s >= obs - 1e-12
        elif alt == "less":
            hits += s <= obs + 1e-12
        else:
            hits += abs(s) >= abs(obs) - 1e-12
    return hits / total


@pytest.mark.parametrize("seed", range(20))
def test_unpaired_permutation_against_enumeration_and_scipy(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 5, int(rng.integers(2, 7))) / 5, rng.integers(0, 5, int(rng.integers(2, 7))) / 5
    for alt in ALTS:
        r = unpaired_permutation(a, b, alternative=alt)
        assert r.method == "exact"
        assert math.isclose(r.p_value, _brute_unpaired(a, b, alt), rel_tol=1e-12)
    # scipy on continuous values (its tolerance for near-ties is relative to the
    # observed statistic, ours to the data: they differ only when a split ties it)
    # (two-sided: scipy doubles the smaller tail, we count |difference| >= |observed|,
    # which the enumeration above checks)
    a, b = rng.random(len(a)), rng.random(len(b))
    for alt in ("greater", "less"):
        ref = stats.permutation_test((b, a), lambda x, y: np.mean(x) - np.mean(y), permutation_type="independent",
                                     n_resamples=np.inf, alternative=alt)
        assert math.isclose(unpaired_permutation(a, b, alternative=alt).p_value, ref.pvalue, rel_tol=1e-9)


def test_unpaired_permutation_sampling_is_close_and_seeded():
    # 8 + 8 values: C(16, 8) = 12,870 splits, enumerated exactly (p about 0.07); every
    # split is one Python step there, so a larger sample only costs time
    rng = np.random.default_rng(5)
    a, b = rng.random(8), rng.random(8) + 0.1
    splits = math.comb(16, 8)
    exact = unpaired_permutation(a, b, permutations=splits)
    assert exact.method == "exact"  # every split, when there are no more than the draws asked for
    assert unpaired_permutation(a, b, permutations=splits - 1, seed=3).method == "monte-carlo"
    # random splits estimate the exact p: (hits + 1) / (n + 1) with hits ~ Binomial(n, p),
    # so within 4 standard errors (a chance of 6e-5 of failing a correct sampler)
    n = 20000
    mc = unpaired_permutation(a, b, permutations=n, seed=3, exact=False)
    p = exact.p_value
    assert mc.method == "monte-carlo" and mc.resamples == n
    assert abs(mc.p_value - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1 / n
    assert unpaired_permutation(a, b, permutations=n, seed=3, exact=False).p_value == mc.p_value
    assert unpaired_permutation(a, b, permutations=n, seed=4, exact=False).p_value != mc.p_value
    assert unpaired_permutation(a, a, permutations=splits).p_value == 1.0
    assert unpaired_permutation(a, a, permutations=1000, exact=False).p_value == 1.0


def test_six_tests_on_two_systems():
    # system A: the paper's positives {1,2,4,5,7}; B puts them at {3,5,6,8,10}
    qrels = PAPER_QRELS
    b_ranks = {1: 3, 2: 5, 4: 6, 5: 8, 7: 10, 3: 1, 6: 2, 8: 4, 9: 7, 10: 9}
    run_b = "".join(f"1 Q0 d{i} {b_ranks[i]} {11 - b_ranks[i]} b\n" for i in range(1, 11)).encode()
    res = compare_positives(qrels, PAPER_RUN, run_b, "auc_roc")["1"]
    assert res["positives"] == 5 and math.isclose(res["area_a"], 0.84)
    a = positive_values(qrels, PAPER_RUN, "auc_roc")["1"].values
    b = positive_values(qrels, run_b, "auc_roc")["1"].values
    t = res["tests"]
    assert list(t) == list(POSITIVE_TESTS)
    assert math.isclose(t["t-paired"].p_value, stats.ttest_rel(b, a).pvalue, rel_tol=1e-9)
    assert math.isclose(t["t-unpaired"].p_value, stats.ttest_ind(b, a).pvalue, rel_tol=1e-9)
    assert math.isclose(t["wilcoxon-paired"].p_value, stats.wilcoxon(b - a).pvalue, rel_tol=1e-9)
    assert math.isclose(t["wilcoxon-unpaired"].p_value, stats.mannwhitneyu(b, a).pvalue, rel_tol=1e-9)
    # 2^5 sign flips: enumerated
    flips = [np.mean(np.array(s) * (b - a)) for s in itertools.product([1, -1], repeat=5)]
    want = sum(abs(f) >= abs(np.mean(b - a)) - 1e-12 for f in flips) / 32
    assert t["permutation-paired"].method == "exact" and math.isclose(t["permutation-paired"].p_value, want)
    assert math.isclose(t["permutation-unpaired"].p_value, _brute_unpaired(a, b, "two-sided"))


def test_errors():
    with pytest.raises(UsageError, match="area measure"):
        positive_values(PAPER_QRELS, PAPER_RUN, "map")
    with pytest.raises(UsageError, match="one parameter"):
        positive_values(PAPER_QRELS, PAPER_RUN, "croc_exp.7,14")
    with pytest.raises(UsageError):
        positive_tests([1, 2], [1, 2, 3])
    with pytest.raises(UsageError):
        positive_tests([1, 2], [1, 2], tests=["nope"])


def test_cli(tmp_path, capsysbinary):
    from support.golden import run_cli

    q, a, b = tmp_path / "q", tmp_path / "a", tmp_path / "b"
    q.write_bytes(PAPER_QRELS)
    a.write_bytes(PAPER_RUN)
    b.write_bytes(PAPER_RUN.replace(b"d1 1 10", b"d1 1 0.5"))  # d1 drops to the bottom in B
    code, out, err = run_cli(["compare", "--unit", "positives", "-m", "croc_exp.7", q, a, b], capsysbinary)
    assert code == 0, err
    row = out.splitlines()[2].split()
    # run, measure, topic, positives, both values, a p-value per test, the tests significant after correction
    assert row[1:4] == ["croc_exp.7", "1", "5"] and len(row) == 7 + len(POSITIVE_TESTS)
    va = positive_values(PAPER_QRELS, str(a), "croc_exp.7")["1"].values
    vb = positive_values(PAPER_QRELS, str(b), "croc_exp.7")["1"].values
    assert row[6 + POSITIVE_TESTS.index("t-paired")] == pvalue_text(stats.ttest_rel(vb, va).pvalue)
    code, out, err = run_cli(["compare", "--unit", "positives", "--format", "json", "--test", "t-paired", q, a, b],
                             capsysbinary)
    d = json.loads(out)
    assert code == 0 and [(r["test"], r["measure"]) for r in d] == [("t-paired", "auc_roc")]
    code, out, err = run_cli(["compare", "--unit", "positives", "-m", "map", q, a, b], capsysbinary)
    assert code != 0 and "area measure" in err and "Traceback" not in err
    code, out, err = run_cli(["compare", "--unit", "cases", q, a, b], capsysbinary)
    assert code != 0 and "--unit" in err


AREA_NAMES = ["auc_roc", "croc_exp.7", "croc_pow", "croc_log.80", "auc_ac", "cac_exp.7", "cac_pow", "cac_log",
              "auc_proc", "auc_pac", "auc_roc_t.0.1", "auc_roc_fp.3"]


@pytest.mark.slow
def test_every_area_from_a_fresh_command_line(tmp_path):
    """Each area measure works as the first thing a new process asks for (measure
    modules are imported on demand; the area is a field of the measure, read
    through the registry), and the list above is every measure with an area
    (besides rie and bedroc, tested as cac_exp)."""
    import subprocess
    import sys

    from trec_eval_py.engine.measures import registry

    areas = {m.name for m in registry() if m.area is not None}
    assert {n.partition(".")[0] for n in AREA_NAMES} | {"rie", "bedroc"} == areas
    q, a = tmp_path / "q", tmp_path / "a"
    q.write_bytes(PAPER_QRELS)
    a.write_bytes(PAPER_RUN)
    for name in AREA_NAMES:
        want = positive_values(PAPER_QRELS, PAPER_RUN, name)["1"].values.tolist()
        code = ("import json, sys; from trec_eval_py.tools.compare.positives import positive_values; "
                "print(json.dumps(positive_values(sys.argv[1], sys.argv[2], sys.argv[3])['1'].values.tolist()))")
        got = subprocess.run([sys.executable, "-c", code, str(q), str(a), name], capture_output=True, text=True)
        assert got.returncode == 0 and got.stderr == "", (name, got.stderr)
        assert json.loads(got.stdout) == want, name
        cli = subprocess.run([sys.executable, "-m", "trec_eval_py", "compare", "--unit", "positives", "-m", name,
                              str(q), str(a), str(a)], capture_output=True, text=True)
        assert cli.returncode == 0 and name in cli.stdout, (name, cli.stderr)


# ---- the pipeline's rankings and every option of compare --unit positives ----

CUT_QRELS = b"q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 1\nq1 0 d4 1\nq1 0 d5 0\n"
CUT_RUN = b"".join(f"q1 Q0 {d} {i + 1} {10 - i} r\n".encode()
                   for i, d in enumerate(["u1", "d1", "u2", "d3", "d4", "d2"]))


def test_max_docs_cuts_before_judged_only():
    # trec_eval cuts the ranking at -M 3 first (u1 d1 u2), then -J drops the unjudged
    # u1, u2: d1 is retrieved with no negative above it (1), d3 and d4 are missed (0)
    want = evaluate(CUT_QRELS, CUT_RUN, ["auc_roc"], max_docs=3, judged_only=True).summary["auc_roc"]
    assert math.isclose(want, 1 / 3)
    v = positive_values(CUT_QRELS, CUT_RUN, "auc_roc", max_docs=3, judged_only=True)["q1"]
    assert v.docnos == ("d1", "d3", "d4") and v.values.tolist() == [1.0, 0.0, 0.0] and v.area == want
    r = compare_positives(CUT_QRELS, CUT_RUN, CUT_RUN, "auc_roc", max_docs=3, judged_only=True)["q1"]
    assert r["area_a"] == r["area_b"] == want


def _cli_positives(tmp_path, capsysbinary, *args):
    from support.golden import run_cli

    q, a, b = tmp_path / "q", tmp_path / "a", tmp_path / "b"
    q.write_bytes(PAPER_QRELS)
    a.write_bytes(PAPER_RUN)
    # B ranks the paper's positives {1,2,4,5,7} at {3,5,6,8,10}: worse
    b_ranks = {1: 3, 2: 5, 4: 6, 5: 8, 7: 10, 3: 1, 6: 2, 8: 4, 9: 7, 10: 9}
    b.write_bytes("".join(f"1 Q0 d{i} {b_ranks[i]} {11 - b_ranks[i]} b\n" for i in range(1, 11)).encode())
    return run_cli(["compare", "--unit", "positives", *args, q, a, b], capsysbinary)


@pytest.mark.parametrize("alt", ALTS)
def test_cli_honours_alternative(tmp_path, capsysbinary, alt):
    code, out, err = _cli_positives(tmp_path, capsysbinary, "--alternative", alt, "--format", "json",
                                    "-m", "croc_exp.7")
    assert code == 0, err
    d = json.loads(out)
    assert {r["alternative"] for r in d} == {alt}
    va = positive_values(tmp_path / "q", str(tmp_path / "a"), "croc_exp.7")["1"].values
    vb = positive_values(tmp_path / "q", str(tmp_path / "b"), "croc_exp.7")["1"].values
    want = positive_tests(va, vb, alternative=alt)
    assert {r["test"]: r["p_value"] for r in d} == {t: r.p_value for t, r in want.items()}


def test_cli_fail_if(tmp_path, capsysbinary):
    # one topic, one row per test: no correction changes it; the permutation-paired
    # test of B against A is p = 2/32 two-sided, 1/32 one-sided ("less": B lower)
    args = ("--test", "permutation-paired", "-m", "auc_roc")
    code, out, err = _cli_positives(tmp_path, capsysbinary, *args, "--fail-if", "worse", "--alternative", "less")
    assert code == 3 and "significantly worse" in err and "topic 1" in err, (code, err)
    code, out, err = _cli_positives(tmp_path, capsysbinary, *args, "--fail-if", "worse")
    assert code == 0, err  # two-sided p = 0.0625 > 0.05
    code, out, err = _cli_positives(tmp_path, capsysbinary, *args, "--fail-if", "worse", "--alternative", "less",
                                    "--alpha", "0.01")
    assert code == 0, err


@pytest.mark.parametrize("args,message", [
    (["--test", "nope"], "not 'nope'"),
    (["--test", "t"], "not 't'"),  # a test of the topic unit
    (["--format", "latex"], "not the runs x measures table of --format latex: use --format long-latex"),
    (["--format", "xml"], "unknown --format 'xml'"),
    (["--format", "md", "--label", "tab:x"], "--label is for --format latex"),
    (["-l", "-1"], "-l 0 or more"),
    (["--test", "t-paired", "--permutations", "10"], "draws nothing"),
    (["-m", "croc_exp_z"], "needs an area measure (auc_ac"),
    (["-R", "prefs", "-m", "auc_roc"], "-R qrels"),
])
def test_cli_refuses_with_one_line(tmp_path, capsysbinary, args, message):
    code, out, err = _cli_positives(tmp_path, capsysbinary, *args)
    assert code != 0 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_every_format_is_the_output_layers(tmp_path, capsysbinary):
    """compare's formats but latex, each written by trec_eval_py.output.table: the
    table people read (a row per pair, measure and topic) or the machine rows (a
    row per pair, measure, topic and test, every field at full precision)."""
    import csv
    import io

    from trec_eval_py.tools.compare.positives import FORMATS, ROW_FIELDS, compare_positive_runs, positives_report

    args = ("-m", "auc_roc", "-m", "bedroc", "--test", "t-paired,permutation-paired")
    _cli_positives(tmp_path, capsysbinary, *args)  # writes q, a, b
    q, a, b = (str(tmp_path / n) for n in "qab")
    c = compare_positive_runs(q, [a, b], ["auc_roc", "bedroc"], tests=["t-paired", "permutation-paired"])
    for fmt in tb.spellings(FORMATS):
        code, out, err = _cli_positives(tmp_path, capsysbinary, *args, "--format", fmt)
        assert code == 0 and out == c.format(fmt), (fmt, err)
    assert c.format("md") == c.format("markdown") == tb.render(c.table(), "markdown")
    assert c.format("text") == tb.render(c.table(), "text") and c.format("long-latex") == tb.render(c.table(), "latex")
    assert positives_report(q, [a, b], ["auc_roc", "bedroc"], fmt="csv", tests=["t-paired", "permutation-paired"]) \
        == c.format("csv")
    # the machine rows
    rows = list(csv.DictReader(io.StringIO(c.format("csv"))))
    recs = json.loads(c.format("json"))
    assert len(rows) == len(recs) == len(c.rows) * 2 and tuple(rows[0]) == tuple(recs[0]) == ROW_FIELDS
    assert recs == c.records()
    for rec, line in zip(recs, rows):
        r = next(x for x in c.rows if (x.run, x.measure, x.topic) == (rec["run"], rec["measure"], rec["topic"]))
        res, t = r.tests[rec["test"]], rec["test"]
        assert (rec["baseline"], rec["baseline_value"], rec["value"]) == (r.baseline, r.baseline_value, r.value)
        assert (rec["p_value"], rec["p_value_corrected"], rec["significant"], rec["method"]) == \
            (res.p_value, r.p_corrected[t], r.significant[t], res.method)
        assert float(line["p_value"]) == res.p_value and float(line["value"]) == r.value
    # the table people read: a row per pair, measure and topic; the notes say why bedroc is cac_exp's
    text = c.format("text").splitlines()
    assert text[1].split() == ["run", "measure", "topic", "pos", "baseline", "value", "t-paired",
                               "permutation-paired", "significant"]
    for line, r in zip(text[2:4], c.rows):
        assert line.split() == [r.run, r.measure, r.topic, str(r.positives), f"{r.baseline_value:.4f}",
                                f"{r.value:.4f}", pvalue_text(r.tests["t-paired"].p_value),
                                pvalue_text(r.tests["permutation-paired"].p_value),
                                ",".join(t for t in c.tests if r.significant[t]) or "-"]
    assert text[4].startswith("bedroc: an affine transform of cac_exp")
    # typesetting flags apply
    code, out, err = _cli_positives(tmp_path, capsysbinary, *args, "--format", "long-latex", "--caption",
                                    "Per positive & more", "--label", "tab:pos", "--digits", "2")
    assert code == 0 and "\\caption{Per positive \\& more}" in out and "\\label{tab:pos}" in out, err
    assert f" & {c.rows[0].baseline_value:.2f} & " in out and f"{c.rows[0].baseline_value:.4f}" not in out
    code, out, err = _cli_positives(tmp_path, capsysbinary, *args, "--format", "html", "--caption", "Positives")
    assert code == 0 and "<br>Positives<br>" in out and "<thead>" in out


def test_unknown_measure_lists_every_area_in_a_fresh_process(tmp_path):
    import subprocess
    import sys

    q, a = tmp_path / "q", tmp_path / "a"
    q.write_bytes(PAPER_QRELS)
    a.write_bytes(PAPER_RUN)
    got = subprocess.run([sys.executable, "-m", "trec_eval_py", "compare", "--unit", "positives", "-m", "map",
                          str(q), str(a), str(a)], capture_output=True, text=True)
    assert got.returncode != 0 and "Traceback" not in got.stderr
    listed = got.stderr.split("(", 1)[1].split(")", 1)[0].split(", ")
    assert set(listed) >= {n.partition(".")[0] for n in AREA_NAMES} | {"rie", "bedroc"}


@pytest.mark.parametrize("measure", ["bedroc", "rie.5", "bedroc.80"])
def test_rie_and_bedroc_are_tested_as_cac_exp(measure):
    """Swamidass et al. 2010, section 5.2: RIE and BEDROC are affine transforms of
    AUC[CAC(exp)] "and therefore yield the same P-values": their tests are cac_exp's
    with the same alpha; their per-topic values are their own."""
    name, _, alpha = measure.partition(".")
    alpha = alpha or "20"
    b_ranks = {1: 3, 2: 5, 4: 6, 5: 8, 7: 10, 3: 1, 6: 2, 8: 4, 9: 7, 10: 9}
    run_b = "".join(f"1 Q0 d{i} {b_ranks[i]} {11 - b_ranks[i]} b\n" for i in range(1, 11)).encode()
    got = compare_positives(PAPER_QRELS, PAPER_RUN, run_b, measure)["1"]
    cac = compare_positives(PAPER_QRELS, PAPER_RUN, run_b, f"cac_exp.{alpha}")["1"]
    assert {t: r.p_value for t, r in got["tests"].items()} == {t: r.p_value for t, r in cac["tests"].items()}
    ev = evaluate(PAPER_QRELS, run_b, [measure])
    assert got["area_b"] == next(iter(ev.summary.values())) and got["area_b"] != cac["area_b"]
