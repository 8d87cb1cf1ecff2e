"""Property: mutated inputs give the clean result or one clear error, on every command.

Hypothesis mutates valid qrels, runs and evaluation outputs (fields, numbers,
bytes, separators, line endings, compression; up to three mutations, so that
bad lines of different kinds meet) and runs the command line in
process, on the whole-file and the piecewise reading path. Each outcome must
be one of:

* success, with output identical to the same command on a *clean* rewrite of
  what a strict reference reader (below, independent of the package) read:
  decompressed, LF line ends, fields joined by one space, blank and comment
  lines kept in place;
* failure (non-zero exit), with exactly one line on stderr, ``trec_eval_py: ``
  then the file's name, and the first bad line the reference found (where
  there is one), never a traceback. ``batch`` and ``validate`` report a bad run
  in their own output instead; the run's name and the line must be there.
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trec_eval_py.engine import pipeline
from trec_eval_py.engine.parse import run as run_reader

# ------------------------------------------------------------------ reference reader
_BLANK = b" \t\r\x0b\x0c"
_SPLIT = re.compile(rb"[ \t\r\x0b\x0c]+")
_FLOAT = re.compile(rb"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)\Z", re.I)
_INT = re.compile(rb"[+-]?\d+\Z")
MAX_LEVEL = 2 ** 30 - 1
RUN_MAX_FIELDS = 32


def decompress(data: bytes) -> bytes | None:
    try:
        if data.startswith(b"\x1f\x8b"):
            return gzip.decompress(data)
        if data.startswith(b"BZh"):
            return bz2.decompress(data)
        if data.startswith(b"\xfd7zXZ\x00"):
            return lzma.decompress(data)
    except Exception:
        return None
    return data


def physical_lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def reference(data: bytes, kind: str):
    """``("ok", clean bytes)`` or ``("bad", line or None)``."""
    plain = decompress(data)
    if plain is None:
        return "bad", None
    out, seen, content = [], set(), 0
    for n, line in enumerate(physical_lines(plain), 1):
        body = line[:-1] if line.endswith(b"\r") else line
        if b"\0" in line or re.search(rb"\r+[^\r]", body):
            return "bad", n
        toks = [t for t in _SPLIT.split(line.strip(_BLANK)) if t]
        if not toks or toks[0].startswith(b"#"):
            out.append(line.rstrip(b"\r"))
            continue
        content += 1
        if kind == "qrels":
            if len(toks) != 4 or not _INT.match(toks[3]) or not -(2 ** 63) < int(toks[3]) <= MAX_LEVEL:
                return "bad", n
        elif kind == "run":
            if not 6 <= len(toks) <= RUN_MAX_FIELDS or not _FLOAT.match(toks[4]):
                return "bad", n
        else:  # evaluation output: measure topic value
            if len(toks) != 3:
                return "bad", n
        key = (toks[0], toks[1] if kind == "eval" else toks[2])
        if key in seen:
            return "bad", n
        seen.add(key)
        out.append(b" ".join(toks))
    if content == 0:
        return "bad", None
    return "ok", b"".join(ln + b"\n" for ln in out)


# ------------------------------------------------------------------ inputs
QRELS = "".join(f"{t} 0 d{t}{i} {(i * 7 + t) % 4 - (1 if i == 5 else 0)}\n"
                for t in (1, 2, 3) for i in range(7)).encode()
RUN = "".join(f"{t} Q0 d{t}{(i * 5) % 8} {i + 1} {20 - i * 1.5:g} runA\n" for t in (1, 2, 3) for i in range(8)).encode()
RUN2 = "".join(f"{t} Q0 d{t}{i} {i + 1} {i * 0.5:g} runB\n" for t in (1, 2, 3) for i in range(8)).encode()

SPECIAL = [b"nan", b"-inf", b"1e400", b"0x1A", b"1,5", b".", b"1e", b"99999999999999999999", b"\xef\xbc\x91",
           b"1\xc2\xa0", b"", b"+.5", b"007", b"x" * 300, b"1" * 450, b"0." + b"5" * 420, str(2 ** 31).encode(),
           str(2 ** 63 - 1).encode(), b"-3"]
WEIRD = [b"\xff", b"\xc2\xa0x", b"\xc2\x85", b"\xe2\x80\xa8", b"\x1c", b"\x1f", b"#", b"'", b"\\n", b"\xf0\x9f\x98\x80"]


@st.composite
def mutations(draw, data: bytes, numeric_field: int):
    lines = physical_lines(data)
    i = draw(st.integers(0, len(lines) - 1))
    f = lines[i].split()
    op = draw(st.sampled_from([
        "del_field", "dup_field", "num", "text", "nul", "bare_cr", "separators", "blank_comment",
        "extra_fields", "crlf", "gz", "gz_corrupt", "empty", "flip", "no_final_newline", "dupline"]))
    if (op in ("del_field", "dup_field", "text") and not f) or (op == "num" and len(f) <= numeric_field):
        op = "none"  # a line an earlier mutation left without that field: leave it
    if op == "del_field":
        del f[draw(st.integers(0, len(f) - 1))]
        lines[i] = b" ".join(f)
    elif op == "dup_field":
        k = draw(st.integers(0, len(f) - 1))
        f.insert(k, f[k])
        lines[i] = b" ".join(f)
    elif op == "num":
        f[numeric_field] = draw(st.sampled_from(SPECIAL))
        lines[i] = b" ".join(f)
    elif op == "text":
        k = draw(st.sampled_from([0, 2] if len(f) > 3 else [0]))
        f[k] += draw(st.sampled_from(WEIRD))
        lines[i] = b" ".join(f)
    elif op == "nul":
        pos = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:pos] + b"\0" + lines[i][pos:]
    elif op == "bare_cr" and i + 1 < len(lines):
        lines[i] = lines[i] + b"\r" + lines.pop(i + 1)
    elif op == "separators":
        lines[i] = draw(st.sampled_from([b"\t", b"  ", b"\x0b\x0c", b" \t "])).join(f) + draw(
            st.sampled_from([b"", b" ", b"\t", b"\r"]))
    elif op == "dupline":  # the line again further down: a repeated key
        lines.insert(draw(st.integers(i + 1, len(lines))), lines[i])
    elif op == "blank_comment":
        lines.insert(i, draw(st.sampled_from([b"", b"   ", b"# note", b"\t#x y"])))
    elif op == "extra_fields":
        lines[i] += b" z" * draw(st.sampled_from([1, 20, 40]))
    elif op == "flip":
        b = bytearray(lines[i])
        if b:
            b[draw(st.integers(0, len(b) - 1))] = draw(st.sampled_from(list(b"\n\r \t#.-e0\xa0")))
        lines[i] = bytes(b)
    out = b"".join(ln + b"\n" for ln in lines)
    if op == "no_final_newline":
        out = out[:-1]
    elif op == "crlf":
        out = out.replace(b"\n", b"\r\n")
    elif op == "gz":
        out = gzip.compress(out, mtime=0)
    elif op == "gz_corrupt":
        c = bytearray(gzip.compress(out, mtime=0))
        c[draw(st.integers(10, len(c) - 9))] ^= 0xFF
        out = bytes(c)
    elif op == "empty":
        out = b""
    return out


# ------------------------------------------------------------------ running
def run_cli(argv):
    """(exit code, stdout bytes, stderr text) of the command line, in process."""
    from trec_eval_py import cli

    out_b, err_b = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_b, encoding="utf-8", errors="surrogateescape", write_through=True)
    err = io.TextIOWrapper(err_b, encoding="utf-8", errors="backslashreplace", write_through=True)
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    code = 0
    try:
        cli.main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.stdout, sys.stderr = old
    return code, out_b.getvalue(), err_b.getvalue().decode("utf-8", "replace")


def argv_for(cmd, q, r, work):
    return {
        "main": ["-q", "-m", "map", "-m", "P.5", "-m", "ndcg", "-m", "recip_rank", q, r],
        "batch": ["batch", "-m", "map", "-j", "1", q, r],
        "compare": ["compare", "-m", "map", "--test", "t", q, work / "base.run", r],
        "curves": ["curves", q, r],
        "validate": ["validate", r, "--qrels", q],
        "plot": ["plot", "--kind", "pr", "-o", work / "fig.png", q, r],
        "diff": ["diff", work / "base.eval", r],
    }[cmd]


def outcome(cmd, q, r, work):
    code, out, err = run_cli(argv_for(cmd, q, r, work))
    if cmd == "plot" and code == 0:
        out = (work / "fig.png").read_bytes()
    return code, out, err


COMMANDS = ["main", "batch", "compare", "curves", "diff", "plot", "validate"]
#: the exit status of a command whose answer is a finding about its input (failed, incomplete)
RESULT = {"diff": 3, "validate": 3, "batch": 4}
# ... which each command says on stderr in one line (what a log that keeps only stderr shows)
RESULT_LINE = {"diff": " differ: ", "validate": " failed the checks", "batch": " not graded "}


def _result_line(cmd: str, err: str) -> bool:
    return len(err.splitlines()) == 1 and err.startswith("trec_eval_py: ") and RESULT_LINE[cmd] in err


@pytest.mark.parametrize("cmd", [c for c in COMMANDS if c != "plot"])
@pytest.mark.parametrize("reading", ["whole", "pieces"])
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
@pytest.mark.slow
def test_mutated_inputs_give_the_clean_result_or_one_clear_error(cmd, reading, data):
    check(cmd, reading, data)


@pytest.mark.parametrize("reading", ["whole", "pieces"])
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutated_inputs_plot(reading, data):
    pytest.importorskip("matplotlib")
    check("plot", reading, data)


def check(cmd, reading, data):
    target = "eval" if cmd == "diff" else data.draw(st.sampled_from(["qrels", "run"]))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "base.run").write_bytes(RUN2)
        q, r = work / "judged qrels", work / "run é.txt"
        q.write_bytes(QRELS)
        r.write_bytes(RUN)
        if cmd == "diff":
            (work / "base.eval").write_bytes(run_cli(["-q", q, work / "base.run"])[1])
            base = run_cli(["-q", q, r])[1]
        else:
            base = QRELS if target == "qrels" else RUN
        numeric = {"qrels": 3, "run": 4, "eval": 2}[target]
        # one to three mutations: with several bad lines of different kinds,
        # the first one in the file is the one to report
        mutated = base
        for _ in range(data.draw(st.integers(1, 3))):
            if not physical_lines(mutated) or decompress(mutated) != mutated:
                break  # emptied or compressed: no lines to mutate further
            mutated = data.draw(mutations(mutated, numeric))
        victim = q if target == "qrels" else r
        victim.write_bytes(mutated)

        old = pipeline.POLICY.stream_min_bytes, run_reader.CHUNK_BYTES
        if reading == "pieces":
            pipeline.POLICY.stream_min_bytes, run_reader.CHUNK_BYTES = 0, 97
        try:
            code, out, err = outcome(cmd, q, r, work)
            verdict = reference(mutated, target)
            assert "Traceback" not in err
            if code == 0 or (cmd in RESULT and code == RESULT[cmd] and _result_line(cmd, err)):
                if verdict[0] == "bad" and cmd == "validate" and code == 0:
                    # validate's own reader passes some lines the evaluation
                    # rejects (a bare CR is a warning there): it must flag the line
                    text = out.decode("utf-8", "replace")
                    assert verdict[1] is not None and f"{victim}:{verdict[1]}:" in text, text
                    return
                if verdict[0] == "bad" and cmd not in ("batch", "validate", "diff"):
                    pytest.fail(f"accepted a bad {target} (line {verdict[1]}): {mutated[:300]!r}")
                if verdict[0] == "ok":
                    victim.write_bytes(verdict[1])
                    clean = outcome(cmd, q, r, work)
                    assert (code, out, err) == clean, f"differs from the clean rewrite: {mutated[:300]!r}"
                    return
                # batch/validate report a bad run in their output, by name; diff
                # reports lines it cannot pair as differences
                text = out.decode("utf-8", "replace")
                assert code == RESULT[cmd], text
                if cmd != "diff":
                    assert str(victim) in text, text
                return
            lines = err.splitlines()
            assert len(lines) == 1, err
            assert lines[0].startswith(f"trec_eval_py: {victim}"), (lines[0], mutated[:300])
            if target != "eval":
                assert verdict[0] == "bad", f"rejected a valid {target}: {lines[0]}"
                if verdict[1] is not None:
                    assert lines[0].startswith(f"trec_eval_py: {victim}, line {verdict[1]}:"), (
                        lines[0], mutated[:300])
        finally:
            pipeline.POLICY.stream_min_bytes, run_reader.CHUNK_BYTES = old


# ------------------------------------------------------------------ two bad lines
BAD_KINDS = {
    "run": {"fields": lambda f: f[:4], "number": lambda f: f[:4] + [b"x1"] + f[5:],
            "nul": lambda f: [f[0], f[1], f[2] + b"\0"] + f[3:], "many_fields": lambda f: f + [b"z"] * 40,
            "cr": lambda f: f[:3] + [f[3] + b"\r" + f[4]] + f[5:]},
    "qrels": {"fields": lambda f: f[:3], "number": lambda f: f[:3] + [b"x1"],
              "nul": lambda f: [f[0], f[1], f[2] + b"\0", f[3]], "level": lambda f: f[:3] + [str(2 ** 30).encode()],
              "int64": lambda f: f[:3] + [b"99999999999999999999"], "cr": lambda f: f[:3] + [b"\r" + f[3]]},
}


@st.composite
def two_bad_lines(draw, data: bytes, kind: str):
    """``data`` with bad lines of two kinds (a repeated key, "dup", among them) at two places."""
    lines = physical_lines(data)
    a, b = sorted(draw(st.lists(st.integers(1, len(lines) - 1), min_size=2, max_size=2, unique=True)))
    kinds = sorted(BAD_KINDS[kind]) + ["dup"]
    for at in (a, b):
        k = draw(st.sampled_from(kinds))
        if k == "dup":  # an earlier line's topic and docno again
            src = physical_lines(data)[draw(st.integers(0, at - 1))].split()
            f = lines[at].split()
            lines[at] = b" ".join([src[0], f[1], src[2]] + f[3:])
        else:
            lines[at] = b" ".join(BAD_KINDS[kind][k](lines[at].split()))
    return b"".join(line + b"\n" for line in lines)


@pytest.mark.parametrize("cmd", ["main", "compare", "curves"])
@pytest.mark.parametrize("reading", ["whole", "pieces"])
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_of_two_bad_lines_the_first_is_reported(cmd, reading, data):
    target = data.draw(st.sampled_from(["qrels", "run"]))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "base.run").write_bytes(RUN2)
        q, r = work / "judged qrels", work / "run é.txt"
        victim = q if target == "qrels" else r
        mutated = data.draw(two_bad_lines(QRELS if target == "qrels" else RUN, target))
        q.write_bytes(QRELS)
        r.write_bytes(RUN)
        victim.write_bytes(mutated)
        verdict = reference(mutated, target)
        assert verdict[0] == "bad" and verdict[1] is not None
        old = pipeline.POLICY.stream_min_bytes, run_reader.CHUNK_BYTES
        if reading == "pieces":
            pipeline.POLICY.stream_min_bytes, run_reader.CHUNK_BYTES = 0, 97
        try:
            code, out, err = outcome(cmd, q, r, work)
        finally:
            pipeline.POLICY.stream_min_bytes, run_reader.CHUNK_BYTES = old
        assert code != 0 and len(err.splitlines()) == 1, err
        assert err.startswith(f"trec_eval_py: {victim}, line {verdict[1]}:"), (err, mutated)
