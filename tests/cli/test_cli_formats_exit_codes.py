"""Every subcommand's --format comes from the output layer and every command
ends with a status from the one exit-code table.

* Formats: each subcommand lists in -h exactly the spellings of the formats
  it offers (markdown and md alike), refuses any other in one line with the
  usage status, and what it prints in a format is the layer's writer applied
  to the tool's table.
* Attacks through real inputs: a run id that is a spreadsheet formula or a
  terminal escape sequence, a file name with a line break and HTML.
* Exit statuses: usage errors (ours and click's own, which would exit 2)
  are 1, unreadable inputs 2, results 3 (a check failed) or 4 (a board
  without some runs), 7 no topics, 70 a bug, 130 an interrupt; -h shows the
  table.
"""
from __future__ import annotations

import csv
import io
import json
import re

import pytest
from support.golden import run_cli
from support.paths import ROOT

from trec_eval_py.errors import EXIT_CODES, ExitCode
from trec_eval_py.output import table as tb

EX = ROOT / "examples" / "compare"
QRELS, RUNS = EX / "qrels.txt", EX / "runs"
BM25 = RUNS / "bm25.run"

ESC = "\x1b]0;pwned\x07\x1b[2J"


def collection(tmp_path, runids=("=1+41", "sys" + ESC)):
    """Qrels of three topics and a run per run id (each with a distinct ranking)."""
    qrels = tmp_path / "qrels"
    qrels.write_text("".join(f"{t} 0 d{d} {int(d < 2)}\n" for t in (1, 2, 3) for d in range(4)))
    runs = []
    for k, rid in enumerate(runids):
        p = tmp_path / f"run{k}.txt"
        p.write_text("".join(f"{t} Q0 d{(d + k) % 4} {d + 1} {4 - d} {rid}\n" for t in (1, 2, 3) for d in range(4)))
        runs.append(p)
    return qrels, runs


def listed_formats(help_text: str) -> str:
    flat = " ".join(help_text.replace("│", " ").split())
    return flat


# ---------------------------------------------------------------- formats from the layer

COMMAND_FORMATS = {
    "compare": ("trec_eval_py.tools.compare.comparison", "FORMATS"),
    "batch": ("trec_eval_py.tools.grading.leaderboard", "LEADERBOARD_FORMATS"),
    "validate": ("trec_eval_py.tools.grading.validate", "FORMATS"),
    "diff": ("trec_eval_py.tools.compare.diff", "FORMATS"),
    "curves": ("trec_eval_py.cli.commands.curves", "TABLE_FORMATS"),
    "agreement": ("trec_eval_py.tools.organiser.agreement", "OUTPUT_FORMATS"),
    "correlate": ("trec_eval_py.tools.organiser.correlation", "OUTPUT_FORMATS"),
}


def formats_of(command):
    import importlib

    module, name = COMMAND_FORMATS[command]
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("command", sorted(COMMAND_FORMATS))
def test_help_lists_the_formats_and_others_are_refused(command, capsysbinary):
    code, out, _ = run_cli([command, "-h"], capsysbinary)
    assert code == 0
    flat = listed_formats(out)
    allowed = formats_of(command)
    for spelling in tb.spellings(allowed):
        assert spelling in flat, spelling
    if "markdown" in allowed:
        assert "markdown (or md)" in flat
    args = {"compare": [QRELS, BM25, BM25], "batch": [QRELS, BM25], "validate": [BM25], "diff": [BM25, BM25],
            "curves": [QRELS, BM25], "agreement": [QRELS, QRELS], "correlate": [BM25, BM25]}[command]
    if command == "curves":  # the points of a curve; --curve table offers text too
        from trec_eval_py.cli.commands.curves import POINT_FORMATS as allowed
    code, out, err = run_cli([command, "--format", "xml", *args], capsysbinary)
    assert code == 1 and out == ""
    assert err == f"trec_eval_py: unknown --format 'xml'; choose one of {', '.join(tb.spellings(allowed))}\n"


