"""``trec_eval_py diff``: the regression check between two evaluation outputs."""
from __future__ import annotations

import re
from decimal import Decimal

import pytest
from support.golden import (
    GOLDEN,
    run_cli,  # noqa: E402
)
from support.paths import EXAMPLES, ROOT  # noqa: E402

from trec_eval_py.errors import InputError
from trec_eval_py.tools.compare.diff import CHANGED, ONLY_NEW, ONLY_OLD, diff_outputs

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
    assert {d.measure for d in report.differences if d.kind == ONLY_NEW} == {"rbp", "rbp_resid", "unj_5", "unj_10",
                                                                             "unj_20"}
    code, out, _ = run_cli(["diff", old, new], capsysbinary)
    assert code == 3
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
    assert code == 3
    assert out.splitlines()[-1] == (
        "3 differences beyond 0.0001: 1 changed, 1 only in old, 1 only in new (4 values compared)")
    code, out, _ = run_cli(["diff", "-q", a, b], capsysbinary)
    assert code == 3 and out.count("\n") == 1


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


# ---------------------------------------------------------------- json and csv outputs, ignore, tolerances

def _outputs(tmp_path, capsysbinary, run="run_a.txt", runid=None):
    """The same evaluation written as trec text, json and csv (with -q)."""

    ex = EXAMPLES
    src = ex / run
    if runid is not None:
        src = tmp_path / f"{runid}.run"
        lines = (ex / run).read_text().splitlines()
        src.write_text("".join(" ".join(ln.split()[:5] + [runid]) + "\n" for ln in lines))
    paths = {}
    for fmt in ("trec", "json", "csv"):
        code, out, _ = run_cli(["-q", "-m", "runid", "-m", "map", "-m", "P.5,10", "-m", "num_ret", "--format", fmt,
                                str(ex / "qrels.txt"), str(src)], capsysbinary)
        assert code == 0
        p = tmp_path / f"{runid or run}.{fmt}"
        p.write_text(out)
        paths[fmt] = p
    return paths


def test_json_and_csv_on_either_side(tmp_path, capsysbinary):
    out = _outputs(tmp_path, capsysbinary)
    text_values = diff_outputs(out["trec"], out["trec"]).compared
    # full precision on both sides: identical to the last digit
    for a, b in (("json", "csv"), ("csv", "json"), ("json", "json"), ("csv", "csv")):
        report = diff_outputs(out[a], out[b], 0)
        assert report.same and report.compared == text_values, (a, b)
    # against four printed decimals: equal within half the last decimal, not closer
    for a, b in (("trec", "json"), ("csv", "trec")):
        assert diff_outputs(out[a], out[b], "5e-5").same
    assert not diff_outputs(out["trec"], out["json"], 0).same
    code, text, _ = run_cli(["diff", out["trec"], out["csv"], "--tol", "5e-5"], capsysbinary)
    assert code == 0 and text.startswith("no differences beyond 0.00005")


def test_json_and_csv_differences_are_found(tmp_path, capsysbinary):
    a = _outputs(tmp_path, capsysbinary, "run_a.txt")
    b = _outputs(tmp_path, capsysbinary, "run_b.txt")
    by_text = {(d.measure, d.topic) for d in diff_outputs(a["trec"], b["trec"]).differences}
    for fa, fb in (("json", "csv"), ("trec", "json"), ("csv", "trec")):
        got = {(d.measure, d.topic) for d in diff_outputs(a[fa], b[fb], "1e-4").differences}
        assert got == by_text, (fa, fb)


