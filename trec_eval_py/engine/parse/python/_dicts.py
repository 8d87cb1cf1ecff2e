"""Dicts of dicts, ``{topic: {docno: value}}`` (pytrec_eval's layout), as columns:
flattened by the C extension when there is one, else by C-level iteration; a big
run dict a piece of whole topics at a time (:func:`iter_run_from_dict`)."""
from __future__ import annotations

from collections.abc import Mapping
from itertools import chain

import numpy as np

from .... import _native
from ....errors import InputTypeError, shorten
from ._columns import SHOWN, _doubles, _from_matrix, _levels, _pack_str, _scores, _show


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