def test_main_command_refuses_other_formats(capsysbinary):
    code, out, err = run_cli(["--format", "md", QRELS, BM25], capsysbinary)
    assert (code, out) == (1, "")
    assert err == "trec_eval_py: unknown --format 'md'; choose one of trec, json, csv, parquet\n"


def test_compare_formats_are_the_layers(capsysbinary):
    from trec_eval_py.tools.compare.comparison import FORMATS, compare_runs

    c = compare_runs(QRELS, [RUNS], ["map", "P.10"], "t")
    for fmt in tb.spellings(FORMATS):
        code, out, err = run_cli(["compare", "-m", "map", "-m", "P.10", "--format", fmt, QRELS, RUNS], capsysbinary)
        assert code == 0, err
        assert out == c.format(fmt)
    assert c.format("md") == c.format("markdown")
    # the rows: the layer's csv and json of the rows table
    rows = list(csv.DictReader(io.StringIO(c.format("csv"))))
    assert len(rows) == len(c.rows) and json.loads(c.format("json")) == c.records()


def test_compare_typesetting_flags(capsysbinary):
    code, out, _ = run_cli(["compare", "-m", "map", "--format", "latex", "--caption", "Runs & means",
                            "--label", "tab:runs", "--digits", "2", QRELS, RUNS], capsysbinary)
    assert code == 0 and "\\caption{Runs \\& means}" in out and "\\label{tab:runs}" in out
    assert "0.44 " in out or "0.44\\\\" in out or "0.44 \\\\" in out
    code, out, _ = run_cli(["compare", "-m", "map", "--format", "long-latex", "--label", "tab:long", QRELS, RUNS],
                           capsysbinary)
    assert code == 0 and "\\begin{table}[t]" in out and "\\label{tab:long}" in out
    code, out, _ = run_cli(["compare", "-m", "map", "--digits", "3", QRELS, RUNS], capsysbinary)
    assert code == 0 and " 0.436 " in out
    code, out, err = run_cli(["compare", "-m", "map", "--format", "csv", "--digits", "2", QRELS, RUNS], capsysbinary)
    assert (code, out) == (1, "") and "--digits is for the formats people read" in err
    code, out, err = run_cli(["compare", "--format", "markdown", "--label", "x", QRELS, RUNS], capsysbinary)
    assert (code, out) == (1, "") and "--label is for --format latex" in err


def test_batch_formats_are_the_layers(capsysbinary):
    from trec_eval_py.tools.grading.leaderboard import LEADERBOARD_FORMATS, build_leaderboard, leaderboard_table

    board = build_leaderboard(QRELS, [RUNS], ["map", "P.10"])
    for fmt in tb.spellings(LEADERBOARD_FORMATS):
        code, out, err = run_cli(["batch", "-j", "1", "-m", "map", "-m", "P.10", "--format", fmt, QRELS, RUNS],
                                 capsysbinary)
        assert code == 0, err
        name = tb.canonical(fmt)
        if name in ("text", "markdown", "csv", "latex"):
            assert out == tb.render(leaderboard_table(board, name), name)
    code, out, _ = run_cli(["batch", "-j", "1", "--format", "latex", "--caption", "Class", "--digits", "2",
                            QRELS, RUNS], capsysbinary)
    assert code == 0 and "\\caption{Class}" in out and "0.70 " in out