def test_ignore_runid_and_measures(tmp_path, capsysbinary):
    a = _outputs(tmp_path, capsysbinary, runid="alpha")
    b = _outputs(tmp_path, capsysbinary, runid="beta")
    for fmt in ("trec", "json", "csv"):
        report = diff_outputs(a[fmt], b[fmt])
        assert [(d.measure, d.topic) for d in report.differences] == [("runid", "all")]
        assert diff_outputs(a[fmt], b[fmt], ignore=["runid"]).same
    code, out, _ = run_cli(["diff", a["json"], b["csv"], "--ignore", "runid"], capsysbinary)
    assert code == 0 and out.rstrip().endswith("ignored: runid)")
    c = _outputs(tmp_path, capsysbinary, "run_b.txt")
    report = diff_outputs(a["trec"], c["trec"], ignore=["runid", "map"])
    assert {d.measure for d in report.differences} == {"P_5", "P_10"}
    assert diff_outputs(a["trec"], c["trec"], ignore=["runid", "map", "P_*"]).same
    code, _, _ = run_cli(["diff", a["trec"], c["trec"], "--ignore", "runid,map", "--ignore", "P_5 P_10"],
                         capsysbinary)
    assert code == 0


def test_tolerance_per_measure(tmp_path, capsysbinary):
    a = write(tmp_path, "a", BASE)
    b = write(tmp_path, "b", [BASE[0], ("map", "1", "0.2550"), BASE[2], ("map", "all", "0.3775"),
                              ("num_ret", "all", "2003")])
    assert {d.measure for d in diff_outputs(a, b).differences} == {"map", "num_ret"}
    report = diff_outputs(a, b, ["1e-4", "map=0.005"])
    assert [d.measure for d in report.differences] == ["num_ret"]
    assert diff_outputs(a, b, ["map=0.005", "num_*=3"]).same
    assert diff_outputs(a, b, "1e-4", tolerances={"map": "0.004", "num_ret": 5}).differences[0].topic == "1"
    code, out, _ = run_cli(["diff", a, b, "--tol", "map=0.005", "--tol", "num_ret=2"], capsysbinary)
    assert code == 3
    assert out.splitlines()[-1] == ("1 difference beyond tolerance (0.0001; map 0.005, num_ret 2): "
                                    "1 changed (5 values compared)")
    code, _, err = run_cli(["diff", a, b, "--tol", "map=x"], capsysbinary)
    assert code == 1 and "tolerance of map 'x' is not a number" in err


def test_summary_by_measure_and_topic(tmp_path, capsysbinary):
    old, new = EXPECTED / "9.0.8" / "te_aq.out", EXPECTED / "10.0" / "te_aq.out"
    report = diff_outputs(old, new)
    by_measure, by_topic = dict(report.by_measure()), dict(report.by_topic())
    assert sum(by_measure.values()) == sum(by_topic.values()) == len(report.differences)
    assert by_measure["rbp"] == sum(1 for d in report.differences if d.measure == "rbp")
    code, out, _ = run_cli(["diff", old, new], capsysbinary)
    lines = out.splitlines()
    assert lines[-3].startswith("by measure:  ") and lines[-2].startswith("by topic:    ")
    assert f"iprec_at_recall_0.10 {by_measure['iprec_at_recall_0.10']}" in lines[-3]
    assert f"all {by_topic['all']}" in lines[-2]


@pytest.mark.parametrize("content,message", [
    ('{"runid": "x", "summary": {"map": [1]}}', "map for topic all: expected a number or text"),
    ('{"runid": "x"', "not valid JSON"),
    ('{"rows": []}', "not an output of trec_eval_py --format json"),
    ("runid,topic,measure,value\nx,all,map\n", "line 2: expected 'runid,topic,measure,value', found 3 fields"),
    ("runid,topic,measure,value\nx,all,map,0.1\nx,all,map,0.2\n", "map for topic all given twice (first on line 2)"),
    ("runid,topic,measure,value\nx,all,map,0.1\x00\n", "line 2: a NUL byte in a value"),
    ("map\tall\t0.1\x00\n", "line 1: a NUL byte in a value"),
])
def test_malformed_json_and_csv(tmp_path, capsysbinary, content, message):
    bad = tmp_path / "bad.out"
    bad.write_text(content)
    good = write(tmp_path, "good", BASE)
    code, _, err = run_cli(["diff", good, bad], capsysbinary)
    assert code == 2 and message in err and "Traceback" not in err


# ---------------------------------------------------------------- what the pages say diff exits with

#: "`diff` exits N when CONDITION" in prose, and the row of the exit-status guide's table of checks
_STATED = re.compile(r"`diff` exits (?:with status )?(\d+) when ([^.;(]*)")
_TABLE_ROW = re.compile(r"^\| `diff` \| (\d+) \|", re.MULTILINE)


