"""Judgments are read in pieces: the same columns, the same errors as reading
them whole, and the file is held in memory about once."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trec_eval_py import InputError, _native, read_qrels
from trec_eval_py.engine.join.stream import _QrelsByTopic
from trec_eval_py.engine.parse import qrels as qrels_mod
from trec_eval_py.engine.parse.levels import MAX_LEVEL


def same_qrels(a, b):
    for col in ("qid", "docno", "rel", "lineno"):
        x, y = getattr(a, col), getattr(b, col)
        assert x.dtype == y.dtype, col
        assert np.array_equal(x, y), col


def read_whole(path, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(qrels_mod, "CHUNK_BYTES", 1 << 30)
        return read_qrels(path)


lines = st.lists(
    st.tuples(
        st.sampled_from(["1", "2", "10", "q300", "7"]),
        st.sampled_from(["0", "Q0"]),
        st.text("abcdXYZ0123456789-_.", min_size=1, max_size=25),
        st.integers(-3, MAX_LEVEL),
    ),
    min_size=1, max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(rows=lines, chunk=st.integers(8, 300), use_c=st.booleans(), blank=st.booleans())
def test_pieces_give_the_whole_file(tmp_path_factory, rows, chunk, use_c, blank):
    text = "".join(f"{q} {i} {d} {r}\n" + ("\n" if blank and k % 7 == 3 else "")
                   for k, (q, i, d, r) in enumerate(rows))
    path = tmp_path_factory.mktemp("q") / "qrels"
    path.write_bytes(text.encode())
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(_native, "USE_C", use_c)
        whole = read_whole(path, mp)
        mp.setattr(qrels_mod, "CHUNK_BYTES", chunk)
        same_qrels(read_qrels(path), whole)
    finally:
        mp.undo()


@pytest.mark.parametrize("bad", ["1 0 dX notanumber\n", "1 0 dX\n", "1 0 dX 2147483647\n", "1 0 d\0X 1\n"])
@pytest.mark.parametrize("at", [0, 17, 40])
@pytest.mark.parametrize("chunk", [16, 64, 1000])
def test_an_error_in_a_later_piece_names_its_line_and_keeps_the_rows_before(tmp_path, monkeypatch, bad, at, chunk):
    good = [f"{1 + k % 3} 0 doc{k:0{1 + k % 4}d} {k % 3}\n" for k in range(60)]
    path = tmp_path / "qrels"
    path.write_bytes("".join(good[:at] + [bad] + good[at:]).encode())
    with pytest.raises(InputError) as whole:
        read_whole(path, monkeypatch)
    monkeypatch.setattr(qrels_mod, "CHUNK_BYTES", chunk)
    with pytest.raises(InputError) as pieces:
        read_qrels(path)
    assert str(pieces.value) == str(whole.value)
    assert pieces.value.line == at + 1
    same_qrels(pieces.value.rows_before, whole.value.rows_before)
    assert len(pieces.value.rows_before) == at


def test_a_wider_value_later_and_a_wrong_size_guess(tmp_path, monkeypatch):
    # narrow ids first, then wider ones: each column is widened once
    text = "".join(f"1 0 d{k} 1\n" for k in range(500)) + "100000 0 " + "w" * 40 + " 2\n"
    path = tmp_path / "qrels"
    path.write_bytes(text.encode())
    monkeypatch.setattr(qrels_mod, "CHUNK_BYTES", 100)
    for hint in (0, 10, 10 ** 9):  # none, far too small, far too big
        monkeypatch.setattr(qrels_mod, "file_size", lambda source, hint=hint: hint)
        q = read_qrels(path)
        assert q.docno.dtype == np.dtype("S40") and q.qid.dtype == np.dtype("S6")
        assert q.docno[-1] == b"w" * 40 and q.docno[0] == b"d0" and len(q) == 501
        assert q.lineno.tolist() == list(range(1, 502))


def test_pieces_hold_the_judgments_about_once(tmp_path, monkeypatch):
    """Keeping every piece and joining them at the end would need the columns
    twice over; each piece is copied to its place and let go instead."""
    rng = np.random.default_rng(3)
    n = 100_000
    text = "".join(f"{1000 + k // 300} 0 D{v} {v % 3}\n" for k, v in enumerate(rng.integers(0, 10**7, n)))
    path = tmp_path / "qrels"
    path.write_bytes(text.encode())
    monkeypatch.setattr(qrels_mod, "CHUNK_BYTES", 64 << 10)
    tracemalloc.start()
    try:
        q = read_qrels(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = sum(getattr(q, c).nbytes for c in ("qid", "docno", "rel", "lineno"))
    assert peak < 1.4 * size, (peak, size)


def slow_subset(q, topics):
    keep = np.isin(q.qid, topics)
    order = np.argsort(q.qid[keep], kind="stable")
    return [a[keep][order] for a in (q.qid, q.docno, q.rel, q.lineno)]


@pytest.mark.parametrize("layout", ["grouped", "interleaved", "one"])
def test_topic_subsets_whatever_the_line_order(layout):
    rng = np.random.default_rng(5)
    qids = np.array([b"10", b"9", b"1", b"300", b"2"], dtype="S")
    if layout == "grouped":
        qid = np.repeat(qids, [3, 1, 4, 2, 5])
    elif layout == "interleaved":
        qid = qids[rng.integers(0, len(qids), 40)]
    else:
        qid = np.repeat(qids[:1], 4)
    n = len(qid)
    q = qrels_mod.Qrels(qid, np.array([b"d%d" % k for k in range(n)]), rng.integers(-1, 3, n),
                        np.arange(1, n + 1))
    by_topic = _QrelsByTopic(q)
    assert (by_topic.order is None) == (layout != "interleaved")
    assert by_topic.topics.tolist() == sorted(set(qid.tolist()))
    for wanted in ([b"1"], [b"10", b"300"], [b"1", b"2", b"9", b"10"], [b"nope"], [b"2", b"zz"]):
        topics = np.sort(np.array(wanted, dtype="S"))
        sub = by_topic.subset(topics)
        for got, want in zip((sub.qid, sub.docno, sub.rel, sub.lineno), slow_subset(q, topics)):
            assert got.tolist() == want.tolist()
    top = {t: max(r for qq, r in zip(qid.tolist(), q.rel.tolist()) if qq == t) for t in set(qid.tolist())}
    assert by_topic.any_all_negative() == any(v < 0 for v in top.values())


@pytest.mark.parametrize("tail", ["3 0 dZ 1", "3 0 dZ", "# a comment", "   ", "3 0 dZ x"])
def test_a_last_line_without_a_newline(tmp_path, monkeypatch, tail):
    """A plain file is read up to its last newline first: what follows is a
    piece of its own (rows, an error, or nothing at all)."""
    path = tmp_path / "qrels"
    path.write_bytes(("1 0 dA 1\n2 0 dB 0\n" + tail).encode())
    try:
        want = read_whole(path, monkeypatch)
    except InputError as e:
        with pytest.raises(InputError) as got:
            read_qrels(path)
        assert str(got.value) == str(e)
        same_qrels(got.value.rows_before, e.rows_before)
    else:
        same_qrels(read_qrels(path), want)


def test_judgments_from_a_pipe(tmp_path):
    """A named pipe has no size: it is read in whole pieces all the same."""
    import os
    import threading

    text = "".join(f"{k % 5} 0 doc{k} {k % 3}\n" for k in range(20000)).encode()
    (tmp_path / "plain").write_bytes(text)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(text))
    writer.start()
    try:
        got = read_qrels(fifo)
    finally:
        writer.join()
    want = read_qrels(tmp_path / "plain")
    same_qrels(got, want)
