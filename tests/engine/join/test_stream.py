"""Reading big runs in pieces: same rankings as reading them whole."""
from __future__ import annotations

import numpy as np
import pytest
from support.golden import GOLDEN

from trec_eval_py import InputError, read_qrels, read_run
from trec_eval_py.engine.join import EvalContext, build_rankings
from trec_eval_py.engine.join.stream import Interleaved, stream_rankings
from trec_eval_py.engine.parse.run import iter_run_chunks

IN = GOLDEN / "inputs"


def flatten(parts):
    """(qids, per-topic rels, filled) of several Rankings, in topic byte order."""
    qids = [q for p in parts for q in p.qids]
    rels = [p.rel[p.offsets[i]: p.offsets[i + 1]].tolist() for p in parts for i in range(p.num_topics)]
    filled = [bool(f) for p in parts for f in p.filled]
    order = np.argsort(np.array([q.encode() for q in qids], dtype="S"), kind="stable")
    return [qids[i] for i in order], [rels[i] for i in order], [filled[i] for i in order]


@pytest.mark.parametrize("qrels,run", [
    ("qrels.test", "results.test"), ("qrels.test", "results-302.test"), ("mid/qrels", "mid/run"),
    ("qids.qrels", "qids.run"), ("graded.qrels", "graded.run"), ("ties.qrels", "ties.run"),
])
@pytest.mark.parametrize("complete", [False, True])
@pytest.mark.parametrize("chunk", [200, 5000])
def test_pieces_give_the_whole_rankings(qrels, run, complete, chunk):
    q = read_qrels(IN / qrels)
    ctx = EvalContext(complete=complete, max_docs=50)
    parts = list(stream_rankings(q, iter_run_chunks(IN / run, chunk_bytes=chunk), ctx))
    whole = build_rankings(q, read_run(IN / run), ctx)
    assert flatten(parts) == flatten([whole])
    assert parts[-1].runid == whole.runid


def test_interleaved_topics_are_detected():
    q = read_qrels(IN / "qrels.test")
    with pytest.raises(Interleaved):
        list(stream_rankings(q, iter_run_chunks(IN / "results.trunc", chunk_bytes=300), EvalContext()))


def test_errors_count_lines_in_the_whole_file(tmp_path):
    lines = [f"1 Q0 d{i} {i} {100 - i} r" for i in range(500)]
    lines[321] = "1 Q0 bad 1 x r"
    p = tmp_path / "run"
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as e:
        list(iter_run_chunks(p, chunk_bytes=256))
    assert e.value.line == 322 and "'x'" in str(e.value)


def test_empty_run_in_pieces(tmp_path):
    p = tmp_path / "run"
    p.write_text("# nothing\n\n")
    with pytest.raises(InputError, match="empty"):
        list(iter_run_chunks(p, chunk_bytes=4))


def test_prefetch_keeps_order_and_passes_errors_on():
    from trec_eval_py.engine.join.stream import prefetch

    assert list(prefetch(iter(range(50)))) == list(range(50))

    def failing():
        yield 1
        raise InputError("run", "bad line", 7)

    got = []
    with pytest.raises(InputError, match="line 7"):
        for x in prefetch(failing()):
            got.append(x)
    assert got == [1]


def test_prefetch_error_frees_what_the_producer_held_without_the_cycle_collector():
    """An interleaved run is read twice: what the failed first pass held (its
    pieces, in the producer's frames that the error's traceback refers to) must
    go when the error is handled, not when the cyclic collector next runs."""
    import gc
    import weakref

    from trec_eval_py.engine.join.stream import prefetch

    class Piece:
        pass

    refs = []

    def producer():
        held = Piece()  # a local of the failing frame, as a run piece is
        refs.append(weakref.ref(held))
        yield 1
        raise Interleaved()

    gc.disable()
    try:
        try:
            for _ in prefetch(producer()):
                pass
        except Interleaved:
            pass
        assert refs and refs[0]() is None
    finally:
        gc.enable()


