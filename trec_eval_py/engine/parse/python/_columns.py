"""What every Python input shares: the column names read, what kind of value a
source is and how big (what the evaluation asks of every input, files included:
the readers of each kind are imported only for their own), and ids and values
checked into the columns the file readers give
(the rules are the package's: see :mod:`trec_eval_py.engine.parse.python`)."""
from __future__ import annotations

import math
import numbers
import os
import stat
from collections.abc import Iterable, Mapping

import numpy as np

from .... import _native
from ....errors import InputError, InputTypeError, shorten
from ..levels import MAX_LEVEL, MIN_LEVEL

TOPIC = ("query_id", "qid", "q_id", "topic", "topic_id")
DOCUMENT = ("doc_id", "docno", "docid")
LEVEL = ("relevance", "rel", "label", "judgment", "judgement")
SCORE = ("score",)
RANK = ("rank",)
RUNID = ("run_id", "runid", "run", "name")

#: characters of an offending value shown in a message
SHOWN = 60

PARQUET_MAGIC = b"PAR1"


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


def _arrow():
    """pyarrow, or None where it is not installed."""
    try:
        import pyarrow
    except ImportError:
        return None
    return pyarrow


def parquet_size(source) -> int | None:
    """The uncompressed size of a Parquet file's data (what decides whether a run is
    read in pieces, as a text file's size does), or None."""
    if not (isinstance(source, (str, os.PathLike)) and is_parquet(source)):
        return None
    if _arrow() is None:
        return None
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(os.fspath(source)).metadata
    except Exception:  # the reader reports what is wrong with the file
        return None
    return sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))


def dict_rows(obj) -> int | None:
    """How many results a dict of dicts holds (None for anything else, or a
    malformed dict: the reader reports what is wrong with it)."""
    if not isinstance(obj, Mapping):
        return None
    try:
        return sum(map(len, obj.values()))
    except TypeError:
        return None


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
