"""The C join and ranking against the numpy reference, on random inputs.

Both paths must give the same rankings (relevance codes in rank order, topic
offsets, judged levels) for any line order, docno lengths, tied scores (also
scores that tie only in single precision), negative judgments, -M, -J, -c and
both compat versions; and the same error for a duplicate docno.
"""
from __future__ import annotations

import numpy as np
import pytest

from trec_eval_py import InputError, _native
from trec_eval_py.engine.join import EvalContext, build_rankings
from trec_eval_py.engine.parse import Qrels, Run

pytestmark = pytest.mark.skipif(_native.built("joinrank") is None, reason="C join not built")


def random_case(seed: int):
    rng = np.random.default_rng(seed)
    n_topics = int(rng.integers(1, 30))
    topics = [str(int(x)).encode() for x in rng.choice(1000, n_topics, replace=False)]
    pool = [b"d" * int(rng.integers(0, 3)) + str(int(x)).encode() + b"x" * int(rng.integers(0, 12))
            for x in rng.choice(100000, 400, replace=False)]
    qq, qd, qr = [], [], []
    rq, rd, rs = [], [], []
    for t in topics:
        docs = rng.choice(len(pool), int(rng.integers(0, 60)), replace=False)
        judged = docs[: int(rng.integers(0, len(docs) + 1))] if len(docs) else docs
        extra = rng.choice(len(pool), int(rng.integers(0, 10)), replace=False)
        for d in set(judged.tolist()) | set(extra.tolist()):
            qq.append(t), qd.append(pool[d]), qr.append(int(rng.integers(-1, 4)))
        if rng.random() < 0.15:  # a judged topic without results
            continue
        base = rng.choice([1.0, 1e-9, 1e6])
        for d in docs.tolist():
            rq.append(t), rd.append(pool[d])
            s = float(rng.integers(0, 5)) * base
            if rng.random() < 0.3:  # differs from a tie only beyond single precision
                s += s * 1e-9
            rs.append(s)
    if rng.random() < 0.5:  # a run sorted by topic and score, as runs usually are
        order = sorted(range(len(rq)), key=lambda i: (rq[i], -rs[i]))
    else:
        order = rng.permutation(len(rq)).tolist()
    rq, rd, rs = [rq[i] for i in order], [rd[i] for i in order], [rs[i] for i in order]
    qperm = rng.permutation(len(qq)).tolist()
    qrels = Qrels(np.array([qq[i] for i in qperm] or [b""], dtype="S")[: len(qq)],
                  np.array([qd[i] for i in qperm] or [b""], dtype="S")[: len(qq)],
                  np.array([qr[i] for i in qperm], dtype=np.int64),
                  np.arange(1, len(qq) + 1, dtype=np.int64), "q")
    run = Run(np.array(rq or [b""], dtype="S")[: len(rq)], np.array(rd or [b""], dtype="S")[: len(rd)],
              np.array(rs, dtype=np.float64), np.arange(1, len(rq) + 1, dtype=np.int64), "r", "run")
    return qrels, run, rng


def both(qrels, run, ctx, monkeypatch):
    out = []
    for use_c in (True, False):
        monkeypatch.setattr(_native, "USE_C", use_c)
        try:
            r = build_rankings(qrels, run, ctx)
        except InputError as e:
            out.append(("error", str(e)))
            continue
        kept = [None if a is None else a.tolist() for a in (r.rows, r.scores, r.docnos, r.judged_docnos)]
        out.append((r.qids, r.offsets.tolist(), r.rel.tolist(), r.judged_offsets.tolist(),
                    r.judged_rel.tolist(), r.filled.tolist(), r.num_qrels_topics, *kept))
    return out


@pytest.fixture(params=["one thread", "two threads"])
def threads(request, monkeypatch):
    """The C join on one thread, and with every run of two topics or more shared by two
    (the topics cut where half the rows are done: the threads write disjoint parts)."""
    from trec_eval_py.engine.join import qrels as join_qrels

    if request.param == "two threads":
        monkeypatch.setattr(join_qrels, "JOIN_SPLIT_ROWS", 0)
        monkeypatch.setattr(join_qrels, "_CORES", 2)
    return request.param


