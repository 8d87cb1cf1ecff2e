"""Every way of holding judgments and runs in Python gives the file route's values.

A Hypothesis property: random judgments and runs (tied scores, judged topics
the run lacks and run topics without judgments, documents nobody judged,
levels -1 to 3, integer and non-ASCII ids) are written as TREC text files and
evaluated; the same rows given as a dict of dicts, pandas DataFrames (Arrow-
backed and object columns), polars DataFrames, pyarrow Tables and
RecordBatches, Parquet files and bytes, and iterables of ir_measures'
namedtuples must print exactly the same, with and without the C extensions.
Then the checks and the messages of the conversion layer.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.dict_pieces import dict_pieces
from support.paths import EXAMPLES, GOLDEN

import trec_eval_py as te
from trec_eval_py import _native
from trec_eval_py.errors import InputError, InputTypeError, MeasureError

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pl = pytest.importorskip("polars")
ir_measures = pytest.importorskip("ir_measures")

MEASURES = ["map", "P.5,10", "num_ret", "num_rel", "num_rel_ret", "ndcg_cut.5", "recip_rank", "bpref", "infAP",
            "P(rel=2)@3", "RR(judged_only=True)", "Rprec"]
DOCS = ["d1", "d2", "d3", "d10", "D1", "x", "é1", "doc-9", "9", "10", "a.b", "zz"]
SCORES = [1.0, 1.0, 2.5, 0.0, -1.0, 3.0]


@st.composite
def rows(draw):
    int_ids = draw(st.booleans())
    pool = list(range(1, 40)) if int_ids else ["1", "2", "10", "a", "B", "q-é", "301"]
    topics = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5, unique=True))
    qrels, run = [], []
    for t in topics:
        if draw(st.integers(0, 5)) > 0:
            for d in draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True)):
                qrels.append((t, d, draw(st.sampled_from([-1, 0, 0, 1, 1, 2, 3]))))
        if draw(st.integers(0, 5)) > 0:
            for d in draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10, unique=True)):
                s = draw(st.sampled_from(SCORES)) if draw(st.booleans()) else draw(
                    st.floats(-1e6, 1e6, allow_nan=False, width=64))
                run.append((t, d, s))
    return qrels, run


def write_text(tmp_path, qrels, run):
    qf, rf = tmp_path / "qrels", tmp_path / "run"
    qf.write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in qrels), encoding="utf-8")
    rf.write_text("".join(f"{t} Q0 {d} {i} {s!r} r1\n" for i, (t, d, s) in enumerate(run, 1)), encoding="utf-8")
    return str(qf), str(rf)


def columns(rows_, value):
    t, d, v = zip(*rows_) if rows_ else ((), (), ())
    return {"query_id": list(t), "doc_id": list(d), value: list(v)}


def kinds(qrels, run, tmp_path):
    """(kind, qrels value, run value) for every Python route."""
    qc, rc = columns(qrels, "relevance"), columns(run, "score")
    rc["run_id"] = ["r1"] * len(run)
    qdf, rdf = pd.DataFrame(qc), pd.DataFrame(rc)
    yield "pandas", qdf, rdf
    yield "pandas object columns", qdf.astype({"query_id": object, "doc_id": object}), rdf.astype(
        {"query_id": object, "doc_id": object})
    yield "pandas (PyTerrier's names)", qdf.rename(columns={"query_id": "qid", "doc_id": "docno",
                                                            "relevance": "label"}), \
        rdf.rename(columns={"query_id": "qid", "doc_id": "docno", "run_id": "name"})
    yield "polars", pl.DataFrame(qc), pl.DataFrame(rc)
    qt, rt = pa.table(qc), pa.table(rc)
    yield "arrow", qt, rt
    yield "record batch", qt.to_batches()[0] if qt.num_rows else qt, rt.to_batches()[0] if rt.num_rows else rt
    yield "arrow dictionary", qt, rt.set_column(0, "query_id", rt.column("query_id").dictionary_encode())
    qp, rp = tmp_path / "q.parquet", tmp_path / "r.parquet"
    pq.write_table(qt, qp)
    pq.write_table(rt, rp, row_group_size=7)  # several row groups: chunked columns
    yield "parquet", str(qp), str(rp)
    yield "parquet bytes", qp.read_bytes(), rp.read_bytes()
    yield "ir_measures namedtuples", [ir_measures.Qrel(*x) for x in qrels], iter(
        [ir_measures.ScoredDoc(*x) for x in run])
    qd, rd = {}, {}
    for t, d, r in qrels:
        qd.setdefault(str(t), {})[d] = r
    for t, d, s in run:
        rd.setdefault(str(t), {})[d] = s
    rd["empty topic"] = {}  # a topic given without documents is no topic
    qd["judged nothing"] = {}
    yield "dict", qd, rd


def outcome(qrels, run, **opts):
    try:
        ev = te.evaluate(qrels, run, MEASURES, **opts)
    except te.TrecEvalError as e:
        return type(e).__name__
    return ev.to_text(query=True).replace("\tr1\n", "\t\n")  # the run id line aside


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=rows(), use_c=st.booleans())
def test_every_python_route_gives_the_file_routes_values(tmp_path, case, use_c):
    qrels, run = case
    qf, rf = write_text(tmp_path, qrels, run)
    saved = _native.USE_C
    _native.USE_C = use_c
    try:
        for opts in ({}, {"complete": True}):
            want = outcome(qf, rf, **opts) if run else None
            for kind, q, r in kinds(qrels, run, tmp_path):
                if not qrels or not run:  # an empty side is an error on both routes
                    with pytest.raises(te.TrecEvalError):
                        te.evaluate(q, r, MEASURES, **opts)
                    continue
                if kind in ("ir_measures namedtuples",):
                    r = list(r)  # an iterator is read once; both options read it
                assert outcome(q, r, **opts) == want, kind
    finally:
        _native.USE_C = saved


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=rows(), piece_rows=st.integers(1, 12), use_c=st.booleans())
def test_a_dict_measured_in_pieces_gives_the_file_routes_values(tmp_path, case, piece_rows, use_c):
    """A big dict of dicts is flattened, ranked and measured a piece of whole topics
    at a time: whatever the piece size, the values are the file route's."""
    qrels, run = case
    if not qrels or not run:
        return
    qf, rf = write_text(tmp_path, qrels, run)
    qd, rd = {}, {}
    for t, d, r in qrels:
        qd.setdefault(str(t), {})[d] = r
    for t, d, s in reversed(run):  # topics in another order than the file's
        rd.setdefault(str(t), {})[d] = s
    rd["empty topic"] = {}
    with pytest.MonkeyPatch.context() as mp, dict_pieces(piece_rows) as seen:  # (this example's patches)
        mp.setattr(_native, "USE_C", use_c)
        for opts in ({}, {"complete": True}, {"compat": "10.0", "complete": True}):
            seen.clear()
            assert outcome(qd, rd, **opts) == outcome(qf, rf, **opts)
            # each measure pass reads every result once, in pieces of whole topics
            # (no more than one topic beyond the piece size)
            assert seen and sum(seen) % len(run) == 0 and max(seen) < piece_rows + 10


