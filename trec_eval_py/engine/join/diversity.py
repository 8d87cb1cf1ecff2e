"""Join stage for subtopic judgments (``-R qrels_diversity``).

For every evaluated topic this stage keeps what the intent-aware measures
(:mod:`trec_eval_py.engine.measures._diversity`) read:

* **the ranking**: the run's documents of the topic in the order of
  :class:`~.order.RankRule` (``--order``: by score, ties by docno descending,
  scores compared as doubles as ndeval's ``-traditional`` compares them; or
  by the rank column, ndeval's default), cut to ``-M`` documents, then, with
  ``-J``, without the documents the topic's judgments do not list. A docno
  twice among the documents kept is an error (ndeval checks after its cut too);
* **the hits**: for each ranked document, the subtopics it is relevant to
  (rank, subtopic pairs);
* **the subtopics**: the topic's *actual* subtopics, those with at least one
  relevant document (a subtopic judged only non-relevant does not count,
  as in ndeval), numbered ``0 .. A-1`` in ascending order of their numbers,
  with the number of relevant documents of each;
* **the relevant documents**: every document relevant to some subtopic, in
  descending docno order (the order in which ties are broken when the ideal
  ranking is built), with its subtopics.

A document is relevant to a subtopic when its level there is at least ``-l``
(default 1). Topics are evaluated as the ordinary join evaluates them: those
with judgments and results, and with ``-c`` every judged topic (without
results: an empty ranking).
"""
from __future__ import annotations

from functools import cached_property

import numpy as np

from ..._record import record
from ...errors import InputError
from ..parse.qrels import Qrels
from ..parse.qrels_diversity import DiversityQrels
from ..parse.run import Run
from .batch import RankedTopics
from .context import EvalContext
from .keys import codes_in, distinct_sorted, docno_words, lex_order, row_hash, sort_distinct
from .order import RankRule, segment_positions
from .qrels import decode_ids, join_rank_c, lookup


def _offsets(counts: np.ndarray) -> np.ndarray:
    out = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    return out


def _starts(*cols: np.ndarray) -> np.ndarray:
    """bool per row of rows sorted by ``cols``: the row starts a new group of equal values."""
    n = len(cols[0])
    new = np.zeros(n, dtype=bool)
    if n:
        new[0] = True
        for c in cols:
            d = c[1:] != c[:-1]
            new[1:] |= d.any(axis=1) if d.ndim == 2 else d
    return new


@record(frozen=False, eq=False)
class DiversityRankings(RankedTopics):
    """Every evaluated topic's ranking and subtopic judgments, as flat arrays with offsets.

    qids, filled, num_qrels_topics, runid, ctx : as in :class:`~.batch.Rankings`.
    offsets : (n+1,), topic i ranks ``offsets[i+1] - offsets[i]`` documents.
    hit_offsets, hit_rank, hit_sub : topic i's hits ``hit_offsets[i] .. hit_offsets[i+1]-1``:
        the 0-based rank of a ranked document and a subtopic code it is relevant to,
        sorted by rank then subtopic.
    sub_offsets, sub_num_rel, sub_id : topic i's actual subtopics (codes ``0 .. A-1``):
        relevant documents of each, and its number in the judgments.
    doc_offsets, pair_offsets, pair_sub : topic i's relevant documents (descending docno)
        and, for each, the subtopic codes it is relevant to (ascending).
    """

    qids: list[str]
    filled: np.ndarray
    num_qrels_topics: int
    runid: str
    ctx: EvalContext
    offsets: np.ndarray
    hit_offsets: np.ndarray
    hit_rank: np.ndarray
    hit_sub: np.ndarray
    sub_offsets: np.ndarray
    sub_num_rel: np.ndarray
    sub_id: np.ndarray
    doc_offsets: np.ndarray
    pair_offsets: np.ndarray
    pair_sub: np.ndarray

    @property
    def num_subtopics(self) -> np.ndarray:
        return np.diff(self.sub_offsets)

    @property
    def num_relevant(self) -> np.ndarray:
        return np.diff(self.doc_offsets)

    def batch_sizes(self) -> tuple[np.ndarray, np.ndarray]:
        """One row per topic, as wide as its ranking or its ideal ranking's
        (relevant documents x subtopics) matrix."""
        subs = np.maximum(self.num_subtopics, 1)
        return np.ones(self.num_topics, dtype=np.int64), np.maximum(self.num_ret, self.num_relevant * subs)

    def batch(self, lo: int, hi: int) -> DiversityBatch:
        return DiversityBatch(self, lo, hi)


