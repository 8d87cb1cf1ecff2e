"""Iterables of ir_measures' namedtuples (``Qrel``, ``ScoredDoc``) as columns."""
from __future__ import annotations

from operator import itemgetter

import numpy as np

from ....errors import InputTypeError, shorten
from ._columns import _doubles, _levels, _pack_str, _scores, _show

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