def test_a_dict_whose_topic_ids_meet_as_bytes_across_pieces_is_read_whole():
    """Two str ids with one UTF-8 form (lone surrogates are kept as their bytes) are one
    topic, as in a file; in pieces with a topic between them, they come back as an
    interleaved run does, and the dict is then read whole (it once kept half a topic)."""
    qrels = {"ÿ": {"a": 1, "b": 1}, "x": {"a": 1}}
    run = {"ÿ": {"a": 1.0}, "x": {"a": 1.0}, "\udcc3\udcbf": {"b": 2.0}}
    whole = te.evaluate(qrels, run, ["map", "num_ret"]).to_text(query=True)
    assert "num_ret               \tÿ\t2\n" in whole
    with dict_pieces(1) as seen:
        assert te.evaluate(qrels, run, ["map", "num_ret"]).to_text(query=True) == whole
        assert seen


def test_a_bad_value_in_a_later_piece_names_its_topic_and_docno():
    qrels = {"1": {"a": 1}, "2": {"a": 1}}
    run = {"1": {"a": 1.0, "b": 2.0}, "2": {"a": 1.0, "b": float("nan")}}
    with dict_pieces(2):
        with pytest.raises(InputError, match="2/b is NaN"):
            te.evaluate(qrels, run, ["map"])
        run["2"] = {"a": 1.0, 7: 1.0}
        with pytest.raises(InputTypeError, match="docno of 2/7 must be a string, not int"):
            te.evaluate(qrels, run, ["map"])


