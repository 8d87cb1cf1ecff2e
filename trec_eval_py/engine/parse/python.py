"""Judgments and runs held in Python, turned into the columns the file readers give.

This is the one conversion layer for every input that is not text: whatever
the entry point (:func:`~trec_eval_py.engine.pipeline.evaluate`, the
pytrec_eval drop-in, compare, batch, the ir_measures provider), these kinds
become a :class:`~.qrels.Qrels` or :class:`~.run.Run`:

* a dict of dicts, ``{topic: {docno: level}}`` / ``{topic: {docno: score}}``
  (pytrec_eval's layout; topic ids and docnos must be ``str``);
* a pandas or polars DataFrame, a pyarrow ``Table`` or ``RecordBatch``, read
  by column name (below), whatever else it holds;
* a Parquet file: a path ending in ``.parquet``, or any file or bytes
  starting with Parquet's magic ``PAR1`` (needs pyarrow: the ``parquet`` extra);
* an iterable of namedtuples with ir_measures' fields: ``Qrel(query_id,
  doc_id, relevance, ...)`` for judgments, ``ScoredDoc(query_id, doc_id,
  score)`` for runs.

Column names (the first one present is used):

* topic: ``query_id`` (ir_measures), ``qid`` (PyTerrier), ``q_id`` (ranx), ``topic``, ``topic_id``
* document: ``doc_id`` (ir_measures, ranx), ``docno`` (PyTerrier), ``docid``
* judgment level: ``relevance`` (ir_measures), ``rel``, ``label``, ``judgment``,
  ``judgement``; ``score`` for judgments that have none of those (ranx's qrels)
* retrieval score: ``score``; rank (read for ``--order rank``): ``rank``
* run id (optional, one value): ``run_id``, ``runid``, ``run``, ``name``

The rules are the file readers': topic ids and docnos are text without NUL
characters (integer ids, and whole-number floats such as pandas makes of
integer columns with gaps, are written in decimal), relevance levels are
whole numbers from :data:`~.levels.MIN_LEVEL` to :data:`~.levels.MAX_LEVEL`,
scores are numbers and never NaN (infinities are allowed, as in run files).
A docno given twice for one topic is reported by the join, as for files,
with rows counted from 1 as "lines".

The good path never runs Python code per value: dicts are flattened (by
the optional C extension ``_native/_pyin.c``, else by C-level iteration into
lists and numpy; a big run dict a piece of whole topics at a time, see
:func:`iter_run_from_dict`), columns are checked with numpy, and Arrow strings are
copied from their buffers. An error's message is built only for the value
that fails, with the offending value shortened.
"""
from __future__ import annotations

import math
import numbers
import os
import stat
from collections.abc import Iterable, Mapping
from itertools import chain
from operator import itemgetter
from typing import Literal, overload

import numpy as np

from ... import _native
from ...errors import InputError, InputTypeError, MissingExtraError, OutputError, shorten
from .levels import MAX_LEVEL, MIN_LEVEL

TOPIC = ("query_id", "qid", "q_id", "topic", "topic_id")
DOCUMENT = ("doc_id", "docno", "docid")
LEVEL = ("relevance", "rel", "label", "judgment", "judgement")
SCORE = ("score",)
RANK = ("rank",)
RUNID = ("run_id", "runid", "run", "name")

#: characters of an offending value shown in a message
SHOWN = 60

PARQUET_MAGIC = b"PAR1"


def _missing_extra(what: str) -> InputError:
    return InputTypeError(what, "reading Parquet needs pyarrow: pip install 'trec_eval_py[parquet]'")


def row_numbers(n: int) -> np.ndarray:
    """Rows counted from 1 (the "line" of an error), 32-bit when they fit: a run of
    millions of rows holds them beside its columns through the whole join."""
    return np.arange(1, n + 1, dtype=np.int32 if n < 2 ** 31 - 1 else np.int64)


# ---------------------------------------------------------------- what it is

def _type_is(x, module: str, names: tuple[str, ...]) -> bool:
    t = type(x)
    return t.__name__ in names and t.__module__.split(".")[0] == module


def is_pandas(x) -> bool:
    """A pandas DataFrame (pandas is imported only when one is in use)."""
    return _type_is(x, "pandas", ("DataFrame",))


def is_polars(x) -> bool:
    return _type_is(x, "polars", ("DataFrame",))


def is_arrow(x) -> bool:
    return _type_is(x, "pyarrow", ("Table", "RecordBatch"))


