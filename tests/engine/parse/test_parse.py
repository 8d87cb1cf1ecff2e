"""Readers: what they accept, and the errors that point at the bad line."""
from __future__ import annotations

import bz2
import gzip
import io
import lzma

import numpy as np
import pytest

from trec_eval_py import InputError, _native, read_qrels, read_run
from trec_eval_py.engine.parse import fields


@pytest.fixture(autouse=True, params=["c", "numpy"])
def scanner(request, monkeypatch):
    """Every reader test runs on both implementations of the field scanner."""
    if request.param == "c" and _native.built("scan") is None:
        pytest.skip("the optional C scanner is not built")
    monkeypatch.setattr(_native, "USE_C", request.param == "c")
    return request.param


RUN = b"1 Q0 a 1 2.5 r1\n1 Q0 b 2 1e-3 r1\n2 Q0 c 1 +4 r2\n"


def test_run_columns_and_runid_from_last_line():
    r = read_run(RUN)
    assert r.qid.tolist() == [b"1", b"1", b"2"]
    assert r.docno.tolist() == [b"a", b"b", b"c"]
    assert r.score.tolist() == [2.5, 1e-3, 4.0]
    assert r.runid == "r2"
    assert r.lineno.tolist() == [1, 2, 3]


@pytest.mark.parametrize(
    "text",
    [
        b"1\tQ0\ta\t1\t2.5\tr1\n",
        b"1  Q0   a 1 2.5   r1   \n",
        b"1 Q0 a 1 2.5 r1\r\n",
        b"   1 Q0 a 1 2.5 r1",  # leading blanks, no final newline
        b"1 Q0 a 1 2.5 r1 extra fields here\n",
    ],
)
def test_whitespace_variants(text):
    r = read_run(text)
    assert r.docno.tolist() == [b"a"] and r.score.tolist() == [2.5] and r.runid == "r1"


def test_comments_and_blank_lines_are_skipped_but_hash_in_docno_is_data():
    r = read_run(b"# a comment line\n\n  # indented comment\n1 Q0 doc#1 1 3 r\n")
    assert r.docno.tolist() == [b"doc#1"]
    assert r.lineno.tolist() == [4]


@pytest.mark.parametrize("score", [b"-2.5", b"+4", b"1e-3", b"1E+2", b".5", b"5.", b"inf", b"-Infinity"])
def test_scores_accepted(score):
    r = read_run(b"1 Q0 a 1 " + score + b" r\n")
    assert r.score[0] == float(score)


@pytest.mark.parametrize("score", [b"abc", b"1.5x", b"1_000", b"nan", b"0x10", b"--1", b"1e", b"."])
def test_bad_scores_name_file_and_line(score):
    data = b"1 Q0 a 1 2 r\n1 Q0 b 2 " + score + b" r\n"
    with pytest.raises(InputError) as e:
        read_run(data, name="run.txt")
    assert e.value.line == 2
    assert "run.txt" in str(e.value) and "line 2" in str(e.value)


@pytest.mark.parametrize("rel", [b"x", b"1.0", b"1_0", b""])
def test_bad_relevance(rel):
    data = b"1 0 a 1\n1 0 b " + rel + b"\n"
    with pytest.raises(InputError) as e:
        read_qrels(data, name="q.txt")
    assert e.value.line == 2


def test_qrels_needs_exactly_four_fields():
    with pytest.raises(InputError) as e:
        read_qrels(b"1 0 a 1\n1 0 b 1 extra\n", name="q")
    assert e.value.line == 2 and "5 fields" in e.value.reason


def test_short_run_line():
    with pytest.raises(InputError) as e:
        read_run(b"1 Q0 a 1 2 r\n1 Q0 b\n", name="r")
    assert e.value.line == 2 and "3 fields" in e.value.reason


def test_nul_byte():
    with pytest.raises(InputError) as e:
        read_run(b"1 Q0 a 1 2 r\n1 Q0 \0b 2 1 r\n", name="r")
    assert e.value.line == 2 and "NUL" in e.value.reason


