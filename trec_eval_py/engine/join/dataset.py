"""A run stored as a sharded Parquet dataset, range-partitioned by topic.

``trec_eval_py shard RUN -o DIR`` reads a TREC run with the project's own
reader (:func:`~trec_eval_py.engine.parse.run.iter_run_chunks`: every check a plain evaluation
makes, line numbers of the whole file) and writes ``DIR/part-NNNNN.parquet``,
one file per range of topics (in byte order of topic ids: see
:mod:`.ranges`), and ``DIR/manifest.json``: the cut
points, the run id (the run's last line's, as trec_eval prints it), the
source file's name, size and SHA-256, and each shard's rows and first and
last topics. Within a shard the rows are grouped by topic, topics in byte
order, each topic's lines in file order. Columns: ``qid`` and ``docno``
(binary), ``score`` (float64) and ``line`` (the line number in the source
file, for messages).

Such a dataset is evaluated like the run it came from (``trec_eval_py QRELS
DIR``): each shard is one range of the fold, read row group by row group
into the streaming join, so a cluster can evaluate the shards where they lie.
A value that is not what ``shard`` writes (a missing column, a NaN score,
an empty id) is reported with the source file and its line.

pyarrow is needed (``pip install trec_eval_py[dask]``); it is imported only
when a dataset is read or written.
"""
from __future__ import annotations

import hashlib
import json
import os

import numpy as np

from ..._record import record
from ...errors import InputError, UsageError
from ..parse.run import Run, iter_run_chunks

MANIFEST = "manifest.json"
FORMAT = "trec_eval_py run shards"
#: rows per Parquet row group (what the join reads at a time)
ROW_GROUP = 1 << 20
#: rows per shard when ``shard`` is not told how many shards to make
SHARD_ROWS = 4 << 20


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise UsageError("sharded datasets need pyarrow: pip install 'trec_eval_py[dask]'") from None
    return pyarrow, pyarrow.parquet


def is_dataset(source) -> bool:
    """Whether ``source`` is a folder holding a sharded run (its manifest)."""
    if not isinstance(source, (str, os.PathLike)):
        return False
    return os.path.isfile(os.path.join(os.fspath(source), MANIFEST))


def dataset_source(path) -> str | None:
    """When folder ``path`` holds a sharded run (a manifest of this format), the
    name of the run file it was made from (``""`` if the manifest lacks it);
    otherwise None. For commands that take folders of run files, to say what
    such a folder is instead of reading its Parquet files as runs."""
    if not is_dataset(path):
        return None
    try:
        with open(os.path.join(os.fspath(path), MANIFEST), "rb") as f:
            m = json.loads(f.read(1 << 24))
    except (OSError, ValueError):
        return None
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        return None
    source = m.get("source")
    return str(source.get("name", "")) if isinstance(source, dict) else ""