def test_validate_and_diff_formats_are_the_layers(tmp_path, capsysbinary):
    from trec_eval_py.tools.compare.diff import diff_outputs, differences_table
    from trec_eval_py.tools.grading.validate import findings_table, validate_runs

    bad = tmp_path / "bad.txt"
    bad.write_text("1 Q0 d1 1 2.0 r\n1 Q0 d1 2 1.0 r\n")
    code, out, _ = run_cli(["validate", "--format", "csv", bad], capsysbinary)
    assert code == 3 and out == tb.render(findings_table(validate_runs([str(bad)])), "csv")

    old, new = tmp_path / "old", tmp_path / "new"
    old.write_text("map\tall\t0.5000\nP_5\tall\t0.2000\n")
    new.write_text("map\tall\t0.5100\nP_10\tall\t0.3000\n")
    report = diff_outputs(old, new)
    code, out, _ = run_cli(["diff", "--format", "csv", old, new], capsysbinary)
    assert code == 3 and out == tb.render(differences_table(report), "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["kind"], r["measure"], r["old"], r["new"], r["delta"]) for r in rows] == [
        ("changed", "map", "0.5000", "0.5100", "0.01"), ("only in old", "P_5", "0.2000", "", ""),
        ("only in new", "P_10", "", "0.3000", "")]
    code, out, _ = run_cli(["diff", "--format", "json", old, new], capsysbinary)
    doc = json.loads(out)
    assert code == 3 and doc["same"] is False and doc["compared"] == 1 and len(doc["differences"]) == 3
    assert doc["differences"][0] == {"kind": "changed", "measure": "map", "topic": "all", "old": "0.5000",
                                     "new": "0.5100", "delta": 0.01, "old_line": 1, "new_line": 1}
    assert doc["summary"] == report.summary() and doc["by_measure"] == {"map": 1, "P_5": 1, "P_10": 1}
    code, out, _ = run_cli(["diff", "--format", "json", old, old], capsysbinary)
    assert code == 0 and json.loads(out)["same"] is True


def test_curves_formats_are_the_layers(capsysbinary):
    from trec_eval_py.tools.curves.curves import compute_curves, compute_table

    points = compute_curves(QRELS, BM25, "pr")
    for fmt, text in (("tsv", tb.render(points.table(), "tsv")), ("csv", tb.render(points.table(), "csv"))):
        code, out, _ = run_cli(["curves", "--format", fmt, QRELS, BM25], capsysbinary)
        assert code == 0 and out == text
    table = compute_table(QRELS, BM25)
    code, out, _ = run_cli(["curves", "--curve", "table", "--format", "text", QRELS, BM25], capsysbinary)
    assert code == 0 and out == tb.render(table.table(4), "text")
    code, out, err = run_cli(["curves", "--format", "text", QRELS, BM25], capsysbinary)
    assert (code, out) == (1, "") and "--format text is for --curve table only" in err


# ---------------------------------------------------------------- attacks through real inputs

def test_run_ids_that_are_formulas_or_escape_sequences(tmp_path, capsysbinary):
    qrels, runs = collection(tmp_path)
    for command in (["batch", "-j", "1"], ["compare"]):
        code, out, err = run_cli([*command, qrels, *runs], capsysbinary)
        assert code == 0, err
        assert "\x1b" not in out and "\x07" not in out  # text for a terminal: no escape sequence
        assert "=1+41" in out
        code, out, _ = run_cli([*command, "--format", "csv", qrels, *runs], capsysbinary)
        cells = [c for row in csv.reader(io.StringIO(out)) for c in row]
        assert "'=1+41" in cells and "=1+41" not in cells
        assert not any(c.startswith(("=", "+", "@")) for c in cells)
        code, out, _ = run_cli([*command, "--format", "json", qrels, *runs], capsysbinary)
        assert "=1+41" in out and "\\u001b" in out  # data keeps every character, JSON-escaped
    # validate's and diff's text name what they read without its escapes
    bad = tmp_path / f"bad{ESC}.txt"
    bad.write_text(f"1 Q0 d1 1 x r{ESC}\n")
    code, out, _ = run_cli(["validate", bad], capsysbinary)
    assert code == 3 and "\x1b" not in out and "bad" in out
    old, new = tmp_path / "old", tmp_path / "new"
    old.write_text(f"map{ESC}\tall\t0.5\n")
    new.write_text(f"map{ESC}\tall\t0.6\n")
    code, out, _ = run_cli(["diff", old, new], capsysbinary)
    assert code == 3 and "\x1b" not in out and "0.5 -> 0.6" in out


