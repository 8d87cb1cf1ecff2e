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

import re

import numpy as np

from ... import _native
from ..._record import record
from ...errors import InputError
from .handover import scanned
from .layouts import FLOAT, INT, TEXT, column_budget, scan_args
from .source import line_start, line_text

CHUNK_BYTES = 8 << 20

_CLASS = np.zeros(256, dtype=np.uint8)
_CLASS[[ord(" "), ord("\t"), ord("\r"), 0x0B, 0x0C]] = 1  # blanks
_CLASS[ord("\n")] = 2


@record(frozen=False)
class Fields:
    """The wanted fields of every content line, plus each line's number."""

    columns: dict[int, np.ndarray]  # field index -> S-dtype array
    lineno: np.ndarray  # 1-based physical line numbers (int64)
    last_line_fields: list[bytes]  # every field of the last content line
    num_lines: int = 0  # physical lines in the data (a last line without a newline counts)



def line_fields(data: bytes, lineno: int) -> list[bytes]:
    """The fields of physical line ``lineno``, split exactly as the scanner
    splits them: on ASCII blanks only (U+00A0, U+0085, U+2028 or 0x1C-0x1F are
    ordinary bytes of a field, as in C's ``isspace``)."""
    start = line_start(data, lineno)
    end = data.find(b"\n", start)
    line = data[start:] if end < 0 else data[start:end]
    # bytes.split() splits on runs of ASCII whitespace only, the scanner's blanks
    # and the newline, which the line has none of
    return line.split()


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


