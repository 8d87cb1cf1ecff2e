"""ir_measures names (``nDCG@10``, ``P(rel=2)@5``...) give ir_measures' numbers.

Every name is computed through our API (``evaluate(..., measures=[name])``)
and by ir_measures itself on the same random judgments and runs, topic by
topic, exactly. ir_measures runs in a child process: pytrec_eval (which its
pytrec_eval provider drives) is unreliable on ndcg after many evaluators in
one process (see tests/compat/test_compat_pytrec.py). The names ir_measures computes with
pytrec_eval are checked against that provider; RR@k, ERR@k and Judged@k,
which it does not offer, against the provider ir_measures uses for them
(msmarco, gdeval, judged), and RBP against cwl_eval, whose arithmetic differs
in the last bits (see test_rbp_matches_cwl_eval).
"""
from __future__ import annotations

import json
import math
import random

import pytest

pytest.importorskip("ir_measures")
pytest.importorskip("pytrec_eval")

from support.ir_measures_cases import PYTREC_NAMES, REFERENCE_FAILED, child_values, ir_measures_values, random_case  # noqa: E402
from support.paths import ROOT  # noqa: E402

import trec_eval_py as te  # noqa: E402
from trec_eval_py.engine.measures import registry  # noqa: E402
from trec_eval_py.engine.measures._names import ALIASES, translate  # noqa: E402
from trec_eval_py.errors import MeasureError  # noqa: E402

#: names ir_measures computes with another provider
OTHER_NAMES = {"RR@3": "msmarco", "RR@10": "msmarco", "RR(rel=2)@5": "msmarco",
               "ERR@5": "gdeval", "ERR@20": "gdeval", "Judged@3": "judged", "Judged@10": "judged"}

#: the intent-aware names (ir_measures' pyndeval provider): checked against the trec_eval-style
#: measures and ndeval's own output in test_diversity_measures.py and tests/tools/test_ndeval_golden.py
DIVERSITY_NAMES = ["alpha_nDCG@10", "alpha_DCG@5", "ERR_IA@20", "nERR_IA@5", "NRBP", "nNRBP", "AP_IA", "P_IA@10",
                   "StRecall@10"]

def summary_of(values: list[float], sums: bool) -> float:
    total = 0.0
    for v in values:  # trec_eval's sequential sum in topic order
        total += v
    return total if sums else total / len(values)


def _same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


def check_case(qrels, run, names, theirs: dict, printed=None) -> list[str]:
    """Our values for ``names`` against ir_measures' ``theirs``; ``printed``, when the
    reference prints its numbers rounded (gdeval: 5 decimals), rounds ours the same way."""
    problems = []
    ev = te.evaluate(qrels, run, names)
    ours = ev.per_topic()
    for name in names:
        if name not in theirs:
            continue  # the reference failed on it (see REFERENCE_FAILED)
        col = next(c for c in ev.columns if c.name == name)
        if not col.measure.per_topic:  # num_q: a count over topics, 1 per topic in ir_measures
            if float(ev.summary[name]) != len(set(qrels) & set(run)):
                problems.append(f"{name}: ours {ev.summary[name]}, ir_measures {theirs[name]}")
            continue
        mine = {t: float(v[name]) if printed is None else float(printed % v[name]) for t, v in ours.items()}
        other = theirs[name]
        common = [t for t in ev.topics if t in other]
        # ir_measures also lists judged topics the run lacks, at a default value; trec_eval
        # (without -c) and its pytrec_eval provider evaluate the topics on both sides
        if set(mine) != set(other) - (set(qrels) - set(run)):
            problems.append(f"{name}: topics ours {sorted(mine)}, ir_measures {sorted(other)}")
        problems += [f"{name} topic {t}: ours {mine[t]!r}, ir_measures {other[t]!r}"
                     for t in common if not _same(mine[t], other[t])]
        if printed is None and name in ev.summary and col.measure.aggregate.name in ("MEAN", "SUM"):
            want = summary_of([other[t] for t in ev.topics], col.measure.aggregate.name == "SUM")
            if not _same(float(ev.summary[name]), want):
                problems.append(f"{name} summary: ours {ev.summary[name]!r}, mean of ir_measures' {want!r}")
    return problems


@pytest.mark.slow
def test_pytrec_eval_provider_names_match_exactly():
    rng = random.Random("ir_measures names")
    cases = [(*random_case(rng), PYTREC_NAMES, "pytrec_eval") for _ in range(24)]
    REFERENCE_FAILED.clear()
    theirs = ir_measures_values(cases)
    for (qrels, run, names, _), got in zip(cases, theirs):
        problems = check_case(qrels, run, names, got)
        assert not problems, f"qrels={qrels}\nrun={run}\n" + "\n".join(problems)
    # the reference failing is pytrec_eval's problem, but it must stay rare or nothing is checked
    assert len(REFERENCE_FAILED) <= len(cases) * len(PYTREC_NAMES) // 50, REFERENCE_FAILED


