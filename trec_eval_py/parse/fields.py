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

from ..errors import InputError

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


def split_fields(
    data: bytes,
    name: str,
    *,
    min_fields: int,
    max_fields: int | None,
    wanted: tuple[int, ...],
    what: str,
) -> Fields:
    """Split ``data`` into lines of fields and return the ``wanted`` columns.

    Raises :class:`InputError` naming the first line that has too few (or too
    many, when ``max_fields`` is set) fields, or that holds a NUL byte.
    """
    nul = data.find(b"\0")
    if nul >= 0:
        lineno = data.count(b"\n", 0, nul) + 1
        raise InputError(name, "NUL byte in the input", lineno)
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
            lineno = line_base + i + 1
            got = int(counts[i])
            if got < min_fields:
                reason = f"{what} line has {got} field{'s' if got != 1 else ''}, needs at least {min_fields}"
                if max_fields == min_fields:
                    reason = f"{what} line has {got} field{'s' if got != 1 else ''}, needs {min_fields}"
            else:
                reason = f"{what} line has {got} fields, needs {max_fields}"
            raise InputError(name, reason, lineno, line_text(data, lineno))
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
    return Fields(columns, lineno, last_fields)
