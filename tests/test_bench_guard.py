"""benchmarks/guard.py's pure parts: its arguments, the routes it lists and
picks, the ratio, the flag and the exit status it gives, the lines and the
Markdown table it prints. Nothing is built or timed here."""
from __future__ import annotations

import importlib.util
import sys

import pytest
from support.paths import ROOT


@pytest.fixture(scope="module")
def guard():
    spec = importlib.util.spec_from_file_location("bench_guard", ROOT / "benchmarks" / "guard.py")
    module = importlib.util.module_from_spec(spec)
    saved = list(sys.path)  # the script puts benchmarks/ on sys.path for bench.py
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved
    return module


def timed_row(route, rev_time, head_time, same=True):
    # (time, CPU, peak MiB) of each side
    return {"route": route, "na": None, "same": same, "rev": (rev_time, rev_time * 1.5, 100.0),
            "head": (head_time, head_time * 1.5, 90.0)}


LABELS = ("8518c1f", "HEAD")


def test_arguments(guard):
    a = guard.parse_args(["--baseline", "8518c1f"])
    assert (a.baseline, a.head, a.repeat, a.only, a.quick, a.markdown) == ("8518c1f", None, 3, None, False, False)
    assert guard.selected(a) == list(guard.ROUTES)
    a = guard.parse_args(["--baseline", "main~1", "--head", "main", "--repeat", "5", "--markdown"])
    assert (a.head, a.repeat, a.markdown) == ("main", 5, True)
    assert guard.parse_args(["--list"]).list  # --list needs no baseline


@pytest.mark.parametrize("argv", [
    [],  # no --baseline
    ["--baseline", "x", "--only", "dl42k", "nosuchroute"],
    ["--baseline", "x", "--only", "dl42k", "--quick"],
    ["--baseline", "x", "--repeat", "0"],
])
def test_wrong_arguments_exit_2(guard, argv, capsys):
    with pytest.raises(SystemExit) as e:
        guard.parse_args(argv)
    assert e.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_quick_and_only_pick_routes_in_order(guard):
    quick = guard.selected(guard.parse_args(["--baseline", "x", "--quick"]))
    assert quick == ["dl42k", "robust197k", "m500k", "m500k-q", "big"]
    only = guard.selected(guard.parse_args(["--baseline", "x", "--only", "validate", "dl42k", "dict"]))
    assert only == ["dl42k", "dict", "validate"]  # the listing's order, not the command line's


def test_list_names_every_route_once_and_marks_the_quick_ones(guard):
    lines = guard.route_list().splitlines()
    assert [ln.split()[0] for ln in lines] == list(guard.ROUTES)
    assert [ln.split()[0] for ln in lines if ln.split()[1] == "quick"] == guard.QUICK
    for name, (about, _) in guard.ROUTES.items():
        assert any(ln.startswith(name + " ") and ln.endswith(about) for ln in lines)


def test_a_ratio_above_the_threshold_is_flagged(guard):
    slower = timed_row("big", 1.0, 1.2)
    assert guard.ratio(1.2, 1.0) == pytest.approx(1.2)
    assert guard.flagged(slower)
    assert guard.MARK in guard.line(slower, LABELS)
    assert "1.20x" in guard.line(slower, LABELS)
    for head in (0.5, 1.0, 1.1):  # at the threshold (1.10x) itself: not flagged
        row = timed_row("big", 1.0, head)
        assert not guard.flagged(row) and guard.MARK not in guard.line(row, LABELS)
    assert guard.exit_status([timed_row("a", 1.0, 1.0), slower]) == 1
    assert guard.exit_status([timed_row("a", 1.0, 1.0), timed_row("b", 2.0, 2.1)]) == 0
    assert guard.exit_status([]) == 0


def test_a_route_the_baseline_lacks_is_not_applicable_not_flagged(guard):
    lacks = {"route": "validate", "na": "rev", "same": None, "why": "No such command 'validate'."}
    text = guard.line(lacks, LABELS)
    assert "n/a on 8518c1f" in text and "No such command" in text and guard.MARK not in text
    assert not guard.flagged(lacks)
    broken = {**lacks, "na": "head"}  # HEAD cannot run what REV runs: flagged
    assert guard.flagged(broken) and guard.MARK in guard.line(broken, LABELS)
    assert guard.exit_status([lacks]) == 0 and guard.exit_status([lacks, broken]) == 1


def test_the_reason_of_a_failure_is_its_error_line(guard):
    boxed = ["failed (2): python -m trec_eval_py validate --qrels q r", "Usage: trec_eval_py [OPTIONS]",
             "Try 'trec_eval_py -h' for help.", "\u256d\u2500 Error \u2500\u256e",
             "\u2502 No such command 'validate'. \u2502", "\u2570\u2500\u2500\u256f"]
    assert guard.why(boxed) == "No such command 'validate'."  # typer's box and its head left out
    assert guard.why(["failed (1): cmd", "", "ValueError: bad line", "last"]) == "ValueError: bad line"
    assert guard.why(["failed (1): cmd", "just this"]) == "just this"
    traceback = ["failed (1): cmd", "Traceback (most recent call last):", '  File "x.py", line 9, in _first_error',
                 "    raise _count_error(data)", "trec_eval_py.errors.InputError: <bytes>, line 1: needs 4 fields"]
    assert guard.why(traceback) == traceback[-1]
    assert guard.why(["failed (1): cmd"]) == "failed (1): cmd"


def test_markdown_table_has_a_row_per_route_and_the_flag_in_bold(guard):
    rows = [timed_row("dl42k", 1.0, 1.0), timed_row("big", 1.0, 1.3, same=False),
            {"route": "validate", "na": "rev", "same": None, "why": "no such command"}]
    table = guard.markdown_table(rows, LABELS)
    head, rule, *body = table
    assert head.count("|") == rule.count("|") and all(r.count("|") == head.count("|") for r in body)
    assert [r.split("|")[1].strip() for r in body] == ["dl42k", "big", "validate"]
    assert "**1.30x**" in body[1] and "**SLOWER**" in body[1] and "differs" in body[1]
    assert "SLOWER" not in body[0] and "n/a on 8518c1f" in body[2]
    assert "flagged: big" in guard.summary(rows)


def test_labels(guard):
    assert guard.label_of(None) == "HEAD"
    assert guard.label_of("8518c1f") == "8518c1f" and guard.label_of("main~2") == "main~2"
    assert guard.label_of("a|b c") == "REV"  # not put as given into a table or a terminal


def test_a_launched_command_keeps_its_output_and_its_error(guard, tmp_path):
    # bench.measure through the launcher, as the guard runs every command
    out = tmp_path / "out"
    wall, cpu, peak = guard.measure([sys.executable, "-c", "print('hello')"], str(out), launch=True)
    assert out.read_text() == "hello\n" and wall > 0 and cpu > 0 and peak > 0
    with pytest.raises(SystemExit) as e:
        guard.measure([sys.executable, "-c", "import sys; sys.exit('broken here')"], launch=True)
    message = str(e.value).splitlines()
    assert message[0].startswith("failed (1):") and message[-1] == "broken here"  # no launcher line in it
    assert guard.why(message) == "broken here"