def is_frame(x) -> bool:
    """A table read by column names: pandas, polars, or a pyarrow Table / RecordBatch."""
    return is_pandas(x) or is_polars(x) or is_arrow(x)


def is_parquet(source) -> bool:
    """A path ending in ``.parquet``, or a file or bytes that start with ``PAR1``.

    Only looks: a file that cannot be opened is the text reader's to report."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source[:4]) == PARQUET_MAGIC
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if isinstance(path, bytes) or path == "-":
            return False
        if path.lower().endswith(".parquet"):
            return True
        try:
            # only a regular file is looked into: a named pipe or a device can be read
            # once, and that read is the reader's (a look would take its first bytes)
            if not stat.S_ISREG(os.stat(path).st_mode):
                return False
            with open(path, "rb") as f:
                return f.read(4) == PARQUET_MAGIC
        except OSError:
            return False
    return False


def is_records(x) -> bool:
    """An iterable that may hold namedtuples (not text, bytes, a file or a mapping)."""
    return (isinstance(x, Iterable) and not isinstance(x, (str, bytes, bytearray, memoryview, Mapping))
            and not callable(getattr(x, "read", None)) and not isinstance(x, os.PathLike))


# ---------------------------------------------------------------- messages

def _show(x) -> str:
    return shorten(repr(x), SHOWN)


def _at(ids, i: int) -> str:
    """How an error names row ``i``: ``topic/docno`` for dicts, ``row N`` otherwise."""
    return ids(i) if callable(ids) else f"row {i + 1}"


# ---------------------------------------------------------------- ids

def _from_matrix(matrix, width: int) -> np.ndarray:
    return np.frombuffer(matrix, dtype=f"S{max(width, 1)}")


def _pack_str(items: list, what: str, name: str, where) -> np.ndarray:
    """Ids that may all be ``str``, as a NUL-padded byte-string array (UTF-8, lone
    surrogates kept); other ids are written as text (:func:`_ids_python`), and the
    error names the first that cannot be an id or holds a NUL."""
    pyin = _native.extension("pyin")
    if pyin is not None and isinstance(items, list):
        got = pyin.pack(items)
        if got is not None:
            return _from_matrix(*got)
    items = list(items)
    if not items:
        return np.zeros(0, "S1")
    types = set(map(type, items))
    if types != {str}:
        items = _ids_python(items, what, name, where)
    joined = "\0".join(items)  # one C-level pass: NUL check, ASCII check
    if joined.count("\0") != len(items) - 1:
        i = next(i for i, x in enumerate(items) if "\0" in x)
        raise InputError(name, f"{what} of {_at(where, i)} has a NUL character ({_show(items[i])})")
    if joined.isascii():
        return np.fromiter(items, dtype=f"S{max(1, max(map(len, items)))}", count=len(items))
    return np.array(joined.encode("utf-8", "surrogateescape").split(b"\0"), dtype="S")


def _id_text(x):
    """An id that is not a ``str`` as text, or None when it cannot be one."""
    if isinstance(x, str):
        return x
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (numbers.Integral, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)) and math.isfinite(x) and float(x).is_integer():
        return str(int(x))
    if isinstance(x, (float, np.floating)) and math.isfinite(x):
        return repr(float(x))
    if isinstance(x, (bytes, np.bytes_)):
        return bytes(x).decode("utf-8", "surrogateescape")
    return None


def _ids_python(items: list, what: str, name: str, where) -> list:
    """Ids as ``str`` (integers in decimal); the error names the first that is not an id."""
    out = []
    for i, x in enumerate(items):
        t = x if type(x) is str else _id_text(x)
        if t is None:
            if x is None or (isinstance(x, float) and math.isnan(x)):
                raise InputError(name, f"{what} of {_at(where, i)} is missing ({_show(x)})")
            raise InputTypeError(name, f"{what} of {_at(where, i)} must be a string, not {type(x).__name__} "
                                       f"({_show(x)})")
        out.append(t)
    return out


def _check_nul_bytes(arr: np.ndarray, what: str, name: str) -> np.ndarray:
    """A byte-string array whose strings hold no NUL (numpy drops trailing ones; inner ones stay)."""
    if len(arr) == 0 or arr.dtype.itemsize == 0:
        return arr
    v = np.ascontiguousarray(arr).view(np.uint8).reshape(len(arr), arr.dtype.itemsize)
    nz = v != 0
    filled = nz.sum(axis=1)
    last = arr.dtype.itemsize - np.argmax(nz[:, ::-1], axis=1)
    bad = np.flatnonzero((filled > 0) & (filled != last))
    if len(bad):
        i = int(bad[0])
        raise InputError(name, f"{what} of row {i + 1} has a NUL character ({_show(bytes(arr[i]))})")
    return arr


def _ids_numpy(a: np.ndarray, what: str, name: str) -> np.ndarray:
    kind = a.dtype.kind
    if kind == "S":
        return _check_nul_bytes(a, what, name)
    if kind == "U":
        try:
            return _check_nul_bytes(a.astype("S"), what, name)
        except UnicodeEncodeError:
            return _pack_str(a.tolist(), what, name, None)
    if kind in "iu":
        return a.astype("S")
    if kind == "f":
        bad = ~np.isfinite(a)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(name, f"{what} of row {i + 1} is missing ({_show(a[i].item())})")
        if np.all(a == np.floor(a)) and np.all(np.abs(a) < 2.0 ** 63):
            return a.astype(np.int64).astype("S")
        return _pack_str(_ids_python(a.tolist(), what, name, None), what, name, None)
    if kind == "O":
        return _pack_str(a.tolist(), what, name, None)
    raise InputTypeError(name, f"{what} column must hold strings or integers, not {a.dtype}")


# ---------------------------------------------------------------- values

def _number_types(types: set) -> bool:
    """Whether every type is a real number's (bool is not a number here)."""
    return all(t is not bool and t is not np.bool_ and (issubclass(t, (int, float)) or issubclass(t, np.number))
               and not issubclass(t, (complex, np.complexfloating)) for t in types)