def test_prefetch_consumer_may_stop_early():
    from trec_eval_py.engine.join.stream import prefetch

    it = prefetch(iter(range(10_000)))
    assert next(it) == 0
    it.close()  # the producer thread notices and ends


@pytest.mark.parametrize("chunk", [8, 64, 1000])
@pytest.mark.parametrize("tail", [b"\n", b""])
def test_pieces_of_any_size_give_the_whole_run(tmp_path, chunk, tail):
    """Lines longer than a piece, comments, blank lines and a last line
    without a newline: the reused read buffer loses and repeats nothing."""
    rows = [f"{t} Q0 {'d' * (i % 97)}{i} {i} {i * 0.5} run{t}".encode() for t in range(5) for i in range(40)]
    rows[7] = b"# a comment line"
    rows[30] = b""
    p = tmp_path / "run"
    p.write_bytes(b"\n".join(rows) + tail)
    parts = list(iter_run_chunks(p, chunk_bytes=chunk))
    whole = read_run(p)
    for col in ("qid", "docno", "score", "lineno"):
        got = np.concatenate([getattr(x, col).astype(getattr(whole, col).dtype) for x in parts])
        assert got.tolist() == getattr(whole, col).tolist()
    assert parts[-1].runid == whole.runid


def _interleave(path, out, shards=3):
    """The run's lines dealt round-robin to shards, the shards concatenated (``cat part-*``)."""
    lines = path.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(b"".join(lines[k::shards]) for k in range(shards)))
    return out


@pytest.mark.parametrize("qrels,run", [
    ("qrels.test", "results.test"), ("mid/qrels", "mid/run"), ("graded.qrels", "graded.run"),
    ("ties.qrels", "ties.run"), ("qids.qrels", "qids.run"),
])
@pytest.mark.parametrize("complete", [False, True])
@pytest.mark.parametrize("spill", [1, 300, 5000])
def test_interleaved_runs_through_temporary_files(tmp_path, monkeypatch, qrels, run, complete, spill):
    from trec_eval_py.engine.join import stream

    monkeypatch.setattr(stream.POLICY, "spill_bytes", spill)
    path = _interleave(IN / run, tmp_path / "run")
    q = read_qrels(IN / qrels)
    ctx = EvalContext(complete=complete, max_docs=50)
    parts = list(stream.spill_rankings(q, iter_run_chunks(path, chunk_bytes=700), ctx,
                                       size_hint=path.stat().st_size, tmpdir=str(tmp_path)))
    whole = build_rankings(q, read_run(path), ctx)
    assert flatten(parts) == flatten([whole])
    assert parts[-1].runid == whole.runid
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # temporary files are gone


def test_interleaved_duplicate_reports_what_whole_reading_reports(tmp_path, monkeypatch):
    from trec_eval_py.engine.join import stream

    monkeypatch.setattr(stream.POLICY, "spill_bytes", 50)
    lines = [f"{t} Q0 d{i} 1 {i} r\n" for i in range(6) for t in range(20)]
    lines[100] = lines[3]  # topic 3's d0 again, far down; topic 7's d0 twice earlier:
    lines[50] = lines[7]
    p = tmp_path / "run"
    p.write_text("".join(lines))
    qtext = "".join(f"{t} 0 d0 1\n" for t in range(20))
    q = read_qrels(qtext.encode())
    with pytest.raises(InputError) as whole:
        build_rankings(q, read_run(p), EvalContext())
    with pytest.raises(InputError) as spilled:
        list(stream.spill_rankings(q, iter_run_chunks(p, chunk_bytes=64), EvalContext(),
                                   size_hint=p.stat().st_size, tmpdir=str(tmp_path)))
    assert str(spilled.value) == str(whole.value)