def test_parsed_values_round_trip(tmp_path):
    rng = random.Random("round trip")
    qrels = {str(t): {f"d{d}": rng.choice([-1, 0, 1, 2]) for d in rng.sample(range(30), 8)} for t in range(5)}
    run = {str(t): {f"d{d}": rng.choice([1.0, 2.0, rng.random()]) for d in rng.sample(range(30), 10)} for t in range(6)}
    q, r = te.read_qrels(qrels), te.read_run(run)
    assert q.to_dict() == qrels and r.to_dict() == run
    assert te.read_qrels(q.to_dataframe()).to_dict() == qrels
    assert te.read_run(r.to_dataframe()).to_dict() == run
    for ext in ("txt", "parquet"):
        q.write(tmp_path / f"q.{ext}")
        r.write(tmp_path / f"r.{ext}")
        assert te.read_qrels(str(tmp_path / f"q.{ext}")).to_dict() == qrels
        assert te.read_run(str(tmp_path / f"r.{ext}")).to_dict() == run
    want = te.evaluate(qrels, run, MEASURES).to_text(query=True)
    assert te.evaluate(str(tmp_path / "q.txt"), str(tmp_path / "r.txt"), MEASURES).to_text(query=True) == want
    sub = r.topics(["1", "3", "no such"])
    assert sub.to_dict() == {"1": run["1"], "3": run["3"]}
    assert q.topics("2").to_dict() == {"2": qrels["2"]}


def test_writing_text_refuses_white_space(tmp_path):
    r = te.read_run({"q 1": {"d": 1.0}})
    with pytest.raises(te.TrecEvalError, match="white space"):
        r.write(tmp_path / "r.txt")
    r.write(tmp_path / "r.parquet")
    assert te.read_run(str(tmp_path / "r.parquet")).to_dict() == {"q 1": {"d": 1.0}}


def test_measure_objects_and_names_agree():
    from ir_measures import AP, P, nDCG

    qrels = {"1": {"a": 2, "b": 1, "c": 0}, "2": {"x": 1}}
    run = {"1": {"a": 1.0, "b": 3.0, "z": 2.0}, "2": {"x": 1.0}}
    by_object = te.evaluate(qrels, run, [nDCG@10, AP(rel=2), P(rel=2)@2])
    by_name = te.evaluate(qrels, run, ["nDCG@10", "AP(rel=2)", "P(rel=2)@2"])
    assert by_object.to_text(query=True) == by_name.to_text(query=True)
    assert dict(by_object.summary) == dict(by_name.summary)
    assert te.evaluate(qrels, run, AP).summary["AP"] == by_name.summary["AP(rel=2)"] * 0 + te.evaluate(
        qrels, run, "AP").summary["AP"]
    with pytest.raises(TypeError, match="not int"):  # a wrong type: a TypeError (OptionTypeError)
        te.evaluate(qrels, run, [5])


def test_no_measure_is_a_clear_error():
    with pytest.raises(MeasureError, match="no measure asked for"):
        te.evaluate({"1": {"a": 1}}, {"1": {"a": 1.0}}, [])


def test_drop_in_with_no_measures_and_none():
    ev = te.RelevanceEvaluator({"1": {"a": 1}, "2": {"b": 1}}, [])
    assert ev.evaluate({"1": {"a": 1.0}, "3": {"c": 1.0}}) == {"1": {}}
    with pytest.raises(TypeError, match="not NoneType"):
        ev.evaluate(None)
    assert ev.evaluate({}) == {}


# ---- checks and messages ----