@pytest.mark.parametrize("seed", range(60))
def test_c_join_matches_numpy(seed, threads, monkeypatch):
    qrels, run, rng = random_case(seed)
    ctx = EvalContext(
        max_docs=int(rng.integers(1, 40)) if rng.random() < 0.3 else None,
        judged_only=bool(rng.random() < 0.3),
        complete=bool(rng.random() < 0.3),
        compat=str(rng.choice(["9.0.8", "10.0"])),
        keep_rows=bool(rng.random() < 0.5),
        keep_scores=bool(rng.random() < 0.3),
        keep_docnos=bool(rng.random() < 0.3),
    )
    c, ref = both(qrels, run, ctx, monkeypatch)
    assert c == ref


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("use_c", [True, False])
def test_kept_rows_are_the_ranked_lines(seed, use_c, threads, monkeypatch):
    # each ranked document's row of the run: its docno and score are the ones the join
    # keeps, and the rows of a topic are that topic's lines, each once
    monkeypatch.setattr(_native, "USE_C", use_c)
    qrels, run, rng = random_case(seed)
    r = build_rankings(qrels, run, EvalContext(keep_rows=True, keep_scores=True, keep_docnos=True))
    assert r.rows is not None and r.docnos is not None and r.scores is not None
    assert run.docno[r.rows].tolist() == r.docnos.tolist()
    assert run.score[r.rows].tolist() == r.scores.tolist()
    for i, qid in enumerate(r.qids):
        rows = r.rows[r.offsets[i]:r.offsets[i + 1]]
        assert sorted(rows.tolist()) == np.flatnonzero(run.qid == qid.encode()).tolist()
    assert build_rankings(qrels, run, EvalContext()).rows is None


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("which", ["qrels", "run"])
def test_duplicates_give_the_reference_error(seed, which, threads, monkeypatch):
    qrels, run, rng = random_case(seed)
    src = qrels if which == "qrels" else run
    if len(src.qid) < 2:
        pytest.skip("too small to duplicate a row")
    i = int(rng.integers(0, len(src.qid)))
    j = int(rng.integers(0, len(src.qid)))
    qid = src.qid.copy()
    doc = src.docno.astype(f"S{src.docno.dtype.itemsize}")
    qid[j], doc[j] = qid[i], doc[i]
    if which == "qrels":
        qrels = Qrels(qid, doc, qrels.rel, qrels.lineno, qrels.name)
    else:
        run = Run(qid, doc, run.score, run.lineno, run.runid, run.name)
    c, ref = both(qrels, run, EvalContext(), monkeypatch)
    assert c == ref
    if i != j:
        assert c[0] == "error" and "duplicate docno" in c[1]


def test_a_big_join_on_two_threads_gives_one_threads_bytes(monkeypatch):
    # above the default split size: many topics, ties, docnos judged and not, rows kept
    from trec_eval_py.engine.join import qrels as join_qrels

    rng = np.random.default_rng(7)
    n_topics, per = 500, 300
    qid = np.repeat(np.array([b"%d" % t for t in rng.permutation(n_topics)], dtype="S"), per)
    doc = np.array([b"D%d" % (i % 5000) for i in range(n_topics * per)], dtype="S")
    run = Run(qid, doc, rng.integers(0, 50, len(qid)).astype(np.float64), np.arange(1, len(qid) + 1), "r", "run")
    judged = rng.random(len(qid)) < 0.3
    qrels = Qrels(qid[judged], doc[judged], rng.integers(-1, 3, int(judged.sum())),
                  np.arange(1, int(judged.sum()) + 1), "q")
    assert len(qid) >= join_qrels.JOIN_SPLIT_ROWS
    monkeypatch.setattr(join_qrels, "_CORES", 2)
    ctx = EvalContext(keep_rows=True)
    two = build_rankings(qrels, run, ctx)
    monkeypatch.setattr(join_qrels, "JOIN_SPLIT_ROWS", len(qid) + 1)
    one = build_rankings(qrels, run, ctx)
    for a, b in ((two.rel, one.rel), (two.offsets, one.offsets), (two.rows, one.rows)):
        assert a is not None and b is not None and a.tobytes() == b.tobytes()
    monkeypatch.setattr(_native, "USE_C", False)
    ref = build_rankings(qrels, run, ctx)
    assert ref.rel.tolist() == two.rel.tolist() and ref.rows is not None and two.rows is not None
    assert ref.rows.tolist() == two.rows.tolist()