@pytest.mark.parametrize("data", [b"", b"\n\n", b"# only a comment\n"])
def test_empty_inputs(data):
    with pytest.raises(InputError, match="empty"):
        read_run(data)
    with pytest.raises(InputError, match="empty"):
        read_qrels(data)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_run(tmp_path / "nope.run")


@pytest.mark.parametrize("compress,suffix", [(gzip.compress, ".gz"), (bz2.compress, ".bz2"), (lzma.compress, ".xz")])
def test_compressed_files(tmp_path, compress, suffix):
    p = tmp_path / ("run" + suffix)
    p.write_bytes(compress(RUN))
    assert read_run(p).docno.tolist() == [b"a", b"b", b"c"]


def test_the_text_size_of_a_compressed_file_is_a_guess_from_its_size(tmp_path):
    """What decides reading in pieces: a compressed file counts as what it may expand to."""
    from trec_eval_py.engine.parse.source import COMPRESSED_GUESS, text_size

    plain, packed = tmp_path / "run", tmp_path / "run.gz"
    plain.write_bytes(RUN)
    packed.write_bytes(gzip.compress(RUN))
    assert text_size(plain) == len(RUN)
    assert text_size(packed) == COMPRESSED_GUESS * packed.stat().st_size
    assert text_size(RUN) is None and text_size(tmp_path / "nope") is None


def test_file_objects_and_dicts():
    assert read_run(io.BytesIO(RUN)).runid == "r2"
    assert read_run(io.StringIO(RUN.decode())).runid == "r2"
    q = read_qrels({"1": {"a": 1, "b": 0}})
    assert sorted(q.rel.tolist()) == [0, 1]
    with pytest.raises(InputError):
        read_qrels({"1": {"a": 0.5}})
    with pytest.raises(InputError):
        read_run({"1": {"a": "high"}})


def test_chunking_gives_same_columns(monkeypatch):
    monkeypatch.setattr(_native, "USE_C", False)
    lines = b"".join(b"%d Q0 doc%d 1 %d.25 run\n" % (i % 7, i, i) for i in range(5000))
    whole = read_run(lines)
    monkeypatch.setattr(fields, "CHUNK_BYTES", 257)
    chunked = read_run(lines)
    for col in ("qid", "docno", "score", "lineno"):
        assert np.array_equal(getattr(whole, col), getattr(chunked, col))


def test_scanners_agree_on_messy_input(monkeypatch):
    data = (
        b"  # comment\n\n3 Q0 doc#1\t1  -2.5e1 runA extra\r\n"
        b"10 Q0 d\x0b2 2 +4 runB\n\t\n2 Q0 x 3 .5 last\f"
    )
    got = {}
    for use_c in (False, True):
        if use_c and _native.built("scan") is None:
            continue
        monkeypatch.setattr(_native, "USE_C", use_c)
        r = read_run(data)
        got[use_c] = (r.qid.tolist(), r.docno.tolist(), r.score.tolist(), r.lineno.tolist(), r.runid)
    vals = list(got.values())
    assert got[False] == (
        [b"3", b"10", b"2"], [b"doc#1", b"d", b"x"], [-25.0, 2.0, 0.5], [3, 4, 6], "last"
    )
    assert all(v == vals[0] for v in vals)


def test_scores_are_bit_exact_decimal_conversions(scanner):
    """Whatever path converts a score, it must equal the correctly rounded double."""
    import random

    rnd = random.Random(5)
    toks = ["0.1", "-0.0", "0.3", "2.675", "1.0000000000000002", "123456789012345", "1234567890123456",
            ".000000000000001", "9007199254740993", "1e22", "1e23", "-4.5e-300"]
    for _ in range(20000):
        d = rnd.randint(1, 17)
        digits = "".join(rnd.choice("0123456789") for _ in range(d))
        pos = rnd.randint(0, d)
        toks.append(rnd.choice(["", "-", "+"]) + digits[:pos] + "." + digits[pos:])
    data = "".join(f"1 Q0 d{i} 1 {t} r\n" for i, t in enumerate(toks)).encode()
    got = read_run(data).score
    want = np.array([float(t) for t in toks])
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64))