def test_file_names_with_html_and_line_breaks(tmp_path, capsysbinary):
    folder = tmp_path / "runs"
    folder.mkdir()
    qrels, (run,) = collection(tmp_path, runids=("r",))
    name = "a\n<img src=x onerror=alert(1)>|b.txt"
    (folder / name).write_text(run.read_text())
    code, out, _ = run_cli(["batch", "-j", "1", "--format", "md", qrels, folder], capsysbinary)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3 and "\\<img src=x onerror=alert(1)\\>\\|b.txt" in lines[2]
    assert re.search(r"(?<!\\)<", out) is None  # no tag: every '<' escaped
    code, out, _ = run_cli(["batch", "-j", "1", "--format", "html", qrels, folder], capsysbinary)
    assert code == 0 and "<img" not in out and "&lt;img src=x onerror=alert(1)&gt;|b.txt" in out
    code, out, _ = run_cli(["batch", "-j", "1", qrels, folder], capsysbinary)
    assert len(out.splitlines()) == 2  # the name's line break does not make a row
    code, out, _ = run_cli(["batch", "-j", "1", "--format", "csv", qrels, folder], capsysbinary)
    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) == 2 and rows[1][1].endswith("/" + name)  # quoted in the csv, whole


# ---------------------------------------------------------------- the exit-code table

def test_the_table_is_one_and_complete():
    codes = [int(c) for c, _, _ in EXIT_CODES]
    assert codes == sorted(set(codes)) and codes == sorted(int(c) for c in ExitCode)
    assert [name for _, name, _ in EXIT_CODES][:5] == ["ok", "usage", "input", "failed", "incomplete"]


def test_every_subcommand_is_checked_here():
    from trec_eval_py.cli import commands

    assert sorted(commands.names()) == sorted(SUBCOMMANDS)


SUBCOMMANDS = ["agreement", "batch", "compare", "correlate", "curves", "diff", "fuse", "ndeval", "plot", "pool",
               "pool-bias", "serve", "shard", "validate"]


@pytest.mark.parametrize("command", ["", *SUBCOMMANDS])
def test_help_shows_the_exit_codes(command, capsysbinary):
    code, out, _ = run_cli([command, "-h"] if command else ["-h"], capsysbinary)
    assert code == 0
    flat = " ".join(out.replace("│", " ").split())
    assert "Exit status" in flat
    shown = [(c, n) for c, n, _ in EXIT_CODES if f"{int(c)} {n}" in flat or f"{int(c)} {n}:" in flat]
    for c in (0, 1, 2, 70, 130, 143):
        assert any(int(x) == c for x, _ in shown), (command, c)
    if command == "":
        assert len(shown) == len(EXIT_CODES)


def _flags(tmp_path):
    qrels, runs = collection(tmp_path, runids=("a", "b"))
    empty = tmp_path / "other_qrels"
    empty.write_text("99 0 d0 1\n")
    bad = tmp_path / "bad_qrels"
    bad.write_text("1 0 d0\n")
    return qrels, runs, empty, bad