@pytest.mark.parametrize("column,value,kind,match", [
    ("query_id", None, InputError, "topic id of row 2 is missing"),
    ("doc_id", True, InputTypeError, "docno of row 2 must be a string, not bool"),
    ("doc_id", "a\0b", InputError, "docno of row 2 has a NUL character"),
    ("relevance", 0.5, InputTypeError, "relevance of row 2 is not an integer"),
    ("relevance", 2 ** 31, InputError, "relevance of row 2 is out of range"),
    ("relevance", -(2 ** 63), InputError, "relevance of row 2 is out of range"),
    ("relevance", "1", InputTypeError, "relevance of row 2 must be an integer, not str"),
])
def test_bad_judgment_columns(column, value, kind, match):
    cols = {"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "relevance": [1, 0, 2]}
    cols[column] = list(cols[column])
    cols[column][1] = value
    df = pd.DataFrame(cols, dtype=object)
    with pytest.raises(kind, match=match):
        te.read_qrels(df)
    with pytest.raises(kind, match=match):
        te.read_qrels([ir_measures.Qrel(*row) for row in zip(*cols.values())])


@pytest.mark.parametrize("use_c", [True, False])
def test_nan_and_nul_in_every_route(use_c, monkeypatch):
    if use_c and _native.built("pyin") is None:
        pytest.skip("the C extension pyin is not built")
    monkeypatch.setattr(_native, "USE_C", use_c)
    with pytest.raises(InputError, match="score of row 2 is NaN"):
        te.read_run(pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "score": [1.0, math.nan]}))
    with pytest.raises(InputError, match="score of row 2 is missing"):
        te.read_run(pa.table({"qid": ["1", "1"], "docno": ["a", "b"], "score": [1.0, None]}))
    with pytest.raises(InputError, match="docno of row 3 has a NUL"):
        te.read_run(pa.table({"qid": ["1", "1", "1"], "docno": ["a", "b", "c\0"], "score": [1.0, 2.0, 3.0]}))
    with pytest.raises(InputError, match="q1/d1 is NaN"):
        te.read_run({"q1": {"d0": 1.0, "d1": float("nan")}})
    with pytest.raises(InputTypeError, match="docno of q1/7 must be a string, not int"):
        te.read_run({"q1": {"d0": 1.0, 7: 1.0}})


def test_messages_stay_short_whatever_the_input():
    """An error names the offending value shortened, never the whole input."""
    many = [ir_measures.ScoredDoc(str(i), f"d{i}", float(i)) for i in range(100_000)]
    bad = many + [ir_measures.Qrel("1", "d", 1)]
    cases = [
        lambda: te.read_run(bad),
        lambda: te.read_run([("1", "d", 1.0)] * 100_000),
        lambda: te.read_run(["1 Q0 d 1 1.0 r"] * 100_000),
        lambda: te.read_qrels(many),
        lambda: te.read_run({"q": {"d" * 100_000: 1.0, "e": "x" * 100_000}}),
        lambda: te.read_run({"q" * 100_000: {"d": None}}),
        lambda: te.read_run(pd.DataFrame({"qid": ["1"], "docno": ["a"], "score": ["x" * 100_000]})),
        lambda: te.read_run(pd.DataFrame({f"c{i}" * 50: [1] for i in range(2000)})),
        lambda: te.evaluate({"1": {"a": 1}}, {"1": {"a": 1.0}}, [object()]),
    ]
    for make in cases:
        with pytest.raises((te.TrecEvalError, TypeError)) as e:
            make()
        assert len(str(e.value)) < 400, str(e.value)[:500]


def test_namedtuples_must_have_the_fields():
    with pytest.raises(InputTypeError, match="namedtuples with fields query_id, doc_id, score"):
        te.read_run([("1", "d", 1.0)])
    with pytest.raises(InputTypeError, match="item 2 is a Qrel, not a ScoredDoc"):
        te.read_run([ir_measures.ScoredDoc("1", "d", 1.0), ir_measures.Qrel("1", "d", 1)])


def test_parquet_magic_and_its_extra(tmp_path, monkeypatch):
    path = tmp_path / "run.bin"  # no .parquet: found by its first bytes
    pq.write_table(pa.table({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]}), path)
    assert te.read_run(str(path)).to_dict() == {"1": {"a": 1.0}}
    with open(path, "rb") as f:  # a file object too
        assert te.read_run(f.read()).to_dict() == {"1": {"a": 1.0}}
    from trec_eval_py.engine.parse.python import _tables

    monkeypatch.setattr(_tables, "_arrow", lambda: None)
    with pytest.raises(InputError, match=r"pip install 'trec_eval_py\[parquet\]'") as e:
        te.read_run(str(path))
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("use_c", [True, False])
def test_extreme_levels_stay_exact(use_c, monkeypatch):
    monkeypatch.setattr(_native, "USE_C", use_c)
    from trec_eval_py.engine.parse.levels import MAX_LEVEL, MIN_LEVEL

    levels = [MIN_LEVEL, -(2 ** 53) - 1, -1, 0, MAX_LEVEL]
    for q in ({"1": {f"d{i}": v for i, v in enumerate(levels)}},
              [ir_measures.Qrel("1", f"d{i}", v) for i, v in enumerate(levels)],
              pd.DataFrame({"qid": "1", "docno": [f"d{i}" for i in range(5)], "label": levels})):
        assert te.read_qrels(q).rel.tolist() == levels
    with pytest.raises(InputError, match="out of range"):
        te.read_qrels({"1": {"a": MIN_LEVEL - 1}})


