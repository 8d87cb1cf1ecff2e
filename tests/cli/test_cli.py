"""The command line: trec_eval's flags, spellings, help, and one-line errors."""
from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest
from support.golden import GOLDEN
from support.golden import run_cli as run  # noqa: E402

QRELS = str(GOLDEN / "inputs" / "qrels.test")
RUN = str(GOLDEN / "inputs" / "results.test")



def test_default_is_official(capsysbinary):
    code, out, _ = run([QRELS, RUN], capsysbinary)
    assert code == 0
    assert out == (GOLDEN / "expected" / "9.0.8" / "te_default.out").read_text()


@pytest.mark.parametrize(
    "args",
    [
        ["-q", "-mmap", "-M100", "-l2"],
        ["-q", "-m", "map", "-M", "100", "-l", "2"],
        ["--query_eval_wanted", "--measure", "map", "--Max_retrieved_per_topic", "100", "--level_for_rel", "2"],
        ["--query_eval_wanted", "--measure=map", "--Max_retrieved_per_topic=100", "--level_for_rel=2"],
    ],
)
def test_spellings_agree(args, capsysbinary):
    code, out, _ = run(args + [QRELS, RUN], capsysbinary)
    assert code == 0
    ref_code, ref, _ = run(["-q", "-m", "map", "-M", "100", "-l", "2", QRELS, RUN], capsysbinary)
    assert out == ref and out.count("\n") == 4


def test_debug_flag_is_accepted(capsysbinary):
    code, out, _ = run(["-D", "1", "-m", "map", QRELS, RUN], capsysbinary)
    assert code == 0 and out.startswith("map")


def test_no_summary(capsysbinary):
    code, out, _ = run(["-n", "-q", "-m", "map", QRELS, RUN], capsysbinary)
    assert code == 0 and "\tall\t" not in out and out.count("\n") == 3


def test_version(capsysbinary):
    code, out, _ = run(["-v"], capsysbinary)
    assert code == 0 and "trec_eval_py" in out


def test_help_describes_requested_measures(capsysbinary):
    code, out, _ = run(["-h", "-m", "map", "-m", "P"], capsysbinary)
    assert code == 0
    assert "Usage" in out and "\nmap\n" in out and "\nP\n" in out


def test_stdin_and_compressed(tmp_path, monkeypatch, capsysbinary):
    gz = tmp_path / "run.gz"
    gz.write_bytes(gzip.compress(Path(RUN).read_bytes()))
    code, out_gz, _ = run(["-m", "map", QRELS, str(gz)], capsysbinary)
    assert code == 0
    p = subprocess.run(
        [sys.executable, "-m", "trec_eval_py", "-m", "map", QRELS, "-"],
        input=Path(RUN).read_bytes(), capture_output=True, check=True,
    )
    assert p.stdout.decode() == out_gz == "map                   \tall\t0.1785\n"


@pytest.mark.parametrize(
    "args,needle,code",
    [
        (["-m", "nope", QRELS, RUN], "unknown measure 'nope'", 1),
        (["-m", "P.0", QRELS, RUN], "above 0", 1),
        (["-m", "P.5,5", QRELS, RUN], "duplicate", 1),
        (["-m", "P.", QRELS, RUN], "empty parameter", 1),
        (["-m", "P.x", QRELS, RUN], "not a number", 1),
        (["-m", "map.3", QRELS, RUN], "no parameters", 1),
        ([QRELS], "need two files", 1),
        (["--compat", "11", QRELS, RUN], "--compat", 1),
        (["-T", "other", QRELS, RUN], "results format", 1),
        (["-l", "x", QRELS, RUN], "-l", 1),
        ([QRELS, "/nonexistent/run"], "no such file", 2),
    ],
)
def test_errors_are_one_line(args, needle, code, capsysbinary):
    got, out, err = run(args, capsysbinary)
    assert got == code
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert out == ""


def test_real_process_bad_input_has_no_traceback(tmp_path):
    bad = tmp_path / "bad.run"
    bad.write_text("301 Q0 a 1 high run\n")
    p = subprocess.run([sys.executable, "-m", "trec_eval_py", QRELS, str(bad)], capture_output=True, text=True)
    assert p.returncode != 0
    assert p.stderr.strip() == f"trec_eval_py: {bad}, line 1: score is not a number ('high'): '301 Q0 a 1 high run'"


# ---- shared evaluation flags ------------------------------------------------------------

@pytest.mark.parametrize("args", [["-o"], ["--Output_old_results_format", "x"]])
def test_obsolete_output_flag_is_accepted(args, capsysbinary):
    # trec_eval keeps -o as a no-op; scripts that still pass it must get the same numbers
    code, out, _ = run(args + ["-m", "map", QRELS, RUN], capsysbinary)
    _, ref, _ = run(["-m", "map", QRELS, RUN], capsysbinary)
    assert code == 0 and out == ref


@pytest.mark.parametrize("spelling", [["-M", "-1"], ["-M-5"], ["--Max_retrieved_per_topic=-1"]])
def test_negative_max_docs_is_a_usage_error(spelling, capsysbinary):
    # trec_eval crashes or prints zeros here; a negative cut is a typo, not a request
    code, out, err = run(spelling + ["-m", "map", QRELS, RUN], capsysbinary)
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "-M" in err and "0 or more" in err


def test_negative_max_docs_is_rejected_by_the_api_too():
    import trec_eval_py as te

    with pytest.raises(te.UsageError, match="0 or more"):
        te.evaluate(QRELS, RUN, ["map"], max_docs=-1)


def test_max_docs_zero_is_allowed(capsysbinary):
    code, out, _ = run(["-M0", "-m", "num_ret", QRELS, RUN], capsysbinary)
    assert code == 0 and out.split() == ["num_ret", "all", "0"]


def test_every_evaluating_command_declares_shared_flags_once():
    """The spellings, types and defaults of -m/-l/-N/-M/-J/-c/--compat... come from
    cli/flags.py in every command that takes them, so they cannot drift apart."""
    import inspect

    from trec_eval_py.cli import app as main_app
    from trec_eval_py.cli import commands
    from trec_eval_py.cli.flags import FLAGS

    spelled = {decl: f for f in FLAGS.values() for decl in f.decls}
    apps = {"": main_app} | {n: commands.load(n) for n in commands.names()}
    seen = set()
    for name, app in apps.items():
        fn = app.registered_commands[0].callback
        for p in inspect.signature(fn).parameters.values():
            info = p.default
            decls = set(getattr(info, "param_decls", None) or ())
            shared = decls & set(spelled)
            if not shared:
                continue
            flag = spelled[next(iter(shared))]
            if name == "plot" and flag.field == "measures":
                continue  # plot's -m names the one measure of its per-topic figure
            assert p.name == f"flag_{flag.field}", (name, p.name)
            assert decls == set(flag.decls) and info.default == flag.default, (name, decls)
            seen.add((name, flag.field))
    assert ("", "zscore_file") in seen and ("batch", "complete") in seen and ("compare", "compat") in seen


@pytest.mark.parametrize("cmd", ["batch", "compare"])
def test_subcommands_take_the_shared_spellings(cmd, capsysbinary):
    long_form = [cmd, "--level_for_rel=2", "--Max_retrieved_per_topic=100", "--measure=map", QRELS, RUN, RUN]
    short_form = [cmd, "-l2", "-M100", "-mmap", QRELS, RUN, RUN]
    a = run(long_form, capsysbinary)
    b = run(short_form, capsysbinary)
    assert a[0] == b[0] == 0 and a[1] == b[1] and a[1]
