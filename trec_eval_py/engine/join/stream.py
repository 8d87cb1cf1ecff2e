"""Evaluating a large run piece by piece, in bounded memory.

Real runs list each topic's documents together. Then a run can be read in
pieces: every piece's complete topics are ranked and joined at once, and only
the last topic of a piece (which may go on in the next piece) is held back.
The judgments are read whole; the run never is.

A run whose topics are interleaved (shards concatenated with ``cat``) cannot
be split this way; that is detected (a topic shows up again after it was
finished) and reported with :class:`Interleaved`. The caller then evaluates
it with :func:`spill_rankings`: the run is read once more in pieces, each
piece's rows are appended to one of several temporary files chosen by a hash
of the topic id, and each file (every line of its topics) is then ranked on
its own. Memory stays that of one piece or one file, whatever the line order.
"""
from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from typing import BinaryIO

import numpy as np

from ..._record import replace
from ...errors import InputError
from ..parse import Qrels, Run
from .batch import Rankings
from .context import EvalContext
from .keys import run_starts, sort_distinct
from .policy import POLICY, Interleaved
from .qrels import build_rankings


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
                    try:
                        raise err
                    finally:
                        # the traceback holds this frame, which holds err: without the
                        # cycle broken, the pieces the failed pass read (an interleaved
                        # run's first try) would wait for the cyclic garbage collector
                        del err
                return
            yield item
    finally:
        stop.set()


def slice_rows(run: Run, lo: int, hi: int) -> Run:
    """Rows ``lo:hi`` of ``run`` (views), with its run id and name."""
    return Run(run.qid[lo:hi], run.docno[lo:hi], run.score[lo:hi], run.lineno[lo:hi], run.runid, run.name)


def concat_rows(a: Run, b: Run) -> Run:
    """The rows of ``a`` then ``b`` (ids and docnos widened to the wider of the two),
    with ``b``'s run id and name: a piece's carried last topic joined to the next piece."""
    return Run(
        np.concatenate([a.qid, b.qid]), np.concatenate([a.docno, b.docno]),
        np.concatenate([a.score, b.score]), np.concatenate([a.lineno, b.lineno]), b.runid, b.name,
    )


