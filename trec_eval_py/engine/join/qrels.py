"""Join stage for qrels: rank each topic's documents and look up their relevance.

The result is a :class:`~.batch.Rankings`: one flat array of relevance codes in
rank order for all evaluated topics, with topic offsets, plus each topic's
judged levels. Topics are in byte order of their ids, as trec_eval processes them.
"""
from __future__ import annotations

import os

import numpy as np

from ... import _native
from ..parse import Qrels, Run
from .batch import NONPOOL, UNJUDGED, Rankings
from .context import EvalContext
from .empty_topics import evaluated_topics, with_placeholders
from .keys import codes_in, distinct_sorted, docno_words, duplicate_error, lex_order, row_hash, sort_distinct
from .order import RankRule, segment_positions


def decode_ids(ids: np.ndarray) -> list[str]:
    """Byte-string ids as str (undecodable bytes kept by surrogateescape), in one
    decode: ids read from files hold no newline, so they can travel joined by one."""
    raw = ids.tolist()
    out = b"\n".join(raw).decode("utf-8", "surrogateescape").split("\n") if raw else []
    if len(out) != len(raw):  # an id with a newline in it (given through the API)
        out = [t.decode("utf-8", "surrogateescape") for t in raw]
    return out


class _Collision(Exception):
    """Two different keys share a 64-bit hash: use the exact path."""


def _sorted_unique(h, topic, words, lineno, docno, name):
    """Sort keys (stable: keys are topic-major, so runs are nearly sorted already);
    raise on a real duplicate (topic, docno), _Collision on a false one."""
    order = np.argsort(h, kind="stable")
    hs = h[order]
    eq = np.flatnonzero(hs[1:] == hs[:-1])
    if len(eq):
        a, b = order[eq], order[eq + 1]
        same = (topic[a] == topic[b]) & (words[a] == words[b]).all(axis=1)
        if same.any():
            raise duplicate_error(a[same], b[same], lineno, docno, name)
        raise _Collision()
    return order, hs


def _lookup_hashed(qt, qw, rt, rw, qrels: Qrels, run: Run) -> np.ndarray:
    """Judgment code of every run row, by hash join (exact: every match is verified)."""
    nt = int(max(qt.max(initial=0), rt.max(initial=0))) + 1
    qo, qhs = _sorted_unique(row_hash(qt, qw, nt), qt, qw, qrels.lineno, qrels.docno, qrels.name)
    ro, rhs = _sorted_unique(row_hash(rt, rw, nt), rt, rw, run.lineno, run.docno, run.name)
    rel = np.full(len(rt), NONPOOL, dtype=np.int64)
    if len(qhs) == 0 or len(rhs) == 0:
        return rel
    pos = np.searchsorted(qhs, rhs)  # sorted needles: one sweep through the qrels keys
    np.minimum(pos, len(qhs) - 1, out=pos)
    hit = np.flatnonzero(qhs[pos] == rhs)
    qi = qo[pos[hit]]
    ri = ro[hit]
    if not ((qt[qi] == rt[ri]) & (qw[qi] == rw[ri]).all(axis=1)).all():
        raise _Collision()
    r = qrels.rel[qi]
    rel[ri] = np.where(r < 0, UNJUDGED, r)
    return rel


def _lookup_exact(qt, qw, rt, rw, qrels: Qrels, run: Run) -> np.ndarray:
    """Judgment code of every run row, by sorting the full keys (no hashing)."""
    def key_order(t, w):
        return np.lexsort([w[:, j] for j in reversed(range(w.shape[1]))] + [t])

    def dups(t, w, order, src):
        tt, ww = t[order], w[order]
        eq = np.flatnonzero((tt[1:] == tt[:-1]) & (ww[1:] == ww[:-1]).all(axis=1))
        if len(eq):
            raise duplicate_error(order[eq], order[eq + 1], src.lineno, src.docno, src.name)

    qo = key_order(qt, qw)
    dups(qt, qw, qo, qrels)
    dups(rt, rw, key_order(rt, rw), run)
    # merge: sort qrels and run rows together, qrels first among equals
    t = np.concatenate([qt[qo], rt])
    w = np.concatenate([qw[qo], rw])
    src = np.concatenate([np.zeros(len(qo), dtype=np.int8), np.ones(len(rt), dtype=np.int8)])
    order = np.lexsort([src] + [w[:, j] for j in reversed(range(w.shape[1]))] + [t])
    is_q = src[order] == 0
    # index of the latest qrels row at or before each position
    last_q = np.maximum.accumulate(np.where(is_q, np.arange(len(order)), -1))
    rel = np.full(len(rt), NONPOOL, dtype=np.int64)
    pos = np.flatnonzero(~is_q)
    prev = last_q[pos]
    ok = prev >= 0
    prev_c = np.maximum(prev, 0)
    same = ok & (t[order[prev_c]] == t[order[pos]]) & (w[order[prev_c]] == w[order[pos]]).all(axis=1)
    run_rows = order[pos[same]] - len(qo)
    r = qrels.rel[qo[order[prev_c[same]]]]
    rel[run_rows] = np.where(r < 0, UNJUDGED, r)
    return rel


