"""Numeric stand-ins for text keys, so ranking and joining sort numbers.

* Topic codes: rows of one topic are usually contiguous, so the distinct ids
  are found from the few places where the id changes (cheap), then sorted.
* Docno words: a docno's bytes read as big-endian 64-bit words compare in the
  same order as the bytes themselves (``strcmp`` order; shorter strings pad
  with NUL, which sorts first), so ties can be broken with integer sorts.
* Row hashes: a 64-bit mix of topic code and docno words, to find a run
  document's judgment by sorting and binary search. Every hash match is
  checked against the real key, so a collision can never give a wrong answer
  (the caller falls back to an exact path).
* Duplicates: one error for a docno listed twice under one key, shared by
  every join.
"""
from __future__ import annotations

import numpy as np

from ...errors import InputError

_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _as_words(col: np.ndarray) -> list[np.ndarray]:
    """Integer views of a byte-string column that are all equal, row for row, exactly
    when the strings are: numpy compares fixed-width bytes one string at a time,
    integers several times faster. A width that is no integer's size is covered by
    words read at a stride of the width, the last one overlapping the one before
    (a 7-byte id: bytes 0-3 and 3-6), no copy made. Any other column: itself."""
    w = col.dtype.itemsize
    if col.dtype.kind != "S" or not col.flags.c_contiguous or not len(col):
        return [col]
    size = max(s for s in _UINT if s <= w)
    places = list(range(0, w - size + 1, size))
    if places[-1] != w - size:
        places.append(w - size)
    return [np.ndarray((len(col),), dtype=_UINT[size], buffer=col, offset=at, strides=(w,)) for at in places]


def run_starts(col: np.ndarray) -> np.ndarray:
    """Indices where a new run of equal values begins (always includes 0)."""
    if len(col) == 0:
        return np.zeros(0, dtype=np.int64)
    differ = None
    for v in _as_words(col):
        d = v[1:] != v[:-1]
        differ = d if differ is None else np.logical_or(differ, d, out=differ)
    assert differ is not None
    change = np.flatnonzero(differ) + 1
    return np.concatenate([np.zeros(1, dtype=np.int64), change])


def sort_distinct(col: np.ndarray) -> np.ndarray:
    """``np.unique(col)`` by a sort and a comparison of neighbours (numpy's hashed
    unique is several times slower on byte strings)."""
    if len(col) == 0:
        return col[:0]
    # a stable sort (timsort for byte strings) takes runs already in order in one
    # pass: the callers sort ids that come in order, or two sorted lists joined,
    # which numpy's default sort takes 10 to 25 times longer over
    s = np.sort(col, kind="stable")
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def distinct_sorted(col: np.ndarray) -> np.ndarray:
    """The distinct values of ``col`` in byte order, cheaply when runs are long."""
    if len(col) == 0:
        return col[:0]
    return sort_distinct(col[run_starts(col)])


def codes_in(col: np.ndarray, universe: np.ndarray) -> np.ndarray:
    """Position of each value of ``col`` in the sorted array ``universe``."""
    starts = run_starts(col)
    if len(starts) == 0:
        return np.zeros(0, dtype=np.int64)
    seg = np.searchsorted(universe, col[starts]).astype(np.int64)
    lengths = np.diff(np.append(starts, len(col)))
    return np.repeat(seg, lengths)


def _small_range(k: np.ndarray) -> tuple[int, int] | None:
    """(lowest, number of values from it to the highest) of a key of whole numbers, or None."""
    if k.dtype.kind not in "iu" or not len(k):
        return None
    lo = int(k.min())
    return lo, int(k.max()) - lo + 1