def _random_lines(rnd, n: int) -> bytes:
    """Run-like text that puts line ends and token edges at every offset of the
    scanner's 64-byte blocks: tokens of 1 to 40 bytes, every blank byte,
    CRLF line ends,
    blank and comment lines, lines longer than a block, more fields than six."""
    blanks = [b" ", b"\t", b"\x0b", b"\x0c"]  # a CR only ends a line
    out = []
    for i in range(n):
        kind = rnd.random()
        if kind < 0.05:
            out.append(rnd.choice([b"", b"  \t", b"# a comment line", b"  #x y z"]))
            continue

        def sep():
            return b"".join(rnd.choice(blanks) for _ in range(rnd.choice([1, 1, 1, 2, 5])))
        toks = [b"%d" % rnd.randint(1, 30), b"Q0", b"d" + b"x#" * rnd.randint(0, 20) + b"%d" % i,
                b"%d" % rnd.randint(1, 999), b"%d.%d" % (rnd.randint(-99, 99), rnd.randint(0, 99999)),
                b"run" * rnd.randint(1, 5)]
        toks += [b"extra%d" % k for k in range(rnd.choice([0, 0, 0, 1, 14]))]
        line = (sep() if rnd.random() < 0.3 else b"") + sep().join(toks) + (sep() if rnd.random() < 0.3 else b"")
        if rnd.random() < 0.1:
            line += b"\r"
        out.append(line)
    return b"\n".join(out) + rnd.choice([b"", b"\n", b"\r\n"])


@pytest.mark.parametrize("seed", range(4))
def test_scanners_agree_on_random_lines(monkeypatch, seed):
    """The C scanner splits lines with bit masks over blocks of 64 bytes (a
    byte at a time near the end of the data and for lines longer than a block):
    it must find what the numpy scanner finds wherever a line falls."""
    import random

    if _native.built("scan") is None:
        pytest.skip("the optional C scanner is not built")
    data = _random_lines(random.Random(seed), 3000)
    got = []
    for use_c in (False, True):
        monkeypatch.setattr(_native, "USE_C", use_c)
        r = read_run(data)
        got.append((r.qid.tolist(), r.docno.tolist(), r.score.tolist(), r.lineno.tolist(), r.runid))
    assert got[0] == got[1]
    assert len(got[0][0]) > 2500


@pytest.mark.parametrize("seed", range(3))
def test_scanners_agree_on_the_first_short_line(monkeypatch, seed):
    """A line with too few fields, anywhere in a block, is found by both scanners."""
    import random

    rnd = random.Random(seed)
    lines = _random_lines(rnd, 400).split(b"\n")
    bad = rnd.randrange(100, 390)
    lines[bad] = b"7 Q0 short 1 2.5"
    data = b"\n".join(lines)
    errors = []
    for use_c in (False, True):
        monkeypatch.setattr(_native, "USE_C", use_c)
        with pytest.raises(InputError) as e:
            read_run(data)
        errors.append(str(e.value))
    assert errors[0] == errors[1]
    assert f"line {bad + 1}" in errors[0] or f":{bad + 1}" in errors[0]


def test_scanners_agree_on_whole_numbers_of_every_length(monkeypatch):
    """The C scanner reads a whole number of up to 18 characters itself and a
    longer one with strtoll: both give the numpy scanner's values and errors."""
    if _native.built("scan") is None:
        pytest.skip("the optional C scanner is not built")
    toks = ["0", "-0", "+7", "007"]
    for d in range(1, 21):
        toks += ["9" * d, "-" + "9" * d, "+" + "1" * d]
    toks += ["9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809"]
    for tok in toks:
        data = f"1 0 a {tok}\n".encode()
        got = []
        for use_c in (False, True):
            monkeypatch.setattr(_native, "USE_C", use_c)
            try:
                f = fields.split_fields(data, "x", min_fields=4, max_fields=4, wanted={3: fields.INT}, what="qrels")
                got.append(f.columns[3].tolist())
            except InputError as e:
                got.append(str(e))
        assert got[0] == got[1], tok