CASES = {
    # command: [(args, expected status)]; {q} qrels, {r0} {r1} runs, {e} qrels of no common topic, {b} bad qrels
    "main": [(["{q}", "{r0}"], 0), (["--bogus", "{q}", "{r0}"], 1), (["-m", "nosuch", "{q}", "{r0}"], 1),
             (["{q}"], 1), (["{b}", "{r0}"], 2), (["{q}", "{missing}"], 2), (["{e}", "{r0}"], 7)],
    "compare": [(["{q}", "{r0}", "{r1}"], 0), (["--bogus", "{q}", "{r0}", "{r1}"], 1), (["{q}"], 1),
                (["--alpha", "x", "{q}", "{r0}", "{r1}"], 1), (["{b}", "{r0}", "{r1}"], 2),
                (["{e}", "{r0}", "{r1}"], 7)],
    "batch": [(["-j", "1", "{q}", "{r0}"], 0), (["--bogus", "{q}", "{r0}"], 1), (["-j", "0", "{q}", "{r0}"], 1),
              (["-j", "1", "{b}", "{r0}"], 2), (["-j", "1", "{q}", "{r0}", "{missing}"], 4)],
    "validate": [(["{r0}"], 0), (["--bogus", "{r0}"], 1), (["--max-unjudged", "2", "{r0}"], 1),
                 (["--qrels", "{b}", "{r0}"], 2), (["{missing}"], 3)],
    "diff": [(["{o}", "{o}"], 0), (["--bogus", "{o}", "{o}"], 1), (["--tol", "x", "{o}", "{o}"], 1),
             (["{o}"], 1), (["{o}", "{missing}"], 2), (["{o}", "{n}"], 3)],
    "curves": [(["{q}", "{r0}"], 0), (["--bogus", "{q}", "{r0}"], 1), (["--curve", "nosuch", "{q}", "{r0}"], 1),
               (["{b}", "{r0}"], 2), (["{e}", "{r0}"], 7)],
    "plot": [(["--kind", "nosuch", "-o", "{tmp}/f.png", "{q}", "{r0}"], 1), (["{q}", "{r0}"], 1)],
    "agreement": [(["{q}", "{q}"], 0), (["--bogus", "{q}", "{q}"], 1), (["--format", "csv", "{q}", "{q}"], 1),
                  (["{q}", "{b}"], 2)],
    "correlate": [(["--bogus", "{o}", "{o}"], 1), (["{o}", "{missing}"], 2)],
    "fuse": [(["{r0}", "{r1}"], 0), (["--bogus", "{r0}", "{r1}"], 1), (["{r0}", "{missing}"], 2)],
    "pool": [(["{r0}", "{r1}"], 0), (["--bogus", "{r0}"], 1), (["{r0}", "{missing}"], 2)],
    "pool-bias": [(["{q}", "{r0}", "{r1}"], 0), (["{q}", "{r0}"], 1), (["{b}", "{r0}", "{r1}"], 2)],
    "shard": [(["-o", "{tmp}/shards", "{r0}"], 0), (["{r0}"], 1), (["-o", "{tmp}/shards", "{missing}"], 2)],
    "ndeval": [(["{q}", "{r0}"], 0), (["--bogus", "{q}", "{r0}"], 1), (["{q}", "{missing}"], 2)],
}


@pytest.mark.parametrize("command, args, status", [(c, a, s) for c, cases in CASES.items() for a, s in cases])
def test_exit_status(command, args, status, tmp_path, capsysbinary):
    qrels, runs, empty, bad = _flags(tmp_path)
    old, new = tmp_path / "old", tmp_path / "new"
    old.write_text("map\tall\t0.5000\n")
    new.write_text("map\tall\t0.6000\n")
    names = {"q": qrels, "r0": runs[0], "r1": runs[1], "e": empty, "b": bad, "o": old, "n": new,
             "missing": tmp_path / "missing", "tmp": tmp_path}
    argv = ([] if command == "main" else [command]) + [a.format(**names) for a in args]
    code, out, err = run_cli(argv, capsysbinary)
    assert code == status, err
    if status in (1, 2, 7):
        assert out == "" and err.count("\n") == 1 and err.startswith("trec_eval_py: ") and "Traceback" not in err
    if status in (3, 4):  # a check that says no, a partial board: one line on stderr says so
        assert err.count("\n") == 1 and err.startswith("trec_eval_py: ") and "Traceback" not in err


def test_compare_gate_fails_with_3(capsysbinary):
    code, _, err = run_cli(["compare", "-m", "P.10", "--fail-if", "worse", QRELS, RUNS], capsysbinary)
    assert code == 3 and "significantly worse" in err


def test_a_bug_is_one_line_and_status_70(monkeypatch, capsysbinary, tmp_path):
    import trec_eval_py.tools.compare.diff as diff

    def broken(*a, **k):
        raise RuntimeError("something\nunforeseen")

    monkeypatch.setattr(diff, "diff_outputs", broken)
    old = tmp_path / "old"
    old.write_text("map\tall\t0.5\n")
    monkeypatch.delenv("TREC_EVAL_PY_TRACEBACK", raising=False)
    code, out, err = run_cli(["diff", old, old], capsysbinary)
    assert code == 70 and out == ""
    assert err == ("trec_eval_py: internal error (RuntimeError: something unforeseen); "
                   "TREC_EVAL_PY_TRACEBACK=1 shows where\n")
    monkeypatch.setenv("TREC_EVAL_PY_TRACEBACK", "1")
    with pytest.raises(RuntimeError):
        run_cli(["diff", old, old], capsysbinary)


