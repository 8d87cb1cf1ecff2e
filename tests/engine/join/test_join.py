"""Ranking and joining: ties, truncation, judged-only, missing topics, duplicates."""
from __future__ import annotations

import numpy as np
import pytest

from trec_eval_py import InputError, read_qrels, read_run
from trec_eval_py.engine.join import NONPOOL, UNJUDGED, EvalContext, TopicBatch, build_rankings, iter_batches

QRELS = b"""\
10 0 a 1
10 0 b 0
10 0 c 2
10 0 z -1
9 0 x 1
8 0 only 1
"""
RUN = b"""\
10 Q0 a 3 1.0 r
10 Q0 b 1 5.0 r
10 Q0 c 2 1.0 r
10 Q0 d 4 1.0 r
10 Q0 z 5 0.5 r
9 Q0 x 1 1 r
7 Q0 nojudg 1 1 r
"""


def rk(**ctx):
    return build_rankings(read_qrels(QRELS), read_run(RUN), EvalContext(**ctx))


def topic(r, qid):
    i = r.qids.index(qid)
    return r.rel[r.offsets[i] : r.offsets[i + 1]].tolist()


def test_topics_in_byte_order_and_only_judged_ones():
    r = rk()
    assert r.qids == ["10", "9"]  # "10" < "9" as bytes; 7 has no qrels; 8 has no results
    assert r.num_qrels_topics == 3


def test_score_desc_then_docno_desc_rank_column_ignored():
    # b (5.0) first; a, c, d tie at 1.0 -> docno descending: d, c, a; then z
    assert topic(rk(), "10") == [0, NONPOOL, 2, 1, UNJUDGED]


def test_max_docs_then_judged_only():
    assert topic(rk(max_docs=3), "10") == [0, NONPOOL, 2]
    # -M applies first, then -J removes unjudged (non-pool and pooled-unjudged) documents
    assert topic(rk(max_docs=3, judged_only=True), "10") == [0, 2]
    assert topic(rk(judged_only=True), "10") == [0, 2, 1]


def test_complete_adds_empty_rankings_for_missing_topics():
    r = rk(complete=True)
    assert r.qids == ["10", "8", "9"]
    assert r.filled.tolist() == [False, True, False]
    assert topic(r, "8") == []


def test_judged_levels_sorted_descending():
    r = rk()
    assert r.judged_rel[r.judged_offsets[0] : r.judged_offsets[1]].tolist() == [2, 1, 0, -1]


@pytest.mark.parametrize("which", ["run", "qrels"])
def test_duplicate_docno_in_a_topic_is_an_error(which):
    q, run = QRELS, RUN
    if which == "run":
        run = RUN + b"10 Q0 a 9 0.1 r\n"
    else:
        q = QRELS + b"10 0 a 0\n"
    with pytest.raises(InputError, match="duplicate docno 'a'") as e:
        build_rankings(read_qrels(q, name="q"), read_run(run, name="r"), EvalContext())
    assert e.value.line == (8 if which == "run" else 7)


def test_same_docno_in_different_topics_is_fine():
    run = RUN + b"9 Q0 a 2 0.1 r\n"
    r = build_rankings(read_qrels(QRELS), read_run(run), EvalContext())
    assert topic(r, "9") == [1, NONPOOL]


def test_batches_cover_every_topic_in_order():
    lines = b"".join(b"%d Q0 d%d 1 %d r\n" % (q, d, d) for q in range(30) for d in range(q + 1))
    qrels = b"".join(b"%d 0 d0 1\n" % q for q in range(30))
    r = build_rankings(read_qrels(qrels), read_run(lines), EvalContext())
    batches = list(iter_batches(r, max_cells=40))
    assert len(batches) > 3
    assert [q for b in batches for q in b.qids] == r.qids
    for b in batches:
        assert b.rel.shape[0] * b.rel.shape[1] <= 40 or b.n == 1
        assert np.array_equal(b.valid.sum(axis=1), b.num_ret)


def test_batch_helpers():
    b = TopicBatch.from_lists([[1, 0, 2, NONPOOL], []], [[2, 1, 1, 0], [1]])
    assert b.num_ret.tolist() == [4, 0]
    assert b.cum_rel.tolist()[0] == [1, 1, 2, 2]
    assert b.num_rel.tolist() == [3, 1]
    assert b.num_rel_ret.tolist() == [2, 0]
    assert b.cum_rel_at(2).tolist() == [1, 0]
    assert b.cum_rel_at(100).tolist() == [2, 0]
    assert b.num_nonpool.tolist() == [1, 0]


def _random_case(seed):
    rnd = np.random.default_rng(seed)
    qlines, rlines = [], []
    for q in rnd.choice(40, size=12, replace=False):
        docs = [f"d{x}" for x in rnd.choice(60, size=25, replace=False)]
        for d in docs[:15]:
            qlines.append(f"{q} 0 {d} {rnd.integers(-1, 3)}")
        scores = np.sort(rnd.integers(0, 6, size=20))[::-1]  # many ties, in rank order
        for d, s in zip(docs[5:], scores):
            rlines.append(f"{q} Q0 {d} 0 {s} r")
    return "\n".join(qlines).encode(), rlines


def _arrays(r):
    return (r.qids, r.offsets.tolist(), r.rel.tolist(), r.judged_rel.tolist(), r.filled.tolist())


@pytest.mark.parametrize("seed", range(5))
def test_fast_paths_agree_with_full_sort_and_exact_join(seed, monkeypatch):
    from trec_eval_py.engine.join import qrels as rmod

    qrels, rlines = _random_case(seed)
    ctx = EvalContext(max_docs=12, complete=True)
    ordered = build_rankings(read_qrels(qrels), read_run("\n".join(rlines).encode()), ctx)
    shuffled = list(rlines)
    np.random.default_rng(seed).shuffle(shuffled)
    via_full_sort = build_rankings(read_qrels(qrels), read_run("\n".join(shuffled).encode()), ctx)
    # every hash collides: the exact join must take over and agree
    monkeypatch.setattr(rmod, "row_hash", lambda t, w, *a: np.zeros(len(t), dtype=np.uint64))
    via_exact = build_rankings(read_qrels(qrels), read_run("\n".join(shuffled).encode()), ctx)
    assert _arrays(ordered) == _arrays(via_full_sort) == _arrays(via_exact)


def test_exact_join_still_reports_duplicates(monkeypatch):
    from trec_eval_py.engine.join import qrels as rmod

    monkeypatch.setattr(rmod, "row_hash", lambda t, w, *a: np.zeros(len(t), dtype=np.uint64))
    with pytest.raises(InputError, match="duplicate docno 'a'"):
        build_rankings(read_qrels(QRELS), read_run(RUN + b"10 Q0 a 9 0.1 r\n", name="r"), EvalContext())


def test_scores_compare_in_single_precision_before_10():
    qrels = b"1 0 a 1\n1 0 b 0\n"
    run = b"1 Q0 a 1 1.000000000001 r\n1 Q0 b 2 1.0 r\n"
    old = build_rankings(read_qrels(qrels), read_run(run), EvalContext(compat="9.0.8"))
    new = build_rankings(read_qrels(qrels), read_run(run), EvalContext(compat="10.0"))
    assert old.rel.tolist() == [0, 1]  # a tie in float: docno descending puts b first
    assert new.rel.tolist() == [1, 0]