def lex_order(*keys: np.ndarray) -> np.ndarray:
    """``np.lexsort(keys)`` (the last key most significant; stable), faster.

    Keys of whole numbers whose ranges multiply to at most 2**16 (a piece of a
    run's topic codes and a few relevance levels) are combined into one 16-bit
    key, sorted in linear time (numpy's stable sort of 16-bit keys is a radix
    sort); otherwise one stable argsort per key, from the least significant, a
    key within 2**16 values of its lowest sorted as 16 bits. Both are several
    times faster than ``np.lexsort`` on many rows."""
    if not keys:
        return np.zeros(0, dtype=np.int64)
    ranges = [_small_range(k) for k in keys]
    if all(r is not None for r in ranges) and len(keys[0]):
        combined, total = None, 1
        for k, r in zip(keys, ranges):
            assert r is not None
            lo, span = r
            total *= span
            if total > 1 << 16:
                break
            part = (k - k.dtype.type(lo)).astype(np.int64) * (total // span)
            combined = part if combined is None else combined + part
        else:
            assert combined is not None
            return np.argsort(combined.astype(np.uint16), kind="stable")
    order = None
    for key, r in zip(keys, ranges):
        k = key if order is None else key[order]
        if r is not None and r[1] <= 1 << 16:
            k = (k - k.dtype.type(r[0])).astype(np.uint16)
        step = np.argsort(k, kind="stable")
        order = step if order is None else order[step]
    return order if order is not None else np.zeros(0, dtype=np.int64)


def docno_words(col: np.ndarray) -> np.ndarray:
    """(n, k) uint64 words whose lexicographic order is the docnos' byte order."""
    n = len(col)
    width = col.dtype.itemsize
    k = max(1, -(-width // 8))
    raw = np.zeros((n, k * 8), dtype=np.uint8)
    if n:
        raw[:, :width] = col.view(np.uint8).reshape(n, width)
    return raw.view(">u8").astype(np.uint64)


def _mix(h: np.ndarray) -> np.ndarray:
    h = (h ^ (h >> np.uint64(30))) * _MIX1
    h = (h ^ (h >> np.uint64(27))) * _MIX2
    return h ^ (h >> np.uint64(31))


def row_hash(topic: np.ndarray, words: np.ndarray, num_topics: int | None = None) -> np.ndarray:
    """64-bit key of (topic code, docno) per row: the topic code in the high
    bits, a hash of the docno in the rest.

    Keeping a topic's keys together makes lookups of a topic-grouped run walk
    one small region of the sorted qrels keys at a time (cache friendly).
    """
    nt = int(topic.max()) + 1 if num_topics is None and len(topic) else (num_topics or 1)
    tbits = max(1, int(nt).bit_length())
    with np.errstate(over="ignore"):
        h = np.full(len(topic), np.uint64(0x632BE59BD9B4E019))
        for j in range(words.shape[1]):
            h = _mix(h ^ words[:, j])
        if tbits >= 40:  # very many topics: mix the topic in instead
            return _mix(h ^ (topic.astype(np.uint64) * _GOLDEN))
        return (topic.astype(np.uint64) << np.uint64(64 - tbits)) | (h >> np.uint64(tbits))


def duplicate_error(a: np.ndarray, b: np.ndarray, lineno: np.ndarray, docno: np.ndarray, name: str,
                    where: str = "topic") -> InputError:
    """The error for duplicate row pairs ``(a[i], b[i])``: it names the pair whose
    later line comes first in the file, at that line."""
    first = np.minimum(lineno[a], lineno[b])
    later = np.maximum(lineno[a], lineno[b])
    i = int(np.argmin(later))
    row = a[i] if lineno[a[i]] == later[i] else b[i]
    return InputError(
        name,
        f"duplicate docno {docno[row].decode('utf-8', 'replace')!r} in the same {where} "
        f"(first seen on line {int(first[i])})",
        int(later[i]),
    )


def check_duplicates(keys: np.ndarray, lineno: np.ndarray, docno: np.ndarray, name: str,
                     where: str = "topic") -> None:
    """Raise :func:`duplicate_error` when two rows share an integer (key, docno) ``keys`` value."""
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    dup = np.flatnonzero(sk[1:] == sk[:-1])
    if len(dup):
        raise duplicate_error(order[dup], order[dup + 1], lineno, docno, name, where)