def lookup(qt, qw, rt, rw, qrels: Qrels, run: Run) -> np.ndarray:
    """Judgment code of every run row (see the module doc) for topic codes ``qt``/``rt``
    and docno words ``qw``/``rw`` (:func:`~.keys.docno_words` of one width): a
    verified hash join, sorted keys after a hash collision. A docno twice in a
    topic of either side is the :func:`~.keys.duplicate_error` of that side."""
    try:
        return _lookup_hashed(qt, qw, rt, rw, qrels, run)
    except _Collision:
        return _lookup_exact(qt, qw, rt, rw, qrels, run)


#: the C join shares the topics of a run of at least this many rows between two
#: threads (half the rows each; the same result as one): a thread costs about 0.1 ms
JOIN_SPLIT_ROWS = 1 << 17
_CORES = os.cpu_count() or 1


def join_rank_c(qt, qdocno, qcode, rt, rdocno, key, nt: int, single_precision: bool = False, *,
                counts: bool = False, rows: bool = False):
    """The optional C extension's fused join and ranking: each run row's code (the
    ``qcode`` of the judgment with its topic and docno, else :data:`NONPOOL`), in
    rank order (``key`` descending, compared in single precision if asked; ties by
    docno descending), and the topic code of each (with ``counts``: the number of
    rows of each topic code instead); topics in code order. With ``rows``, a third
    array: the run row of each ranked document (its index in ``rt``). None
    without the extension, or when a docno repeats within a topic (the reference
    path then words the error, or decides)."""
    joinrank = _native.extension("joinrank")
    if joinrank is None:
        return None
    qdoc = np.ascontiguousarray(qdocno)
    rdoc = np.ascontiguousarray(rdocno)
    code = np.empty(len(rt), dtype=np.int64)
    count = np.empty(nt, dtype=np.int64)
    row = (np.empty(len(rt), dtype=np.int64),) if rows else ()
    status = joinrank.join_rank(
        np.ascontiguousarray(qt, dtype=np.int64), qdoc, qdoc.dtype.itemsize,
        np.ascontiguousarray(qcode, dtype=np.int64),
        np.ascontiguousarray(rt, dtype=np.int64), rdoc, rdoc.dtype.itemsize,
        np.ascontiguousarray(key, dtype=np.float64), nt, single_precision, code, count,
        JOIN_SPLIT_ROWS if _CORES > 1 else -1, *row,
    )
    if status != 0:
        return None
    return (code, count if counts else np.repeat(np.arange(nt, dtype=np.int64), count)) + row


def _join_rank_c(qt, rt, qrels: Qrels, run: Run, nt: int, rule: RankRule, rows: bool):
    """(relevance codes in rank order, rows per topic code, the run row of each
    ranked document, or None unless ``rows``) by :func:`join_rank_c`.

    The C code implements :class:`~.order.RankRule` for trec_eval's own
    order (score, docno descending on ties, with or without single
    precision); any other rule takes the numpy path."""
    if rule.order != "score" or not rule.docno_descending:
        return None
    joined = join_rank_c(qt, qrels.docno, qrels.rel, rt, run.docno, run.score, nt, rule.single_precision,
                         counts=True, rows=rows)
    return joined if joined is None or rows else (*joined, None)


def _join_rank_numpy(qt, rt, qrels: Qrels, run: Run, rule: RankRule):
    """The reference join and ranking: sorts and a verified hash join.
    Returns the relevance codes, topic codes and run rows, all in rank order."""
    width = max(qrels.docno.dtype.itemsize, run.docno.dtype.itemsize)
    qw = docno_words(qrels.docno.astype(f"S{width}"))
    rw = docno_words(run.docno.astype(f"S{width}"))
    rel = lookup(qt, qw, rt, rw, qrels, run)
    order = rule.order_rows(rt, run, rw)
    return rel[order], rt[order], order


