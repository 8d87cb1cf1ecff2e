"""The main command's quick parser (no typer at start-up) against typer itself.

A plain command line is read by :func:`trec_eval_py.cli.parse_main` from the
same flag declarations typer is given; whatever it accepts must mean exactly
what typer makes of it, and whatever it does not accept goes to typer.
"""
from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trec_eval_py import cli
from trec_eval_py.cli.flags import FLAGS

SPELLINGS = [d for f in list(cli.MAIN_FLAGS.values()) + [FLAGS[k] for k in cli.EVALUATION] for d in f.decls]
VALUES = ["map", "all_trec", "P.5,10", "2", "0", "007", "-1", "", "1e3", "a b", "trec", "json", "10.0", "=x"]


def _typer_reading(argv, monkeypatch):
    seen = []
    monkeypatch.setattr(cli, "evaluate_run", lambda *args, own, options: seen.append((list(args), own, options)))
    try:
        cli.app(args=list(argv), prog_name="trec_eval_py", standalone_mode=False)
    except Exception:  # noqa: BLE001 - typer refuses the line: the quick parser must have too
        return None
    (args, own, options), = seen
    return [a for a in args if a is not None], own, {k: list(v) if isinstance(v, (list, tuple)) else v
                                                      for k, v in options.items()}


@st.composite
def command_lines(draw):
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        decl = draw(st.sampled_from(SPELLINGS))
        value = draw(st.sampled_from(VALUES))
        how = draw(st.sampled_from(["apart", "attached", "alone"]))
        if how == "apart":
            parts += [decl, value]
        elif how == "attached":
            parts.append(decl + ("=" if decl.startswith("--") else "") + value)
        else:
            parts.append(decl)
    files = draw(st.lists(st.sampled_from(["qrels", "run", "-", "x y"]), max_size=3))
    for f in files:
        parts.insert(draw(st.integers(0, len(parts))), f)
    if draw(st.booleans()):
        parts.insert(draw(st.integers(0, len(parts))), draw(st.sampled_from(["-qn", "--", "-x", "--no-q"])))
    return parts


@settings(max_examples=300, deadline=None)
@given(command_lines())
def test_the_quick_parser_reads_a_line_as_typer_does(argv):
    with pytest.MonkeyPatch.context() as mp:
        quick = cli.parse_main(argv)
        if quick is None:
            return
        assert _typer_reading(argv, mp) == quick, argv


@pytest.mark.parametrize("argv", [
    ["-q", "-m", "all_trec", "qrels", "run"],
    ["qrels", "-mmap", "run", "-l2", "--compat=10.0", "-M", "100", "-c", "-J", "--format", "json"],
    ["--measure", "P.5,10", "--measure=ndcg_cut", "-N", "5", "-n", "-Z", "z", "qrels", "run"],
])
def test_usual_lines_take_the_quick_path_and_mean_the_same(argv, monkeypatch):
    quick = cli.parse_main(argv)
    assert quick is not None
    assert _typer_reading(argv, monkeypatch) == quick


@pytest.mark.parametrize("argv", [["-qn", "q", "r"], ["-l", "-1", "q", "r"], ["-x", "q", "r"], ["q", "r", "s"],
                                  ["q"], ["-m"], ["-", "r"], ["--", "q", "r"], ["-l", "2x", "q", "r"]])
def test_other_lines_are_left_to_typer(argv):
    assert cli.parse_main(argv) is None


def test_a_plain_evaluation_imports_neither_typer_nor_unused_measures(tmp_path):
    q = tmp_path / "q"
    r = tmp_path / "r"
    q.write_text("1 0 d1 1\n1 0 d2 0\n")
    r.write_text("1 Q0 d1 1 2.0 t\n1 Q0 d2 2 1.0 t\n")
    code = ("import sys, runpy; sys.argv = ['trec_eval_py', '-q', '-m', 'map', '-m', 'P.5', %r, %r]\n"
            "try:\n    runpy.run_module('trec_eval_py', run_name='__main__')\n"
            "finally:\n    print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click')"
            " or m.startswith('trec_eval_py.engine.measures.') and not m.split('.')[-1].startswith('_')),"
            " file=sys.stderr)") % (str(q), str(r))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split("\n")[0].split() == ["map", "1", "1.0000"]
    assert eval(p.stderr.strip().splitlines()[-1]) == ["trec_eval_py.engine.measures.map",
                                                       "trec_eval_py.engine.measures.precision"]