def test_an_interrupt_is_130(monkeypatch, capsysbinary, tmp_path):
    import trec_eval_py.tools.compare.diff as diff

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(diff, "diff_outputs", interrupted)
    old = tmp_path / "old"
    old.write_text("map\tall\t0.5\n")
    code, out, err = run_cli(["diff", old, old], capsysbinary)
    assert (code, out, err) == (130, "", "trec_eval_py: interrupted\n")


def test_out_of_memory_is_one_line_and_status_2_without_importing(monkeypatch, capsysbinary):
    """Memory runs out inside the evaluation: the handler must not import
    anything (an import needs memory; under ``ulimit -v`` it raised a second
    MemoryError, importing the escaping of file names, and the command ended
    with a traceback and status 1). Here every import of a module not yet
    loaded fails from the moment the evaluation starts, and the escaping's
    modules are not loaded."""
    import builtins
    import sys
    import threading

    import trec_eval_py.engine.pipeline as pipeline

    real_import = builtins.__import__
    tried = []

    main = threading.get_ident()

    def poisoned(name, *args, **kwargs):
        # (only this thread's imports: a thread another test left behind, such as a
        # process pool's resource tracker, imports what it likes)
        if name not in sys.modules and threading.get_ident() == main:
            tried.append(name)
            raise MemoryError
        return real_import(name, *args, **kwargs)

    def evaluate(*args, **kwargs):
        for name in ("unicodedata", "trec_eval_py.output.names"):
            monkeypatch.delitem(sys.modules, name, raising=False)
        monkeypatch.setattr(builtins, "__import__", poisoned)
        raise MemoryError

    monkeypatch.setattr(pipeline, "evaluate", evaluate)
    examples = ROOT / "examples"
    try:
        code, out, err = run_cli(["-q", "-m", "all_trec", examples / "qrels.txt", examples / "run_a.txt"],
                                 capsysbinary)
    finally:
        builtins.__import__ = real_import
    assert tried == []
    assert (code, out) == (ExitCode.INPUT, "")
    assert err.startswith("trec_eval_py: out of memory; ") and err.count("\n") == 1
    assert "docs/guide/scale.md" in err


def test_main_help_lists_every_flag_of_the_main_command():
    """-h names every flag the main command takes (--engine, --workers,
    --scheduler were missing), except trec_eval's obsolete output flags."""
    from trec_eval_py import cli
    from trec_eval_py.cli.flags import FLAGS
    from trec_eval_py.cli.help import usage_text

    text = usage_text()
    flags = list(cli.MAIN_FLAGS.values()) + [FLAGS[k] for k in cli.EVALUATION]
    spellings = [d for f in flags if f.field not in ("old_format", "old_format_long") for d in f.decls]
    assert [d for d in spellings if not re.search(rf"(^|[\s,]){re.escape(d)}(?![\w-])", text, re.M)] == []


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_keeps_bracketed_words(command, capsysbinary):
    """typer's rich help reads ``[dask]`` as markup and drops it (``shard -h``
    printed "the  extra"): every bracketed word of a command's help and of its
    options' is shown."""
    import typer.main

    from trec_eval_py.cli import commands

    click_command = typer.main.get_command(commands.load(command))
    texts = [click_command.help or ""] + [getattr(p, "help", None) or "" for p in click_command.params]
    words = {w.replace("\\", "") for t in texts for w in re.findall(r"\\?\[[a-z][\w-]*\]", t)}
    code, out, _ = run_cli([command, "-h"], capsysbinary)
    assert code == 0
    assert [w for w in sorted(words) if w not in out] == []