class DiversityBatch:
    """Topics ``lo .. hi-1`` of a :class:`DiversityRankings`, padded for the kernels.

    n, qids, ctx, runid : as in :class:`~.batch.TopicBatch`
    num_ret : int64 (n,), documents ranked
    width : the longest ranking (at least 1)
    num_subtopics : int64 (n,), actual subtopics ``A``; ``max_subtopics`` the largest (at least 1)
    hit_row, hit_rank, hit_sub : int64, every hit of the batch (row, 0-based rank, subtopic
        code), sorted by row, rank, subtopic
    sub_num_rel : int64 (n, max_subtopics), relevant documents per subtopic (0 padded)
    num_relevant : int64 (n,), relevant documents of the topic
    member : bool (n, max relevant, max_subtopics), document j (descending docno) of the
        topic is relevant to subtopic s
    """

    def __init__(self, rk: DiversityRankings, lo: int, hi: int):
        self.n = hi - lo
        self.qids = rk.qids[lo:hi]
        self.ctx = rk.ctx
        self.runid = rk.runid
        self.num_ret = np.diff(rk.offsets[lo:hi + 1])
        self.width = max(int(self.num_ret.max(initial=0)), 1)
        self.num_subtopics = np.diff(rk.sub_offsets[lo:hi + 1])
        self.max_subtopics = max(int(self.num_subtopics.max(initial=0)), 1)
        h0, h1 = rk.hit_offsets[lo], rk.hit_offsets[hi]
        hits = np.diff(rk.hit_offsets[lo:hi + 1])
        self.hit_row = np.repeat(np.arange(self.n, dtype=np.int64), hits)
        self.hit_rank = rk.hit_rank[h0:h1]
        self.hit_sub = rk.hit_sub[h0:h1]
        s0 = rk.sub_offsets[lo]
        self.sub_num_rel = np.zeros((self.n, self.max_subtopics), dtype=np.int64)
        srow = np.repeat(np.arange(self.n), self.num_subtopics)
        self.sub_num_rel[srow, segment_positions(self.num_subtopics)] = rk.sub_num_rel[s0:rk.sub_offsets[hi]]
        self.num_relevant = np.diff(rk.doc_offsets[lo:hi + 1])
        d0, d1 = rk.doc_offsets[lo], rk.doc_offsets[hi]
        per_doc = np.diff(rk.pair_offsets[d0:d1 + 1])
        self.member = np.zeros((self.n, int(self.num_relevant.max(initial=0)), self.max_subtopics), dtype=bool)
        drow = np.repeat(np.arange(self.n), self.num_relevant)
        dcol = segment_positions(self.num_relevant)
        self.member[np.repeat(drow, per_doc), np.repeat(dcol, per_doc),
                    rk.pair_sub[rk.pair_offsets[d0]:rk.pair_offsets[d1]]] = True

    def memo(self, fn, *args):
        """``fn(self, *args)``, computed once per batch (gains shared by several measures)."""
        cache = self.__dict__.setdefault("_memo", {})
        key = (fn, args)
        if key not in cache:
            cache[key] = fn(self, *args)
        return cache[key]

    @cached_property
    def ranks(self) -> np.ndarray:
        """float64 (width,): 1, 2, ..."""
        return np.arange(1, self.width + 1, dtype=np.float64)