def _count_error(data, name, what, lineno, got, min_fields, max_fields):
    s = "s" if got != 1 else ""
    if got < min_fields:
        need = f"{min_fields}" if max_fields == min_fields else f"at least {min_fields}"
        reason = f"{what} line has {got} field{s}, needs {need}"
    elif max_fields == min_fields:
        reason = f"{what} line has {got} fields, needs {max_fields}"
    else:
        reason = f"{what} line has {got} fields, at most {max_fields} are accepted"
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
    check=None,
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

    ``check(fields, data)``, if given, is the format's own line rule on the
    split columns (a relevance bound, a repeated key): it raises
    :class:`InputError` for the first line that breaks it, with line numbers
    counted from ``data``'s start (``data`` may be a buffer: take
    ``bytes(data)`` before quoting it). Its errors take part in the
    first-bad-line rule like the scanner's own.

    An error at a line carries the wanted columns of the lines before it as
    ``fields_before`` (a :class:`Fields`), for the readers' ``rows_before``.
    """
    try:
        f = _first_error(data, name, min_fields, max_fields, wanted, labels, what, check)
    except InputError as e:
        before = e.fields_before
        if before is not None and first_line != 1:
            before.lineno = before.lineno + (first_line - 1)
        if first_line == 1 or e.line is None:
            raise
        moved = InputError(e.path, e.reason, e.line + first_line - 1, e.text)
        moved.fields_before = before
        raise moved from None
    if first_line != 1:
        f.lineno = f.lineno + (first_line - 1)
    return f


#: a carriage return that does not end its line (compiled on first use, through
#: re's cache: a file without one never needs it)
_BARE_CR = rb"\r+(?=[^\r\n])"
_CR_REASON = "carriage return inside a line (CR-only line endings are not supported)"


def has_bare_cr(line: bytes) -> bool:
    """Whether ``line`` holds a carriage return that does not end it: the
    readers reject such a line (see :func:`_raw_problem`), so checkers must too."""
    return b"\r" in line and re.search(_BARE_CR, line) is not None


def _raw_problem(data: bytes, name: str) -> InputError | None:
    """A NUL byte or a bare carriage return (a CR that does not end a line:
    CR-only line endings would otherwise join every line into one), at the
    earliest line that has one (the numpy path; the C scanner checks both)."""
    errors = []
    nul = data.find(b"\0")
    if nul >= 0:
        lineno = data.count(b"\n", 0, nul) + 1
        errors.append((lineno, InputError(name, "NUL byte in the input", lineno)))
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        m = re.search(_BARE_CR, data)
        if m:
            lineno = data.count(b"\n", 0, m.start()) + 1
            errors.append((lineno, InputError(name, _CR_REASON, lineno, line_text(data, lineno))))
    return min(errors, key=lambda e: e[0])[1] if errors else None


def _first_error(data, name, min_fields, max_fields, wanted, labels, what, check=None) -> Fields:
    """:func:`_split_fields_at` then ``check``, but whatever kind of problem
    they find first (the scanners check NULs, counts, widths and numbers in
    separate passes, the format's check comes after them all), the error
    raised is the one of the first bad line: the lines before a problem's
    line are scanned and checked again until no earlier problem remains."""
    try:
        f = _split_fields_at(data, name, min_fields, max_fields, wanted, labels, what)
        if check is not None:
            check(f, data)
        return f
    except InputError as e:
        if e.line is None:
            raise
        if e.line <= 1:
            e.fields_before = _no_rows(wanted)
            raise
        data = bytes(data)
        e.fields_before = _first_error(data[:line_start(data, e.line)], name, min_fields, max_fields, wanted,
                                       labels, what, check)
        raise


def _no_rows(wanted) -> Fields:
    kinds = wanted if isinstance(wanted, dict) else {f: TEXT for f in wanted}
    cols = {f: np.zeros(0, dtype="S1" if k == TEXT else np.float64 if k == FLOAT else np.int64)
            for f, k in kinds.items()}
    return Fields(cols, np.zeros(0, dtype=np.int64), [], 0)


def _width_error(data, name, lineno, field, width, rows, what) -> InputError:
    return InputError(
        name,
        f"{what} field {field + 1} is {width} bytes long: padding all {rows} lines to it would need "
        f"{width * rows / 2**30:.1f} GiB (fields are stored at the width of the longest)",
        lineno, line_text(data, lineno))


def _split_fields_at(data, name, min_fields, max_fields, wanted, labels, what) -> Fields:
    if not isinstance(wanted, dict):
        wanted = {f: TEXT for f in wanted}
    labels = labels or {}
    _scan = _native.extension("scan")  # the optional C scanner: same results, one pass
    if _scan is not None:
        # ``data`` may be any buffer (a view of the run reader's reused buffer):
        # the scanner copies what it keeps; messages are built from a copy
        args = scan_args(min_fields, max_fields, wanted, len(data))
        kinds = args[2]
        res = scanned(data, args) or _scan.scan(data, *args)  # scanned by the command line's read-ahead?
        if res[0] != "ok":
            data = bytes(data)
        if res[0] == "nul":
            raise InputError(name, "NUL byte in the input", res[1])
        if res[0] == "cr":
            raise InputError(name, _CR_REASON, res[1], line_text(data, res[1]))
        if res[0] == "fields":
            raise _count_error(data, name, what, res[1], res[2], min_fields, max_fields)
        if res[0] == "number":
            from .numbers import number_error

            f, kind = kinds[res[2]]
            token = line_fields(data, res[1])[f]
            raise number_error(token, res[1], data, name, labels.get(f, f"field {f + 1}"), wanted[f])
        if res[0] == "width":
            f = kinds[res[2]][0]
            width = len(line_fields(data, res[1])[f])
            raise _width_error(data, name, res[1], f, width, data.count(b"\n") + 1, what)
        _, n, cols, widths, last, n_lines = res
        columns = {}
        for (f, kind), buf, w in zip(kinds, cols, widths):
            if kind == 0:
                columns[f] = np.frombuffer(buf, dtype=f"S{w}") if n else np.zeros(0, dtype="S1")
            else:
                columns[f] = np.frombuffer(buf, dtype=np.float64 if kind == 1 else np.int64)
        return Fields(columns, np.frombuffer(cols[-1], dtype=np.int64), last.split(), n_lines)
    from .numbers import parse_floats, parse_ints  # the numpy fallback's number parsing

    data = bytes(data)
    raw = _raw_problem(data, name)
    if raw is not None:
        raise raw
    f = _split_numpy(data, name, min_fields=min_fields, max_fields=max_fields, wanted=tuple(wanted), what=what,
                     budget=column_budget(len(data)))
    for field, kind in wanted.items():
        if kind == FLOAT:
            f.columns[field] = parse_floats(f.columns[field], f.lineno, data, name, labels.get(field,
                                                                                               f"field {field + 1}"))
        elif kind == INT:
            f.columns[field] = parse_ints(f.columns[field], f.lineno, data, name, labels.get(field,
                                                                                             f"field {field + 1}"))
    return f


def _split_numpy(
    data: bytes,
    name: str,
    *,
    min_fields: int,
    max_fields: int | None,
    wanted: tuple[int, ...],
    what: str,
    budget: int | None = None,
) -> Fields:
    """The numpy implementation of :func:`split_fields` (text columns only)."""
    if data and not data.endswith(b"\n"):
        data = data + b"\n"
    parts: dict[int, list[np.ndarray]] = {f: [] for f in wanted}
    widths = {f: (1, 0) for f in wanted}  # longest value and its line
    n_rows_total = 0
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
                lens = ends[t] - starts[t]
                widest = int(lens.argmax())
                if lens[widest] > widths[f][0]:
                    widths[f] = (int(lens[widest]), line_base + int(rows[widest]) + 1)
                if budget is not None and widths[f][0] * (n_rows_total + len(rows)) > budget:
                    raise _width_error(data, name, widths[f][1], f, widths[f][0], data.count(b"\n"), what)
                parts[f].append(_gather(arr, starts[t], ends[t]))
            n_rows_total += len(rows)
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