def stated_diff_statuses() -> list[tuple[str, int, str]]:
    """(page, status, condition) for every place the README and the guides say what ``diff`` exits with."""
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        if {"_build", "reference"} & set(page.relative_to(ROOT).parts):
            continue
        text = page.read_text(encoding="utf-8")
        flat = " ".join(text.split())
        rel = page.relative_to(ROOT).as_posix()
        found += [(rel, int(m[1]), m[2].strip()) for m in _STATED.finditer(flat)]
        found += [(rel, int(m[1]), "found differences (the table of checks)") for m in _TABLE_ROW.finditer(text)]
    return found


def _situation(condition: str) -> str:
    """Which run of diff a stated condition describes."""
    c = condition.lower()
    for word, situation in (("usage", "usage"), ("read", "unreadable"), ("no difference", "same"),
                            ("changed", "regression"), ("moved", "regression"), ("differ", "regression")):
        if word in c:
            return situation
    raise AssertionError(f"cannot tell which case of diff this describes: {condition!r}")


def test_the_docs_state_the_exit_statuses_diff_gives(tmp_path, capsysbinary):
    old = write(tmp_path, "old", BASE)
    new = write(tmp_path, "new", [BASE[0], ("map", "1", "0.3500"), *BASE[2:]])
    bad = tmp_path / "bad"
    bad.write_text("map all\n")
    real = {situation: run_cli(["diff", *args], capsysbinary)[0] for situation, args in (
        ("same", [old, old]), ("regression", [old, new]), ("usage", ["--tol", "x", old, new]),
        ("unreadable", [old, bad]))}
    stated = stated_diff_statuses()
    pages = {page for page, _, _ in stated}
    # the CI guide and the exit-status guide both say it (the CI guide once said 1)
    assert {"docs/guide/ci.md", "docs/guide/exit-codes.md"} <= pages, stated
    wrong = [(page, status, cond, real[_situation(cond)]) for page, status, cond in stated
             if status != real[_situation(cond)]]
    assert wrong == [], "pages that state another status than diff gives (page, stated, when, real)"


@pytest.mark.parametrize("line", ["map\t301\tabc", "some garbage here", "P_5\tall\t0.2x"])
def test_a_value_that_is_not_a_number_is_unreadable_input(tmp_path, capsysbinary, line):
    # not "the numbers moved" (3): the file cannot be read (2), the message names file, line and text
    good = write(tmp_path, "good", BASE)
    bad = tmp_path / "bad.txt"
    bad.write_text("runid\tall\tsys\n" + line + "\n")
    code, out, err = run_cli(["diff", good, bad], capsysbinary)
    assert code == 2 and out == ""
    assert err.startswith(f"trec_eval_py: {bad}, line 2: ") and "is not a number" in err and repr(line) in err
    with pytest.raises(InputError) as e:
        diff_outputs(bad, good)
    assert (e.value.path, e.value.line, e.value.text) == (str(bad), 2, line)


def test_a_text_value_in_json_where_a_number_belongs_is_unreadable_input(tmp_path, capsysbinary):
    doc = tmp_path / "bad.json"
    doc.write_text('{"runid": "sys", "per_topic": {"301": {"map": "abc"}}, "summary": {}}')
    code, _, err = run_cli(["diff", doc, doc], capsysbinary)
    assert code == 2 and "map for topic 301: 'abc' is not a number" in err


def test_text_measures_are_compared_as_text(tmp_path, capsysbinary):
    # the run id and relstring (relstring_20 with a parameter) are text in any output
    old = write(tmp_path, "old", [("runid", "all", "sys"), ("relstring_20", "1", "'10-0'"), ("relstring", "1", "''")])
    new = write(tmp_path, "new", [("runid", "all", "sys"), ("relstring_20", "1", "'11-0'"), ("relstring", "1", "''")])
    report = diff_outputs(old, new)
    assert [(d.kind, d.measure) for d in report.differences] == [(CHANGED, "relstring_20")]
