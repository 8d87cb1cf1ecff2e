"""Readers under attack: every bad input is our own error, naming the first bad line."""
from __future__ import annotations

import gzip
import zlib

import pytest

from trec_eval_py import InputError, _native, read_qrels, read_run
from trec_eval_py.engine.parse import layouts
from trec_eval_py.engine.parse.run import MAX_FIELDS, iter_run_chunks


@pytest.fixture(autouse=True, params=["c", "numpy"])
def scanner(request, monkeypatch):
    """Every test runs on both implementations of the field scanner."""
    if request.param == "c" and _native.built("scan") is None:
        pytest.skip("the optional C scanner is not built")
    monkeypatch.setattr(_native, "USE_C", request.param == "c")
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


RUN_BAD = {
    "fields": "1 Q0 dX 1",
    "many_fields": "1 Q0 dX 1 1 r" + " x" * MAX_FIELDS,
    "number": "1 Q0 dX 1 x1 r",
    "nan": "1 Q0 dX 1 nan r",
    "nul": "1 Q0 d\0X 1 1 r",
    "cr": "1 Q0 dX 1 1 r\r1 Q0 dY 2 1 r",
    "overlong": "1 Q0 " + "W" * 3000 + " 1 1 r",
}
QRELS_BAD = {
    "fields": "1 0 dX",
    "number": "1 0 dX x1",
    "nul": "1 0 d\0X 1",
    "cr": "1 0 dX 1\r1 0 dY 1",
    "level": f"1 0 dX {2 ** 30}",
    "low_level": f"1 0 dX {-(2 ** 63)}",
    "int64": f"1 0 dX {10 ** 20}",
    "overlong": "1 0 " + "W" * 3000 + " 1",
}


def qrels_lines(n):
    return [f"1 0 d{i} {i % 3}" for i in range(n)]


def _with_bad(lines, bad, early, late):
    lines = list(lines)
    lines[40] = bad[early]
    lines[250] = bad[late]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("late", sorted(RUN_BAD))
@pytest.mark.parametrize("early", sorted(RUN_BAD))
def test_the_first_bad_line_is_reported_whatever_its_kind(early, late, monkeypatch):
    # "overlong": a docno too wide to store every line at its width (budget lowered)
    monkeypatch.setattr(layouts, "COLUMN_BYTES_MIN", 0)
    data = _with_bad(run_lines(300), RUN_BAD, early, late)
    with pytest.raises(InputError) as e:
        read_run(data)
    assert e.value.line == 41, e.value
    if "overlong" in (early, late):
        return  # a budget on a whole column: pieces hold fewer rows and store it
    with pytest.raises(InputError) as e2:  # same answer read in pieces
        list(iter_run_chunks(data, chunk_bytes=512))
    assert (e2.value.line, e2.value.reason) == (41, e.value.reason)


@pytest.mark.parametrize("late", sorted(QRELS_BAD))
@pytest.mark.parametrize("early", sorted(QRELS_BAD))
def test_the_first_bad_qrels_line_is_reported_whatever_its_kind(early, late, monkeypatch):
    # the relevance bound is checked after the scan: it must still be in line order
    monkeypatch.setattr(layouts, "COLUMN_BYTES_MIN", 0)
    data = _with_bad(qrels_lines(300), QRELS_BAD, early, late)
    with pytest.raises(InputError) as e:
        read_qrels(data)
    assert e.value.line == 41, e.value


@pytest.mark.parametrize("kind", ["fields", "number", "nul", "cr"])
def test_relevance_bound_before_a_later_bad_line_in_qrels_jg(kind):
    from trec_eval_py.engine.parse.qrels_jg import read_qrels_jg

    lines = [f"1 g d{i} 1" for i in range(100)]
    lines[1] = f"1 g dX {2 ** 30}"
    lines[4] = {"fields": "1 g dY", "number": "1 g dY x", "nul": "1 g d\0Y 1", "cr": "1 g dY 1\r1 g dZ 1"}[kind]
    with pytest.raises(InputError, match="above the highest supported level") as e:
        read_qrels_jg(("\n".join(lines) + "\n").encode())
    assert e.value.line == 2


@pytest.mark.parametrize("late", ["fields", "number", "nan", "dup"])
@pytest.mark.parametrize("early", ["fields", "number", "nan", "dup"])
def test_the_first_bad_zscores_line_is_reported_whatever_its_kind(early, late):
    from trec_eval_py.engine.parse.zscores import read_zscores

    bad = {"fields": "q m 1", "number": "q m x 1", "nan": "q m nan 1", "dup": None}
    lines = [f"{t} map 0.{t} 0.1" for t in range(100)]
    for at, kind in ((10, early), (60, late)):
        lines[at] = bad[kind] or lines[at - 3]  # "dup": the topic of three lines before again
    with pytest.raises(InputError) as e:
        read_zscores(("\n".join(lines) + "\n").encode())
    assert e.value.line == 11, e.value


def test_integer_beyond_64_bits_is_out_of_range_on_both_scanners():
    with pytest.raises(InputError, match=r"relevance is out of range \('99999999999999999999'") as e:
        read_qrels(b"1 0 d1 1\n1 0 d2 99999999999999999999\n")
    assert e.value.line == 2
    with pytest.raises(InputError, match=r"relevance is not an integer \('1x'\)"):
        read_qrels(b"1 0 d1 1x\n")


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
    monkeypatch.setattr(layouts, "COLUMN_BYTES_MIN", 1 << 20)
    lines = run_lines(20000)
    lines[777] = "1 Q0 " + "D" * (1 << 20) + " 1 1 r"
    with pytest.raises(InputError, match="1048576 bytes long") as e:
        read_run(("\n".join(lines) + "\n").encode())
    assert e.value.line == 778
    # a long docno that fits the budget is read
    lines[777] = "1 Q0 " + "D" * 100 + " 1 1 r"
    assert len(read_run(("\n".join(lines) + "\n").encode())) == 20000


def test_errors_cross_processes_whole():
    """An error raised on a dask worker reaches the client pickled: every error
    type comes back as itself, with its message and attributes (the subclasses'
    __init__ arguments are not what Exception keeps)."""
    import pickle

    from trec_eval_py.errors import (
        InputError,
        InputTypeError,
        MeasureError,
        NoTopicsError,
        OptionError,
        OutputError,
        UsageError,
    )

    errors = [InputError("run", "duplicate document", 7, "q1 Q0 d1 1 2.0 r"), InputTypeError("qrels", "not a dict"),
              OutputError("out.csv", "no such folder"), UsageError("bad"), MeasureError("unknown measure 'x'"),
              NoTopicsError("no topic"), OptionError("{@max_docs} must be 0 or more, not {v}", v=-3)]
    errors[0].rows_before = ("kept", 3)
    for e in errors:
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e) and back.__dict__ == e.__dict__
    assert pickle.loads(pickle.dumps(errors[-1])).render({"max_docs": "-M"}) == "-M must be 0 or more, not -3"
