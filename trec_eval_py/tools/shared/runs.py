"""Many runs, topic by topic: what the organiser tools (``pool``, ``pool-bias``,
``fuse``) read.

Every run is read by the pipeline's reader of its results format
(:func:`~trec_eval_py.engine.pipeline.read_results`, or the format's piece
reader for big files), so every ``-T`` format and every reading error works
as in the main command, and each topic's documents are put in order by the
one ranking rule (:class:`~trec_eval_py.engine.join.order.RankRule`:
score descending, ties by docno; ``--order`` and ``--compat`` as for an
evaluation). A docno listed twice in a topic is the join's error, naming the
file and line.

Bounded memory: the tools see the runs as *blocks of topics*, every run's
documents for those topics side by side (:func:`topic_blocks`). Runs that
list each topic's lines together, topics in byte order of their ids (as
trec_eval reports them and as most runs are written), are read piece by
piece, all at once, and a topic is handed on as soon as every run has moved
past it: memory holds a few pieces of each run, never a whole run. Small
runs are read whole, but only up to a total (``whole_bytes`` of text over
all runs, in the one :data:`~trec_eval_py.engine.join.policy.POLICY` every
reader of runs follows): the more runs, the smaller a run must be to be read
whole, and the pieces shrink too (``read_ahead`` over all runs), so memory
stays about the same however many runs are read. When a big run lists its
topics in another order (``1, 2, ..., 10``) or comes back to a topic, the
tools start again (:func:`regrouped_blocks`) with every big run regrouped into
ascending order of topics through temporary files
(:func:`~trec_eval_py.engine.join.stream.in_topic_order`): the results are the
same, memory stays bounded, and the runs are read once more.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ..._record import record
from ...engine.join.keys import codes_in, distinct_sorted, docno_words, duplicate_error, row_hash, run_starts
from ...engine.join.order import RankRule, segment_positions
from ...engine.join.policy import POLICY
from ...engine.join.stream import in_topic_order, whole_topics
from ...engine.parse import Run
from ...engine.parse.source import run_labels as _run_labels
from ...engine.parse.source import source_label


@record(eq=False)
class Ranked:
    """Some complete topics of one run, each topic's documents in ranking order.

    topics : byte-string ids, ascending; offsets : int64 (len(topics)+1,), topic i's
    documents are rows ``offsets[i]:offsets[i+1]``; docno, score : per row, in
    rank order (rank 1 first); runid : the run's id (its last line's, as read so far).
    """

    topics: np.ndarray
    offsets: np.ndarray
    docno: np.ndarray
    score: np.ndarray
    runid: str = ""

    def __len__(self) -> int:
        return len(self.docno)

    @property
    def counts(self) -> np.ndarray:
        return np.diff(self.offsets)

    def ranks(self) -> np.ndarray:
        """Each row's rank in its topic (1 = first)."""
        return segment_positions(self.counts) + 1

    def take(self, topics: np.ndarray) -> Ranked:
        """These topics (sorted byte ids; those the run lacks are left out)."""
        pos = np.searchsorted(self.topics, topics)
        ok = pos < len(self.topics)
        ok[ok] = self.topics[pos[ok]] == topics[ok]
        pos = pos[ok]
        lo, hi = self.offsets[pos], self.offsets[pos + 1]
        lengths = hi - lo
        rows = np.repeat(lo - np.cumsum(lengths) + lengths, lengths) + np.arange(int(lengths.sum()))
        offsets = np.zeros(len(pos) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return Ranked(self.topics[pos], offsets, self.docno[rows], self.score[rows], self.runid)

    def drop(self, topics: np.ndarray) -> Ranked:
        """Without these topics (sorted byte ids)."""
        keep = ~np.isin(self.topics, topics)
        return self.take(self.topics[keep])


def empty_ranked(runid: str = "") -> Ranked:
    return Ranked(np.zeros(0, "S1"), np.zeros(1, np.int64), np.zeros(0, "S1"), np.zeros(0), runid)


def _check_duplicates(codes: np.ndarray, words: np.ndarray, run: Run) -> None:
    """The join's error for a docno listed twice in a topic (the earliest such line)."""
    if len(codes) < 2:
        return
    h = row_hash(codes, words)
    order = np.argsort(h, kind="stable")
    hs = h[order]
    eq = np.flatnonzero(hs[1:] == hs[:-1])
    if len(eq) == 0:
        return
    a, b = order[eq], order[eq + 1]
    if ((codes[a] == codes[b]) & (words[a] == words[b]).all(axis=1)).all():
        raise duplicate_error(a, b, run.lineno, run.docno, run.name)
    # a hash shared by different keys: sort the keys themselves
    order = np.lexsort([words[:, j] for j in reversed(range(words.shape[1]))] + [codes])
    c, w = codes[order], words[order]
    eq = np.flatnonzero((c[1:] == c[:-1]) & (w[1:] == w[:-1]).all(axis=1))
    if len(eq):
        raise duplicate_error(order[eq], order[eq + 1], run.lineno, run.docno, run.name)


def rank_run(run: Run, rule: RankRule) -> Ranked:
    """``run``'s topics, each one's documents ordered by ``rule``."""
    topics = distinct_sorted(run.qid)
    codes = codes_in(run.qid, topics)
    words = docno_words(run.docno)
    _check_duplicates(codes, words, run)
    order = rule.order_rows(codes, run, words)
    counts = np.bincount(codes, minlength=len(topics))
    offsets = np.zeros(len(topics) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return Ranked(topics, offsets, run.docno[order], np.asarray(run.score, dtype=np.float64)[order], run.runid)


class Unordered(Exception):
    """A run's topics are not grouped in byte order of their ids."""


def stream_min_bytes(n_runs: int) -> int:
    """The size from which each of ``n_runs`` runs read together is streamed
    (:meth:`~trec_eval_py.engine.join.policy.ReadPolicy.stream_min`)."""
    return POLICY.stream_min(n_runs)


def _pieces(source, opts, chunk_bytes: int | None, stream_min: int | None = None):
    """The run's consecutive pieces, or None when it is to be read whole
    (smaller than ``stream_min`` bytes, the policy's size for one of few runs by default)."""
    from ...engine.inputs import results_format
    from ...engine.parse.source import file_size

    fmt = results_format(opts.results_format)
    if fmt.read_pieces is None or opts.ranking_order == "rank":
        return None
    size = file_size(source)
    if size is None or size < (POLICY.many_stream_min_bytes if stream_min is None else stream_min):
        return None
    if chunk_bytes is not None:
        try:
            return fmt.read_pieces(source, chunk_bytes=chunk_bytes)
        except TypeError:  # a piece reader without a size: its own
            pass
    return fmt.read_pieces(source)


def read_ranked(source, opts) -> Ranked:
    """The whole run ``source``, read by ``opts.results_format``'s reader and ranked."""
    from ...engine.pipeline import read_results

    return rank_run(read_results(source, opts), RankRule.of(opts.context))


def iter_ranked(source, opts, *, chunk_bytes: int | None = None,
                stream_min: int | None = None, regroup: int | None = None) -> Iterator[Ranked]:
    """``source``'s topics in blocks of complete topics, in file order.

    A big run in a format with a piece reader is read piece by piece; the
    blocks then come in ascending byte order of topic ids, else
    :class:`Unordered` is raised (the caller reads the run whole). A small
    run (below ``stream_min`` bytes), or one ranked by its rank column, is one block.
    With ``regroup`` (a number of rows), a run read in pieces is regrouped into
    ascending order of topics through temporary files first, in blocks of about
    that many rows (whatever order its lines are in: never :class:`Unordered`)."""
    pieces = _pieces(source, opts, chunk_bytes, stream_min)
    if pieces is None:
        yield read_ranked(source, opts)
        return
    rule = RankRule.of(opts.context)
    if regroup is not None:
        for part in in_topic_order(pieces, regroup):
            yield rank_run(part, rule)
        return
    last = None  # the last complete topic handed on
    for part in whole_topics(pieces):
        heads = part.qid[run_starts(part.qid)]
        if len(heads) > 1 and not (heads[1:] > heads[:-1]).all() or last is not None and heads[0] <= last:
            raise Unordered()
        last = heads[-1]
        yield rank_run(part, rule)


@record(eq=False)
class Block:
    """Some topics of every run: ``topics`` (sorted byte ids, each in at least one
    run) and ``runs[i]``, run i's documents for those of them it has."""

    topics: np.ndarray
    runs: list

    @property
    def num_rows(self) -> int:
        return sum(len(r) for r in self.runs)


class Restart(Exception):
    """A run read in pieces turned out to list its topics out of order: the
    blocks so far are void, start again with :func:`regrouped_blocks`."""


def _union(arrays) -> np.ndarray:
    arrays = [a for a in arrays if len(a)]
    if not arrays:
        return np.zeros(0, "S1")
    w = max(a.dtype.itemsize for a in arrays)
    return np.unique(np.concatenate([a.astype(f"S{w}") for a in arrays]))


def _merged(parts: list, runid: str) -> Ranked:
    """One run's buffered blocks as one (disjoint topics)."""
    parts = [p for p in parts if len(p.topics)]
    if not parts:
        return empty_ranked(runid)
    if len(parts) == 1:
        p = parts[0]
        return Ranked(p.topics, p.offsets, p.docno, p.score, runid)
    w = max(p.topics.dtype.itemsize for p in parts)
    wd = max(p.docno.dtype.itemsize for p in parts)
    topics = np.concatenate([p.topics.astype(f"S{w}") for p in parts])
    counts = np.concatenate([p.counts for p in parts])
    offsets = np.zeros(len(topics) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    r = Ranked(topics, offsets, np.concatenate([p.docno.astype(f"S{wd}") for p in parts]),
               np.concatenate([p.score for p in parts]), runid)
    if len(topics) > 1 and not (topics[1:] > topics[:-1]).all():
        r = r.take(np.sort(topics))
    return r


def _rows_upto(p: Ranked, bound) -> int:
    return int(p.offsets[np.searchsorted(p.topics, bound, side="right")])



def topic_blocks(sources: Sequence, opts, *, block_rows: int | None = None,
                 memory: int | None = None, regroup: bool = False) -> Iterator[Block]:
    """Every topic of the runs ``sources``, in blocks (ascending topic ids).

    Streams when it can (see the module docstring); raises :class:`Restart`
    when a run read in pieces turns out to list its topics out of byte order
    or to come back to one: use :func:`regrouped_blocks` then.
    ``block_rows`` is about how many rows (all runs together) a block holds;
    ``memory`` bounds the pieces read ahead (bytes of run text, all runs).
    With ``regroup``, every run read in pieces is first regrouped into
    ascending order of topics (:func:`iter_ranked`): no :class:`Restart` then."""
    n = len(sources)
    block_rows = POLICY.block_rows if block_rows is None else block_rows
    memory = POLICY.read_ahead if memory is None else memory
    chunk = int(min(8 << 20, max(POLICY.min_piece, memory // max(1, n))))
    stream_min = stream_min_bytes(n)
    # regrouped runs come back in ranges of topics, a share of a block each
    share = max(1, block_rows // max(1, n)) if regroup else None
    streams = [iter_ranked(s, opts, chunk_bytes=chunk, stream_min=stream_min, regroup=share) for s in sources]
    buffers: list[list[Ranked]] = [[] for _ in range(n)]
    frontier: list = [None] * n  # the last topic each run has handed over complete
    finished = [False] * n
    runids = [""] * n

    def read(i: int) -> None:
        try:
            b = next(streams[i])
        except StopIteration:
            finished[i] = True
            return
        except Unordered:
            # a big run out of topic order: start again with it regrouped (bounded memory)
            raise Restart() from None
        runids[i] = b.runid
        if len(b.topics):
            buffers[i].append(b)
            frontier[i] = b.topics[-1]

    def emit(bound) -> Block | None:
        takes = []
        for i in range(n):
            now, later = [], []
            for p in buffers[i]:
                if bound is None or (len(p.topics) and p.topics[-1] <= bound):
                    now.append(p)
                elif len(p.topics) and p.topics[0] <= bound:
                    cut = int(np.searchsorted(p.topics, bound, side="right"))
                    now.append(p.take(p.topics[:cut]))
                    later.append(p.take(p.topics[cut:]))
                else:
                    later.append(p)
            buffers[i] = later
            takes.append(_merged(now, runids[i]))
        topics = _union([t.topics for t in takes])
        if not len(topics):
            return None
        return Block(topics, takes)

    while not all(finished):
        open_ = [i for i in range(n) if not finished[i]]
        # the run that is furthest behind reads on
        behind = [i for i in open_ if frontier[i] is None]
        read(behind[0] if behind else min(open_, key=lambda j: frontier[j]))
        open_ = [i for i in range(n) if not finished[i]]
        if not open_ or any(frontier[i] is None for i in open_):
            continue
        bound = min(frontier[i] for i in open_)
        if sum(_rows_upto(p, bound) for b in buffers for p in b) >= block_rows:
            for cut in _cuts(buffers, bound, block_rows):
                blk = emit(cut)
                if blk is not None:
                    yield blk
    for cut in _cuts(buffers, None, block_rows):
        blk = emit(cut)
        if blk is not None:
            yield blk


def _cuts(buffers: list, bound, block_rows: int) -> list:
    """The topics at which to cut the buffered topics up to ``bound`` (all of
    them when None) into blocks of about ``block_rows`` rows (all runs
    together; a topic is never split), ascending, the last being ``bound``."""
    parts = [p for b in buffers for p in b if len(p.topics)]
    if not parts:
        return [bound]
    w = max(p.topics.dtype.itemsize for p in parts)
    topics = np.concatenate([p.topics.astype(f"S{w}") for p in parts])
    counts = np.concatenate([p.counts for p in parts])
    if bound is not None:
        keep = topics <= bound
        topics, counts = topics[keep], counts[keep]
    if not len(topics):
        return [bound]
    ids, inverse = np.unique(topics, return_inverse=True)
    cum = np.cumsum(np.bincount(inverse, weights=counts, minlength=len(ids)))
    # the topic that brings the total to each next multiple of block_rows ends a block
    ends = np.flatnonzero(np.diff(cum // max(1, block_rows), prepend=0) > 0)
    cuts = [ids[i] for i in ends.tolist()]
    last = ids[-1] if bound is None else bound
    if not cuts or cuts[-1] != last:
        cuts.append(last)
    return cuts


def regrouped_blocks(sources: Sequence, opts) -> Iterator[Block]:
    """:func:`topic_blocks` when some run lists its topics out of order (after a
    :class:`Restart`): small runs read whole, every big one regrouped in
    ascending order of topics through temporary files, so memory stays bounded."""
    return topic_blocks(sources, opts, regroup=True)


def whole_blocks(sources: Sequence, opts) -> Iterator[Block]:
    """Every run read whole, as one block (for a tool that needs every topic at once)."""
    runs = [read_ranked(s, opts) for s in sources]
    topics = _union([r.topics for r in runs])
    if len(topics):
        yield Block(topics, runs)


def run_labels(sources: Sequence, runids: Sequence[str]) -> list[str]:
    """How each run is named in outputs: the one naming rule
    (:func:`~trec_eval_py.engine.parse.source.run_labels`) over the sources' labels."""
    return _run_labels([r or "" for r in runids], [source_label(s, i) for i, s in enumerate(sources)])