def test_bad_line_in_the_first_piece_of_an_interleaved_run_names_the_file(tmp_path, monkeypatch):
    # the rows before a bad line in the run's first piece carry a duplicate: the
    # spilled run reports it under the file's name, as reading whole does (it
    # said '<run>': the name was taken from pieces read whole, and there were none)
    import trec_eval_py.engine.pipeline as pipeline
    from trec_eval_py.engine.parse import run as run_module

    q = tmp_path / "q"
    q.write_text("1 0 a 1\n1 0 b 0\n2 0 a 1\n")
    p = tmp_path / "run"
    lines = [f"1 Q0 d{i} {i} {1000 - i} r" for i in range(5)] + ["2 Q0 a 1 1 r", "1 Q0 d3 99 0.5 r", "1 Q0 bad",
                                                                   "2 Q0 b 1 1 r"]
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as whole:
        pipeline.evaluate(str(q), str(p), ["map"])
    monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 0)
    monkeypatch.setattr(run_module, "CHUNK_BYTES", 4096)
    with pytest.raises(InputError) as pieces:
        pipeline.evaluate(str(q), str(p), ["map"])
    assert str(pieces.value) == str(whole.value) == (
        f"{p}, line 7: duplicate docno 'd3' in the same topic (first seen on line 4)")


@pytest.mark.parametrize("interleaved", [False, True])
def test_duplicate_in_an_unjudged_topic_is_found_in_pieces(tmp_path, interleaved):
    """A piece (or spill file) whose topics have no judgments is still joined: the
    duplicate docno in it is the error a whole read reports, not silently accepted."""
    from trec_eval_py.engine.join import stream

    q = read_qrels(b"1 0 a 1\n1 0 b 0\n")
    judged = [f"1 Q0 d{i} {i} {100 - i} r" for i in range(40)]
    unjudged = [f"2 Q0 e{i} {i} {100 - i} r" for i in range(40)] + ["2 Q0 e7 99 0.5 r"]
    lines = judged + unjudged
    if interleaved:
        lines = unjudged[:20] + judged + unjudged[20:]
    p = tmp_path / "run"
    p.write_text("\n".join(lines) + "\n")
    dup_line = lines.index("2 Q0 e7 99 0.5 r") + 1
    with pytest.raises(InputError) as whole:
        build_rankings(q, read_run(p), EvalContext())
    with pytest.raises(InputError) as pieces:
        if interleaved:
            list(stream.spill_rankings(q, iter_run_chunks(p, chunk_bytes=200), EvalContext()))
        else:
            list(stream_rankings(q, iter_run_chunks(p, chunk_bytes=200), EvalContext()))
    assert whole.value.line == pieces.value.line == dup_line
    assert str(whole.value) == str(pieces.value)


@pytest.mark.parametrize("complete", [False, True])
def test_run_id_of_an_unjudged_last_topic_in_pieces(tmp_path, complete):
    # the run id is the last line's; there it changes, in a topic no judgment names
    q = read_qrels(b"1 0 a 1\n2 0 b 1\n")
    lines = [f"{t} Q0 d{i} {i} {50 - i} first" for t in (1, 2, 9) for i in range(30)]
    lines[-1] = lines[-1].replace("first", "last")
    p = tmp_path / "run"
    p.write_text("\n".join(lines) + "\n")
    ctx = EvalContext(complete=complete)
    whole = build_rankings(q, read_run(p), ctx)
    for chunk in (64, 700, 1500):
        parts = list(stream_rankings(q, iter_run_chunks(p, chunk_bytes=chunk), ctx))
        assert whole.runid == "last"
        assert parts[-1].runid == "last", chunk
        assert flatten(parts) == flatten([whole])


def _evaluate_read(q, p, monkeypatch, reading):
    """The error of evaluating run ``p``: read whole, in pieces, or in pieces regrouped through files."""
    from trec_eval_py.engine import pipeline
    from trec_eval_py.engine.join import stream
    from trec_eval_py.engine.parse import run as run_reader

    if reading != "whole":
        monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 0)
        monkeypatch.setattr(run_reader, "CHUNK_BYTES", 150)
        monkeypatch.setattr(stream.POLICY, "spill_bytes", 100)
    with pytest.raises(InputError) as e:
        pipeline.evaluate(q, p, ["map"])
    return e.value


BAD_LINES = {"fields": "1 Q0 dX 1", "number": "1 Q0 dX 1 x r", "nul": "1 Q0 d\0X 1 1 r",
             "cr": "1 Q0 dX 1 1 r\r1 Q0 dY 1 1 r", "many_fields": "1 Q0 dX 1 1 r" + " z" * 40}


