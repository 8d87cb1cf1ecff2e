"""Columns back to Python and to files: ids as text, ``{topic: {docno: value}}``,
topic masks, and judgments or runs written as Parquet or TREC text."""
from __future__ import annotations

import os

import numpy as np

from ....errors import MissingExtraError, OutputError
from ._columns import _arrow, _pack_str, is_pandas, is_polars


def table_name(source, what: str) -> str:
    """The name errors give a table or Parquet file."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "<bytes>"
    kind = "DataFrame" if is_pandas(source) or is_polars(source) else type(source).__name__
    return f"<{what} {kind}>"


def require_pandas():
    """The pandas module, for every place that makes a DataFrame (runs, judgments,
    evaluations, comparisons, boards); :class:`~trec_eval_py.errors.MissingExtraError`
    when it is not installed."""
    try:
        import pandas
    except ImportError:
        raise MissingExtraError("DataFrames need pandas, which comes with the 'pandas' extra: "
                                "pip install 'trec_eval_py[pandas]'") from None
    return pandas


def ids_text(ids: np.ndarray) -> list[str]:
    """Byte-string ids as ``str`` (UTF-8; undecodable bytes kept by surrogateescape)."""
    try:
        return ids.astype("U").tolist()  # ASCII: one conversion
    except UnicodeDecodeError:
        return [x.decode("utf-8", "surrogateescape") for x in ids.tolist()]


def nested(qid: np.ndarray, docno: np.ndarray, values: list) -> dict:
    """``{topic: {docno: value}}`` from columns, in row order."""
    out: dict = {}
    for q, d, v in zip(ids_text(qid), ids_text(docno), values):
        out.setdefault(q, {})[d] = v
    return out


def topic_mask(qid: np.ndarray, ids) -> np.ndarray:
    """Which rows belong to the topics ``ids`` (str ids, or anything written as an id)."""
    if isinstance(ids, (str, bytes)):
        ids = [ids]
    wanted = _pack_str(list(ids), "topic id", "topics", None)
    return np.isin(qid, wanted)


def _text_column(ids: np.ndarray):
    """Byte-string ids as an Arrow string column (binary when they are not UTF-8)."""
    pa = _arrow()
    n = len(ids)
    width = ids.dtype.itemsize
    if n == 0:
        return pa.array([], type=pa.string())
    v = np.ascontiguousarray(ids).view(np.uint8).reshape(n, width)
    nz = v != 0
    lengths = np.where(nz.any(axis=1), width - np.argmax(nz[:, ::-1], axis=1), 0)
    offsets = np.zeros(n + 1, dtype=np.int32 if lengths.sum() < 2 ** 31 else np.int64)
    np.cumsum(lengths, out=offsets[1:])
    data = v[np.arange(width) < lengths[:, None]]
    kind = pa.string() if offsets.dtype == np.int32 else pa.large_string()
    arr = pa.Array.from_buffers(kind, n, [None, pa.py_buffer(offsets), pa.py_buffer(np.ascontiguousarray(data))])
    try:
        arr.validate(full=True)
    except pa.ArrowInvalid:
        arr = arr.view(pa.binary() if kind == pa.string() else pa.large_binary())
    return arr


def _arrow_table(columns: dict, what: str):
    pa = _arrow()
    if pa is None:
        raise OutputError(what, "writing Parquet needs pyarrow: pip install 'trec_eval_py[parquet]'")
    arrays = {k: _text_column(v) if isinstance(v, np.ndarray) and v.dtype.kind == "S" else pa.array(v)
              for k, v in columns.items()}
    return pa.table(arrays)


def write_parquet(path, columns: dict) -> None:
    """Columns (lists, or numpy arrays: byte-string ids become text) as a Parquet file."""
    import_name = os.fspath(path) if isinstance(path, (str, os.PathLike)) else "<parquet>"
    table = _arrow_table(columns, import_name)
    import pyarrow.parquet as pq

    try:
        pq.write_table(table, path)
    except OSError as e:
        raise OutputError(import_name, e.strerror or str(e)) from None


def parquet_bytes(columns: dict) -> bytes:
    """Columns as the bytes of a Parquet file."""
    table = _arrow_table(columns, "<stdout>")
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


_BLANK = np.frombuffer(b" \t\n\r\x0b\x0c", dtype=np.uint8)


def write_rows(path, qid: np.ndarray, docno: np.ndarray, value: tuple, runid: str | None = None,
               rank: np.ndarray | None = None) -> None:
    """Judgments (``runid`` None) or a run written to ``path``: Parquet by extension, else TREC text."""
    what, values = value
    target = os.fspath(path)
    if str(target).lower().endswith(".parquet"):
        cols = {"query_id": qid, "doc_id": docno, what: values}
        if rank is not None:
            cols["rank"] = rank
        if runid is not None:
            cols["run_id"] = np.full(len(qid), runid.encode("utf-8", "surrogateescape") or b"run")
        return write_parquet(path, cols)
    for col, label in ((qid, "topic id"), (docno, "docno")):
        v = np.ascontiguousarray(col).view(np.uint8)
        if np.isin(v, _BLANK).any():
            raise OutputError(target, f"a {label} holds white space: TREC text cannot hold it (write .parquet)")
    if runid is not None and (not runid or any(c.isspace() for c in runid)):
        raise OutputError(target, f"the run id {runid!r} cannot be a TREC text field")
    q = ids_text(qid)
    d = ids_text(docno)
    if runid is None:
        lines = [f"{a} 0 {b} {r}\n" for a, b, r in zip(q, d, values.tolist())]
    else:
        if rank is None:  # ranks counted per topic, in row order
            starts = np.flatnonzero(np.concatenate([[True], qid[1:] != qid[:-1]])) if len(qid) else np.zeros(0, int)
            seg = np.repeat(starts, np.diff(np.append(starts, len(qid))))
            ranks = (np.arange(len(qid)) - seg + 1).tolist()
        else:
            ranks = [int(x) if float(x).is_integer() else x for x in rank.tolist()]
        lines = [f"{a} Q0 {b} {k} {s!r} {runid}\n" for a, b, k, s in zip(q, d, ranks, values.tolist())]
    try:
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.writelines(lines)
    except OSError as e:
        raise OutputError(target, e.strerror or str(e)) from None


def distinct(ids: np.ndarray) -> np.ndarray:
    """The distinct ids, in byte order."""
    return np.unique(ids)
