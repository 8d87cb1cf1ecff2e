"""Strict conversion of numeric text columns.

trec_eval reads numbers with C's ``atof``/``atol``, which turn garbage into 0
without a word. Here a field that is not a plain decimal number is an error
naming the file and line. Conversion is vectorised; the per-token regular
expression only runs to find the culprit once something is known to be wrong.
"""
from __future__ import annotations

import re
from typing import NoReturn

import numpy as np

from ...errors import InputError, shorten
from .source import line_text

FLOAT_RE = re.compile(rb"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)", re.I)
INT_RE = re.compile(rb"[+-]?\d+")

_FLOAT_OK = np.zeros(256, dtype=bool)
_FLOAT_OK[list(b"0123456789+-.eE")] = True
_FLOAT_OK[0] = True  # padding of the fixed-width array
_INT_OK = np.zeros(256, dtype=bool)
_INT_OK[list(b"0123456789+-")] = True
_INT_OK[0] = True


def _first_bad(col: np.ndarray, pattern: re.Pattern) -> int:
    for i, tok in enumerate(col.tolist()):
        if not pattern.fullmatch(tok):
            return i
    return -1


def number_error(token, lineno: int, data: bytes, name: str, what: str, kind: str) -> InputError:
    """The error for a field that should be a number (``kind`` "float" or "int")."""
    if isinstance(token, bytes):
        if kind == "int" and INT_RE.fullmatch(token):  # an integer, but beyond int64
            return _range_error(token, lineno, data, name, what)
        token = token.decode("utf-8", "replace")
    noun = "a number" if kind == "float" else "an integer"
    return InputError(name, f"{what} is not {noun} ({shorten(token)!r})", lineno, line_text(data, lineno))


def _range_error(token: bytes, lineno: int, data: bytes, name: str, what: str) -> InputError:
    return InputError(name, f"{what} is out of range ({shorten(token.decode())!r}: integers are 64-bit)",
                      lineno, line_text(data, lineno))


def _fail(col, i, lineno, data, name, what, kind) -> NoReturn:
    raise number_error(col[i], int(lineno[i]), data, name, what, kind)


def _all_allowed(col: np.ndarray, table: np.ndarray) -> bool:
    if col.size == 0:
        return True
    return bool(table[col.view(np.uint8)].all())


def parse_floats(col, lineno, data: bytes, name: str, what: str) -> np.ndarray:
    """Convert an S-dtype column to float64, rejecting anything but decimal numbers."""
    if not _all_allowed(col, _FLOAT_OK):
        i = _first_bad(col, FLOAT_RE)
        if i >= 0:
            _fail(col, i, lineno, data, name, what, "float")
    try:
        return col.astype(np.float64)
    except ValueError:
        i = _first_bad(col, FLOAT_RE)
        _fail(col, max(i, 0), lineno, data, name, what, "float")


def parse_ints(col, lineno, data: bytes, name: str, what: str) -> np.ndarray:
    """Convert an S-dtype column to int64, rejecting anything but decimal integers."""
    if _all_allowed(col, _INT_OK):
        try:
            return col.astype(np.int64)
        except (ValueError, OverflowError):
            pass
    i = _first_bad(col, INT_RE)
    if i < 0:  # well-formed but out of range
        vals = [int(t) for t in col.tolist()]
        i = next(k for k, v in enumerate(vals) if not -(2**63) <= v < 2**63)
        raise _range_error(col[i], int(lineno[i]), data, name, what)
    _fail(col, i, lineno, data, name, what, "int")
