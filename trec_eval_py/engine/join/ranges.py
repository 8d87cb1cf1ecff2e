"""Ranges of topics: how an evaluation is cut so each part can be done alone.

A *range* is every topic whose id lies between two cut points, in byte
order of the ids (the order trec_eval reports and sums topics in). With cuts
``c1 < c2 < ... < ck`` there are ``k + 1`` ranges: ids below ``c1``, ids from
``c1`` up to (not including) ``c2``, ..., ids from ``ck`` on. A topic is
never split (all of its judgments and results fall in one range) and the
ranges are disjoint and increasing, so evaluating them one after another and
folding their summaries in order (:mod:`trec_eval_py.engine.aggregate`) is
the evaluation of the whole.

The judgments and runs cut here are the parsed values of the project's own
readers: records with a topic column (``qid``, or ``case`` for CodiEsp-X)
and other columns of one entry per row.
"""
from __future__ import annotations

import numpy as np

from ..._record import fields, replace
from .keys import distinct_sorted, sort_distinct


def topic_column(value) -> np.ndarray | None:
    """The topic id (bytes) of every row of a parsed judgments or run value, or
    None when it has no topic column this module knows."""
    for name in ("qid", "case"):
        col = getattr(value, name, None)
        if col is None:
            continue
        if isinstance(col, np.ndarray):
            return col
        return np.array(col, dtype="S") if len(col) else np.zeros(0, "S1")
    return None


def can_cut(value) -> bool:
    """Whether :func:`take` can cut ``value`` into ranges (a record with a topic column)."""
    try:
        fields(value)
    except TypeError:
        return False
    return topic_column(value) is not None


def take(value, rows: np.ndarray | slice):
    """``value`` (a record with a topic column) holding only ``rows`` (indexes, in
    that order, or a slice: then its columns are views, no copy)."""
    topics = topic_column(value)
    assert topics is not None, "take() is for values that can_cut()"
    n = len(topics)
    changes: dict[str, object] = {}
    rows_list = None
    for name in fields(value):
        col = getattr(value, name)
        if isinstance(col, np.ndarray) and col.ndim >= 1 and len(col) == n:
            changes[name] = col[rows]
        elif isinstance(col, list) and len(col) == n:
            if isinstance(rows, slice):
                changes[name] = col[rows]
                continue
            if rows_list is None:
                rows_list = rows.tolist()
            changes[name] = [col[i] for i in rows_list]
    return replace(value, **changes)


def check_cuts(cuts) -> np.ndarray:
    """``cuts`` as a bytes array, checked strictly increasing (ranges disjoint and in order)."""
    arr = np.array([c if isinstance(c, bytes) else str(c).encode("utf-8", "surrogateescape") for c in cuts],
                   dtype="S") if len(cuts) else np.zeros(0, "S1")
    if len(arr) > 1 and not bool((arr[1:] > arr[:-1]).all()):
        raise ValueError("topic range cuts must be strictly increasing in byte order")
    return arr


def even_cuts(topics: np.ndarray, n: int) -> np.ndarray:
    """Cuts giving ``n`` ranges (fewer when there are fewer topics) of about as
    many of ``topics`` (distinct ids, sorted) each."""
    topics = np.asarray(topics)
    n = max(1, min(int(n), len(topics)))
    if n <= 1:
        return np.zeros(0, dtype=topics.dtype if len(topics) else "S1")
    starts = (np.arange(1, n) * len(topics)) // n
    return topics[np.unique(starts)]


def range_of(ids: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """int64: the range (0 .. len(cuts)) of each topic id."""
    if len(cuts) == 0:
        return np.zeros(len(ids), dtype=np.int64)
    return np.searchsorted(cuts, ids, side="right").astype(np.int64)


def split(value, cuts: np.ndarray):
    """``value`` cut into ``len(cuts) + 1`` ranges, one after another (rows keep
    their order within a range; each range is made when it is asked for)."""
    if len(cuts) == 0:
        yield value
        return
    topics = topic_column(value)
    assert topics is not None, "split() is for values that can_cut()"
    which = range_of(topics, cuts)
    if bool((which[1:] >= which[:-1]).all()):
        # the rows come range by range already (judgments sorted by topic, the common
        # case): each range is a slice, its columns views, and nothing is copied
        bounds = np.searchsorted(which, np.arange(len(cuts) + 2))
        del which
        for i in range(len(cuts) + 1):
            yield take(value, slice(int(bounds[i]), int(bounds[i + 1])))
        return
    # each range's rows found when it is made: at most one range's row numbers
    # (and a byte or two a row) held, not an ordering of every row
    which = which.astype(np.min_scalar_type(len(cuts)))
    for i in range(len(cuts) + 1):
        yield take(value, np.flatnonzero(which == i))


def distinct_topics(*values) -> np.ndarray:
    """The distinct topic ids of some parsed values, sorted in byte order."""
    found = [topic_column(v) for v in values if v is not None]
    cols = [c for c in found if c is not None and len(c)]
    if not cols:
        return np.zeros(0, "S1")
    width = max(c.dtype.itemsize for c in cols)
    # each column's distinct ids first: cheap where a topic's rows are together
    # (np.unique would hash and sort every row)
    return sort_distinct(np.concatenate([distinct_sorted(c).astype(f"S{width}") for c in cols]))