def _join_rank_c(doc_topic, rt, docs: Qrels, run: Run, nt: int, rule: RankRule):
    """(judged document of each ranked run row, or -1; its topic code), topics in code
    order, each in ``rule``'s order, by the C join of :mod:`.qrels`; None without
    it, or when a docno is twice in a topic (the reference path decides: ndeval
    allows it past the ``-M`` cut)."""
    # the C join ranks by a number, highest first, ties by docno descending: the
    # rule's own ascending key, negated (exactly), is that number
    key = -np.asarray(rule.key(run), dtype=np.float64)
    return join_rank_c(doc_topic, docs.docno, docs.rel, rt, run.docno, key, nt)


def check_judged_once(qrels: DiversityQrels) -> None:
    """Raise :class:`~trec_eval_py.errors.InputError` at the first line that judges a
    (topic, subtopic, docno) judged on an earlier line. (ndeval keeps one of the two
    judgments, which one depending on how its sort orders equal items.)"""
    n = len(qrels)
    if n < 2:
        return
    topic = codes_in(qrels.qid, distinct_sorted(qrels.qid))
    words = np.column_stack([docno_words(qrels.docno), qrels.subtopic.astype(np.uint64)])
    # equal rows have equal hashes: only rows whose hashes meet can be repeats
    h = row_hash(topic, words)
    order = np.argsort(h)
    meet = np.flatnonzero(h[order][1:] == h[order][:-1])
    if len(meet) == 0:
        return
    rows = np.unique(np.concatenate([order[meet], order[meet + 1]]))
    o = rows[lex_order(*[words[rows, j] for j in reversed(range(words.shape[1]))], topic[rows])]
    a, b = o[:-1], o[1:]
    same = (topic[a] == topic[b]) & (words[a] == words[b]).all(axis=1)
    if same.any():
        first, later = np.minimum(a[same], b[same]), np.maximum(a[same], b[same])
        i = int(np.argmin(qrels.lineno[later]))
        f, k = int(first[i]), int(later[i])
        raise InputError(qrels.name, f"docno {qrels.docno[k].decode('utf-8', 'replace')!r} is judged twice for "
                         f"subtopic {int(qrels.subtopic[k])} of the same topic (first on line "
                         f"{int(qrels.lineno[f])})", int(qrels.lineno[k]))


