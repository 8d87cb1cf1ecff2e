"""Tables read by column name: pandas and polars DataFrames, pyarrow Tables and
RecordBatches, and Parquet files (whole, or a run in record batches); Arrow
strings are copied from their buffers, not made into Python objects."""
from __future__ import annotations

from typing import Literal, overload

import numpy as np

from .... import _native
from ....errors import InputError, InputTypeError, shorten
from ._columns import (
    DOCUMENT,
    LEVEL,
    RANK,
    RUNID,
    SCORE,
    TOPIC,
    _arrow,
    _from_matrix,
    _id_text,
    _ids_numpy,
    _levels,
    _numbers_numpy,
    _scores,
    _show,
    is_arrow,
    is_parquet,
    is_polars,
)


def _missing_extra(what: str) -> InputError:
    return InputTypeError(what, "reading Parquet needs pyarrow: pip install 'trec_eval_py[parquet]'")


# ---------------------------------------------------------------- Arrow

def _arrow_nulls(arr, what: str, name: str) -> None:
    if arr.null_count:
        mask = np.asarray(arr.is_null().to_numpy(zero_copy_only=False))
        i = int(np.flatnonzero(mask)[0])
        raise InputError(name, f"{what} of row {i + 1} is missing (null)")


def _arrow_ids(arr, what: str, name: str) -> np.ndarray:
    pa = _arrow()
    import pyarrow.compute as pc

    t = arr.type
    if pa.types.is_dictionary(t):
        _arrow_nulls(arr, what, name)
        values = _arrow_ids(arr.dictionary, what, name)
        return values[np.asarray(arr.indices.to_numpy(zero_copy_only=False), dtype=np.int64)]
    _arrow_nulls(arr, what, name)
    if pa.types.is_string_view(t) or pa.types.is_binary_view(t):
        arr = pc.cast(arr, pa.large_binary())
        t = arr.type
    if pa.types.is_string(t) or pa.types.is_binary(t) or pa.types.is_large_string(t) or pa.types.is_large_binary(t):
        bufs = arr.buffers()
        wide = pa.types.is_large_string(t) or pa.types.is_large_binary(t)
        n = len(arr)
        offsets = np.frombuffer(bufs[1], dtype=np.int64 if wide else np.int32)[arr.offset:arr.offset + n + 1]
        data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
        return _pack_offsets(data, offsets.astype(np.int64), what, name)
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        return _ids_numpy(arr.to_numpy(zero_copy_only=False), what, name)
    raise InputTypeError(name, f"{what} column must hold strings or integers, not {t}")


def _pack_offsets(data: np.ndarray, offsets: np.ndarray, what: str, name: str) -> np.ndarray:
    """Strings laid out as Arrow lays them (``data[offsets[i]:offsets[i+1]]``) as a NUL-padded array."""
    n = len(offsets) - 1
    if n <= 0:
        return np.zeros(0, "S1")
    pyin = _native.extension("pyin")
    if pyin is not None:
        got = pyin.pack_offsets(data, offsets)
        if got is not None:
            return _from_matrix(*got)
    body = data[offsets[0]:offsets[-1]]
    nul = np.flatnonzero(body == 0)
    if len(nul):
        i = int(np.searchsorted(offsets, nul[0] + offsets[0], side="right")) - 1
        text = bytes(data[offsets[i]:offsets[i + 1]])
        raise InputError(name, f"{what} of row {i + 1} has a NUL character ({_show(text)})")
    lengths = np.diff(offsets)
    width = max(1, int(lengths.max()))
    out = np.zeros((n, width), dtype=np.uint8)
    if np.all(lengths == width):  # every string as wide: one reshape
        out[:] = body.reshape(n, width)
    else:
        starts = offsets[:-1]
        for k in range(width):  # byte k of every string that long
            rows = np.flatnonzero(lengths > k)
            out[rows, k] = data[starts[rows] + k]
    return out.view(f"S{width}").reshape(n)


def _arrow_numbers(arr, what: str, name: str, level: bool) -> np.ndarray:
    pa = _arrow()
    t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.dictionary_decode()
        t = arr.type
    if not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)):
        want = "integers" if level else "numbers"
        raise InputTypeError(name, f"{what} column must hold {want}, not {t}")
    _arrow_nulls(arr, what, name)
    if pa.types.is_decimal(t):
        arr = arr.cast(pa.float64())
    return _numbers_numpy(arr.to_numpy(zero_copy_only=False), what, name, level)


# ---------------------------------------------------------------- tables