def _doubles(items: list, what: str, name: str, where, level: bool) -> np.ndarray:
    """Python numbers as float64 (levels that are all integers as int64, exactly), or
    the error for the first that is not a number."""
    pyin = _native.extension("pyin")
    if pyin is not None and isinstance(items, list):
        got = pyin.doubles(items)
        if got is not None:
            return np.frombuffer(got, dtype=np.float64)
    types = set(map(type, items))
    if _number_types(types):
        integers = all(issubclass(t, (int, np.integer)) for t in types)
        try:
            return np.fromiter(items, dtype=np.int64 if level and integers else np.float64, count=len(items))
        except OverflowError:
            pass
    for i, x in enumerate(items):  # the error path: find the first bad value
        _check_value(x, what, name, _at(where, i), level)
    # every value is a real number of some other kind (fractions.Fraction...)
    return np.array([float(x) for x in items], dtype=np.float64)


def _check_value(x, what: str, name: str, where: str, level: bool) -> None:
    """Raise the error for one value that is not a number (or not a whole one, for levels)."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Real, np.number)) \
            or isinstance(x, (complex, np.complexfloating)):
        if level:
            raise InputTypeError(name, f"{what} of {where} must be an integer, not {type(x).__name__}")
        raise InputTypeError(name, f"{what} of {where} must be a number, not {type(x).__name__}")
    try:
        float(x)
    except OverflowError:
        if level:
            raise InputError(name, f"{what} of {where} is out of range ({shorten(repr(x), SHOWN)}; "
                                   f"the highest level is {MAX_LEVEL})") from None
        raise InputError(name, f"{what} of {where} is out of range ({shorten(repr(x), SHOWN)})") from None


def _scores(v: np.ndarray, name: str, where) -> np.ndarray:
    """float64 scores; NaN is an error (a missing value in a table)."""
    nan = np.isnan(v)
    if nan.any():
        i = int(np.flatnonzero(nan)[0])
        raise InputError(name, f"score of {_at(where, i)} is NaN")
    return v


def _levels(v: np.ndarray, name: str, where, items=None) -> np.ndarray:
    """int64 levels from float64 (or integer) values: whole numbers within range."""
    if v.dtype.kind in "iu":
        lo, hi = (int(v.min()), int(v.max())) if len(v) else (0, 0)
        if lo >= MIN_LEVEL and hi <= MAX_LEVEL:
            return v.astype(np.int64)
        i = int(np.flatnonzero((v < MIN_LEVEL) | (v > MAX_LEVEL))[0])
        raise InputError(name, f"relevance of {_at(where, i)} is out of range ({int(v[i])}; "
                               f"the highest level is {MAX_LEVEL})")
    bad = ~np.isfinite(v) | (v != np.floor(v))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        x = items[i] if items is not None else v[i].item()
        raise InputTypeError(name, f"relevance of {_at(where, i)} is not an integer ({_show(x)})")
    # (the one double at or below MIN_LEVEL is -2**63: every int it stands for is out of range)
    out = (v <= -(2.0 ** 63)) | (v > MAX_LEVEL)
    if out.any():
        i = int(np.flatnonzero(out)[0])
        x = items[i] if items is not None else int(v[i])
        raise InputError(name, f"relevance of {_at(where, i)} is out of range ({shorten(str(int(x)), SHOWN)}; "
                               f"the highest level is {MAX_LEVEL})")
    return v.astype(np.int64)


def _numbers_numpy(a: np.ndarray, what: str, name: str, level: bool) -> np.ndarray:
    kind = a.dtype.kind
    if kind in "iuf":
        return a if (level and kind in "iu") else a.astype(np.float64, copy=False)
    if kind == "O":
        items = a.tolist()
        return _doubles(items, what, name, None, level)
    want = "an integer" if level else "a number"
    raise InputTypeError(name, f"{what} of row 1 must be {want}, not {a.dtype}")


# ---------------------------------------------------------------- dicts

def _dict_lists(obj, what: str, name: str, level: bool) -> tuple[list, list]:
    """The topic ids and the inner dicts of a dict of dicts, their types checked."""
    if not isinstance(obj, Mapping):
        raise InputTypeError(name, f"{what} must be a dict {{topic: {{docno: value}}}}, not {type(obj).__name__}")
    topics = list(obj.keys())
    inners = list(obj.values())
    for q, inner in zip(topics, inners):
        if type(q) is not str:
            raise InputTypeError(name, f"topic id must be a string, not {type(q).__name__} ({_show(q)})")
        if not isinstance(inner, Mapping):
            kind = "judgments" if level else "scores"
            raise InputTypeError(name, f"{kind} of topic {_show(q)} must be a dict, not {type(inner).__name__}")
    return topics, inners


def _dict_parts(obj, what: str, name: str, level: bool):
    """``(topics, lengths, docnos, values, items)`` of a dict of dicts: topic ids as
    given, documents per topic, docnos (bytes), values (float64), and the values as
    Python objects when the C extension was not used (for messages)."""
    return _flat_parts(*_dict_lists(obj, what, name, level), name, level)


def _flat_parts(topics: list, inners: list, name: str, level: bool):
    """:func:`_dict_parts` of checked topic ids and inner dicts."""
    tb = _pack_str(topics, "topic id", name, lambda i: _show(topics[i]))
    pyin = _native.extension("pyin")
    got = pyin.flatten(inners) if pyin is not None else None
    if got is not None:
        matrix, width, values, lengths = got
        return (topics, tb, np.frombuffer(lengths, dtype=np.int64), _from_matrix(matrix, width),
                np.frombuffer(values, dtype=np.float64), None)
    lengths = np.fromiter(map(len, inners), dtype=np.int64, count=len(inners))
    docs = list(chain.from_iterable(inners))
    vals = list(chain.from_iterable(m.values() for m in inners)) if inners else []
    ends = np.cumsum(lengths)

    def where(i: int) -> str:
        t = int(np.searchsorted(ends, i, side="right"))
        return f"{shorten(str(topics[t]), SHOWN)}/{shorten(str(docs[i]), SHOWN)}"

    db = _pack_dict_keys(docs, name, where)
    return topics, tb, lengths, db, _doubles(vals, "relevance" if level else "score", name, where, level), vals


def _pack_dict_keys(docs: list, name: str, where) -> np.ndarray:
    types = set(map(type, docs))
    if types and types != {str}:
        i = next(i for i, d in enumerate(docs) if type(d) is not str)
        raise InputTypeError(name, f"docno of {where(i)} must be a string, not {type(docs[i]).__name__} "
                                   f"({_show(docs[i])})")
    return _pack_str(docs, "docno", name, where)


def _dict_where(topics, lengths, docnos):
    ends = np.cumsum(lengths)

    def where(i: int) -> str:
        t = int(np.searchsorted(ends, i, side="right"))
        d = bytes(docnos[i]).decode("utf-8", "surrogateescape")
        return f"{shorten(str(topics[t]), SHOWN)}/{shorten(d, SHOWN)}"
    return where


def qrels_from_dict(obj, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(qid, docno, rel)`` columns of ``{topic: {docno: level}}``."""
    topics, tb, lengths, docnos, values, items = _dict_parts(obj, "qrels", name, level=True)
    rel = _levels(values, name, _dict_where(topics, lengths, docnos), items)
    return np.repeat(tb, lengths), docnos, rel