def test_large_integer_and_float_ids():
    df = pd.DataFrame({"qid": [301.0, 302.0], "docno": np.array([7, 8], dtype=np.uint16), "label": [1, 2]})
    q = te.read_qrels(df)
    assert q.to_dict() == {"301": {"7": 1}, "302": {"8": 2}}
    with pytest.raises(InputError, match="topic id of row 2 is missing"):
        te.read_qrels(pd.DataFrame({"qid": [1.0, math.nan], "docno": ["a", "b"], "label": [1, 1]}))


@settings(max_examples=40, deadline=None)
@given(case=rows(), depth=st.integers(1, 6), compat=st.sampled_from(["9.0.8", "10.0"]))
def test_top_ranked_is_the_evaluations_cut(case, depth, compat):
    """Evaluating a run cut to its first k documents per topic gives what -M k gives
    (ties included: the cut follows the ranking rule, not the order of the rows)."""
    qrels, run = case
    if not qrels or not run:
        return
    q = te.read_qrels([ir_measures.Qrel(*x) for x in qrels])
    r = te.read_run([ir_measures.ScoredDoc(*x) for x in run])
    cut = te.top_ranked(r, depth, compat=compat)
    assert len(cut) <= len(r)
    assert outcome(q, cut, compat=compat, complete=True) == outcome(q, r, compat=compat, complete=True,
                                                                     max_docs=depth)


def _cli(argv) -> bytes:
    import contextlib
    import io

    from trec_eval_py.cli import main

    buf = io.BytesIO()

    class Out:
        buffer = buf

        def write(self, s):
            buf.write(s.encode())

        def flush(self):
            pass

    with contextlib.redirect_stdout(Out()):
        try:
            main(argv)
        except SystemExit as e:
            assert not e.code
    return buf.getvalue()


def test_command_line_reads_and_writes_parquet(tmp_path):
    import io

    examples = EXAMPLES
    q, r = te.read_qrels(str(examples / "qrels.txt")), te.read_run(str(examples / "run_a.txt"))
    q.write(tmp_path / "q.parquet")
    r.write(tmp_path / "r.parquet")
    names = ["-m", "map", "-m", "P.5", "-m", "nDCG@10", "-m", "relstring"]
    text = _cli([*names, "-q", str(examples / "qrels.txt"), str(examples / "run_a.txt")])
    assert _cli([*names, "-q", str(tmp_path / "q.parquet"), str(tmp_path / "r.parquet")]) == text
    table = pq.read_table(io.BytesIO(_cli([*names, "-q", "--format", "parquet", str(examples / "qrels.txt"),
                                           str(examples / "run_a.txt")])))
    csv_rows = _cli([*names, "-q", "--format", "csv", str(examples / "qrels.txt"),
                     str(examples / "run_a.txt")]).decode().splitlines()[1:]
    want = [line.split(",") for line in csv_rows if ",relstring," not in line]  # text values stay out
    got = table.to_pylist()
    assert table.column_names == ["runid", "topic", "measure", "value"]
    assert [(g["runid"], g["topic"], g["measure"]) for g in got] == [tuple(w[:3]) for w in want]
    assert [g["value"] for g in got] == [float(w[3]) for w in want]
    ev = te.evaluate(str(examples / "qrels.txt"), str(examples / "run_a.txt"), ["map", "P.5", "nDCG@10"])
    ev.to_parquet(tmp_path / "ev.parquet", per_topic=False)
    assert pq.read_table(tmp_path / "ev.parquet").to_pylist() == [
        {"runid": ev.runid, "topic": "all", "measure": n, "value": v} for n, v in ev.summary.items()]