class _Table:
    """Named columns of a DataFrame or Arrow table, each read on demand."""

    def __init__(self, obj, name: str):
        self.name = name
        self.obj = obj
        self.arrow = None
        if is_polars(obj):
            if _arrow() is not None:
                self.arrow = obj.to_arrow()
        elif is_arrow(obj):
            self.arrow = obj
        self.names = [str(c) for c in (self.arrow.column_names if self.arrow is not None else obj.columns)]

    def __len__(self) -> int:
        return self.arrow.num_rows if self.arrow is not None else len(self.obj)

    @overload
    def pick(self, names: tuple, what: str, required: Literal[True] = True) -> str: ...
    @overload
    def pick(self, names: tuple, what: str, required: bool) -> str | None: ...

    def pick(self, names: tuple, what: str, required: bool = True) -> str | None:
        return pick_column(self.names, names, what, self.name, required)

    def column(self, col: str):
        """The column as a list of pyarrow Arrays (chunks; when pyarrow holds it or can
        hold it without a copy), a numpy array, or a pandas categorical as
        ``("category", categories, codes)``."""
        if self.arrow is not None:
            c = self.arrow.column(col)
            return list(c.chunks) if hasattr(c, "chunks") else [c]
        s = self.obj[col]
        if is_polars(self.obj):
            return s.to_numpy()
        if str(s.dtype) == "category":
            codes = np.asarray(s.cat.codes)
            if (codes < 0).any():
                i = int(np.flatnonzero(codes < 0)[0])
                raise InputError(self.name, f"{col} of row {i + 1} is missing")
            return ("category", np.asarray(s.cat.categories), codes)
        pa = _arrow()
        arr = s.array
        if pa is not None and hasattr(arr, "__arrow_array__") and s.dtype.kind not in "iufb":
            got = pa.array(arr)
            return list(got.chunks) if hasattr(got, "chunks") else [got]
        if s.dtype.kind in "iufb" or s.dtype == object:
            return s.to_numpy()
        return s.to_numpy(dtype=object)

    def ids(self, col: str, what: str) -> np.ndarray:
        c = self.column(col)
        if isinstance(c, tuple):
            return _ids_numpy(c[1], what, self.name)[c[2]]
        if isinstance(c, np.ndarray):
            return _ids_numpy(c, what, self.name)
        return _chunks(c, lambda a: _arrow_ids(a, what, self.name), "S1")

    def numbers(self, col: str, what: str, level: bool) -> np.ndarray:
        c = self.column(col)
        if isinstance(c, tuple):
            c = c[1][c[2]]
        if isinstance(c, np.ndarray):
            return _numbers_numpy(c, what, self.name, level)
        return _chunks(c, lambda a: _arrow_numbers(a, what, self.name, level), np.float64)

    def runid(self) -> str:
        col = self.pick(RUNID, "run id", required=False)
        if col is None or len(self) == 0:
            return ""
        c = self.column(col)
        if isinstance(c, list):  # Arrow: compared where it lies
            import pyarrow.compute as pc

            first = next(a for a in c if len(a))[0]
            for a in c:
                _arrow_nulls(a, "run id", self.name)
                if hasattr(a, "dictionary") and len(a.dictionary) == 1 and a.dictionary[0] == first.value:
                    continue  # (a Parquet run id column read as a dictionary: one value)
                same = pc.equal(a, first)
                if not pc.all(same).as_py():
                    other = a[int(np.flatnonzero(~np.asarray(same.to_numpy(zero_copy_only=False)))[0])]
                    _more_runs(self.name, first.as_py(), other.as_py())
            v = first.as_py()
            return v if isinstance(v, str) else _id_text(v) or str(v)
        if isinstance(c, tuple):
            ids = _ids_numpy(c[1], "run id", self.name)[c[2]]
        else:
            ids = _ids_numpy(c, "run id", self.name)
        first = ids[0]
        if not np.all(ids == first):
            _more_runs(self.name, first, ids[int(np.flatnonzero(ids != first)[0])])
        return bytes(first).decode("utf-8", "surrogateescape")


def _more_runs(name: str, a, b):
    shown = ", ".join(_show(x.decode("utf-8", "surrogateescape") if isinstance(x, bytes) else x) for x in (a, b))
    raise InputError(name, f"more than one run in one table ({shown}...); evaluate them one at a time (or with batch)")


def _rows_after(e: InputError, before: int) -> InputError:
    """``e`` with its "row N" counted ``before`` rows further (a chunk's rows from the table's first)."""
    if before and " of row " in e.reason:
        head, _, tail = e.reason.partition(" of row ")
        num, _, rest = tail.partition(" ")
        if num.isdigit():
            e.reason = f"{head} of row {int(num) + before} {rest}"
            e.args = (e._message(),)
    return e


def _chunks(chunks: list, convert, empty_dtype) -> np.ndarray:
    """Arrow chunks converted one by one (no copy to combine them first), rows counted across them."""
    if not chunks:
        return np.zeros(0, dtype=empty_dtype)
    out, before = [], 0
    for a in chunks:
        try:
            out.append(convert(a))
        except InputError as e:  # rows are counted from the table's first
            raise _rows_after(e, before)  # noqa: B904 (e itself, its row counted from the table's first)
        before += len(a)
    return out[0] if len(out) == 1 else np.concatenate(out)


