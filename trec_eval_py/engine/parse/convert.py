"""The one rule for judgments and runs given as Python dicts.

``{topic: {docno: level}}`` and ``{topic: {docno: score}}`` become the same
columns the file readers produce, under the same rules: topic ids and
docnos are strings without NUL characters (numpy's byte strings would drop
trailing ones silently, so ``"d1\\x00"`` would match ``"d1"``), relevance
levels are integers up to :data:`~.levels.MAX_LEVEL`, scores are numbers and
never NaN. Wrong types raise :class:`~trec_eval_py.errors.InputTypeError`
(a ``TypeError`` too), wrong values :class:`~trec_eval_py.errors.InputError`;
both say which topic and document.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Mapping

from ...errors import InputError, InputTypeError, shorten
from .levels import MAX_LEVEL, MIN_LEVEL



def key_bytes(x, what: str, name: str, where: str = "") -> bytes:
    """A topic id or docno as bytes (UTF-8; lone surrogates kept)."""
    if not isinstance(x, str):
        raise InputTypeError(name, f"{what} {where}must be a string, not {type(x).__name__} "
                                   f"({shorten(repr(x), 60)})")
    if "\0" in x:
        raise InputError(name, f"{what} {where}has a NUL character ({shorten(repr(x), 60)})")
    return x.encode("utf-8", "surrogateescape")


def inner(mapping, q, what: str, name: str) -> Mapping:
    if not isinstance(mapping, Mapping):
        raise InputTypeError(name, f"{what} of topic {shorten(repr(q), 60)} must be a dict, "
                                   f"not {type(mapping).__name__}")
    return mapping


def relevance(r, q, d, name: str) -> int:
    """A relevance level: an integer (or an integral float) within range."""

    where = f"{shorten(str(q), 60)}/{shorten(str(d), 60)}"
    if isinstance(r, bool) or not isinstance(r, numbers.Real):
        raise InputTypeError(name, f"relevance of {where} must be an integer, not {type(r).__name__}")
    if not isinstance(r, numbers.Integral):
        if not (math.isfinite(r) and float(r).is_integer()):
            raise InputTypeError(name, f"relevance of {where} is not an integer ({r!r})")
    r = int(r)
    if r > MAX_LEVEL or r < MIN_LEVEL:
        raise InputError(name, f"relevance of {where} is out of range ({r}; the highest level is {MAX_LEVEL})")
    return r


def score(s, q, d, name: str) -> float:
    """A score: any real number but NaN (infinities are numbers in run files too)."""
    where = f"{shorten(str(q), 60)}/{shorten(str(d), 60)}"
    if isinstance(s, bool) or not isinstance(s, numbers.Real):
        raise InputTypeError(name, f"score of {where} must be a number, not {type(s).__name__}")
    try:
        v = float(s)
    except OverflowError:
        raise InputError(name, f"score of {where} is out of range ({s!r})") from None
    if v != v:
        raise InputError(name, f"score of {where} is NaN")
    return v


def check_mapping(x, what: str, name: str) -> Mapping:
    if not isinstance(x, Mapping):
        raise InputTypeError(name, f"{what} must be a dict {{topic: {{docno: value}}}}, not {type(x).__name__}")
    return x
