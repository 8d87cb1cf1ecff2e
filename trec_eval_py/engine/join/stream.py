"""Evaluating a large run piece by piece, in bounded memory.

Real runs list each topic's documents together. Then a run can be read in
pieces: every piece's complete topics are ranked and joined at once, and only
the last topic of a piece (which may go on in the next piece) is held back.
The judgments are read whole; the run never is.

A run whose topics are interleaved cannot be split this way; that is
detected (a topic shows up again after it was finished) and reported with
:class:`Interleaved`, so the caller can fall back to reading the run whole.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Iterator

import numpy as np

from ..parse import Qrels, Run
from .context import EvalContext
from .keys import run_starts
from .rankings import Rankings, build_rankings


def prefetch(items: Iterable, depth: int = 1) -> Iterator:
    """Iterate over ``items`` while a background thread already produces the next ones.

    Reading and scanning a piece of the run (I/O and C code that releases
    the GIL) then overlaps with ranking and measuring the previous piece, so
    both cores of a machine work. Exceptions reach the consumer in order.
    """
    import queue
    import threading

    q: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()
    done = object()

    def produce():
        try:
            for item in items:
                while not stop.is_set():
                    try:
                        q.put((item, None), timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            q.put((done, None))
        except BaseException as e:  # handed to the consumer
            q.put((done, e))

    t = threading.Thread(target=produce, name="trec_eval_py-reader", daemon=True)
    t.start()
    try:
        while True:
            item, err = q.get()
            if item is done:
                if err is not None:
                    raise err
                return
            yield item
    finally:
        stop.set()


class Interleaved(Exception):
    """A topic's lines are not contiguous in the run."""


def _slice(run: Run, lo: int, hi: int) -> Run:
    return Run(run.qid[lo:hi], run.docno[lo:hi], run.score[lo:hi], run.lineno[lo:hi], run.runid, run.name)


def _concat(a: Run, b: Run) -> Run:
    return Run(
        np.concatenate([a.qid, b.qid]), np.concatenate([a.docno, b.docno]),
        np.concatenate([a.score, b.score]), np.concatenate([a.lineno, b.lineno]), b.runid, b.name,
    )


class _QrelsByTopic:
    """The judgments grouped by topic, to cut out the rows of a few topics fast."""

    def __init__(self, qrels: Qrels):
        order = np.argsort(qrels.qid, kind="stable")
        self.qrels = qrels
        self.order = order
        sorted_qid = qrels.qid[order]
        starts = run_starts(sorted_qid)
        self.topics = sorted_qid[starts]
        self.bounds = np.append(starts, len(order))

    def subset(self, topics: np.ndarray) -> Qrels:
        pos = np.searchsorted(self.topics, topics)
        ok = pos < len(self.topics)
        ok[ok] = self.topics[pos[ok]] == topics[ok]
        pos = pos[ok]
        if len(pos) == 0:
            rows = np.zeros(0, dtype=np.int64)
        else:  # the row ranges of the wanted topics, without a loop over topics
            lo, hi = self.bounds[pos], self.bounds[pos + 1]
            lengths = hi - lo
            rows = self.order[np.repeat(lo - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())]
        q = self.qrels
        return Qrels(q.qid[rows], q.docno[rows], q.rel[rows], q.lineno[rows], q.name)


def stream_rankings(qrels: Qrels, pieces: Iterable[Run], ctx: EvalContext) -> Iterator[Rankings]:
    """Rankings of groups of complete topics, in the order the run lists them.

    Under ``-c`` a last group holds the judged topics the run never mentions,
    as empty rankings. Raises :class:`Interleaved` when a topic comes back.
    """
    by_topic = _QrelsByTopic(qrels)
    part_ctx = replace(ctx, complete=False)
    done: set[bytes] = set()
    carry: Run | None = None
    runid = ""

    def rank(part: Run) -> Rankings | None:
        topics = np.unique(part.qid)
        names = set(topics.tolist())
        if names & done:
            raise Interleaved()
        done.update(names)
        sub = by_topic.subset(topics)
        if len(sub) == 0:
            return None
        return build_rankings(sub, part, part_ctx)

    for piece in pieces:
        runid = piece.runid
        run = piece if carry is None else _concat(carry, piece)
        last = int(run_starts(run.qid)[-1])
        carry = _slice(run, last, len(run))
        if last:
            rk = rank(_slice(run, 0, last))
            if rk is not None and rk.num_topics:
                yield replace(rk, runid=runid)
    if carry is not None and len(carry):
        rk = rank(carry)
        if rk is not None and rk.num_topics:
            yield replace(rk, runid=runid)
    if ctx.complete:
        missing = np.array(sorted(set(by_topic.topics.tolist()) - done), dtype=by_topic.topics.dtype)
        if len(missing):
            sub = by_topic.subset(missing)
            empty = Run(missing[:0], np.zeros(0, dtype="S1"), np.zeros(0), np.zeros(0, dtype=np.int64), runid,
                        "<none>")
            yield build_rankings(sub, empty, ctx)
