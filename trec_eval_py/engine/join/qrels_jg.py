"""Join stage for qrels with judgment groups (``-R qrels_jg``).

Each (topic, judgment group) pair is ranked and joined exactly like an
ordinary qrels topic (score descending, ties by docno descending, ``-M``
then ``-J``, the same relevance codes), so every group becomes one row of a
:class:`~trec_eval_py.engine.join.batch.TopicBatch` and the ``*_avgjg`` kernels can
use its helpers. A :class:`JGBatch` adds which topic each row belongs to and
:meth:`JGBatch.combine`, which averages row values over a topic's groups as
trec_eval does: add the groups' values in group order, then divide by the
number of groups when there is more than one.
"""
from __future__ import annotations

import numpy as np

from ..parse.qrels import Qrels
from ..parse.qrels_jg import QrelsJG
from ..parse.run import Run
from .batch import Rankings, TopicBatch
from .context import EvalContext
from .keys import check_duplicates
from .qrels import build_rankings


class JGBatch:
    """A block of topics for the ``*_avgjg`` kernels.

    rows : TopicBatch with one row per (topic, judgment group), topics in
           order and each topic's groups in byte order of their names
    row_topic : int64 (rows.n,), the topic (0 .. n-1) of each row
    num_jgs : int64 (n,), judgment groups per topic
    """

    def __init__(self, rows: TopicBatch, row_topic: np.ndarray, qids: list[str], filled: np.ndarray):
        self.rows = rows
        self.row_topic = row_topic
        self.qids = qids
        self.n = len(qids)
        self.filled = filled
        self.ctx: EvalContext = rows.ctx
        self.runid = rows.runid
        self.num_jgs = np.bincount(row_topic, minlength=self.n).astype(np.int64)

    def combine(self, values: np.ndarray) -> np.ndarray:
        """Per-topic average over groups of per-row ``values`` ((rows,) or (rows, k))."""
        v = np.asarray(values, dtype=np.float64)
        flat = v.ndim == 1
        if flat:
            v = v[:, None]
        starts = np.cumsum(self.num_jgs) - self.num_jgs
        pos = np.arange(len(self.row_topic)) - starts[self.row_topic]
        width = int(self.num_jgs.max()) if self.n else 0
        grid = np.zeros((self.n, max(width, 1), v.shape[1]), dtype=np.float64)
        grid[self.row_topic, pos] = v
        total = np.cumsum(grid, axis=1)[:, -1, :]  # groups added in order, as a C loop would
        several = self.num_jgs > 1
        total[several] /= self.num_jgs[several, None]
        return total[:, 0] if flat else total


class JGRankings:
    """Evaluated topics of a qrels_jg join (a joined value, see
    :mod:`trec_eval_py.engine.inputs`): its batches are :class:`JGBatch`."""

    def __init__(self, rows: Rankings, row_topic: np.ndarray, qids: list[str], num_qrels_topics: int):
        self.rows = rows
        self.row_topic = row_topic
        self.qids = qids
        self.num_qrels_topics = num_qrels_topics
        self.runid = rows.runid
        self.ctx = rows.ctx
        counts = np.bincount(row_topic, minlength=len(qids))
        self._row_off = np.zeros(len(qids) + 1, dtype=np.int64)
        np.cumsum(counts, out=self._row_off[1:])
        self.filled = rows.filled[self._row_off[:-1]] if len(qids) else np.zeros(0, dtype=bool)

    @property
    def num_topics(self) -> int:
        return len(self.qids)

    def batch_sizes(self) -> tuple[np.ndarray, np.ndarray]:
        """A topic is one row per judgment group, as wide as its widest group."""
        rows = np.diff(self._row_off)
        per_row = np.maximum(np.maximum(self.rows.num_ret, self.rows.num_judged), 1)
        width = np.maximum.reduceat(per_row, self._row_off[:-1]) if len(rows) else rows
        return rows, width

    def batch(self, lo: int, hi: int) -> JGBatch:
        """Topics ``lo .. hi-1`` as a :class:`JGBatch`."""
        r0, r1 = int(self._row_off[lo]), int(self._row_off[hi])
        tb = TopicBatch(self.rows, r0, r1)
        return JGBatch(tb, self.row_topic[r0:r1] - lo, self.qids[lo:hi], self.filled[lo:hi])


def build_qrels_jg(qj: QrelsJG, run: Run, ctx: EvalContext) -> JGRankings:
    """Rank and join a run with every judgment group of every topic."""
    nq = len(qj)
    topics, tinv = np.unique(np.concatenate([qj.qid, run.qid]), return_inverse=True)
    qt, rt = tinv[:nq].astype(np.int64), tinv[nq:].astype(np.int64)
    _, ginv = np.unique(qj.jg, return_inverse=True)
    _, dinv = np.unique(np.concatenate([qj.docno, run.docno]), return_inverse=True)
    qd, rd = dinv[:nq].astype(np.int64), dinv[nq:].astype(np.int64)
    nd = int(dinv.max()) + 1 if len(dinv) else 1
    ng = int(ginv.max()) + 1
    check_duplicates(rt * nd + rd, run.lineno, run.docno, run.name)

    # one key per (topic, group), numbered in (topic, group-name) order
    pair = qt * ng + ginv.reshape(-1)
    ukey, qk = np.unique(pair, return_inverse=True)
    qk = qk.reshape(-1)
    check_duplicates(qk * nd + qd, qj.lineno, qj.docno, qj.name, "topic and judgment group")
    key_topic = ukey // ng
    names = np.array([b"%012d" % k for k in range(len(ukey))], dtype="S12")

    # the run's lines, once for each judgment group of their topic (each copy
    # contiguous and in file order, which keeps the ranking sort cheap)
    by_topic = np.argsort(rt, kind="stable")
    r_count = np.bincount(rt, minlength=len(topics))
    r_start = np.cumsum(r_count) - r_count
    lengths = r_count[key_topic]
    total = int(lengths.sum())
    src = by_topic[np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
                   + np.repeat(r_start[key_topic], lengths)]
    rkey = np.repeat(np.arange(len(ukey)), lengths)

    rows = build_rankings(
        Qrels(names[qk], qj.docno, qj.rel, qj.lineno, qj.name),
        Run(names[rkey], run.docno[src], run.score[src], run.lineno[src], run.runid, run.name),
        ctx,
    )
    row_key = np.array([int(q) for q in rows.qids], dtype=np.int64)
    row_tid = key_topic[row_key]
    ev_topics, row_topic = np.unique(row_tid, return_inverse=True)
    qids = [t.decode("utf-8", "surrogateescape") for t in topics[ev_topics].tolist()]
    return JGRankings(rows, row_topic.reshape(-1).astype(np.int64), qids, int(len(np.unique(qt))))