@pytest.mark.parametrize("interleaved", [False, True])
def test_parquet_runs_stream_in_record_batches(tmp_path, monkeypatch, interleaved):
    """A big Parquet run is read, joined and measured a batch of rows at a time (as a big
    text run is, piece by piece), interleaved topics regrouped: the same values."""
    from trec_eval_py.engine import pipeline
    from trec_eval_py.engine.parse import python
    from trec_eval_py.engine.parse.python import _tables

    rng = random.Random(f"stream {interleaved}")
    qrels = [(str(t), f"d{d}", rng.choice([0, 1, 2])) for t in range(30) for d in rng.sample(range(60), 15)]
    run = [(str(t), f"d{d}", float(rng.randint(0, 9))) for t in range(32) for d in rng.sample(range(60), 25)]
    if interleaved:
        rng.shuffle(run)
    qf, rf = write_text(tmp_path, qrels, run)
    pq.write_table(pa.table(columns(qrels, "relevance")), tmp_path / "q.parquet")
    cols = columns(run, "score")
    cols["run_id"] = ["r1"] * len(run)
    pq.write_table(pa.table(cols), tmp_path / "r.parquet", row_group_size=100)
    plain = [m for m in MEASURES if "(" not in m]  # one pass: measures with options read the run whole
    want = te.evaluate(qf, rf, plain, complete=True).to_text(query=True)
    seen = []
    real = python.iter_parquet_run

    def spy(*a, **k):
        for piece in real(*a, **k):
            seen.append(len(piece[2]))
            yield piece

    monkeypatch.setattr(python, "iter_parquet_run", spy)
    monkeypatch.setattr(_tables, "PARQUET_BATCH_ROWS", 64)
    monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 1)
    got = te.evaluate(str(tmp_path / "q.parquet"), str(tmp_path / "r.parquet"), plain, complete=True)
    assert got.to_text(query=True) == want
    assert len(seen) >= len(run) // 64 and max(seen) <= 64


def test_parquet_pieces_count_rows_from_the_first_and_hold_one_run(tmp_path, monkeypatch):
    from trec_eval_py.engine import pipeline
    from trec_eval_py.engine.parse.python import _tables

    monkeypatch.setattr(_tables, "PARQUET_BATCH_ROWS", 10)
    monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 1)
    n = 35
    score = [1.0] * n
    score[31] = math.nan
    path = tmp_path / "r.parquet"
    pq.write_table(pa.table({"qid": ["1"] * n, "docno": [f"d{i}" for i in range(n)], "score": score}), path)
    with pytest.raises(InputError, match="score of row 32 is NaN"):
        te.evaluate({"1": {"d1": 1}}, str(path), ["map"])
    pq.write_table(pa.table({"qid": ["1"] * n, "docno": [f"d{i}" for i in range(n)], "score": [1.0] * n,
                             "run_id": ["a"] * 20 + ["b"] * 15}), path)
    with pytest.raises(InputError, match="more than one run"):
        te.evaluate({"1": {"d1": 1}}, str(path), ["map"])


def test_a_named_pipe_is_read_once_not_sniffed_for_parquet(tmp_path):
    """Judgments and a run from named pipes: a pipe can be read once, so the look for
    Parquet's magic (which opens a file to read its first bytes) leaves it alone."""
    import os
    import threading

    inputs = GOLDEN / "inputs"
    q, r = inputs / "qrels.test", inputs / "results.test"
    want = te.evaluate(q, r, ["map", "P.10"]).to_text(query=True)
    pipes = []
    for name, src in (("qrels.fifo", q), ("run.fifo", r)):
        fifo = tmp_path / name
        os.mkfifo(fifo)
        # daemon writers: a reader that never opens a pipe must fail the test, not hang it
        threading.Thread(target=lambda f=fifo, s=src: f.write_bytes(s.read_bytes()), daemon=True).start()
        pipes.append(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(te.evaluate(pipes[0], pipes[1], ["map", "P.10"])),
                              daemon=True)
    reader.start()
    reader.join(60)
    assert not reader.is_alive(), "a pipe was opened twice: the second open waits for a writer forever"
    assert got[0].to_text(query=True) == want
