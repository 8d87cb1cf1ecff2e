"""Gain tables and discounts shared by the DCG family (ndcg, G, rbp, ...).

trec_eval turns a topic's qrels into a *gain table*: one entry per
``level=gain`` parameter, then one entry per relevance level ``0 .. L-1``
(``L`` = highest level present in the topic's qrels + 1) not named by a
parameter, with gain equal to the level. Each entry also carries the number
of qrels documents at its level (only the first entry naming a level gets
it). The entries are sorted by increasing gain with glibc's ``qsort`` (a
stable top-down merge sort) and a comparator that returns the gain
difference *truncated to an int*: gains less than 1 apart compare equal, so
the order of close fractional gains depends on where they started. We
reproduce that sort exactly because it decides the ideal ordering.

From the sorted table:

* a retrieved document's gain is that of the first entry (in sorted order)
  whose level equals the document's relevance code (``-1`` not in qrels,
  ``-2`` judged unjudged), else 0;
* the *ideal ranking* walks the entries from the highest gain down, taking
  ``count`` documents of each entry that has documents, and stops at the
  first such entry whose gain is not positive (or when none are left). If
  the very top entry's gain is not positive there is no ideal ranking.

Discounts ``log2(rank + 1)`` come from the C library's ``log2`` (through
:func:`math.log2`), computed once per rank, so they match trec_eval's
bit for bit whatever numpy's vectorised ``log2`` does.
"""
from __future__ import annotations

import math
import re
import weakref
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

_INT_MIN = -(1 << 31)
_INT_MAX = (1 << 31) - 1


# ---------------------------------------------------------------- parameters
def c_atol(text: str) -> int:
    """What C's ``atol`` makes of ``text`` (leading blanks, sign, digits; else 0)."""
    m = re.match(r"[ \t\n\v\f\r]*([+-]?\d+)", text)
    return int(m.group(1)) if m else 0


def param_level(name: str, strict: bool) -> int | None:
    """The relevance level a ``level=gain`` parameter names.

    ``strict`` (trec_eval 10.0): the name must be an optional sign and digits,
    otherwise the pair is ignored (None) -- this is how ``rbp.p=0.8`` keeps its
    ``p`` out of the gains. Otherwise (9.0.8) the name is read like ``atol``,
    so a name that is not a number means level 0.
    """
    if strict:
        return int(name) if re.fullmatch(r"[+-]?\d+", name) else None
    return c_atol(name)


def gain_pairs(params, strict: bool) -> tuple:
    """``(level, gain)`` for each usable ``level=gain`` parameter, in typed order."""
    out = []
    for name, value in params.values:
        level = param_level(name, strict)
        if level is not None:
            out.append((level, float(value)))
    return tuple(out)


# ---------------------------------------------------------------- the sort
def _c_int_diff(a: float, b: float) -> int:
    """``(int)(a - b)`` as x86 code computes it (out of range gives INT_MIN)."""
    d = a - b
    if d != d or not (_INT_MIN <= d < _INT_MAX + 1):
        return _INT_MIN
    return int(d)  # truncation toward zero


