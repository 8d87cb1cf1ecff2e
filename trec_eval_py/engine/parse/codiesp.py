"""What the CodiEsp formats (``codiesp``, ``codiesp_x``) share: reading their
tab-separated lines, the campaign's normalisation of codes, and the list of
valid codes given with ``--valid-codes``.

The rules follow the campaign's public evaluation scripts
(TeMU-BSC/codiesp-evaluation-script, ``codiespD_P_evaluation.py`` and
``codiespX_evaluation.py``, 2020):

* Fields are separated by single tabs; blank lines are skipped and a line may
  end in ``\\r\\n``. A line with another number of fields is an error (the
  scripts check the first line and let pandas fail or pad later ones).
* Codes are compared in lower case, on both sides and in the list of valid
  codes (the scripts lowercase every code column with Python's ``str.lower``).
* A code or a clinical case id holding a blank is an error rather than a
  silent mismatch: the scripts keep such a field as it is in one place and
  split it at the blank in another, so no single reading would be faithful.
* The valid codes are the first tab-separated field of each line of the
  list (the campaign's lists have a description in their second and third).
"""
from __future__ import annotations

import os
from functools import lru_cache

from ...errors import InputError
from .source import read_source, skip_bom, source_name

#: bytes that may not appear inside a code or a case id
_BLANKS = (b" ", b"\v", b"\f", b"\r")


def tsv_lines(source, name: str | None, fields: tuple[str, ...], what: str):
    """``(name, [(lineno, line, [field bytes])])`` for the non-blank lines of ``source``.

    ``fields`` names the expected columns (for the message when a line has
    another number of them); ``what`` says what the file is ("CodiEsp gold
    standard"...). An empty file is an error.
    """
    name = name or source_name(source)
    data = skip_bom(read_source(source))  # as the official scripts (pandas) read it
    rows = []
    for i, line in enumerate(data.split(b"\n"), start=1):
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip():
            continue
        text = line.decode("utf-8", "surrogateescape")
        if b"\0" in line:
            raise InputError(name, "NUL byte in the line", i, text)
        parts = line.split(b"\t")
        if len(parts) != len(fields):
            raise InputError(
                name, f"expected {len(fields)} tab-separated fields ({', '.join(fields)}), "
                f"found {len(parts)}", i, text)
        rows.append((i, text, parts))
    if not rows:
        raise InputError(name, f"empty {what} file: no lines")
    return name, rows


def check_id(raw: bytes, what: str, name: str, lineno: int, text: str) -> bytes:
    """A clinical case id: not empty, no blanks."""
    if not raw:
        raise InputError(name, f"empty {what}", lineno, text)
    if any(b in raw for b in _BLANKS):
        raise InputError(name, f"{what} contains a blank", lineno, text)
    return raw


def normalise_code(raw: bytes, name: str, lineno: int | None, text: str | None) -> bytes:
    """A code as the campaign compares it: lower case (Python's ``str.lower``).
    An empty code or one holding a blank is an error."""
    if not raw:
        raise InputError(name, "empty code", lineno, text)
    if any(b in raw for b in _BLANKS):
        raise InputError(name, "code contains a blank", lineno, text)
    return raw.decode("utf-8", "surrogateescape").lower().encode("utf-8", "surrogateescape")


def valid_codes(paths: tuple[str, ...]) -> frozenset | None:
    """The normalised codes listed in ``paths`` (their union), or None when no
    list was given (then every code is valid)."""
    if not paths:
        return None
    out: set[bytes] = set()
    for p in paths:
        out |= _read_valid(p, *_stamp(p))
    return frozenset(out)


def _stamp(path: str) -> tuple:
    try:
        st = os.stat(path)
    except OSError:
        return (None, None)  # the reader reports the problem
    return (st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _read_valid(path: str, mtime, size) -> frozenset:
    # cached by modification time and size: batch evaluations re-join many runs
    name = source_name(path)
    data = skip_bom(read_source(path, allow_stdin=False))
    codes = set()
    for i, line in enumerate(data.split(b"\n"), start=1):
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip():
            continue
        first = line.split(b"\t", 1)[0]
        codes.add(normalise_code(first, name, i, line.decode("utf-8", "surrogateescape")))
    if not codes:
        raise InputError(name, "empty list of valid codes: no lines")
    return frozenset(codes)


def case_positions(cases: list[bytes]) -> list[int]:
    """1-based position of each line among the lines of its case, in file order."""
    seen: dict[bytes, int] = {}
    out = []
    for c in cases:
        n = seen.get(c, 0) + 1
        seen[c] = n
        out.append(n)
    return out


def runid_of(name: str) -> str:
    """The run id of a predictions file, which has no run id column: its file name
    without directories and extension."""
    base = os.path.basename(name)
    return os.path.splitext(base)[0] or base