def run_from_dict(obj, name: str):
    """``(qid, docno, score)`` columns of ``{topic: {docno: score}}``, and the topic ids
    with no documents (pytrec_eval's drop-in evaluates them as empty rankings)."""
    return _run_columns(*_dict_lists(obj, "run", name, level=False), name)


def _run_columns(topics: list, inners: list, name: str):
    topics, tb, lengths, docnos, values, _ = _flat_parts(topics, inners, name, level=False)
    score = _scores(values, name, _dict_where(topics, lengths, docnos))
    empty = [t for t, n in zip(topics, lengths.tolist()) if n == 0]
    return np.repeat(tb, lengths), docnos, score, empty


def run_topics(obj, name: str) -> tuple[list, set]:
    """The topic ids of a run dict in its order, and those given without documents;
    the types of the ids and of the inner dicts checked (not the values)."""
    topics, inners = _dict_lists(obj, "run", name, level=False)
    return topics, {t for t, m in zip(topics, inners) if not m}


def dict_rows(obj) -> int | None:
    """How many results a dict of dicts holds (None for anything else, or a
    malformed dict: the reader reports what is wrong with it)."""
    if not isinstance(obj, Mapping):
        return None
    try:
        return sum(map(len, obj.values()))
    except TypeError:
        return None


def iter_run_from_dict(obj, name: str, rows: int):
    """:func:`run_from_dict`'s columns in pieces of whole topics of about ``rows``
    results each, in the dict's order; the types of every topic id and inner dict
    are checked first, the values of each piece as it is made."""
    topics, inners = _dict_lists(obj, "run", name, level=False)
    ends = np.cumsum(np.fromiter(map(len, inners), dtype=np.int64, count=len(inners)))
    lo = 0
    while lo < len(topics):
        # the piece ends at the topic that reaches ``rows`` results past its start
        before = int(ends[lo - 1]) if lo else 0
        hi = min(int(np.searchsorted(ends, before + rows, side="left")) + 1, len(topics))
        yield _run_columns(topics[lo:hi], inners[lo:hi], name)[:3]
        lo = hi


