"""Columnar splitting of whitespace-separated line formats.

Every trec_eval input is lines of fields separated by runs of blanks (space,
tab, CR, VT, FF, as C's ``isspace``). This module cuts a whole file into
per-field numpy byte-string arrays without a Python loop per line: it
classifies bytes, finds token boundaries, counts tokens per line and gathers
the wanted fields. The file is processed in chunks so the temporary arrays
stay small however large the input is.

Blank lines are skipped; so are lines whose first non-blank byte is ``#``
(trec_eval 10.0's comment lines; ``#`` inside a field is ordinary text).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import InputError

CHUNK_BYTES = 8 << 20

_CLASS = np.zeros(256, dtype=np.uint8)
_CLASS[[ord(" "), ord("\t"), ord("\r"), 0x0B, 0x0C]] = 1  # blanks
_CLASS[ord("\n")] = 2


@dataclass
class Fields:
    """The wanted fields of every content line, plus each line's number."""

    columns: dict[int, np.ndarray]  # field index -> S-dtype array
    lineno: np.ndarray  # 1-based physical line numbers (int64)
    last_line_fields: list[bytes]  # every field of the last content line
    num_lines: int = 0  # physical lines in the data (a last line without a newline counts)


def line_text(data: bytes, lineno: int) -> str:
    """The text of physical line ``lineno`` (1-based), for error messages."""
    start = 0
    for _ in range(lineno - 1):
        start = data.find(b"\n", start) + 1
        if start == 0:
            return ""
    end = data.find(b"\n", start)
    line = data[start:] if end < 0 else data[start:end]
    return line.rstrip(b"\r").decode("utf-8", "replace")


