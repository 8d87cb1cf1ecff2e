"""The main command's ``--format trec|json|csv``: the same values as the
text output, keyed by topic and measure (json) or one per row (csv)."""
from __future__ import annotations

import csv
import io
import json

import pytest
from support.golden import GOLDEN
from support.golden import run_cli as _run_cli  # noqa: E402


def run_cli(args, capsysbinary, monkeypatch):
    return _run_cli(args, capsysbinary, monkeypatch, cwd=GOLDEN)

ARGS = ["-m", "runid", "-m", "num_q", "-m", "num_ret", "-m", "map", "-m", "P.5,10"]



def trec_values(text):
    """{(topic, measure): printed value} of trec_eval-format text."""
    return {(f[1], f[0]): f[2] for f in (ln.split() for ln in text.splitlines())}


def printed(value):
    return value if isinstance(value, str) else ("%d" % value if isinstance(value, int) else "%6.4f" % value)


@pytest.mark.parametrize("extra", [["-q"], [], ["-q", "-n"], ["-q", "-c", "-M", "50"]])
@pytest.mark.parametrize("run", ["inputs/results.test", "inputs/results.trunc"])
def test_json_and_csv_hold_the_printed_values(extra, run, capsysbinary, monkeypatch):
    files = ["inputs/qrels.test", run]
    code, text, _ = run_cli([*ARGS, *extra, *files], capsysbinary, monkeypatch)
    assert code == 0
    want = trec_values(text)

    code, out, _ = run_cli([*ARGS, *extra, "--format", "json", *files], capsysbinary, monkeypatch)
    assert code == 0
    doc = json.loads(out)
    got = {(t, m): printed(v) for t, vals in doc.get("per_topic", {}).items() for m, v in vals.items()}
    got.update({("all", m): printed(v) for m, v in doc.get("summary", {}).items()})
    assert got == want
    assert doc["runid"] == "STANDARD"
    assert ("per_topic" in doc) == ("-q" in extra) and ("summary" in doc) == ("-n" not in extra)
    assert isinstance(doc.get("summary", {}).get("num_ret", 0), int)

    code, out, _ = run_cli([*ARGS, *extra, "--format", "csv", *files], capsysbinary, monkeypatch)
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["runid", "topic", "measure", "value"]
    assert {r[0] for r in rows[1:]} == {"STANDARD"}
    got = {(r[1], r[2]): r[3] for r in rows[1:]}
    assert {k: printed(float(v)) if "." in v else v for k, v in got.items()} == want
    # same order as the text output
    assert [(r[1], r[2]) for r in rows[1:]] == list(want)


def test_csv_keeps_full_precision(capsysbinary, monkeypatch):
    code, out, _ = run_cli(["-m", "map", "--format", "csv", "inputs/qrels.test", "inputs/results.test"],
                           capsysbinary, monkeypatch)
    value = list(csv.reader(io.StringIO(out)))[1][3]
    assert len(value) > 8 and float(value) == pytest.approx(0.1785, abs=5e-5)


def test_trec_format_is_the_default(capsysbinary, monkeypatch):
    files = ["inputs/qrels.test", "inputs/results.test"]
    _, a, _ = run_cli(["-q", *files], capsysbinary, monkeypatch)
    _, b, _ = run_cli(["-q", "--format", "trec", *files], capsysbinary, monkeypatch)
    assert a == b == (GOLDEN / "expected" / "9.0.8" / "te_official_q.out").read_text()


def test_unknown_format(capsysbinary, monkeypatch):
    code, out, err = run_cli(["--format", "xml", "inputs/qrels.test", "inputs/results.test"], capsysbinary, monkeypatch)
    assert code == 1 and out == ""
    assert err == "trec_eval_py: unknown --format 'xml'; choose one of trec, json, csv, parquet\n"


def test_plain_text_outside_notebooks():
    """Evaluations, comparisons and boards print as text where no notebook renders HTML."""
    from support.golden import GOLDEN

    import trec_eval_py as te
    from trec_eval_py.tools.compare.comparison import compare_runs
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard, render_leaderboard

    q, r = str(GOLDEN / "inputs" / "qrels.test"), str(GOLDEN / "inputs" / "results.test")
    e = te.evaluate(q, r, ["map", "P.5"])
    assert repr(e) == e.to_text() and repr(e).startswith("map")
    c = compare_runs(q, [r, r], ["map"], ["t"])
    assert repr(c) == c.format("text")
    b = build_leaderboard(q, [r], ["map"])
    assert repr(b) == render_leaderboard(b, "text")