# ---------------------------------------------------------------- Arrow

def _arrow():
    try:
        import pyarrow
    except ImportError:
        return None
    return pyarrow


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


def parquet_size(source) -> int | None:
    """The uncompressed size of a Parquet file's data (what decides whether a run is
    read in pieces, as a text file's size does), or None."""
    if not (isinstance(source, (str, os.PathLike)) and is_parquet(source)) or _arrow() is None:
        return None
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(os.fspath(source)).metadata
    except Exception:  # the reader reports what is wrong with the file
        return None
    return sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))


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


# ---------------------------------------------------------------- records

QREL_FIELDS = ("query_id", "doc_id", "relevance")
RUN_FIELDS = ("query_id", "doc_id", "score")


def _records(obj, fields: tuple, what: str, name: str) -> list:
    """The columns of an iterable of namedtuples with ``fields`` (ir_measures' Qrel / ScoredDoc)."""
    rows = obj if isinstance(obj, list) else list(obj)
    if not rows:
        return [[] for _ in fields]
    shape = type(rows[0])
    have = getattr(shape, "_fields", None)
    if not issubclass(shape, tuple) or have is None or not set(fields) <= set(have):
        got = f"namedtuples with fields {', '.join(map(str, have))}" if have else type(rows[0]).__name__
        kind = "Qrel" if what == "qrels" else "ScoredDoc"
        raise InputTypeError(name, shorten(f"{what} given as an iterable must hold namedtuples with fields "
                                           f"{', '.join(fields)} (ir_measures' {kind}), not {got}", 300))
    types = set(map(type, rows))
    if types != {shape}:
        i = next(i for i, r in enumerate(rows) if type(r) is not shape)
        raise InputTypeError(name, f"{what} item {i + 1} is a {type(rows[i]).__name__}, not a "
                                   f"{shape.__name__} ({_show(rows[i])})")
    return [list(map(itemgetter(have.index(f)), rows)) for f in fields]


def qrels_from_records(obj, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    q, d, r = _records(obj, QREL_FIELDS, "qrels", name)
    qb = _pack_str(q, "topic id", name, None)
    db = _pack_str(d, "docno", name, None)
    rel = _levels(_doubles(r, "relevance", name, None, True), name, None, r)
    return qb, db, rel


def run_from_records(obj, name: str):
    q, d, s = _records(obj, RUN_FIELDS, "run", name)
    qb = _pack_str(q, "topic id", name, None)
    db = _pack_str(d, "docno", name, None)
    return qb, db, _scores(_doubles(s, "score", name, None, False), name, None)


# ---------------------------------------------------------------- back to Python

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