def level_sources(top_level: np.ndarray, filled: np.ndarray, ctx: EvalContext) -> np.ndarray | None:
    """Whose judged levels each topic's gain table is built from (None: every topic's own).

    trec_eval counts a topic's documents per relevance level (levels 0 to the
    highest) in a buffer it keeps from one topic to the next. A topic whose
    judgments are all negative has no level to count, so the buffer and its
    length stay those of the topic evaluated before it, the last one with a
    level of 0 or more: its gain measures (ndcg, ndcg_cut, ndcg_rel, G, Rndcg,
    rbp, dcg) see that topic's ideal ranking, while its relevant count stays 0
    and its retrieved documents keep their own codes. Topics trec_eval never
    evaluates (9.0.8's ``-c`` fill-ins) are not in that chain. A first such
    topic, with no topic before it, makes trec_eval stop; it keeps its own
    (empty) levels here.

    ``top_level`` is each topic's highest judged level, ``filled`` its ``-c`` flag.
    Source: trec_eval ``form_res_rels.c`` (the level buffer and its count are
    only written for levels 0 and up).
    """
    negative = top_level < 0
    if not negative.any():
        return None
    idx = np.arange(len(top_level))
    counted = evaluated_topics(filled, ctx) & ~negative
    # the latest counted topic strictly before each topic
    latest = np.maximum.accumulate(np.where(counted, idx, -1))
    before = np.concatenate([[-1], latest[:-1]])
    return np.where(negative & (before >= 0), before, idx).astype(np.int64)


def build_rankings(qrels: Qrels, run: Run, ctx: EvalContext) -> Rankings:
    """Rank, truncate (``-M``), filter (``-J``) and join a run with its qrels."""
    topics = sort_distinct(np.concatenate([distinct_sorted(qrels.qid), distinct_sorted(run.qid)]))
    nt = len(topics)
    qt = codes_in(qrels.qid, topics)
    rt = codes_in(run.qid, topics)
    q_has = np.bincount(qt, minlength=nt) > 0
    r_count = np.bincount(rt, minlength=nt)  # the run's own lines per topic
    # which topics are evaluated and which of them the run lacks (-c) is decided
    # on the run as given; 10.0 then ranks a placeholder document for each of those
    evaluated = q_has & ((r_count > 0) | ctx.complete)
    filled = (r_count == 0)[evaluated]
    if ctx.v10 and ctx.complete and filled.any():
        run = with_placeholders(run, topics[evaluated][filled])
        rt = codes_in(run.qid, topics)
    rule = RankRule.of(ctx)
    joined = _join_rank_c(qt, rt, qrels, run, nt, rule, ctx.keep_scores or ctx.keep_docnos or ctx.keep_rows)
    if joined is not None:
        rel_sorted, ranked, order = joined
    else:
        rel_sorted, _, order = _join_rank_numpy(qt, rt, qrels, run, rule)
        ranked = np.bincount(rt, minlength=nt)  # rows ranked per topic (placeholders included)
    # what the measures or the caller read of each ranked row, found by its row of the run
    score_sorted = np.asarray(run.score, dtype=np.float64)[order] if ctx.keep_scores else None
    docno_sorted = run.docno[order] if ctx.keep_docnos else None
    row_sorted = order if ctx.keep_rows else None
    del order
    # ranked rows come topic by topic in topic-code order: from here on a topic's rows
    # are a segment of ranked[t] rows, and no per-row topic array is needed (a run's
    # worth of int64 less at the peak of the join)
    del rt

    keep = np.repeat(evaluated, ranked)
    if ctx.max_docs is not None:
        keep &= segment_positions(ranked) < ctx.max_docs
    if ctx.judged_only:
        keep &= rel_sorted >= 0
    rel_kept = rel_sorted[keep]
    del rel_sorted
    scores = None if score_sorted is None else score_sorted[keep]
    docnos = None if docno_sorted is None else docno_sorted[keep]
    rows = None if row_sorted is None else row_sorted[keep]
    if ctx.max_docs is None and not ctx.judged_only:
        counts = ranked[evaluated]  # every ranked row of an evaluated topic is kept
    else:
        kept_before = np.zeros(len(keep) + 1, dtype=np.int64)
        np.cumsum(keep, out=kept_before[1:])
        ends = np.cumsum(ranked)
        counts = (kept_before[ends] - kept_before[ends - ranked])[evaluated]
        del kept_before
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])

    # judged levels per evaluated topic, descending
    jmask = evaluated[qt]
    jorder = lex_order(-qrels.rel[jmask], qt[jmask])
    judged_rel = qrels.rel[jmask][jorder]
    judged_docnos = qrels.docno[jmask][jorder] if ctx.keep_docnos else None
    jcounts = np.bincount(qt[jmask], minlength=nt)[evaluated]
    joffsets = np.zeros(len(jcounts) + 1, dtype=np.int64)
    np.cumsum(jcounts, out=joffsets[1:])

    qids = decode_ids(topics[evaluated])
    top_level = judged_rel[joffsets[:-1]] if len(judged_rel) else np.zeros(0, dtype=np.int64)
    return Rankings(
        qids=qids,
        offsets=offsets,
        rel=rel_kept.astype(np.int64, copy=False),
        judged_offsets=joffsets,
        judged_rel=judged_rel.astype(np.int64, copy=False),
        filled=filled,
        num_qrels_topics=int(q_has.sum()),
        runid=run.runid,
        ctx=ctx,
        level_source=level_sources(top_level, filled, ctx),
        scores=scores,
        docnos=docnos,
        judged_docnos=judged_docnos,
        rows=rows,
    )
