"""``trec_eval_py diff``: the regression check between two evaluation outputs."""
from __future__ import annotations

from decimal import Decimal

import pytest

from golden import GOLDEN
from trec_eval_py.tools.diff import CHANGED, ONLY_NEW, ONLY_OLD, diff_outputs
from golden import run_cli  # noqa: E402

EXPECTED = GOLDEN / "expected"



def write(tmp_path, name, rows):
    p = tmp_path / name
    p.write_text("".join("%-22s\t%s\t%s\n" % r for r in rows))
    return p


BASE = [("runid", "all", "sys"), ("map", "1", "0.2500"), ("map", "2", "0.5000"), ("map", "all", "0.3750"),
        ("num_ret", "all", "2000")]


def test_identical_outputs(tmp_path, capsysbinary):
    a = write(tmp_path, "a", BASE)
    code, out, _ = run_cli(["diff", a, a], capsysbinary)
    assert code == 0 and out == "no differences beyond 0.0001 (5 values compared)\n"


def test_trec_eval_9_and_10_outputs_differ(capsysbinary):
    old, new = EXPECTED / "9.0.8" / "te_aq.out", EXPECTED / "10.0" / "te_aq.out"
    report = diff_outputs(old, new)
    changed = {(d.measure, d.topic) for d in report.differences if d.kind == CHANGED}
    assert ("iprec_at_recall_0.10", "301") in changed and ("11pt_avg", "all") in changed
    assert {d.measure for d in report.differences if d.kind == ONLY_NEW} == {"rbp", "rbp_resid", "unj_5", "unj_10", "unj_20"}
    code, out, _ = run_cli(["diff", old, new], capsysbinary)
    assert code == 1
    assert "changed     iprec_at_recall_0.10    301       0.2096 -> 0.2098  (+0.0002)" in out.splitlines()


def test_tolerance_is_exact_on_printed_decimals(tmp_path):
    a = write(tmp_path, "a", BASE)
    b = write(tmp_path, "b", [BASE[0], ("map", "1", "0.2501"), ("map", "2", "0.4999"), BASE[3], BASE[4]])
    assert diff_outputs(a, b, "1e-4").same  # a change of exactly 0.0001 is within 1e-4
    moved = diff_outputs(a, b, 0.00009)
    assert [(d.measure, d.topic, d.delta) for d in moved.differences] == [
        ("map", "1", Decimal("0.0001")), ("map", "2", Decimal("-0.0001"))]
    assert diff_outputs(a, b, 0).differences[0].kind == CHANGED


def test_one_sided_and_text_values(tmp_path, capsysbinary):
    a = write(tmp_path, "a", BASE)
    b = write(tmp_path, "b", [("runid", "all", "sys2"), BASE[1], BASE[3], BASE[4], ("P_5", "all", "0.4000")])
    report = diff_outputs(a, b)
    kinds = [(d.kind, d.measure, d.topic) for d in report.differences]
    assert kinds == [(CHANGED, "runid", "all"), (ONLY_OLD, "map", "2"), (ONLY_NEW, "P_5", "all")]
    code, out, _ = run_cli(["diff", a, b], capsysbinary)
    assert code == 1
    assert out.splitlines()[-1] == "3 differences beyond 0.0001: 1 changed, 1 only in old, 1 only in new (4 values compared)"
    code, out, _ = run_cli(["diff", "-q", a, b], capsysbinary)
    assert code == 1 and out.count("\n") == 1


def test_nan_and_integers(tmp_path):
    a = write(tmp_path, "a", [("x", "1", "nan"), ("y", "1", "-nan"), ("num_rel", "all", "10")])
    b = write(tmp_path, "b", [("x", "1", "-nan"), ("y", "1", "0.0000"), ("num_rel", "all", "11")])
    report = diff_outputs(a, b, 0.5)
    assert [(d.measure, d.delta) for d in report.differences] == [("y", None), ("num_rel", Decimal(1))]


def test_our_output_against_trec_eval(capsysbinary, tmp_path, monkeypatch):
    """The intended use: our output for a golden case is diffed with trec_eval's."""
    monkeypatch.chdir(GOLDEN)
    code, out, _ = run_cli(["-q", "-m", "map", "-m", "P.5", "inputs/qrels.test", "inputs/results.test"], capsysbinary)
    ours = tmp_path / "ours.txt"
    ours.write_text(out)
    report = diff_outputs(ours, EXPECTED / "9.0.8" / "te_aq.out", 0)
    assert not [d for d in report.differences if d.kind != ONLY_NEW]
    assert report.compared == out.count("\n")


@pytest.mark.parametrize(
    "content,message",
    [
        ("map all\n", "expected 'measure topic value', found 2 fields"),
        ("map\tall\t0.1\nmap\tall\t0.2\n", "map for topic all given twice (first on line 1)"),
        ("\n\n", "no evaluation lines"),
    ],
)
def test_malformed_input(tmp_path, capsysbinary, content, message):
    bad = tmp_path / "bad.txt"
    bad.write_text(content)
    good = write(tmp_path, "good", BASE)
    code, out, err = run_cli(["diff", good, bad], capsysbinary)
    assert code == 2 and message in err and "bad.txt" in err and "Traceback" not in err


@pytest.mark.parametrize("tol", ["-1", "abc", "inf"])
def test_bad_tolerance(tmp_path, capsysbinary, tol):
    a = write(tmp_path, "a", BASE)
    code, _, err = run_cli(["diff", a, a, "--tol", tol], capsysbinary)
    assert code == 1 and "tolerance" in err


def test_missing_file(tmp_path, capsysbinary):
    a = write(tmp_path, "a", BASE)
    code, _, err = run_cli(["diff", a, tmp_path / "none"], capsysbinary)
    assert code == 2 and "no such file" in err