def _first_bad(lines, bad):
    """(line, is a duplicate) of the first bad line, by a plain reading."""
    seen = set()
    for n, line in enumerate(lines, 1):
        if line == bad:
            return n, False
        key = tuple(line.split()[0:3:2])
        if key in seen:
            return n, True
        seen.add(key)
    raise AssertionError("no bad line")


@pytest.mark.parametrize("bad", sorted(BAD_LINES))
@pytest.mark.parametrize("dup_at", [3, 25, 59, None])  # in the first piece; spanning pieces; the bad line's piece
@pytest.mark.parametrize("reading", ["whole", "pieces", "interleaved"])
def test_a_duplicate_before_a_malformed_line_is_the_error(tmp_path, monkeypatch, bad, dup_at, reading):
    # the duplicate docno is found by the join, the malformed line by the reader:
    # whichever comes first in the file is reported, however the run is read
    lines = [f"{t} Q0 d{i} {i} {50 - i} r" for t in (1, 2) for i in range(40)]
    if dup_at is not None:
        lines[dup_at] = lines[{3: 0, 25: 20, 59: 50}[dup_at]]
    lines[70] = BAD_LINES[bad]
    if reading == "interleaved":  # some of topic 2's lines first, then 1's, then 2's again
        lines = lines[60:65] + lines[:60] + lines[65:]
    p = tmp_path / "run"
    p.write_text("\n".join(lines) + "\n")
    q = tmp_path / "qrels"
    q.write_text("1 0 d1 1\n2 0 d2 1\n")
    err = _evaluate_read(q, p, monkeypatch, reading)
    line, dup = _first_bad(lines, BAD_LINES[bad])
    assert (err.line, "duplicate docno" in err.reason) == (line, dup), err


@pytest.mark.parametrize("bad", ["1 0 dX", "1 0 dX x", f"1 0 dX {2 ** 30}"])
def test_a_duplicate_judgment_before_a_malformed_line_is_the_error(tmp_path, bad):
    from trec_eval_py.engine import pipeline

    q = tmp_path / "qrels"
    q.write_text("1 0 a 1\n1 0 b 0\n1 0 a 0\n2 0 c 1\n" + bad + "\n")
    r = tmp_path / "run"
    r.write_text("1 Q0 a 1 1 r\n")
    with pytest.raises(InputError, match="duplicate docno 'a'") as e:
        pipeline.evaluate(q, r, ["map"])
    assert e.value.line == 3


@pytest.mark.parametrize("compress", ["gzip", "bz2", "lzma"])
@pytest.mark.parametrize("chunk", [64, 1000, 1 << 20])
def test_a_compressed_run_is_expanded_a_step_at_a_time(tmp_path, monkeypatch, compress, chunk):
    """A compressed run file is read in pieces as it expands (a step of the
    decompressor at a time), never expanded whole: the same rows as reading it whole."""
    import importlib

    from trec_eval_py.engine.parse import source

    rows = [f"{t} Q0 {'d' * (i % 97)}{i} {i} {i * 0.5} run{t}".encode() for t in range(30) for i in range(40)]
    rows[7] = b"# a comment line"
    text = b"\n".join(rows)  # the last line without its newline
    p = tmp_path / "run.z"
    p.write_bytes(importlib.import_module(compress).compress(text))
    monkeypatch.setattr(source, "_STEP", 100)  # many steps: lines cut across them
    whole = read_run(p)

    def refuse(*a, **k):
        raise AssertionError("expanded whole")

    monkeypatch.setattr(source, "_expand", refuse)
    parts = list(iter_run_chunks(p, chunk_bytes=chunk))
    assert len(parts) > 1 or chunk > len(text)
    for col in ("qid", "docno", "score", "lineno"):
        got = np.concatenate([getattr(x, col).astype(getattr(whole, col).dtype) for x in parts])
        assert got.tolist() == getattr(whole, col).tolist()
    assert parts[-1].runid == whole.runid


