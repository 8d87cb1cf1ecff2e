"""Readers under attack: every bad input is our own error, naming the first bad line."""
from __future__ import annotations

import gzip
import zlib

import pytest

from trec_eval_py import InputError, read_qrels, read_run
from trec_eval_py.engine.parse import fields
from trec_eval_py.engine.parse.run import MAX_FIELDS, iter_run_chunks


@pytest.fixture(autouse=True, params=["c", "numpy"])
def scanner(request, monkeypatch):
    """Every test runs on both implementations of the field scanner."""
    if request.param == "c" and fields._scan is None:
        pytest.skip("the optional C scanner is not built")
    monkeypatch.setattr(fields, "USE_C", request.param == "c")
    return request.param


def run_lines(n):
    return [f"1 Q0 d{i} {i} {100 - i} r" for i in range(n)]


def test_corrupt_gzip_is_an_input_error(tmp_path):
    body = bytearray(gzip.compress(("\n".join(run_lines(200)) + "\n").encode()))
    # a damaged deflate stream: zlib.error, not OSError
    for k in range(12, len(body) - 8):
        bad = bytearray(body)
        bad[k] ^= 0xFF
        try:
            gzip.decompress(bytes(bad))
        except zlib.error:
            break
        except Exception:
            continue
    else:  # pragma: no cover
        pytest.fail("no byte flip gave zlib.error")
    p = tmp_path / "run.gz"
    p.write_bytes(bytes(bad))
    with pytest.raises(InputError, match="cannot decompress") as e:
        read_run(p)
    assert e.value.path == str(p)


@pytest.mark.parametrize("sep", ["\u00a0", "\u0085", "\u2028", "\x1c", "\x1f"])
def test_unicode_separators_are_field_bytes_in_messages(sep):
    # C's isspace does not split there: the field named is the fourth ASCII-blank field
    data = f"1 0 d1{sep}x 1\n1 0 doc{sep}a abc\n".encode()
    with pytest.raises(InputError) as e:
        read_qrels(data)
    assert e.value.line == 2 and "('abc')" in e.value.reason
    data = f"1 0 d1 1{sep}\n".encode()
    with pytest.raises(InputError) as e:
        read_qrels(data)
    assert e.value.line == 1 and repr(f"1{sep}") in e.value.reason


def test_run_score_named_despite_unicode_blank_in_docno():
    data = "1 Q0 d\u00a0x 1 bad r\n".encode()
    with pytest.raises(InputError) as e:
        read_run(data)
    assert "score is not a number ('bad')" in e.value.reason


@pytest.mark.parametrize("late", ["fields", "number", "nul", "cr"])
@pytest.mark.parametrize("early", ["fields", "number", "nul", "cr"])
def test_the_first_bad_line_is_reported_whatever_its_kind(early, late):
    bad = {
        "fields": "1 Q0 dX 1",
        "number": "1 Q0 dX 1 x1 r",
        "nul": "1 Q0 d\0X 1 1 r",
        "cr": "1 Q0 dX 1 1 r\r1 Q0 dY 2 1 r",
    }
    lines = run_lines(300)
    lines[40] = bad[early]
    lines[250] = bad[late]
    data = ("\n".join(lines) + "\n").encode()
    with pytest.raises(InputError) as e:
        read_run(data)
    assert e.value.line == 41
    with pytest.raises(InputError) as e2:  # same answer read in pieces
        list(iter_run_chunks(data, chunk_bytes=512))
    assert (e2.value.line, e2.value.reason) == (41, e.value.reason)


def test_first_bad_line_among_numeric_columns_of_prefs():
    from trec_eval_py.engine.parse.prefs import read_prefs

    data = b"1 0 d1 a 2\n" * 3 + b"1 0 d2 b x\n" + b"1 0 d3 c 1\n" * 3
    with pytest.raises(InputError) as e:
        read_prefs(data)
    assert e.value.line == 4


def test_long_valid_score_parses():
    long = "0." + "1" * 600
    r = read_run(f"1 Q0 a 1 {long} r\n1 Q0 b 2 {'0' * 500}1 r\n".encode())
    assert r.score.tolist() == [float(long), 1.0]
    q = read_qrels(f"1 0 a {'0' * 450}2\n".encode())
    assert q.rel.tolist() == [2]


def test_long_bad_token_is_shortened_in_the_message():
    tok = "x" * 5000
    with pytest.raises(InputError) as e:
        read_run(f"1 Q0 a 1 {tok} r\n".encode())
    assert len(str(e.value)) < 400
    assert "'xxx" in e.value.reason and "...'" in e.value.reason


def test_cr_only_line_endings_are_an_error():
    data = ("\r".join(run_lines(150)) + "\r").encode()
    with pytest.raises(InputError, match="carriage return") as e:
        read_run(data)
    assert e.value.line == 1
    # CRLF and a CR at the very end stay fine
    assert len(read_run(("\r\n".join(run_lines(5)) + "\r\n").encode())) == 5
    assert len(read_run(("\n".join(run_lines(5)) + "\r").encode())) == 5


def test_run_line_with_far_more_fields_is_an_error():
    ok = "1 Q0 a 1 2 r" + " x" * (MAX_FIELDS - 6)
    assert len(read_run((ok + "\n").encode())) == 1
    with pytest.raises(InputError, match=f"{MAX_FIELDS + 1} fields, at most {MAX_FIELDS}") as e:
        read_run(("1 Q0 b 1 2 r\n" + ok + " y\n").encode())
    assert e.value.line == 2


def test_one_huge_docno_is_rejected_not_a_memory_error(monkeypatch):
    monkeypatch.setattr(fields, "COLUMN_BYTES_MIN", 1 << 20)
    lines = run_lines(20000)
    lines[777] = "1 Q0 " + "D" * (1 << 20) + " 1 1 r"
    with pytest.raises(InputError, match="1048576 bytes long") as e:
        read_run(("\n".join(lines) + "\n").encode())
    assert e.value.line == 778
    # a long docno that fits the budget is read
    lines[777] = "1 Q0 " + "D" * 100 + " 1 1 r"
    assert len(read_run(("\n".join(lines) + "\n").encode())) == 20000