@pytest.mark.parametrize("provider", sorted(set(OTHER_NAMES.values())))
@pytest.mark.slow
def test_other_provider_names_match_exactly(provider):
    names = [n for n, p in OTHER_NAMES.items() if p == provider]
    rng = random.Random("ir_measures " + provider)
    # gdeval refuses negative grades and ones above 4. Judged@k: ir_measures counts a
    # document listed with a negative level as judged, trec_eval's convention (ours) does not
    # (see test_judged_negative_levels). These providers break score ties their own way (ours
    # is trec_eval's, which the pytrec_eval provider shares), so the runs have distinct scores.
    levels = {"gdeval": (0, 0, 1, 1, 2, 3, 4), "judged": (0, 0, 1, 1, 2, 3)}.get(provider, (-1, 0, 0, 1, 1, 2, 3))
    cases = [(*random_case(rng, levels, ties=False), names, provider) for _ in range(20)]
    theirs = ir_measures_values(cases)
    # gdeval.pl prints its values with 5 decimals: ours, printed so, must be the same text
    printed = "%.5f" if provider == "gdeval" else None
    for (qrels, run, names, _), got in zip(cases, theirs):
        problems = check_case(qrels, run, names, got, printed)
        assert not problems, f"qrels={qrels}\nrun={run}\n" + "\n".join(problems)


#: RBP variants and the name cwl_eval (which needs rel=) computes them under
RBP_NAMES = {"RBP(p=0.8)": "RBP(p=0.8,rel=1)", "RBP(p=0.5)": "RBP(p=0.5,rel=1)",
             "RBP(rel=1)": "RBP(rel=1)", "RBP(p=0.8,rel=2)": "RBP(p=0.8,rel=2)",
             "RBP(p=0.6,rel=3)": "RBP(p=0.6,rel=3)", "RBP(rel=0)": "RBP(rel=0)"}


@pytest.mark.slow
def test_rbp_matches_cwl_eval():
    """RBP(rel=N) is rbp_bin at -l N: cwl_eval's RBP(rel=N), relevance reduced to 0/1.
    RBP(p=...) is trec_eval 10.0's rbp (graded gains): on binary judgments, cwl_eval's
    RBP(rel=1).

    cwl_eval forms the geometric weights its own way, so values agree to
    within a few units in the last place, not bit for bit (ours are trec_eval's;
    test_m_rbp checks rbp_bin against trec_eval's rbp on binary judgments exactly).
    """
    pytest.importorskip("cwl")
    rng = random.Random("ir_measures rbp")
    cases = []
    for i in range(16):
        # cwl_eval breaks ties its own way; RBP(p=...) is graded, so binary judgments for it.
        # No negative levels: cwl_eval reads them as 0 (relevant at rel=0), trec_eval as unjudged
        levels = (0, 0, 1) if i < 6 else (0, 0, 1, 1, 2, 3)
        qrels, run = random_case(rng, levels=levels, ties=False)
        names = list(RBP_NAMES) if i < 6 else [n for n in RBP_NAMES if "rel" in n]
        cases.append((qrels, run, sorted({RBP_NAMES[n] for n in names}), "cwl_eval"))
    theirs = ir_measures_values(cases)
    checked = set()
    for (qrels, run, their_names, _), got in zip(cases, theirs):
        ours_names = [n for n in RBP_NAMES if RBP_NAMES[n] in their_names]
        ev = te.evaluate(qrels, run, ours_names).per_topic()
        for ours_name in ours_names:
            other = got[RBP_NAMES[ours_name]]
            assert set(ev) == set(other) - (set(qrels) - set(run))
            for t in ev:
                assert ev[t][ours_name] == pytest.approx(other[t], rel=1e-12, abs=1e-15), (ours_name, t, qrels, run)
            checked.add(ours_name)
    assert checked == set(RBP_NAMES)


#: ir_measures' C/W/L names (computed by its cwl_eval provider, which needs max_rel)
CWL_NAMES = ["INST(max_rel=3)", "INST(T=2,max_rel=3)", "INSQ(T=0.5,max_rel=3)", "INSQ(min_rel=1,max_rel=2)",
             "BPM(max_rel=3)@5", "BPM(T=2,min_rel=1,max_rel=3)@10", "SDCG(max_rel=3)@5", "SDCG(max_rel=1)@10",
             "NERR8(max_rel=3)@5", "NERR9(max_rel=2)@10", "NERR10(max_rel=3)", "NERR10(p=0.5,max_rel=3)",
             "NERR11(max_rel=3)", "NERR11(T=3,min_rel=1,max_rel=3)"]


