"""Join stage: rank each topic's documents and look up their relevance.

The result is columnar: one flat array of relevance values in rank order for
all evaluated topics, with topic offsets, plus each topic's judged levels.
Topics are in byte order of their ids, as trec_eval processes them.

Relevance codes of a retrieved document:
  >= 0      its judged level in the qrels
  NONPOOL   (-1) not in the qrels at all
  UNJUDGED  (-2) in the qrels with a negative level (pooled but not judged)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..parse import Qrels, Run
from .context import EvalContext

NONPOOL = -1
UNJUDGED = -2


@dataclass(eq=False)
class Rankings:
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

    @property
    def num_topics(self) -> int:
        return len(self.qids)

    @property
    def num_ret(self) -> np.ndarray:
        return np.diff(self.offsets)

    @property
    def num_judged(self) -> np.ndarray:
        return np.diff(self.judged_offsets)


def _check_duplicates(keys: np.ndarray, lineno: np.ndarray, docno: np.ndarray, name: str, what: str):
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    dup = np.flatnonzero(sk[1:] == sk[:-1])
    if len(dup):
        # report the duplicate that appears last in the file among the first pair found
        pair = order[dup + 1]
        i = int(pair[np.argmin(lineno[pair])])
        first = int(order[dup[np.argmin(lineno[pair])]])
        raise InputError(
            name,
            f"duplicate docno {docno[i].decode('utf-8', 'replace')!r} in the same topic "
            f"(first seen on line {int(lineno[first])})",
            int(lineno[i]),
        )
    return order, sk


def _segment_positions(counts: np.ndarray) -> np.ndarray:
    """0-based position of each element within its segment, for segments of ``counts``."""
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    return np.arange(total, dtype=np.int64) - np.repeat(starts, counts)


def build_rankings(qrels: Qrels, run: Run, ctx: EvalContext) -> Rankings:
    """Rank, truncate (``-M``), filter (``-J``) and join a run with its qrels."""
    nq, nr = len(qrels), len(run)
    topics, tinv = np.unique(np.concatenate([qrels.qid, run.qid]), return_inverse=True)
    qt, rt = tinv[:nq].astype(np.int64), tinv[nq:].astype(np.int64)
    _, dinv = np.unique(np.concatenate([qrels.docno, run.docno]), return_inverse=True)
    qd, rd = dinv[:nq].astype(np.int64), dinv[nq:].astype(np.int64)
    nd = int(dinv.max()) + 1 if len(dinv) else 1
    nt = len(topics)

    qkey = qt * nd + qd
    qorder, qsorted = _check_duplicates(qkey, qrels.lineno, qrels.docno, qrels.name, "qrels")
    rkey = rt * nd + rd
    _check_duplicates(rkey, run.lineno, run.docno, run.name, "run")

    # relevance of each run row
    pos = np.searchsorted(qsorted, rkey)
    pos_c = np.minimum(pos, max(nq - 1, 0))
    found = (pos < nq) & (qsorted[pos_c] == rkey) if nq else np.zeros(nr, dtype=bool)
    qrel_sorted = qrels.rel[qorder]
    rel = np.where(found, qrel_sorted[pos_c], NONPOOL)
    rel = np.where(found & (rel < 0), UNJUDGED, rel)

    q_has = np.bincount(qt, minlength=nt) > 0
    r_count = np.bincount(rt, minlength=nt)
    evaluated = q_has & ((r_count > 0) | ctx.complete)

    # rank: topic ascending, score descending, docno descending
    order = np.lexsort((-rd, -run.score, rt))
    rel_sorted = rel[order]
    t_sorted = rt[order]
    keep = evaluated[t_sorted]
    if ctx.max_docs is not None:
        keep &= _segment_positions(r_count) < ctx.max_docs
    if ctx.judged_only:
        keep &= rel_sorted >= 0
    rel_kept = rel_sorted[keep]
    counts = np.bincount(t_sorted[keep], minlength=nt)[evaluated]
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])

    # judged levels per evaluated topic, descending
    jmask = evaluated[qt]
    jorder = np.lexsort((-qrels.rel[jmask], qt[jmask]))
    judged_rel = qrels.rel[jmask][jorder]
    jcounts = np.bincount(qt[jmask], minlength=nt)[evaluated]
    joffsets = np.zeros(len(jcounts) + 1, dtype=np.int64)
    np.cumsum(jcounts, out=joffsets[1:])

    qids = [t.decode("utf-8", "surrogateescape") for t in topics[evaluated].tolist()]
    filled = (r_count == 0)[evaluated]
    return Rankings(
        qids=qids,
        offsets=offsets,
        rel=rel_kept.astype(np.int64),
        judged_offsets=joffsets,
        judged_rel=judged_rel.astype(np.int64),
        filled=filled,
        num_qrels_topics=int(q_has.sum()),
        runid=run.runid,
        ctx=ctx,
    )