def pick_column(have: list, names: tuple, what: str, name: str, required: bool = True) -> str | None:
    """The first of ``names`` among the columns ``have``; an error naming both when none is."""
    for n in names:
        if n in have:
            return n
    if required:
        shown = shorten(", ".join(map(str, have)), 200)
        raise InputError(name, f"no {what} column: expected one of {', '.join(names)} (columns: {shown})")
    return None


def _parquet_file(source, name: str, groups: tuple, repeated: tuple):
    """``(ParquetFile, columns to read)``: the first present of each tuple of names in
    ``groups`` (all columns without them); columns of the ``repeated`` groups (topic
    ids, run ids: few distinct values) are read as dictionaries, which saves
    decoding every row's text."""
    pa = _arrow()
    if pa is None:
        raise _missing_extra(name)
    import pyarrow.parquet as pq

    if isinstance(source, (bytes, bytearray, memoryview)):
        source = pa.BufferReader(bytes(source))
    with _parquet_errors(name):
        have = pq.ParquetFile(source).schema_arrow.names
        columns = [c for c in (pick_column(have, g, "", name, required=False) for g in groups) if c is not None]
        dictionary = [c for c in (pick_column(have, g, "", name, required=False) for g in repeated) if c is not None]
        if hasattr(source, "seek"):
            source.seek(0)
        return pq.ParquetFile(source, read_dictionary=dictionary), columns or None


class _parquet_errors:
    """Reading errors of pyarrow as :class:`InputError` naming the file."""

    def __init__(self, name: str):
        self.name = name

    def __enter__(self):
        return self

    def __exit__(self, kind, e, tb):
        pa = _arrow()
        if kind is FileNotFoundError:
            raise InputError(self.name, "no such file") from None
        if kind is not None and issubclass(kind, (OSError, pa.ArrowException)):
            raise InputError(self.name, f"cannot read as Parquet: {shorten(str(e), 200)}") from None
        return False


def read_parquet(source, name: str, groups: tuple = (), repeated: tuple = ()):
    """A Parquet file (path, bytes or file object) as a pyarrow Table (columns as
    :func:`_parquet_file` picks them)."""
    f, columns = _parquet_file(source, name, groups, repeated)
    with _parquet_errors(name):
        return f.read(columns=columns)


#: rows of a Parquet run converted, joined and measured at a time (about the rows
#: of the 8 MB pieces a TREC text run is read in)
PARQUET_BATCH_ROWS = 1 << 18




def iter_parquet_run(source, name: str):
    """A Parquet run in pieces of :data:`PARQUET_BATCH_ROWS` rows: ``(qid, docno, score,
    runid, rows before)`` of each; one run id in the whole file, as when read whole."""
    f, columns = _parquet_file(source, name, _RUN_GROUPS, (TOPIC, RUNID))
    before, runid = 0, None
    with _parquet_errors(name):
        batches = f.iter_batches(batch_size=PARQUET_BATCH_ROWS, columns=columns)
        for batch in batches:
            try:
                q, d, s, rid, _ = run_from_table(batch, name)
            except InputError as e:
                raise _rows_after(e, before)  # noqa: B904 (e itself, its row counted from the table's first)
            if runid is None:
                runid = rid
            elif rid != runid and len(batch):
                _more_runs(name, runid, rid)
            yield q, d, s, rid, before
            before += len(batch)
    if before == 0:
        yield np.zeros(0, "S1"), np.zeros(0, "S1"), np.zeros(0), "", 0


_QRELS_GROUPS = (TOPIC, DOCUMENT, LEVEL, SCORE)
_RUN_GROUPS = (TOPIC, DOCUMENT, SCORE, RANK, RUNID)


def _table(obj, name: str, groups: tuple) -> _Table:
    if is_parquet(obj):
        obj = read_parquet(obj, name, groups, (TOPIC, RUNID))
    return _Table(obj, name)


def qrels_from_table(obj, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(qid, docno, rel)`` columns of a judgments table."""
    t = _table(obj, name, _QRELS_GROUPS)
    q = t.ids(t.pick(TOPIC, "topic"), "topic id")
    d = t.ids(t.pick(DOCUMENT, "document"), "docno")
    level = t.pick(LEVEL, "relevance", required=False) or t.pick(SCORE + LEVEL, "relevance")
    rel = _levels(np.asarray(t.numbers(level, "relevance", level=True)), name, None)
    return q, d, rel


def run_from_table(obj, name: str, rank_column: bool = False):
    """``(qid, docno, score, runid, rank)`` columns of a run table (rank None unless asked for)."""
    t = _table(obj, name, _RUN_GROUPS)
    q = t.ids(t.pick(TOPIC, "topic"), "topic id")
    d = t.ids(t.pick(DOCUMENT, "document"), "docno")
    score = _scores(t.numbers(t.pick(SCORE, "score"), "score", level=False), name, None)
    rank = None
    if rank_column:
        rank = _scores(t.numbers(t.pick(RANK, "rank"), "rank", level=False).astype(np.float64), name, None)
    return q, d, score, t.runid(), rank