def glibc_msort(items: list, cmp) -> list:
    """glibc ``qsort``'s merge sort: halves ``n // 2`` and the rest, merging
    by taking from the left run while ``cmp(left, right) <= 0``."""
    n = len(items)
    if n <= 1:
        return list(items)
    n1 = n // 2
    left = glibc_msort(items[:n1], cmp)
    right = glibc_msort(items[n1:], cmp)
    out = []
    i = j = 0
    while i < len(left) and j < len(right):
        if cmp(left[i], right[j]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    out.extend(left[i:])
    out.extend(right[j:])
    return out


@dataclass(frozen=True)
class GainTable:
    """Sorted entries of a gain table for topics with ``L`` levels.

    ``levels``/``gains`` are in increasing-gain (sorted) order; ``count_level``
    is the qrels level whose document count an entry carries, or -1.
    ``lookup`` maps a relevance code ``c`` (``-2 <= c < L``) at index ``c + 2``
    to a retrieved document's gain.
    """

    levels: tuple
    gains: tuple
    count_level: tuple
    lookup: np.ndarray


@lru_cache(maxsize=256)
def gain_table(pairs: tuple, num_levels: int) -> GainTable:
    entries = []  # (level, gain, count_level)
    for level, gain in pairs:
        entries.append([level, gain, -1])
    for lvl in range(num_levels):
        for e in entries:
            if e[0] == lvl:
                e[2] = lvl
                break
        else:
            entries.append([lvl, float(lvl), lvl])
    if all(float(g).is_integer() and abs(g) < 2 ** 30 for _, g, _ in entries):
        # exact integer differences: the comparator is a true order, and any
        # stable sort gives the merge sort's result
        ordered = sorted(entries, key=lambda e: e[1])
    else:
        ordered = glibc_msort(entries, lambda a, b: _c_int_diff(a[1], b[1]))
    lookup = np.zeros(num_levels + 2, dtype=np.float64)
    seen = set()
    for level, gain, _ in ordered:
        if -2 <= level < num_levels and level not in seen:
            seen.add(level)
            lookup[level + 2] = gain
    return GainTable(
        levels=tuple(e[0] for e in ordered),
        gains=tuple(e[1] for e in ordered),
        count_level=tuple(e[2] for e in ordered),
        lookup=lookup,
    )


# ---------------------------------------------------------------- per batch
@dataclass
class BatchGains:
    """Gains of one batch under one parameter set.

    ret : float64 (n, W), gain of the document at each rank (0 past the end)
    ideal : float64 (n, I), the ideal ranking's gains (0 past its end), I >= 1
    ideal_len : int64 (n,), length of the ideal ranking
    """

    ret: np.ndarray
    ideal: np.ndarray
    ideal_len: np.ndarray


_BATCH_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def batch_gains(b, pairs: tuple) -> BatchGains:
    """Retrieved and ideal gains for every topic of batch ``b`` (computed once
    per batch and gain parameters: several measures share them)."""
    per_batch = _BATCH_CACHE.setdefault(b, {})
    if pairs not in per_batch:
        per_batch[pairs] = _batch_gains(b, pairs)
    return per_batch[pairs]


def num_levels(b) -> np.ndarray:
    """int64 (n,): ``L`` per topic, its highest qrels level + 1 (0 if none is >= 0)."""
    top = b.judged[:, 0] if b.judged.shape[1] else np.full(b.n, -1)
    return np.where(top >= 0, top + 1, 0).astype(np.int64)


def groups_by_levels(b):
    """``(L, rows)`` for each distinct ``L`` among the batch's topics."""
    levels = num_levels(b)
    for lv in np.unique(levels).tolist():
        yield int(lv), np.flatnonzero(levels == lv)


def retrieved_gains(b, rows: np.ndarray, lookup: np.ndarray, levels: int) -> np.ndarray:
    """float64 (len(rows), W): ``lookup`` applied to the codes of ``rows`` (0 past the end)."""
    codes = np.clip(b.rel[rows], -2, max(levels - 1, -2)) + 2
    return np.where(b.valid[rows], lookup[codes], 0.0)


def _entry_counts(b, rows: np.ndarray, table: GainTable) -> np.ndarray:
    """int64 (len(rows), E): qrels documents carried by each table entry, top entry first."""
    judged = b.judged[rows]
    present = set(np.unique(judged[judged >= 0]).tolist())
    counts = np.zeros((len(rows), len(table.gains)), dtype=np.int64)
    for col, k in enumerate(range(len(table.gains) - 1, -1, -1)):
        lv = table.count_level[k]
        if lv >= 0 and lv in present:
            counts[:, col] = np.count_nonzero(judged == lv, axis=1)
    return counts


def _batch_gains(b, pairs: tuple) -> BatchGains:
    n, w = b.rel.shape
    ret = np.zeros((n, w), dtype=np.float64)
    lens = np.zeros(n, dtype=np.int64)
    pieces = []
    for levels, rows in groups_by_levels(b):
        table = gain_table(pairs, levels)
        ret[rows] = retrieved_gains(b, rows, table.lookup, levels)
        if not table.gains or table.gains[-1] <= 0.0:
            continue  # no ideal ranking at all
        gains = np.array(table.gains[::-1], dtype=np.float64)  # top entry first
        counts = _entry_counts(b, rows, table)
        # the walk stops at the first entry with documents and a gain <= 0
        stop = np.cumsum((counts > 0) & (gains <= 0.0)[None, :], axis=1) > 0
        counts = np.where(stop, 0, counts)
        lens[rows] = counts.sum(axis=1)
        pieces.append((rows, gains, counts))
    ideal = np.zeros((n, max(int(lens.max()) if n else 0, 1)), dtype=np.float64)
    for rows, gains, counts in pieces:
        flat = np.repeat(np.tile(gains, len(rows)), counts.ravel())
        glens = lens[rows]
        starts = np.cumsum(glens) - glens
        cols = np.arange(len(flat)) - np.repeat(starts, glens)
        ideal[np.repeat(rows, glens), cols] = flat
    return BatchGains(ret, ideal, lens)


# ---------------------------------------------------------------- discounts
_LOG2 = np.zeros(0)


def log2_rank1(width: int) -> np.ndarray:
    """float64 (width,): ``log2(j + 2)`` for ranks ``j + 1 = 1 .. width`` (C ``log2``)."""
    global _LOG2
    if len(_LOG2) < width:
        size = max(width, 2 * len(_LOG2), 1024)
        _LOG2 = np.array([math.log2(j + 2) for j in range(size)], dtype=np.float64)
    return _LOG2[:width]


def c_log2(x: np.ndarray) -> np.ndarray:
    """Elementwise C ``log2`` of arbitrary doubles (each distinct value once)."""
    x = np.asarray(x, dtype=np.float64)
    uniq, inv = np.unique(x, return_inverse=True)
    logs = np.array([_safe_log2(v) for v in uniq.tolist()], dtype=np.float64)
    return logs[inv].reshape(x.shape)


def _safe_log2(v: float) -> float:
    if v > 0.0:
        return math.log2(v)
    if v == 0.0:
        return -math.inf
    return math.nan


def discounted(gains: np.ndarray) -> np.ndarray:
    """``gain / log2(rank + 1)`` per cell (0 stays 0)."""
    return gains / log2_rank1(gains.shape[1])


def running(x: np.ndarray) -> np.ndarray:
    """Left-to-right running sums along each row (a C accumulation loop)."""
    return np.cumsum(x, axis=1)