def test_a_damaged_compressed_run_read_in_pieces_is_one_input_error(tmp_path):
    import gzip

    body = gzip.compress(b"".join(f"1 Q0 d{i} {i} {i} r\n".encode() for i in range(5000)))
    p = tmp_path / "run.gz"
    p.write_bytes(body[: len(body) // 2])  # cut short
    with pytest.raises(InputError, match="cannot decompress"):
        list(iter_run_chunks(p, chunk_bytes=1000))


def test_a_compressed_run_in_pieces_keeps_the_expansion_bounds(tmp_path, monkeypatch):
    """The size and ratio bounds hold step by step, with the file's compressed size."""
    import gzip

    from trec_eval_py.engine.parse import source

    p = tmp_path / "run.gz"
    p.write_bytes(gzip.compress(b"1 Q0 d 1 1 r\n" * 200_000))  # 2.6 MB of text, a few KB packed
    monkeypatch.setattr(source, "_STEP", 1 << 16)
    with source.set_read_limits(max_input=1 << 20), pytest.raises(InputError, match="expands to"):
        list(iter_run_chunks(p, chunk_bytes=4096))
    assert len(list(iter_run_chunks(p, chunk_bytes=1 << 20))) > 1  # within the bounds: read
    monkeypatch.setattr(source, "RATIO_FLOOR", 1 << 20)  # (a run this small is let through otherwise)
    with pytest.raises(InputError, match="expands more than 100 times"):
        list(iter_run_chunks(p, chunk_bytes=4096))


def _rows_by_topic(run):
    """{topic: [(docno, score, line)...]} in the rows' order."""
    out: dict = {}
    for q, d, s, n in zip(run.qid.tolist(), run.docno.tolist(), run.score.tolist(), run.lineno.tolist()):
        out.setdefault(q, []).append((d, s, n))
    return out


@pytest.mark.parametrize("regroup_rows", [1, 7, 10 ** 6])
@pytest.mark.parametrize("chunk", [60, 700])
def test_in_topic_order_gives_whole_topics_ascending_in_file_order(tmp_path, regroup_rows, chunk):
    """An interleaved run comes back as ranges of whole topics, ranges and
    topics in ascending byte order, each topic's rows in file order, the
    temporary files gone; ranges hold about ``regroup_rows`` rows."""
    from trec_eval_py.engine.join import stream

    path = _interleave(IN / "mid" / "run", tmp_path / "run", shards=4)
    whole = read_run(path)
    parts = list(stream.in_topic_order(iter_run_chunks(path, chunk_bytes=chunk), regroup_rows, tmpdir=str(tmp_path)))
    heads = [sorted(set(p.qid.tolist())) for p in parts]
    flat = [t for h in heads for t in h]
    assert flat == sorted(set(whole.qid.tolist()))  # every topic once, ascending across ranges
    got: dict = {}
    for p in parts:
        got.update(_rows_by_topic(p))
        assert p.runid == whole.runid
    assert got == _rows_by_topic(whole)
    if regroup_rows == 1:
        assert all(len(h) == 1 for h in heads)  # one topic a range
    if regroup_rows == 10 ** 6:
        assert len(parts) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["run"]


def test_in_topic_order_gives_the_rows_before_a_bad_line_then_its_error(tmp_path):
    from trec_eval_py.engine.join import stream

    p = tmp_path / "run"
    p.write_text("2 Q0 a 1 3 r\n1 Q0 b 1 2 r\n2 Q0 c 1 1 r\n1 Q0 bad\n3 Q0 d 1 1 r\n")
    got = []
    with pytest.raises(InputError) as e:
        for part in stream.in_topic_order(iter_run_chunks(p, chunk_bytes=20), 2, tmpdir=str(tmp_path)):
            got.append(_rows_by_topic(part))
    assert e.value.line == 4
    merged = {k: v for g in got for k, v in g.items()}
    assert merged == {b"1": [(b"b", 2.0, 2)], b"2": [(b"a", 3.0, 1), (b"c", 1.0, 3)]}
    assert [p.name for p in tmp_path.iterdir()] == ["run"]