@pytest.mark.slow
def test_cwl_names_match_ir_measures_cwl_eval():
    """INST, INSQ, BPM, SDCG and NERR8..11 give ir_measures' (cwl_eval's) numbers to 1e-9.
    The runs have distinct scores: ir_measures orders ties its own way. Negative levels:
    ir_measures reads them as 0, which gains 0 as an unjudged document does here."""
    pytest.importorskip("cwl")
    rng = random.Random("ir_measures cwl")
    cases = [(*random_case(rng, ties=False), CWL_NAMES, "cwl_eval") for _ in range(12)]
    theirs = ir_measures_values(cases)
    for (qrels, run, names, _), got in zip(cases, theirs):
        ev = te.evaluate(qrels, run, names).per_topic()
        for name in names:
            other = got[name]
            assert set(ev) == set(other) - (set(qrels) - set(run)), name
            for t in ev:
                assert ev[t][name] == pytest.approx(other[t], rel=1e-9, abs=1e-9), (name, t, qrels, run)


def test_rbp_rel_is_rbp_bin_at_that_level():
    qrels, run = random_case(random.Random("rbp rel"))
    ev = te.evaluate(qrels, run, ["RBP(rel=2)", "RBP(p=0.5,rel=3)"])
    assert [c.trec_name for c in ev.columns] == ["rbp_bin_p=0.8", "rbp_bin_p=0.5"]
    for name, spec, level in [("RBP(rel=2)", "rbp_bin.p=0.8", 2), ("RBP(p=0.5,rel=3)", "rbp_bin.p=0.5", 3)]:
        direct = te.evaluate(qrels, run, [spec], relevance_level=level)
        assert ev.summary[name] == direct.summary[spec.replace(".", "_", 1)]


def test_every_listed_name_is_tested_and_maps_to_a_registered_measure():
    named = PYTREC_NAMES + list(OTHER_NAMES) + CWL_NAMES + DIVERSITY_NAMES
    tested = {translate(n).label.split("(")[0].split("@")[0] for n in named} | {"RBP"}
    assert set(ALIASES) == tested
    for name in named + list(RBP_NAMES):
        assert translate(name).spec.partition(".")[0] in registry()


def test_cli_reports_under_the_name_asked_for(tmp_path):
    from trec_eval_py.cli import main

    qrels, run = random_case(random.Random("cli names"))
    qf, rf = tmp_path / "q", tmp_path / "r"
    qf.write_text("".join(f"{q} 0 {d} {r}\n" for q, ds in qrels.items() for d, r in ds.items()))
    rf.write_text("".join(f"{q} Q0 {d} {i + 1} {s} run\n"
                          for q, ds in run.items() for i, (d, s) in enumerate(ds.items())))
    names = ["nDCG@10", "P(rel=2)@5", "AP", "map", "R@5", "SetF(beta=0.5)"]
    api = te.evaluate(str(qf), str(rf), names)
    argv = [x for n in names for x in ("-m", n)]

    def run_cli(*extra):
        import contextlib
        import io

        buf = io.BytesIO()

        class Out:
            buffer = buf

            def write(self, s):
                buf.write(s.encode())

            def flush(self):
                pass

        with contextlib.redirect_stdout(Out()):
            try:
                main([*argv, *extra, str(qf), str(rf)])
            except SystemExit as e:
                assert not e.code
        return buf.getvalue().decode()

    doc = json.loads(run_cli("--format", "json", "-q"))
    assert list(doc["summary"]) == [c.name for c in api.columns]
    assert set(doc["summary"]) >= set(names)
    for name in names:
        assert doc["summary"][name] == api.summary[name]
        for t, vals in doc["per_topic"].items():
            assert vals[name] == api.per_topic()[t][name]
    text = run_cli()
    printed = [line.split("\t")[0].strip() for line in text.splitlines()]
    # trec_eval's names in its own output, in its print order; AP and map are one value,
    # printed once as trec_eval prints a measure named twice once (JSON above has both);
    # P(rel=2)@5 is not trec_eval's P_5 and says which level it counts
    assert printed == ["map", "P_5_rel=2", "recall_5", "ndcg_cut_10", "set_F_0.5"]


@pytest.mark.parametrize("spec,hint", [
    ("ndcg@10", "'ndcg_cut.10' or 'nDCG@10'"),
    ("mAP", "'map' or 'AP'"),
    ("ndcg_cutt.10", "'ndcg_cut.10' or 'nDCG@10'"),
    ("Precison@5", "'P.5' or 'P@5'"),
    ("recal.20", "'recall.20' or 'R@20'"),
    ("mrr@10", "'rr_cut.10' or 'RR@10'"),
    ("NDCG_CUT.5", "'ndcg_cut.5' or 'nDCG@5'"),
])
def test_unknown_names_suggest_both_spellings(spec, hint):
    with pytest.raises(MeasureError, match="did you mean " + hint.replace(".", r"\.")):
        te.evaluate({"1": {"a": 1}}, {"1": {"a": 1.0}}, [spec])