def _gather(arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Copy the byte ranges [starts, ends) of ``arr`` into one S-dtype array."""
    n = len(starts)
    if n == 0:
        return np.zeros(0, dtype="S1")
    lengths = ends - starts
    width = int(lengths.max())
    if width == 1:
        return arr[starts].copy().view("S1")
    out = np.zeros((n, width), dtype=np.uint8)
    cols = np.arange(width)
    rows_per_step = max(1, (4 << 20) // width)
    for lo in range(0, n, rows_per_step):
        hi = min(n, lo + rows_per_step)
        idx = starts[lo:hi, None] + cols
        mask = cols < lengths[lo:hi, None]
        np.copyto(out[lo:hi], arr[np.minimum(idx, len(arr) - 1)], where=mask)
    return out.view(f"S{width}").ravel()


TEXT, FLOAT, INT = "text", "float", "int"
_C_KINDS = {TEXT: 0, FLOAT: 1, INT: 2}

try:  # the optional C scanner (see _scan.c); same results, one pass
    from . import _scan
except ImportError:  # pragma: no cover - depends on the build
    _scan = None

#: set to False to force the numpy implementation (tests compare both)
USE_C = True


def _count_error(data, name, what, lineno, got, min_fields, max_fields):
    s = "s" if got != 1 else ""
    if got < min_fields:
        need = f"{min_fields}" if max_fields == min_fields else f"at least {min_fields}"
        reason = f"{what} line has {got} field{s}, needs {need}"
    else:
        reason = f"{what} line has {got} fields, needs {max_fields}"
    return InputError(name, reason, lineno, line_text(data, lineno))


def split_fields(
    data: bytes,
    name: str,
    *,
    min_fields: int,
    max_fields: int | None,
    wanted: dict[int, str] | tuple[int, ...],
    labels: dict[int, str] | None = None,
    what: str,
    first_line: int = 1,
) -> Fields:
    """Split ``data`` into lines of fields and return the ``wanted`` columns.

    ``first_line`` is the line number of ``data``'s first line in its file
    (for pieces of a file read in chunks); line numbers count from it.

    ``wanted`` maps a field index to ``"text"`` (an S-dtype array), ``"float"``
    or ``"int"`` (converted strictly, see numbers.py); a plain tuple of field
    indexes asks for text columns. ``labels`` names numeric
    fields in error messages. Raises :class:`InputError` naming the first line
    that has too few (or too many, when ``max_fields`` is set) fields, a NUL
    byte, or a field that is not a number.
    """
    try:
        f = _split_fields_at(data, name, min_fields, max_fields, wanted, labels, what)
    except InputError as e:
        if first_line == 1 or e.line is None:
            raise
        raise InputError(e.path, e.reason, e.line + first_line - 1, e.text) from None
    if first_line != 1:
        f.lineno = f.lineno + (first_line - 1)
    return f


def _split_fields_at(data, name, min_fields, max_fields, wanted, labels, what) -> Fields:
    from .numbers import number_error, parse_floats, parse_ints

    if not isinstance(wanted, dict):
        wanted = {f: TEXT for f in wanted}
    labels = labels or {}
    if _scan is not None and USE_C:
        # ``data`` may be any buffer (a view of the run reader's reused buffer):
        # the scanner copies what it keeps; messages are built from a copy
        kinds = tuple((f, _C_KINDS[k]) for f, k in wanted.items())
        res = _scan.scan(data, min_fields, -1 if max_fields is None else max_fields, kinds)
        if res[0] != "ok":
            data = bytes(data)
        if res[0] == "nul":
            raise InputError(name, "NUL byte in the input", res[1])
        if res[0] == "fields":
            raise _count_error(data, name, what, res[1], res[2], min_fields, max_fields)
        if res[0] == "number":
            f, kind = kinds[res[2]]
            token = line_text(data, res[1]).split()[f]
            raise number_error(token, res[1], data, name, labels.get(f, f"field {f + 1}"), wanted[f])
        _, n, cols, widths, last, n_lines = res
        columns = {}
        for (f, kind), buf, w in zip(kinds, cols, widths):
            if kind == 0:
                columns[f] = np.frombuffer(buf, dtype=f"S{w}") if n else np.zeros(0, dtype="S1")
            else:
                columns[f] = np.frombuffer(buf, dtype=np.float64 if kind == 1 else np.int64)
        return Fields(columns, np.frombuffer(cols[-1], dtype=np.int64), last.split(), n_lines)
    data = bytes(data)
    nul = data.find(b"\0")
    if nul >= 0:
        lineno = data.count(b"\n", 0, nul) + 1
        raise InputError(name, "NUL byte in the input", lineno)
    f = _split_numpy(data, name, min_fields=min_fields, max_fields=max_fields, wanted=tuple(wanted), what=what)
    for field, kind in wanted.items():
        if kind == FLOAT:
            f.columns[field] = parse_floats(f.columns[field], f.lineno, data, name, labels.get(field, ""))
        elif kind == INT:
            f.columns[field] = parse_ints(f.columns[field], f.lineno, data, name, labels.get(field, ""))
    return f


def _split_numpy(
    data: bytes,
    name: str,
    *,
    min_fields: int,
    max_fields: int | None,
    wanted: tuple[int, ...],
    what: str,
) -> Fields:
    """The numpy implementation of :func:`split_fields` (text columns only)."""
    if data and not data.endswith(b"\n"):
        data = data + b"\n"
    parts: dict[int, list[np.ndarray]] = {f: [] for f in wanted}
    linenos: list[np.ndarray] = []
    last_fields: list[bytes] = []
    line_base = 0
    pos = 0
    size = len(data)
    while pos < size:
        end = pos + CHUNK_BYTES
        if end >= size:
            end = size
        else:
            end = data.rfind(b"\n", pos, end) + 1
            if end <= pos:  # a single line longer than a chunk
                end = data.find(b"\n", pos + CHUNK_BYTES) + 1
        chunk = data[pos:end]
        arr = np.frombuffer(chunk, dtype=np.uint8)
        cls = _CLASS[arr]
        is_char = cls == 0
        nl_pos = np.flatnonzero(cls == 2)
        n_lines = len(nl_pos)
        edge = np.diff(is_char.view(np.int8), prepend=np.int8(0), append=np.int8(0))
        starts = np.flatnonzero(edge == 1)
        ends = np.flatnonzero(edge == -1)
        tok_line = np.searchsorted(nl_pos, starts)
        counts = np.bincount(tok_line, minlength=n_lines)
        first_tok = np.cumsum(counts) - counts
        has = counts > 0
        comment = np.zeros(n_lines, dtype=bool)
        comment[has] = arr[starts[first_tok[has]]] == ord("#")
        content = has & ~comment
        bad = content & (counts < min_fields)
        if max_fields is not None:
            bad |= content & (counts > max_fields)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise _count_error(data, name, what, line_base + i + 1, int(counts[i]), min_fields, max_fields)
        rows = np.flatnonzero(content)
        if len(rows):
            ftok = first_tok[rows]
            for f in wanted:
                t = ftok + f
                parts[f].append(_gather(arr, starts[t], ends[t]))
            linenos.append(rows.astype(np.int64) + (line_base + 1))
            r = rows[-1]
            lo, n = first_tok[r], counts[r]
            last_fields = [chunk[starts[k]:ends[k]] for k in range(lo, lo + n)]
        line_base += n_lines
        pos = end
    columns = {
        f: (np.concatenate(p) if p else np.zeros(0, dtype="S1")) for f, p in parts.items()
    }
    lineno = np.concatenate(linenos) if linenos else np.zeros(0, dtype=np.int64)
    return Fields(columns, lineno, last_fields, line_base)
