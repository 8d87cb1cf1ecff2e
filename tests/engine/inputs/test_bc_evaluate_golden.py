"""BioCreative II.5 INT, IPT and ACT files against the official evaluation
library's own output: fixtures/bc_evaluate/ holds small cases and what
bc-evaluate 2.3.1 printed for them (``-t``, its tabular line), written by
dev/bc_evaluate_golden.py. The library is not needed here.

bc-evaluate's two choices of articles map onto ours: its default (only the
gold articles the results have hits for) is trec_eval's default, its
``--all`` is ``-c`` (also spelled ``--all``). Its columns map onto measures:
evaluated documents ``num_q``; TP, FP, FN the summed counts; micro-averaged
precision, recall and F the ``codiesp_x_*`` micro-averages; micro AUC iP/R
``auc_ipr_micro``; macro-averaged precision, recall, F and AUC iP/R
``set_P``, ``set_recall``, ``set_F`` and ``auc_ipr``. ACT: bc-evaluate
drops articles outside the gold standard from the ranking, which ``-J`` does
(without it they count as articles without interactions).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from support.golden import run_cli
from support.paths import FIXTURES

from trec_eval_py.engine.pipeline import evaluate

CASES = FIXTURES / "bc_evaluate"
NAMES = sorted(p.name for p in CASES.iterdir() if p.is_dir())

MEASURES = ["num_q", "num_ret", "num_rel", "num_rel_ret", "codiesp_x", "auc_ipr_micro", "set_P", "set_recall",
            "set_F", "auc_ipr"]


def _case(name: str):
    d = CASES / name
    task, *flags = (d / "args").read_text().split()
    expected = (d / "expected").read_text().rstrip("\n").split("\t")
    return d, task.lower(), "all" in flags, expected


def _ours(d: Path, task: str, every: bool, measures, **options):
    return evaluate(d / "gold", d / "run", measures, rel_format=f"biocreative_{task}",
                    results_format=f"biocreative_{task}", complete=every, **options).summary


def test_there_are_cases_of_every_task_and_mode():
    seen = {(_case(n)[1], _case(n)[2]) for n in NAMES}
    assert seen == {("int", False), ("int", True), ("ipt", False), ("ipt", True), ("act", False)}
    assert len(NAMES) >= 50


@pytest.mark.parametrize("name", NAMES)
def test_agrees_with_bc_evaluate(name):
    d, task, every, expected = _case(name)
    assert expected[0] == "run"  # the results file's base name
    if task == "act":
        # bc-evaluate's last column is the AUC iP/R of the joined ranking (the others
        # grade the classification, not the ranking); it leaves articles outside the
        # gold standard out of the ranking, which is -J (act_outside_gold)
        s = _ours(d, task, every, ["auc_ipr"], judged_only=True)
        assert f"{s['auc_ipr']:.5f}" == expected[-1]
        return
    s = _ours(d, task, every, MEASURES)
    tp = s["num_rel_ret"]
    got = [
        s["num_q"], tp, s["num_ret"] - tp, s["num_rel"] - tp,
        s["codiesp_x_P"], s["codiesp_x_R"], s["codiesp_x_F"], s["auc_ipr_micro"],
        s["set_P"], s["set_recall"], s["set_F"], s["auc_ipr"],
    ]
    printed = [f"{v:5d}" if isinstance(v, int) else f"{v:.5f}" for v in got]
    assert printed == expected[1:], name


def test_the_page_examples_score_as_the_page_says():
    # section 4.5: system A 0.3, system B 0.333 (the library's numbers, above, agree)
    for name, want in (("page_example_a", "0.30000"), ("page_example_b", "0.33333")):
        assert _case(name)[3][-1] == want


@pytest.mark.parametrize("flag", ["--all", "-c"])
def test_dash_dash_all_is_dash_c_on_the_command_line(flag, capsysbinary):
    d, task, every, expected = _case("int_mixed_all")
    code, out, err = run_cli(["-R", "biocreative_int", "-T", "biocreative_int", flag, "-m", "auc_ipr",
                              "-m", "auc_ipr_micro", d / "gold", d / "run"], capsysbinary)
    assert (code, err) == (0, "")
    assert out.split() == ["auc_ipr", "all", f"{float(expected[12]):.4f}",
                                    "auc_ipr_micro", "all", f"{float(expected[8]):.4f}"]
    # without it, the articles with hits only
    code, out, err = run_cli(["-R", "biocreative_int", "-T", "biocreative_int", "-m", "auc_ipr",
                              d / "gold", d / "run"], capsysbinary)
    assert out.split()[2] == f"{float(_case('int_mixed')[3][12]):.4f}"


@pytest.mark.parametrize("task", ["int", "ipt"])
def test_no_hit_for_a_gold_article(task, tmp_path):
    # bc-evaluate --all scores 0 (every article without hits); its default has no
    # article to average over: here that is an error, never a silent 0
    extra = ("Q9",) if task == "ipt" else ()
    gold = tmp_path / "gold"
    gold.write_text(f"d1\tP1{''.join(chr(9) + e for e in extra)}\n")
    run = tmp_path / "run"
    run.write_text(f"d9\tP1{''.join(chr(9) + e for e in extra)}\t1\t0.5\n")
    s = _ours(tmp_path, task, True, MEASURES)
    assert s["num_q"] == 1 and s["auc_ipr"] == s["auc_ipr_micro"] == s["codiesp_x_R"] == 0.0
    from trec_eval_py.errors import NoTopicsError

    with pytest.raises(NoTopicsError):
        _ours(tmp_path, task, False, MEASURES)