@pytest.mark.parametrize("spec,message", [
    ("P", None),  # trec_eval's P: every default cutoff, not an ir_measures name
    ("P(rel=2)", "needs a cutoff"),
    ("Bpref(judged_only=True)", "takes no parameter 'judged_only'"),
    ("nDCG(rel=2)@10", "takes no parameter 'rel'"),
    ("AP(rel=1.5)", "rel= must be a whole number.*not '1.5'"),
    ("P@0", "whole number above 0"),
    ("IPrec@1.5", "from 0 to 1"),
    ("Rprec@5", "takes no @cutoff"),
    ("AP(2)", "must be named"),
    ("AP(rel=x)", "rel= must be a whole number.*not 'x'"),
    ("nDCG(gains={-1:2,1:3})@10", "levels 0 or more"),
    ("nDCG(gains={1:-1},judged_only=True)@10", "negative gains with judged_only"),
    ("nDCG(dcg='exp-log2')@10", "only dcg='log2'"),
    ("nDCG(gains={1:'a'})", "maps whole-number levels to numbers"),
])
def test_bad_names_are_refused_clearly(spec, message):
    ok = {"1": {"a": 1}}, {"1": {"a": 1.0}}
    if message is None:
        assert te.evaluate(*ok, [spec]).summary["P_5"] == 0.2
        return
    with pytest.raises(MeasureError, match=message):
        te.evaluate(*ok, [spec])


def test_global_options_apply_unless_the_name_overrides_them():
    qrels = {"1": {"a": 1, "b": 2, "c": 0}}
    run = {"1": {"a": 3.0, "b": 2.0, "z": 1.0}}
    ev = te.evaluate(qrels, run, ["P@2", "P(rel=1)@2", "P.2", "P(judged_only=True)@3"], relevance_level=2)
    assert ev.summary["P@2"] == ev.summary["P_2"] == 0.5  # -l 2: only b counts
    assert ev.summary["P(rel=1)@2"] == 1.0
    assert ev.summary["P(judged_only=True)@3"] == pytest.approx(1 / 3)  # z dropped; rel level still 2
    # one kernel pass per distinct set of options, reported under the names asked for
    assert [c.name for c in ev.columns] == ["P_2", "P@2", "P(rel=1)@2", "P(judged_only=True)@3"]
    assert [c.trec_name for c in ev.columns] == ["P_2", "P_2", "P_2", "P_3"]


def test_compare_and_batch_accept_the_names(tmp_path):
    from trec_eval_py.tools.compare.comparison import compare_runs
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard

    qrels = "examples/qrels.txt"
    runs = ["examples/run_a.txt", "examples/run_b.txt"]

    root = ROOT
    qrels, runs = str(root / qrels), [str(root / r) for r in runs]
    board = build_leaderboard(qrels, runs, ["nDCG@10", "P(rel=2)@5"])
    assert board.columns == ["nDCG@10", "P(rel=2)@5"]
    for e in board.entries:
        direct = te.evaluate(qrels, e.path, ["ndcg_cut.10"]).summary["ndcg_cut_10"]
        assert e.evaluation.summary["nDCG@10"] == direct
    cmp = compare_runs(qrels, runs, ["nDCG@10", "AP"], ["t"], permutations=10)
    text = cmp.format("json")
    assert "nDCG@10" in text and "AP" in text


def test_judged_negative_levels():
    """A document judged -1 (pooled, not judged) is unjudged for Judged@k, as for trec_eval's -J."""
    qrels = {"1": {"a": 1, "b": -1, "c": 0}}
    run = {"1": {"a": 3.0, "b": 2.0, "c": 1.0, "z": 0.5}}
    ev = te.evaluate(qrels, run, ["Judged@2", "Judged@4"])
    assert ev.summary["Judged@2"] == 0.5 and ev.summary["Judged@4"] == 0.5


@pytest.mark.slow
def test_ir_measures_runs_on_the_drop_in():
    """ir_measures' pytrec_eval provider, with ``pytrec_eval`` redirected to our drop-in,
    gives what it gives with the real pytrec_eval, topic by topic and exactly."""
    rng = random.Random("drop-in under ir_measures")
    cases = [(*random_case(rng), PYTREC_NAMES, "pytrec_eval") for _ in range(10)]
    real = ir_measures_values(cases)
    ours = [child_values([case], drop_in=True)[0] for case in cases]  # the drop-in never crashes
    for case, want, got in zip(cases, real, ours):
        for name in want:
            assert got[name].keys() == want[name].keys(), name
            bad = {t: (got[name][t], want[name][t]) for t in want[name] if not _same(got[name][t], want[name][t])}
            assert not bad, f"{name}: {bad}\nqrels={case[0]}\nrun={case[1]}"
