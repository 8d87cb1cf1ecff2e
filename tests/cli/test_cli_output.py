"""Output errors and closed pipes: one line naming the output, checked before the work."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from support.golden import run_cli

COMMANDS = ["main", "batch", "compare", "curves", "diff", "validate"]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    d = tmp_path_factory.mktemp("out")
    q, r, r2 = d / "q", d / "r", d / "r2"
    q.write_text("".join(f"{t} 0 d{i} {i % 3}\n" for t in range(1, 61) for i in range(8)))
    r.write_text("".join(f"{t} Q0 d{i} {i} {50 - i} a\n" for t in range(1, 61) for i in range(20)))
    r2.write_text("".join(f"{t} Q0 d{i} {i} {i} b\n" for t in range(1, 61) for i in range(20)))
    ev = d / "ev"
    code, out, _ = _run_here(["-q", q, r])
    ev.write_text(out)
    ev2 = d / "ev2"
    code, out, _ = _run_here(["-q", q, r2])
    ev2.write_text(out)
    return {"q": q, "r": r, "r2": r2, "ev": ev, "ev2": ev2}


def _run_here(args):
    p = subprocess.run([sys.executable, "-m", "trec_eval_py", *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def argv(cmd, f):
    return {
        "main": ["-q", "-m", "all_trec", f["q"], f["r"]],
        "batch": ["batch", f["q"], f["r"], f["r2"]],
        "compare": ["compare", f["q"], f["r"], f["r2"]],
        "curves": ["curves", f["q"], f["r"]],
        "diff": ["diff", f["ev"], f["ev2"]],
        "validate": ["validate", f["r"], "--qrels", f["q"]],
    }[cmd]


@pytest.mark.parametrize("cmd", COMMANDS)
def test_closed_pipe_is_a_quiet_exit_0(cmd, inputs):
    p = subprocess.Popen([sys.executable, "-m", "trec_eval_py", *map(str, argv(cmd, inputs))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()  # the reader is gone before the first write: EPIPE on it
    err = p.stderr.read()
    assert p.wait() == 0
    assert err == b""


def test_head_of_a_long_output(inputs):
    # the usual `trec_eval_py -q ... | head -1`: the reader leaves after one line
    p = subprocess.Popen([sys.executable, "-m", "trec_eval_py", *map(str, argv("main", inputs))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    assert first.startswith(b"runid") or first.startswith(b"num_ret")
    assert p.wait() == 0 and err == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("cmd", COMMANDS)
def test_full_disk_on_stdout_is_one_line(cmd, inputs):
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "trec_eval_py", *map(str, argv(cmd, inputs))],
                           stdout=full, stderr=subprocess.PIPE, text=True)
    assert p.returncode == 1
    assert p.stderr.splitlines() == ["trec_eval_py: cannot write <stdout>: No space left on device"]


@pytest.mark.parametrize("cmd", ["batch", "compare"])
@pytest.mark.parametrize("where,reason", [
    ("missing/x", "no such folder"), (".", "is a directory"),
])
def test_bad_output_path_is_reported_before_any_work(cmd, where, reason, inputs, tmp_path, capsysbinary):
    out = tmp_path / where
    missing_run = tmp_path / "no_such_run"  # reading it would be a different error
    code, stdout, err = run_cli([cmd, "-o", out, inputs["q"], inputs["r"], missing_run], capsysbinary)
    assert code == 1 and stdout == ""
    assert err.splitlines() == [f"trec_eval_py: cannot write {out}: {reason}" + (
        f" {str(out.parent)!r}" if reason == "no such folder" else "")]


def test_plot_to_a_missing_folder_before_drawing(inputs, tmp_path, capsysbinary):
    out = tmp_path / "missing" / "fig.png"
    code, stdout, err = run_cli(["plot", "-o", out, inputs["q"], inputs["r"], tmp_path / "nope"], capsysbinary)
    assert code == 1
    assert err.splitlines() == [f"trec_eval_py: cannot write {out}: no such folder {str(out.parent)!r}"]


def test_output_written_to_a_file(inputs, tmp_path, capsysbinary):
    out = tmp_path / "cmp.txt"
    code, stdout, err = run_cli(["compare", "-o", out, inputs["q"], inputs["r"], inputs["r2"]], capsysbinary)
    assert code == 0 and stdout == "" and out.read_text().strip()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_unwritable_output_file(inputs, tmp_path, capsysbinary):
    out = tmp_path / "ro.txt"
    out.write_text("")
    out.chmod(0o444)
    code, _, err = run_cli(["compare", "-o", out, inputs["q"], inputs["r"], inputs["r2"]], capsysbinary)
    assert code == 1 and err.splitlines() == [f"trec_eval_py: cannot write {out}: permission denied"]


def test_stdout_and_files_are_written_in_the_same_blocks(monkeypatch, tmp_path):
    """Standard output and ``-o FILE`` gather pieces into blocks in one place
    (:func:`trec_eval_py.output.files.blocks`, of :data:`BLOCK_BYTES`): both see the
    same writes, and changing the size changes both."""
    import io
    from types import SimpleNamespace

    from trec_eval_py.cli import output as cli_output
    from trec_eval_py.output import files

    monkeypatch.setattr(files, "BLOCK_BYTES", 10)
    pieces = ["abcd\n", b"efgh\n", "ij\udcffk\n", "lmnopqrstuvw\n", "x\n"]

    class Recorder(io.BytesIO):
        writes: list

    out = Recorder()
    out.writes = []
    monkeypatch.setattr(out, "write", lambda b: out.writes.append(bytes(b)) or len(b))
    monkeypatch.setattr(cli_output.sys, "stdout", SimpleNamespace(buffer=out))
    cli_output.write_output(iter(pieces))

    to_file: list = []
    real_write = os.write
    monkeypatch.setattr(files.os, "write", lambda fd, b: to_file.append(bytes(b)) or real_write(fd, b))
    target = tmp_path / "out.txt"
    cli_output.write_output(iter(pieces), str(target))

    whole = b"abcd\nefgh\nij\xffk\nlmnopqrstuvw\nx\n"
    assert out.writes == to_file == [b"abcd\nefgh\nij\xffk\n", b"lmnopqrstuvw\n", b"x\n"]
    assert target.read_bytes() == whole
