"""Ranked topics and the rectangular views of them that measure kernels read.

A :class:`Rankings` is what the qrels join (:mod:`.qrels`) produces: every
evaluated topic's ranking as flat arrays with offsets, each ranked document
carrying its relevance code (its judged level, or :data:`NONPOOL` /
:data:`UNJUDGED`).

A :class:`TopicBatch` holds a block of consecutive topics as padded 2-D arrays
(one row per topic, one column per rank) so measure kernels are plain numpy
expressions over whole blocks. Row sums that trec_eval accumulates in rank
order must be taken with :meth:`TopicBatch.seq_sum` (a cumulative sum along
the row, i.e. the same left-to-right additions), never ``np.sum`` (pairwise).

Batches are sized so ``rows * width`` stays bounded, which keeps memory flat
on large runs; :func:`iter_batches` is the one loop that cuts every judgment
format's topics into batches.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property

import numpy as np

from ... import _native
from ..._record import record
from .context import EvalContext

#: relevance codes of a ranked document besides its judged level (>= 0):
#: not in the qrels at all ...
NONPOOL = -1
#: ... and in the qrels with a negative level (pooled but not judged)
UNJUDGED = -2


class RankedTopics:
    """What every join's ranked topics share: ``qids`` (topics in evaluation
    order) and ``offsets`` (topic i's ranked documents are rows
    ``offsets[i]:offsets[i+1]``)."""

    qids: list[str]
    offsets: np.ndarray

    @property
    def num_topics(self) -> int:
        return len(self.qids)

    @property
    def num_ret(self) -> np.ndarray:
        return np.diff(self.offsets)


@record(frozen=False, eq=False)
class Rankings(RankedTopics):
    """Every evaluated topic's ranking, as flat arrays with offsets.

    Attributes
    ----------
    qids : list of str, topics in evaluation order.
    offsets : int64 (n+1,), topic i's documents are ``rel[offsets[i]:offsets[i+1]]``.
    rel : int64, relevance code of each ranked document (see module doc).
    judged_offsets, judged_rel : the topic's qrels levels (negatives included), sorted descending.
    filled : bool (n,), the topic had no results and is evaluated as an empty ranking (``-c``).
    num_qrels_topics : number of topics in the qrels (the ``-c`` divisor).
    runid : the run's id.
    ctx : the evaluation settings.
    level_source : int64 (n,) or None, the topic whose judged levels the gain
        measures read for each topic (see :func:`level_sources`); None when
        every topic reads its own.
    scores : float64, the run's score of each ranked document (aligned with ``rel``),
             only when ``ctx.keep_scores``; else None.
    docnos, judged_docnos : bytes, the docno of each ranked document (aligned with
             ``rel``) and of each judgment (aligned with ``judged_rel``), only when
             ``ctx.keep_docnos``; else None.
    rows : int64, the row of the run (its index among the lines joined) of each
             ranked document (aligned with ``rel``), only when ``ctx.keep_rows``;
             else None.
    """

    qids: list[str]
    offsets: np.ndarray
    rel: np.ndarray
    judged_offsets: np.ndarray
    judged_rel: np.ndarray
    filled: np.ndarray
    num_qrels_topics: int
    runid: str
    ctx: EvalContext
    level_source: np.ndarray | None = None
    scores: np.ndarray | None = None
    docnos: np.ndarray | None = None
    judged_docnos: np.ndarray | None = None
    rows: np.ndarray | None = None

    @property
    def num_judged(self) -> np.ndarray:
        return np.diff(self.judged_offsets)

    def batch_sizes(self) -> tuple[np.ndarray, np.ndarray]:
        """One row per topic, as wide as its ranking or its judgments."""
        return np.ones(self.num_topics, dtype=np.int64), np.maximum(self.num_ret, self.num_judged)

    def batch(self, lo: int, hi: int):
        """Topics ``lo .. hi-1`` as a :class:`TopicBatch`."""
        return TopicBatch(self, lo, hi)


#: relevance code of the padding beyond a topic's last document
PAD = -(1 << 40)

DEFAULT_MAX_CELLS = 4_000_000


def _pad_rows(flat: np.ndarray, offsets: np.ndarray, lo: int, hi: int, fill=PAD, dtype=np.int64) -> np.ndarray:
    counts = np.diff(offsets[lo : hi + 1])
    width = max(int(counts.max()) if len(counts) else 0, 1)
    out = np.full((hi - lo, width), fill, dtype=dtype)
    kernels = _native.extension("kernels")
    if kernels is not None and flat.dtype == out.dtype and flat.flags.c_contiguous and offsets.dtype == np.int64:
        kernels.pad_rows(flat, np.ascontiguousarray(offsets), lo, hi, width, out)
        return out
    start = offsets[lo]
    seg = flat[start : offsets[hi]]
    rows = np.repeat(np.arange(hi - lo), counts)
    cols = np.arange(len(seg)) - np.repeat(offsets[lo:hi] - start, counts)
    out[rows, cols] = seg
    return out


class TopicBatch:
    """Topics ``lo`` to ``hi - 1`` of a :class:`Rankings`, as padded arrays.

    Attributes (all per topic, rows in evaluation order)
    ---------------------------------------------------
    qids : topic ids
    rel : int64 (n, W), relevance code at rank ``j + 1``; ``PAD`` past the end
    num_ret : int64 (n,), documents ranked (after ``-M``/``-J``)
    judged : int64 (n, J), qrels levels of the topic sorted descending (``PAD`` padded),
             including negative (pooled but unjudged) entries
    gain_judged : the levels the gain measures build their tables from: ``judged``,
             except for topics whose judgments are all negative (see
             :func:`~.rankings.level_sources`)
    scores : float64 (n, W), the run's score at rank ``j + 1`` (NaN past the end), or
            None when the join kept none (see :attr:`scores`)
    ctx : the :class:`EvalContext`
    runid : run id
    """

    def __init__(self, rankings: Rankings, lo: int, hi: int):
        self.qids = rankings.qids[lo:hi]
        self.n = hi - lo
        self.ctx: EvalContext = rankings.ctx
        self.runid = rankings.runid
        self.rel = _pad_rows(rankings.rel, rankings.offsets, lo, hi)
        self.num_ret = np.diff(rankings.offsets[lo : hi + 1])
        self.judged = _pad_rows(rankings.judged_rel, rankings.judged_offsets, lo, hi)
        self.num_judged = np.diff(rankings.judged_offsets[lo : hi + 1])
        self.gain_judged = self.judged
        source = getattr(rankings, "level_source", None)
        if source is not None and (source[lo:hi] != np.arange(lo, hi)).any():
            # gather the source topics' levels (they may lie outside this batch)
            offs = rankings.judged_offsets
            src = source[lo:hi]
            counts = offs[src + 1] - offs[src]
            starts = np.zeros(len(src) + 1, dtype=np.int64)
            np.cumsum(counts, out=starts[1:])
            flat = rankings.judged_rel[np.repeat(offs[src] - starts[:-1], counts) + np.arange(starts[-1])]
            self.gain_judged = _pad_rows(flat, starts, 0, len(src))
        self._rankings, self._lo, self._hi = rankings, lo, hi

    @cached_property
    def scores(self) -> np.ndarray | None:
        """float64 (n, W), each ranked document's score (NaN past the end), when
        the evaluation keeps them (``EvalContext.keep_scores``: a measure with
        ``reads_scores``, or ``curves --curve table``); else None. Padded on first use."""
        rk = self._rankings
        if rk.scores is None:
            return None
        return _pad_rows(rk.scores, rk.offsets, self._lo, self._hi, fill=np.nan, dtype=np.float64)

    def docnos(self, row: int) -> tuple[np.ndarray, np.ndarray] | None:
        """Topic ``row``'s docnos (bytes): its ranked documents in rank order, and its
        judgments in the order of ``judged`` (levels descending); None when the
        join kept none (``EvalContext.keep_docnos``)."""
        rk = self._rankings
        docnos, judged = getattr(rk, "docnos", None), getattr(rk, "judged_docnos", None)
        if docnos is None or judged is None:
            return None
        t = self._lo + row
        return (docnos[rk.offsets[t]:rk.offsets[t + 1]],
                judged[rk.judged_offsets[t]:rk.judged_offsets[t + 1]])

    @classmethod
    def from_lists(cls, rels: list[list[int]], judged: list[list[int]], ctx: EvalContext | None = None,
                   qids: list[str] | None = None, scores: list[list[float]] | None = None) -> TopicBatch:
        """A batch from plain lists: ``rels[i]`` is topic i's ranking as relevance
        codes, ``judged[i]`` its qrels levels, ``scores[i]`` (optional) the scores
        in rank order. For tests and hand-worked examples."""
        ctx = ctx or EvalContext()
        n = len(rels)
        offs = np.zeros(n + 1, dtype=np.int64)
        np.cumsum([len(r) for r in rels], out=offs[1:])
        joffs = np.zeros(n + 1, dtype=np.int64)
        np.cumsum([len(j) for j in judged], out=joffs[1:])
        flat = np.array([x for r in rels for x in r], dtype=np.int64)
        jflat = np.array([x for j in judged for x in sorted(j, reverse=True)], dtype=np.int64)
        rk = Rankings(
            qids=qids or [str(i + 1) for i in range(n)],
            offsets=offs, rel=flat, judged_offsets=joffs, judged_rel=jflat,
            filled=np.array([len(r) == 0 for r in rels], dtype=bool),
            num_qrels_topics=n, runid="test", ctx=ctx,
            scores=None if scores is None else np.array([x for s in scores for x in s], dtype=np.float64),
        )
        return cls(rk, 0, n)

    # ---- shared intermediate arrays (computed once, used by many measures) ----
    @property
    def width(self) -> int:
        return self.rel.shape[1]

    @property
    def level(self) -> int:
        return self.ctx.relevance_level

    @cached_property
    def valid(self) -> np.ndarray:
        """bool (n, W): a document is ranked at this position."""
        return np.arange(self.width) < self.num_ret[:, None]

    @cached_property
    def ranks(self) -> np.ndarray:
        """float64 (W,): 1, 2, ..., W."""
        return np.arange(1, self.width + 1, dtype=np.float64)

    @cached_property
    def is_rel(self) -> np.ndarray:
        """bool (n, W): the document at this rank passes trec_eval's rank-by-rank
        test, level at least ``-l``. With a negative ``-l`` the codes of unjudged
        documents (-1, -2) can pass it too, as they do in trec_eval."""
        return (self.rel >= self.level) & self.valid

    @cached_property
    def is_judged(self) -> np.ndarray:
        """bool (n, W): the document at this rank has a judgment (level >= 0)."""
        return self.rel >= 0

    @cached_property
    def cum_rel(self) -> np.ndarray:
        """int64 (n, W): relevant documents among the top ``j + 1``."""
        return np.cumsum(self.is_rel, axis=1, dtype=np.int64)

    @cached_property
    def judged_rel(self) -> np.ndarray:
        """bool (n, W): a ranked document with a judgment (level >= 0) at or above ``-l``."""
        return (self.rel >= max(self.level, 0)) & self.valid

    @cached_property
    def num_rel_ret(self) -> np.ndarray:
        """int64 (n,): relevant documents retrieved, as trec_eval counts them while
        joining: judged ones only (level >= 0), whatever ``-l`` says. For ``-l``
        >= 0 this is ``cum_rel[:, -1]``; with a negative ``-l`` the unjudged
        documents that pass the rank-by-rank test are not counted here."""
        return np.count_nonzero(self.judged_rel, axis=1).astype(np.int64)

    @cached_property
    def rel_so_far(self) -> np.ndarray:
        """int64 (n, W): the relevant count trec_eval's backward walks (iprec_at_recall,
        11pt_avg, Rprec_mult) hold at each rank: they start from ``num_rel_ret`` at the
        last rank and step down at every document passing the rank-by-rank test, so
        with a negative ``-l`` the count is ``cum_rel`` minus the unjudged documents
        that pass, never below 0 (the walk stops there). Equal to ``cum_rel`` for
        ``-l`` >= 0."""
        surplus = self.cum_rel[:, -1] - self.num_rel_ret
        if not surplus.any():
            return self.cum_rel
        return np.maximum(self.cum_rel - surplus[:, None], 0)

    @cached_property
    def num_rel(self) -> np.ndarray:
        """int64 (n,): judged relevant documents in the qrels (negative levels never count)."""
        return np.count_nonzero((self.judged >= self.level) & (self.judged >= 0), axis=1).astype(np.int64)

    @cached_property
    def num_nonrel(self) -> np.ndarray:
        """int64 (n,): judged non-relevant documents (0 <= level < relevance level) in the qrels."""
        j = self.judged
        return np.count_nonzero((j >= 0) & (j < self.level), axis=1).astype(np.int64)

    @cached_property
    def num_nonpool(self) -> np.ndarray:
        return np.count_nonzero(self.rel == NONPOOL, axis=1).astype(np.int64)

    @cached_property
    def num_unjudged_in_pool(self) -> np.ndarray:
        return np.count_nonzero(self.rel == UNJUDGED, axis=1).astype(np.int64)

    @cached_property
    def prec_at_rank(self) -> np.ndarray:
        """float64 (n, W): precision after each rank (cum_rel / rank)."""
        return self.cum_rel / self.ranks

    # ---- helpers ----
    def memo(self, fn, *args):
        """``fn(self, *args)``, computed once per batch: measures that share an
        intermediate result (map and gm_map, bpref and gm_bpref) pay for it once."""
        cache = self.__dict__.setdefault("_memo", {})
        key = (fn, args)
        if key not in cache:
            cache[key] = fn(self, *args)
        return cache[key]

    def cum_rel_at(self, k: int) -> np.ndarray:
        """int64 (n,): relevant documents among the top ``k`` (k >= 1)."""
        return self.cum_rel[:, min(k, self.width) - 1]

    @staticmethod
    def seq_sum(x: np.ndarray) -> np.ndarray:
        """Row sums added left to right, as a C loop over ranks would."""
        if x.shape[1] == 0:
            return np.zeros(x.shape[0], dtype=x.dtype)
        _cmath = _native.extension("cmath")
        if x.dtype == np.float64 and _cmath is not None:
            x = np.ascontiguousarray(x)
            out = np.empty(x.shape[0], dtype=np.float64)
            _cmath.row_sums(x, x.shape[1], out)  # the same additions, in the same order
            return out
        return np.cumsum(x, axis=1)[:, -1]


def iter_batches(joined, max_cells: int | None = None) -> Iterator:
    """The one batching loop: split a joined value into batches of consecutive topics.

    ``joined`` is what a judgment format's join returns (see
    :mod:`trec_eval_py.engine.inputs`): its ``batch_sizes()`` gives each topic's
    ``(rows, width)`` and ``batch(lo, hi)`` builds the batch of topics
    ``lo .. hi-1``. A batch costs ``max(width) * sum(rows)`` cells; batches
    stay within ``max_cells`` unless a single topic alone exceeds it.
    """
    max_cells = max_cells or DEFAULT_MAX_CELLS
    rows, width = joined.batch_sizes()
    rows = np.asarray(rows, dtype=np.int64)
    width = np.maximum(np.asarray(width, dtype=np.int64), 1)
    n = len(rows)
    lo = 0
    while lo < n:
        # a batch grows while (widest so far) x (rows so far) fits in max_cells;
        # found on a window of the next topics, widened until the limit is inside
        size = 1024
        while True:
            cost = np.maximum.accumulate(width[lo : lo + size]) * np.cumsum(rows[lo : lo + size])
            over = np.flatnonzero(cost > max_cells)
            if len(over):
                hi = lo + max(int(over[0]), 1)
                break
            if lo + size >= n:
                hi = n
                break
            size *= 4
        yield joined.batch(lo, hi)
        lo = hi