class _QrelsByTopic:
    """The judgments grouped by topic, to cut out the rows of a few topics fast.

    Judgments list each topic's lines together almost always; then the rows
    are cut out where they are, and only the topics (not every row) are
    sorted. Otherwise the rows are put in topic order once.
    """

    def __init__(self, qrels: Qrels):
        self.qrels = qrels
        starts = run_starts(qrels.qid)
        ends = np.append(starts[1:], len(qrels.qid))
        heads = qrels.qid[starts]
        by_name = np.argsort(heads, kind="stable")
        sorted_heads = heads[by_name]
        if len(heads) < 2 or bool((sorted_heads[1:] != sorted_heads[:-1]).all()):
            self.order = None  # each topic in one stretch: rows stay where they are
            self.topics = sorted_heads
            self.lo, self.hi = starts[by_name], ends[by_name]
        else:
            self.order = np.argsort(qrels.qid, kind="stable")
            sorted_qid = qrels.qid[self.order]
            starts = run_starts(sorted_qid)
            self.topics = sorted_qid[starts]
            self.lo, self.hi = starts, np.append(starts[1:], len(sorted_qid))
        self._starts = starts  # each topic's first row, in the order of the rows (file or sorted)

    def any_all_negative(self) -> bool:
        """Whether some topic's judgments are all negative (its gain measures then read
        the levels of the topic evaluated before it: see :func:`.rankings.level_sources`)."""
        if len(self.lo) == 0:
            return False
        rel = self.qrels.rel if self.order is None else self.qrels.rel[self.order]
        return bool((np.maximum.reduceat(rel, self._starts) < 0).any())

    def subset(self, topics: np.ndarray) -> Qrels:
        pos = np.searchsorted(self.topics, topics)
        ok = pos < len(self.topics)
        ok[ok] = self.topics[pos[ok]] == topics[ok]
        pos = pos[ok]
        if len(pos) == 0:
            rows = np.zeros(0, dtype=np.int64)
        else:  # the row ranges of the wanted topics, without a loop over topics
            lo, hi = self.lo[pos], self.hi[pos]
            lengths = hi - lo
            rows = np.repeat(lo - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
            if self.order is not None:
                rows = self.order[rows]
        q = self.qrels
        return Qrels(q.qid[rows], q.docno[rows], q.rel[rows], q.lineno[rows], q.name)


def _unanswered(by_topic: _QrelsByTopic, answered: set, runid: str, ctx: EvalContext) -> Iterator[Rankings]:
    """Under ``-c``: one last group, the judged topics the run never mentions, as empty rankings."""
    if not ctx.complete:
        return
    missing = np.array(sorted(set(by_topic.topics.tolist()) - answered), dtype=by_topic.topics.dtype)
    if len(missing):
        empty = Run(missing[:0], np.zeros(0, dtype="S1"), np.zeros(0), np.zeros(0, dtype=np.int64), runid,
                    "<none>")
        yield build_rankings(by_topic.subset(missing), empty, ctx)


def _whole(qrels: Qrels, pieces: Iterable[Run], ctx: EvalContext) -> Iterator[Rankings]:
    """The run's pieces joined as one: for judgments where a topic's gains depend on
    the topics ranked before it, which needs every topic of the run at once."""
    run = None
    for piece in pieces:
        run = piece if run is None else concat_rows(run, piece)
    if run is not None:
        yield build_rankings(qrels, run, ctx)


def whole_topics(pieces: Iterable, *, qid=lambda rows: rows.qid, take=slice_rows, then=concat_rows,
                 finish_on_error: bool = False) -> Iterator:
    """Consecutive pieces of a run regrouped into groups of whole topics, in run order:
    the one loop that reads a run in pieces (the evaluation's, the checks of
    ``validate``, the organiser tools').

    Each piece is joined to the unfinished last topic of the pieces before it;
    all of that but its last topic is given, and the last topic waits for the
    next piece (given once the pieces end). A group's rows keep the file's
    order. ``qid(rows)``, ``take(rows, lo, hi)`` and ``then(a, b)`` read, cut and
    join the rows (a :class:`Run` by default). Whether a topic comes back is the
    caller's to see (a group's topics are whole only if the run lists each
    topic's lines together).

    With ``finish_on_error``, a reading error carrying the rows before its bad
    line (:attr:`InputError.rows_before`) first gives the unfinished topic with
    those rows as a last group, so the caller checks them as reading the file
    whole would (an earlier bad line there is the one to report); then the
    error is raised.
    """
    carry = None
    it = iter(pieces)
    while True:
        try:
            piece = next(it)
        except StopIteration:
            break
        except InputError as e:
            rows = e.rows_before if e.line is not None else None
            if finish_on_error:
                rest = carry if rows is None else rows if carry is None else then(carry, rows)
                if rest is not None and len(rest):
                    yield rest
            raise
        rows = piece if carry is None else then(carry, piece)
        if not len(rows):
            carry = rows
            continue
        last = int(run_starts(qid(rows))[-1])
        carry = take(rows, last, len(rows))
        if last:
            yield take(rows, 0, last)
    if carry is not None and len(carry):
        yield carry


def stream_rankings(qrels: Qrels, pieces: Iterable[Run], ctx: EvalContext) -> Iterator[Rankings]:
    """Rankings of groups of complete topics, in the order the run lists them.

    Under ``-c`` a last group holds the judged topics the run never mentions,
    as empty rankings. Raises :class:`Interleaved` when a topic comes back.
    Judgments with a topic whose levels are all negative give one group of
    the whole run (that topic's gain table comes from the topic before it).
    """
    by_topic = _QrelsByTopic(qrels)
    if by_topic.any_all_negative():
        yield from _whole(qrels, pieces, ctx)
        return
    part_ctx = replace(ctx, complete=False)
    done: set[bytes] = set()
    runid = ""
    yielded = None  # the run id of the last rankings yielded
    # a bad line: the complete topics before it were joined; the rest before it is
    # joined too, as reading whole would (a duplicate docno there is the earlier bad line)
    for part in whole_topics(pieces, finish_on_error=True):
        heads = part.qid[run_starts(part.qid)]  # one per stretch of a topic's lines
        names = set(heads.tolist())
        if len(names) != len(heads) or names & done:
            raise Interleaved()
        done.update(names)
        runid = part.runid
        # joined even without judged topics: the join is what finds a duplicate docno
        # in an unjudged topic, as it does when the run is read whole
        rk = build_rankings(by_topic.subset(np.sort(heads, kind="stable")), part, part_ctx)
        if rk.num_topics:
            yield replace(rk, runid=runid)
            yielded = runid
    # the run id is the last line's (as reading whole): when it changed in the
    # unjudged last topics, their empty rankings still carry it
    if runid != yielded and done:
        yield replace(rk, runid=runid)
    yield from _unanswered(by_topic, done, runid, ctx)


_ROW_BYTES_GUESS = 36  # bytes of run text per line, to size the files from the run's size


def _topic_bucket(qid: np.ndarray, buckets: int) -> np.ndarray:
    """A bucket number per row from its topic id alone (any width of the array)."""
    n = len(qid)
    if buckets == 1:  # one file: no hash to work out
        return np.zeros(n, dtype=np.int64)
    w = qid.dtype.itemsize
    raw = qid.view(np.uint8).reshape(n, w) if n else np.zeros((0, w), np.uint8)
    h = np.full(n, 2166136261, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(w):  # trailing NUL padding leaves the hash alone
            c = raw[:, j].astype(np.uint64)
            h = np.where(c != 0, (h ^ c) * np.uint64(1099511628211), h)
    return (h % np.uint64(buckets)).astype(np.int64)


def _write_rows(f, part: Run) -> None:
    header = np.array([len(part), part.qid.dtype.itemsize, part.docno.dtype.itemsize, part.rank is not None],
                      dtype=np.int64)
    cols = [header, part.qid, part.docno, part.score.astype(np.float64), part.lineno.astype(np.int64)]
    if part.rank is not None:
        cols.append(part.rank.astype(np.float64))
    for a in cols:
        f.write(np.ascontiguousarray(a).tobytes())


def _spill(pieces: Iterable[Run], tmp: str, dest_of, on_piece=None):
    """Every piece's rows appended, in piece order, to the temporary file
    ``tmp/B.rows`` of their destination B (``dest_of(piece)``: one int a row),
    ``on_piece`` called with each piece read. Returns the destinations
    written, the run id and name of the last piece, and the reading error: a
    bad line ends the reading, the rows before it are still written, and the
    caller raises the error when its turn comes (after what they give)."""
    import os

    from .scratch import check_stopped

    files: dict[int, BinaryIO] = {}

    def put(piece):
        dest = np.asarray(dest_of(piece))
        order = np.argsort(dest, kind="stable")
        bounds = np.searchsorted(dest[order], np.arange(int(dest.max(initial=0)) + 2))
        for b in np.flatnonzero(np.diff(bounds)).tolist():
            rows = order[bounds[b]:bounds[b + 1]]
            check_stopped()  # the process is stopping: its folder is gone or going
            if b not in files:
                files[b] = open(os.path.join(tmp, f"{b}.rows"), "wb")  # noqa: SIM115 (kept in files, closed below)
            _write_rows(files[b], Run(piece.qid[rows], piece.docno[rows], piece.score[rows],
                                      piece.lineno[rows], piece.runid, piece.name,
                                      rank=None if piece.rank is None else piece.rank[rows]))

    runid, name = "", "<run>"
    read_error = None
    try:
        try:
            for piece in pieces:
                runid, name = piece.runid, piece.name
                if on_piece is not None:
                    on_piece(piece)
                put(piece)
        except InputError as e:
            if e.line is None or e.rows_before is None:
                raise
            read_error = e
            # the bad line may sit in the first piece: the rows before it name the file
            runid, name = e.rows_before.runid, e.rows_before.name
            if len(e.rows_before):
                put(e.rows_before)
    finally:
        for f in files.values():
            f.close()
    return set(files), runid, name, read_error


def _take_rows(tmp: str, b: int, runid: str, name: str) -> Run:
    """Destination ``b``'s rows, read back as one :class:`Run`; its file is removed."""
    import os

    chunks = list(_row_chunks(os.path.join(tmp, f"{b}.rows"), runid, name))

    def join(parts):
        if len({p.dtype for p in parts}) > 1:
            width = max(p.dtype.itemsize for p in parts)
            parts = [p.astype(f"S{width}") for p in parts]
        return np.concatenate(parts)

    # the rank column comes with every piece or none (see spill_by_topic)
    rank = join([c.rank for c in chunks]) if chunks[0].rank is not None else None
    return Run(join([c.qid for c in chunks]), join([c.docno for c in chunks]), join([c.score for c in chunks]),
               join([c.lineno for c in chunks]), runid, name, rank=rank)


def spill_rankings(qrels: Qrels, pieces: Iterable[Run], ctx: EvalContext, *,
                   size_hint: int = 0, tmpdir: str | None = None) -> Iterator[Rankings]:
    """Rankings of a run whose topics may come in any line order, in bounded memory.

    ``pieces`` are the run's consecutive pieces (see ``iter_run_chunks``);
    ``size_hint`` the run's size in bytes, to choose how many temporary files
    to spread its rows over. Gives what :func:`stream_rankings` gives for a
    grouped run (groups of complete topics; under ``-c`` a last group of the
    judged topics the run never mentions). When several topics hold a
    duplicate docno, the error reported is the one reading the run whole
    reports: the judgments' first, then the earliest line.
    """
    from .scratch import scratch_folder

    buckets = POLICY.spill_files(size_hint)
    by_topic = _QrelsByTopic(qrels)
    if by_topic.any_all_negative():  # as stream_rankings
        yield from _whole(qrels, pieces, ctx)
        return
    part_ctx = replace(ctx, complete=False)
    seen: set[bytes] = set()
    with scratch_folder(prefix="trec_eval_py-", dir=tmpdir) as tmp:
        def topics_seen(piece):
            seen.update(piece.qid[run_starts(piece.qid)].tolist())

        files, runid, name, read_error = _spill(pieces, tmp, lambda piece: _topic_bucket(piece.qid, buckets),
                                                topics_seen)
        errors: list[InputError] = []
        for b in sorted(files):
            run = _take_rows(tmp, b, runid, name)
            topics = sort_distinct(run.qid[run_starts(run.qid)])
            try:  # joined even without judged topics, to find duplicates as a whole read does
                rk = build_rankings(by_topic.subset(topics), run, part_ctx)
            except InputError as e:  # keep going: another file may hold the error to report
                errors.append(e)
                continue
            if rk.num_topics and not errors and read_error is None:
                yield replace(rk, runid=runid)
        if errors:
            raise first_error(errors, qrels.name)
        if read_error is not None:
            raise read_error
    yield from _unanswered(by_topic, seen, runid, ctx)


def negative_only_topic(qrels) -> bool:
    """Whether some topic of ``qrels`` (parsed judgments with levels) is judged
    only with negative levels: its gain tables come from the topic evaluated
    before it (see :func:`.qrels.level_sources`), so its range of topics
    cannot be evaluated apart from the range before it."""
    if not isinstance(getattr(qrels, "rel", None), np.ndarray) or not isinstance(getattr(qrels, "qid", None),
                                                                                  np.ndarray):
        return False
    return _QrelsByTopic(qrels).any_all_negative()


def first_error(errors: list, judgments_name: str):
    """Of the errors several ranges of topics met, the one a whole read reports:
    the judgments' first, then the earliest line."""
    return min(errors, key=lambda e: (e.path != judgments_name, e.line if e.line is not None else 0))


def spill_ranges(pieces: Iterable[Run], cuts: np.ndarray, *, tmpdir: str | None = None) -> Iterator[Run]:
    """The rows of a run read in ``pieces``, regrouped by range of topics
    (:mod:`.ranges`: ``len(cuts) + 1`` ranges in byte order of topic ids), one
    :class:`Run` a range, in range order (empty ranges as empty runs), in
    bounded memory: each piece's rows are appended to their range's temporary
    file, and each file is read back when its turn comes. Every range's run
    carries the run id and name of the whole run (its last line's). A bad line
    ends the reading: the rows before it are still given, range by range, and
    the reading error is raised after the last range."""
    from .ranges import range_of
    from .scratch import scratch_folder

    n = len(cuts) + 1
    with scratch_folder(prefix="trec_eval_py-", dir=tmpdir) as tmp:
        files, runid, name, read_error = _spill(pieces, tmp, lambda piece: range_of(piece.qid, cuts))
        for b in range(n):
            if b in files:
                yield _take_rows(tmp, b, runid, name)
            else:
                yield Run(np.zeros(0, "S1"), np.zeros(0, "S1"), np.zeros(0), np.zeros(0, np.int64), runid, name)
    if read_error is not None:
        raise read_error


def spill_by_topic(pieces: Iterable[Run], buckets: int, *,
                   tmpdir: str | None = None) -> Generator[Run, None, None]:
    """The rows of a run read in ``pieces``, regrouped into at most ``buckets``
    groups of whole topics (chosen by a hash of the topic id, so any line order
    spreads evenly), in bounded memory: each piece's rows are appended to their
    group's temporary file (in a scratch folder: removed on leaving and when
    the process is stopped), and each file is read back when its turn comes.
    Only groups holding rows are given, one :class:`Run` each; within one, the
    rows keep the order they were read in (file order), and the rank column
    when the pieces carry one (every piece, or none). A bad line ends the
    reading as for :func:`spill_ranges`."""
    from .scratch import scratch_folder

    buckets = max(1, int(buckets))
    with scratch_folder(prefix="trec_eval_py-", dir=tmpdir) as tmp:
        files, runid, name, read_error = _spill(pieces, tmp, lambda piece: _topic_bucket(piece.qid, buckets))
        for b in sorted(files):
            yield _take_rows(tmp, b, runid, name)
    if read_error is not None:
        raise read_error


def _row_chunks(path: str, runid: str, name: str) -> Iterator[Run]:
    """The rows :func:`_write_rows` wrote to ``path``, one write at a time, in
    order (one in memory at a time); the file is removed once it is open."""
    import os

    from .scratch import check_stopped

    with open(path, "rb") as f:
        os.unlink(path)
        while head := f.read(32):
            check_stopped()
            n, wq, wd, rank = np.frombuffer(head, dtype=np.int64).tolist()
            cols = [np.frombuffer(f.read(n * size), dtype=dt, count=n) for dt, size in
                    [(np.dtype(f"S{wq}"), wq), (np.dtype(f"S{wd}"), wd), (np.dtype(np.float64), 8),
                     (np.dtype(np.int64), 8)] + ([(np.dtype(np.float64), 8)] if rank else [])]
            yield Run(cols[0], cols[1], cols[2], cols[3], runid, name, rank=cols[4] if rank else None)


class _TopicCounts:
    """How many rows each topic id has, over the pieces of a run (sorted ids)."""

    def __init__(self) -> None:
        self.ids = np.zeros(0, "S1")
        self.counts = np.zeros(0, np.int64)
        self._pending: list[tuple[np.ndarray, np.ndarray]] = []
        self._pending_rows = 0

    def add(self, qid: np.ndarray) -> None:
        ids, counts = np.unique(qid, return_counts=True)
        self._pending.append((ids, counts))
        self._pending_rows += len(ids)
        if self._pending_rows > (1 << 20):  # keep what is held about the topics' number
            self._fold()

    def _fold(self) -> None:
        parts = [(self.ids, self.counts)] + self._pending
        self._pending, self._pending_rows = [], 0
        width = max(p[0].dtype.itemsize for p in parts)
        ids, inverse = np.unique(np.concatenate([p[0].astype(f"S{width}") for p in parts]), return_inverse=True)
        self.ids = ids
        self.counts = np.bincount(inverse, weights=np.concatenate([p[1] for p in parts]),
                                  minlength=len(ids)).astype(np.int64)

    def cuts(self, rows: int) -> np.ndarray:
        """Cuts (:mod:`.ranges`) into ranges of whole topics of about ``rows`` rows each."""
        self._fold()
        if not len(self.ids):
            return np.zeros(0, "S1")
        cum = np.cumsum(self.counts)
        # a topic that takes the total past a multiple of ``rows`` ends its range
        ends = np.flatnonzero(np.diff(cum // max(1, rows), prepend=0) > 0)
        ends = ends[ends + 1 < len(self.ids)]
        return self.ids[ends + 1]


def in_topic_order(pieces: Iterable[Run], rows: int, *, tmpdir: str | None = None) -> Iterator[Run]:
    """The rows of a run read in ``pieces``, whose topics may come back after
    others, regrouped into ranges of whole topics in ascending byte order of
    topic ids, in bounded memory (what a reader needing topics in order, such
    as the organiser tools merging runs topic by topic, does with such a run).

    The rows are written once to a temporary file as they come, each topic's
    rows counted; the topics are then cut into ranges of about ``rows`` rows
    (a topic is never split), and the file is read back a write at a time
    into one temporary file per range (:func:`spill_ranges`). Within a range,
    rows keep file order; empty ranges are not given. A bad line ends the
    reading as for :func:`spill_ranges`: the rows before it are given, then
    the error is raised."""
    import os

    from .scratch import scratch_folder

    counts = _TopicCounts()

    def counted(piece: Run) -> np.ndarray:
        counts.add(piece.qid)
        return np.zeros(len(piece), dtype=np.int64)

    with scratch_folder(prefix="trec_eval_py-", dir=tmpdir) as tmp:
        files, runid, name, read_error = _spill(pieces, tmp, counted)
        if files:
            chunks = _row_chunks(os.path.join(tmp, "0.rows"), runid, name)
            for part in spill_ranges(chunks, counts.cuts(rows), tmpdir=tmp):
                if len(part):
                    yield part
    if read_error is not None:
        raise read_error


def topic_subsets(qrels: Qrels):
    """A function giving the judgments of some topics (a sorted array of ids) fast,
    without a pass over every judgment: for checking a run group of topics by group."""
    return _QrelsByTopic(qrels).subset