def build_diversity(qrels: DiversityQrels, run: Run, ctx: EvalContext) -> DiversityRankings:
    """Rank, cut (``-M``), filter (``-J``) and join a run with subtopic judgments."""
    check_judged_once(qrels)
    topics = sort_distinct(np.concatenate([distinct_sorted(qrels.qid), distinct_sorted(run.qid)]))
    nt = len(topics)
    qt = codes_in(qrels.qid, topics)
    rt = codes_in(run.qid, topics)
    width = max(qrels.docno.dtype.itemsize, run.docno.dtype.itemsize)
    qw = docno_words(qrels.docno.astype(f"S{width}"))

    # the judged documents: distinct (topic, docno), in topic then docno order
    k = qw.shape[1]
    dorder = lex_order(*[qw[:, j] for j in reversed(range(k))], qt)
    new_doc = _starts(qt[dorder], qw[dorder])
    doc_of_row = np.empty(len(qt), dtype=np.int64)
    doc_of_row[dorder] = np.cumsum(new_doc) - 1
    doc_rows = dorder[new_doc]
    num_docs = len(doc_rows)
    doc_topic = qt[doc_rows]

    # relevant (topic, subtopic, document) triples; actual subtopics numbered per topic
    rel_rows = np.flatnonzero(qrels.rel >= ctx.relevance_level)
    o = lex_order(qrels.subtopic[rel_rows], qt[rel_rows])
    rr = rel_rows[o]
    t_r, s_r = qt[rr], qrels.subtopic[rr]
    new_sub = _starts(t_r, s_r)
    sub_global = np.cumsum(new_sub) - 1
    sub_topic = t_r[new_sub]
    first_sub = np.searchsorted(sub_topic, np.arange(nt))
    local = sub_global - first_sub[t_r]
    sub_num_rel = np.bincount(sub_global, minlength=len(sub_topic))
    po = lex_order(local, doc_of_row[rr])
    pair_doc = doc_of_row[rr][po]
    pair_sub_all = local[po]
    pairs_per_doc = np.bincount(pair_doc, minlength=num_docs)
    pair_start = _offsets(pairs_per_doc)

    # the ranking: rule order, -M, the duplicate check on what is kept, -J
    rule = RankRule(order=ctx.rank_order, single_precision=False)
    r_count = np.bincount(rt, minlength=nt)
    docs = Qrels(qrels.qid[doc_rows], qrels.docno[doc_rows], np.arange(num_docs, dtype=np.int64),
                 qrels.lineno[doc_rows], qrels.name)
    ranked = _join_rank_c(doc_topic, rt, docs, run, nt, rule)
    if ranked is not None:
        code, kt = ranked
        if ctx.max_docs is not None:
            keep = segment_positions(r_count) < ctx.max_docs
            code, kt = code[keep], kt[keep]
    else:  # the reference path; it also names a docno given twice among the documents kept
        rw = docno_words(run.docno.astype(f"S{width}"))
        order = rule.order_rows(rt, run, rw)
        kept = order
        if ctx.max_docs is not None:
            kept = order[segment_positions(r_count) < ctx.max_docs]
        ranked_rows = Run(run.qid[kept], run.docno[kept], run.score[kept], run.lineno[kept], run.runid, run.name)
        code = lookup(doc_topic, qw[doc_rows], rt[kept], rw[kept], docs, ranked_rows)
        kt = rt[kept]
    if ctx.judged_only:
        keep = code >= 0
        kt, code = kt[keep], code[keep]

    q_has = np.bincount(qt, minlength=nt) > 0
    evaluated = q_has & ((r_count > 0) | ctx.complete)
    index = np.cumsum(evaluated) - 1  # topic code -> evaluated position
    ev = evaluated[kt]
    if not ev.all():
        kt, code = kt[ev], code[ev]
    counts = np.bincount(kt, minlength=nt)[evaluated]
    rank = segment_positions(counts)
    row = index[kt]

    # hits: every (ranked document, relevant subtopic)
    has = code >= 0
    d = code[has]
    nps = pairs_per_doc[d]
    hit_rank = np.repeat(rank[has], nps)
    hit_row = np.repeat(row[has], nps)
    hit_sub = pair_sub_all[np.repeat(pair_start[d], nps) + segment_positions(nps)]

    # the evaluated topics' subtopics and relevant documents (descending docno)
    sub_ev = evaluated[sub_topic]
    rel_docs = np.flatnonzero((pairs_per_doc > 0) & evaluated[doc_topic])
    rel_docs = rel_docs[lex_order(-rel_docs, doc_topic[rel_docs])]
    per_rel_doc = pairs_per_doc[rel_docs]
    ideal_sub = pair_sub_all[np.repeat(pair_start[rel_docs], per_rel_doc) + segment_positions(per_rel_doc)]

    n = int(evaluated.sum())
    return DiversityRankings(
        qids=decode_ids(topics[evaluated]),
        filled=(r_count == 0)[evaluated],
        num_qrels_topics=int(q_has.sum()),
        runid=run.runid,
        ctx=ctx,
        offsets=_offsets(counts),
        hit_offsets=_offsets(np.bincount(hit_row, minlength=n)),
        hit_rank=hit_rank.astype(np.int64),
        hit_sub=hit_sub.astype(np.int64),
        sub_offsets=_offsets(np.bincount(sub_topic, minlength=nt)[evaluated]),
        sub_num_rel=sub_num_rel[sub_ev].astype(np.int64),
        sub_id=qrels.subtopic[rr][new_sub][sub_ev],
        doc_offsets=_offsets(np.bincount(doc_topic[rel_docs], minlength=nt)[evaluated]),
        pair_offsets=_offsets(per_rel_doc),
        pair_sub=ideal_sub.astype(np.int64),
    )