def _text(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def _bytes(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


@record
class ShardRange:
    """One shard of a dataset: a range of topics, read where it is evaluated."""

    path: str
    source: str  # the source run's name, for messages
    runid: str
    #: the range of topics the manifest gives this shard: ``lo <= id < hi``
    #: (None: no bound on that side)
    lo: bytes | None = None
    hi: bytes | None = None
    #: the rows the manifest records for this shard (None: not checked)
    rows: int | None = None
    #: the shard's name in messages, as the user named the dataset ("": ``path``);
    #: ``path`` is absolute, to be read where a worker runs, whatever its folder
    shown: str = ""

    @property
    def name(self) -> str:
        return self.shown or self.path

    def read_pieces(self):
        """The shard's rows as :class:`Run` pieces, a row group each (topics grouped, in order).

        A row outside the shard's range (a topic split between two shards, rows
        another tool put in the wrong shard) would be evaluated without its
        topic's judgments, which live in its own range: the numbers would be
        wrong. So every row group is checked: first its statistics, where the
        file has them (a group wholly outside the range fails before it is
        decoded), then the topic ids read (statistics may be missing,
        truncated by their writer, or wrong). The shard's row count must be the
        manifest's. Any mismatch is an :class:`InputError` naming the shard."""
        pa, pq = _pyarrow()
        try:
            f = pq.ParquetFile(self.path)
            groups = range(f.num_row_groups)
            rows = f.metadata.num_rows
            qid_column = f.schema_arrow.get_field_index("qid")
        except (OSError, pa.ArrowException) as e:
            raise InputError(self.name, f"cannot read this shard ({e})") from None
        if self.rows is not None and rows != self.rows:
            raise InputError(self.name, f"this shard holds {rows} rows where the manifest says {self.rows}; "
                                        "it was changed after it was written: shard the run again")
        any_rows = False
        for g in groups:
            self._check_statistics(f, g, qid_column)
            try:
                t = f.read_row_group(g, columns=["qid", "docno", "score", "line"])
            except (OSError, KeyError, pa.ArrowException) as e:
                raise InputError(self.name, f"cannot read this shard ({e})") from None
            piece = self._run(t)
            self._check_ids(piece)
            any_rows = any_rows or len(piece) > 0
            yield piece
        if not any_rows:
            yield self.empty()

    def _outside(self, what: str) -> InputError:
        """The error of rows outside the range: ``what`` says which."""
        lo = None if self.lo is None else _text(self.lo)
        hi = None if self.hi is None else _text(self.hi)
        span = ("any topic" if lo is None and hi is None else f"topics from {lo!r}" if hi is None else
                f"topics before {hi!r}" if lo is None else f"topics from {lo!r} up to, not including, {hi!r}")
        return InputError(self.name, f"{what}, outside this shard's range in the "
                                     f"manifest ({span}): its rows would be evaluated without their judgments; "
                                     "shard the run again")

    def _check_statistics(self, f, g: int, column: int) -> None:
        """A row group whose statistics put it wholly outside the range. (A writer
        may truncate them: a minimum is then a prefix, no more than the true one,
        and a maximum no less than the true one; either way this never fails a
        group that is inside. A group only partly outside is left to the ids.)"""
        if column < 0 or (self.lo is None and self.hi is None):
            return
        try:
            stats = f.metadata.row_group(g).column(column).statistics
            if stats is None or not stats.has_min_max:
                return
            lo, hi = stats.min, stats.max
        except Exception:  # statistics are a shortcut: the ids read are checked anyway
            return
        if isinstance(lo, str):
            lo, hi = _bytes(lo), _bytes(hi)
        if not isinstance(lo, bytes) or not isinstance(hi, bytes):
            return
        if (self.lo is not None and hi < self.lo) or (self.hi is not None and lo >= self.hi):
            raise self._outside(f"row group {g} holds topics {_text(lo)!r} to {_text(hi)!r} (its statistics)")

    def _check_ids(self, piece: Run) -> None:
        """Every topic id read lies in the range (one vector comparison a bound)."""
        if not len(piece):
            return
        bad = np.zeros(len(piece), bool)
        if self.lo is not None:
            bad |= piece.qid < self.lo
        if self.hi is not None:
            bad |= piece.qid >= self.hi
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise self._outside(f"holds topic {_text(bytes(piece.qid[i]))!r} (line {int(piece.lineno[i])} "
                                f"of {self.source})")

    def empty(self) -> Run:
        return Run(np.zeros(0, "S1"), np.zeros(0, "S1"), np.zeros(0), np.zeros(0, np.int64), self.runid, self.source)

    def read(self) -> Run:
        """The whole shard as one :class:`Run`."""
        pieces = [p for p in self.read_pieces() if len(p)]
        if not pieces:
            return self.empty()
        width = {k: max(getattr(p, k).dtype.itemsize for p in pieces) for k in ("qid", "docno")}
        return Run(np.concatenate([p.qid.astype(f"S{width['qid']}") for p in pieces]),
                   np.concatenate([p.docno.astype(f"S{width['docno']}") for p in pieces]),
                   np.concatenate([p.score for p in pieces]), np.concatenate([p.lineno for p in pieces]),
                   self.runid, self.source)

    def _run(self, t) -> Run:
        line = t.column("line").to_numpy().astype(np.int64, copy=False)
        pa, _ = _pyarrow()
        qid = _fixed(pa, t.column("qid"), line, self.source, "topic id")
        docno = _fixed(pa, t.column("docno"), line, self.source, "docno")
        score = t.column("score").to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
        bad = np.flatnonzero(np.isnan(score))
        if len(bad):
            raise InputError(self.source, "score is not a number (NaN)", int(line[bad[0]]))
        return Run(qid, docno, score, line, self.runid, self.source)


def _fixed(pa, column, line: np.ndarray, source: str, what: str) -> np.ndarray:
    """A binary column as a numpy bytes array (what the reader makes), checked."""
    arr = column.combine_chunks() if hasattr(column, "combine_chunks") else column
    n = len(arr)
    if arr.null_count:
        i = int(np.flatnonzero(arr.is_null().to_numpy(zero_copy_only=False))[0])
        raise InputError(source, f"{what} is missing", int(line[i]))
    if n == 0:
        return np.zeros(0, "S1")
    if not (pa.types.is_binary(arr.type) or pa.types.is_large_binary(arr.type)):
        raise InputError(source, f"{what} column is {arr.type}, not binary", int(line[0]))
    offsets = np.frombuffer(arr.buffers()[1], dtype=np.int64 if pa.types.is_large_binary(arr.type) else np.int32)
    offsets = offsets[arr.offset:arr.offset + n + 1]
    data = np.frombuffer(arr.buffers()[2], dtype=np.uint8) if arr.buffers()[2] is not None else np.zeros(0, np.uint8)
    lengths = np.diff(offsets)
    if (lengths == 0).any():
        raise InputError(source, f"{what} is empty", int(line[int(np.flatnonzero(lengths == 0)[0])]))
    width = int(lengths.max())
    out = np.zeros((n, width), dtype=np.uint8)
    rows = np.repeat(np.arange(n), lengths)
    cols = np.arange(int(lengths.sum())) - np.repeat(offsets[:-1] - offsets[0], lengths)
    out[rows, cols] = data[offsets[0]:offsets[-1]]
    return out.view(f"S{width}").reshape(n)


@record
class Dataset:
    """A sharded run: its manifest, read."""

    path: str
    runid: str
    source: str
    cuts: np.ndarray
    shards: tuple

    def ranges(self):
        """Each shard as a :class:`ShardRange`, in range order."""
        cuts = [bytes(c) for c in self.cuts.tolist()]
        for i, s in enumerate(self.shards):
            rows = s.get("rows")
            shown = os.path.join(self.path, s["file"])
            yield ShardRange(os.path.abspath(shown), self.source, self.runid,
                             cuts[i - 1] if i else None, cuts[i] if i < len(cuts) else None,
                             rows if isinstance(rows, int) and not isinstance(rows, bool) else None, shown)


def open_dataset(path) -> Dataset:
    """The dataset in folder ``path`` (its manifest checked: ranges disjoint and increasing)."""
    path = os.fspath(path)
    mpath = os.path.join(path, MANIFEST)
    try:
        with open(mpath, encoding="utf-8") as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError(mpath, f"cannot read the manifest ({e})") from None
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        raise InputError(mpath, f"not a manifest of {FORMAT!r}")
    try:
        cuts = [_bytes(c) for c in m["cuts"]]
        shards = tuple(m["shards"])
        runid, source = str(m["runid"]), str(m["source"]["name"])
    except (KeyError, TypeError) as e:
        raise InputError(mpath, f"the manifest lacks {e}") from None
    if len(shards) != len(cuts) + 1:
        raise InputError(mpath, f"{len(cuts)} cuts need {len(cuts) + 1} shards, not {len(shards)}")
    if any(b <= a for a, b in zip(cuts, cuts[1:])):
        raise InputError(mpath, "the cuts are not strictly increasing in byte order")
    for i, s in enumerate(shards):  # each shard's topics lie inside its range
        lo = cuts[i - 1] if i else None
        hi = cuts[i] if i < len(cuts) else None
        first, last = s.get("first"), s.get("last")
        if first is None:
            continue
        if (lo is not None and _bytes(first) < lo) or (hi is not None and _bytes(last) >= hi):
            raise InputError(mpath, f"shard {s.get('file')} holds topics outside its range")
    arr = np.array(cuts, dtype="S") if cuts else np.zeros(0, "S1")
    return Dataset(path, runid, source, arr, shards)


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def _binary(pa, col: np.ndarray):
    """A numpy bytes array as an Arrow binary array (trailing NUL padding dropped)."""
    n = len(col)
    w = max(col.dtype.itemsize, 1)
    raw = np.ascontiguousarray(col).view(np.uint8).reshape(n, col.dtype.itemsize) if n else np.zeros((0, w), np.uint8)
    nonzero = raw != 0
    # ids never hold NUL (the reader refuses it): a value's length is up to its last non-NUL byte
    lengths = np.where(nonzero.any(axis=1), raw.shape[1] - np.argmax(nonzero[:, ::-1], axis=1), 0)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    data = raw[np.arange(raw.shape[1]) < lengths[:, None]]
    return pa.LargeBinaryArray.from_buffers(pa.large_binary(), n, [None, pa.py_buffer(offsets.tobytes()),
                                                                   pa.py_buffer(data.tobytes())])


def write_dataset(run, out: str, *, shards: int | None = None, chunk_bytes: int | None = None) -> dict:
    """Shard the TREC run file ``run`` into folder ``out`` (see the module doc);
    ``shards`` ranges of about as many lines each (default: one per
    :data:`SHARD_ROWS` lines). Returns the manifest. Two passes over the run,
    in bounded memory (the second regroups rows through temporary files)."""
    from .ranges import check_cuts
    from .stream import spill_ranges

    pa, pq = _pyarrow()
    run = os.fspath(run)
    if not os.path.isfile(run):
        raise InputError(run, "a run to shard must be a file")
    # pass 1: the lines of each topic, to cut ranges of about as many lines
    ids, counts = [], []
    for piece in iter_run_chunks(run, chunk_bytes=chunk_bytes):
        u, c = np.unique(piece.qid, return_counts=True)
        ids.append(u)
        counts.append(c)
    width = max(u.dtype.itemsize for u in ids)
    allids = np.concatenate([u.astype(f"S{width}") for u in ids])
    allc = np.concatenate(counts)
    topics, inv = np.unique(allids, return_inverse=True)
    per_topic = np.bincount(inv.reshape(-1), weights=allc, minlength=len(topics)).astype(np.int64)
    del allids, allc, ids, counts
    total = int(per_topic.sum())
    n = shards if shards is not None else max(1, -(-total // SHARD_ROWS))
    n = max(1, min(int(n), len(topics)))
    # a cut at the first topic whose lines start past each n-th of the run
    before = np.concatenate([[0], np.cumsum(per_topic)[:-1]])
    idx = np.unique(np.searchsorted(before, (np.arange(1, n) * total) / n, side="left"))
    idx = idx[(idx > 0) & (idx < len(topics))]
    cuts = check_cuts(list(topics[idx]))
    os.makedirs(out, exist_ok=True)
    # pass 2: rows regrouped by range, each range's rows grouped by topic in byte order
    manifest_shards = []
    runid = ""
    schema = pa.schema([("qid", pa.large_binary()), ("docno", pa.large_binary()), ("score", pa.float64()),
                        ("line", pa.int64())])
    for i, r in enumerate(spill_ranges(iter_run_chunks(run, chunk_bytes=chunk_bytes), cuts)):
        runid = r.runid
        order = np.argsort(r.qid, kind="stable")
        name = f"part-{i:05d}.parquet"
        table = pa.table([_binary(pa, r.qid[order]), _binary(pa, r.docno[order]), pa.array(r.score[order]),
                          pa.array(r.lineno[order].astype(np.int64))], schema=schema)
        pq.write_table(table, os.path.join(out, name), row_group_size=ROW_GROUP)
        entry = {"file": name, "rows": len(r)}
        if len(r):
            entry.update(topics=int(len(np.unique(r.qid))), first=_text(r.qid[order[0]]), last=_text(r.qid[order[-1]]))
        manifest_shards.append(entry)
    manifest = {
        "format": FORMAT, "version": 1, "runid": runid,
        "source": {"name": run, "size": os.path.getsize(run), "sha256": _sha256(run)},
        "lines": total, "topics": int(len(topics)),
        "cuts": [_text(c) for c in cuts.tolist()], "shards": manifest_shards,
    }
    with open(os.path.join(out, MANIFEST), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    return manifest
