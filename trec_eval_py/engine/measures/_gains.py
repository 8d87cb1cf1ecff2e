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

The levels counted are the batch's ``gain_judged``: the topic's own, except
for a topic judged only with negative levels, which (as in trec_eval) counts
those of the topic evaluated before it (see
:func:`trec_eval_py.engine.join.qrels.level_sources`).

Discounts ``log2(rank + 1)`` come from the C library's ``log2`` (through
:func:`math.log2`), computed once per rank, so they match trec_eval's
bit for bit whatever numpy's vectorised ``log2`` does.
"""
from __future__ import annotations

import math
import re
import weakref
from functools import cached_property, lru_cache

import numpy as np

from ... import _native
from ..._record import record
from ..join.keys import sort_distinct  # np.unique would import numpy.ma (numpy 2.x)
from ._base import c_log2 as c_log2_one

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


#: with gain parameters that are not small integers, trec_eval's truncating
#: sort depends on every level up to the highest, so the table is built whole:
#: topics with more levels than this are refused rather than sorted for minutes
DENSE_MAX_LEVELS = 1 << 16


@record
class GainTable:
    """Sorted entries of a gain table for topics with ``L`` levels.

    ``levels``/``gains`` are in increasing-gain (sorted) order; ``count_level``
    is the qrels level whose document count an entry carries, or -1. A
    *sparse* table leaves out the levels below ``L`` that no qrels document
    has and no parameter names (they carry no documents and no retrieved
    document has them); ``min_gain``/``max_gain`` are those of the whole table.
    """

    levels: tuple
    gains: tuple
    count_level: tuple
    num_levels: int
    min_gain: float
    max_gain: float

    @cached_property
    def _codes(self) -> tuple[np.ndarray, np.ndarray]:
        # the gain of code c: the first entry (sorted order) whose level is c
        first: dict = {}
        for level, gain in zip(self.levels, self.gains):
            if -2 <= level < self.num_levels and level not in first:
                first[level] = gain
        keys = np.array(sorted(first), dtype=np.int64)
        return keys, np.array([first[k] for k in keys.tolist()], dtype=np.float64)

    def gain_of(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(gain, has an entry) for each relevance code (0 where none)."""
        keys, vals = self._codes
        if not len(keys):
            return np.zeros(codes.shape), np.zeros(codes.shape, dtype=bool)
        i = np.minimum(np.searchsorted(keys, codes), len(keys) - 1)
        known = keys[i] == codes
        return np.where(known, vals[i], 0.0), known

    @cached_property
    def lookup(self) -> np.ndarray:
        """Gains of codes ``-2 .. L-1`` at index ``code + 2`` (small tables)."""
        return self.gain_of(np.arange(-2, self.num_levels, dtype=np.int64))[0]

    @cached_property
    def carriers(self) -> tuple[np.ndarray, np.ndarray]:
        """(levels, entries): each qrels level that carries a document count, in
        increasing order, and the position of the entry that carries it."""
        pairs = sorted((lv, k) for k, lv in enumerate(self.count_level) if lv >= 0)
        return (np.array([c[0] for c in pairs], dtype=np.int64), np.array([c[1] for c in pairs], dtype=np.int64))


def _exact_order(pairs: tuple, top_level: int) -> bool:
    """Whether the truncating comparator is a true order on this table: all
    gains integers whose differences fit in an int. Then any stable sort gives
    the merge sort's result, and so does sorting only some of the entries."""
    return top_level < 2 ** 30 and all(float(g).is_integer() and abs(g) < 2 ** 30 for _, g in pairs)


def _free_levels(pairs: tuple, num_levels: int) -> tuple:
    """The lowest and highest level below ``num_levels`` no parameter names (or None)."""
    named = {lv for lv, _ in pairs}
    lo = next((lv for lv in range(num_levels) if lv not in named), None)
    hi = next((lv for lv in range(num_levels - 1, -1, -1) if lv not in named), None)
    return lo, hi


@lru_cache(maxsize=256)
def gain_table(pairs: tuple, num_levels: int, present: tuple | None = None) -> GainTable:
    """The sorted gain table of topics whose highest qrels level is ``num_levels - 1``.

    ``present`` (levels some qrels document has) allows a sparse table, whose
    cost follows the number of distinct levels, when the order is exact;
    otherwise every level below ``num_levels`` gets an entry, as in trec_eval.
    """
    from ...errors import MeasureError

    exact = _exact_order(pairs, num_levels - 1)
    if present is None or not exact:
        if not exact and num_levels > DENSE_MAX_LEVELS:
            raise MeasureError(
                f"relevance level {num_levels - 1} is too high for gains that are not small integers "
                f"(at most {DENSE_MAX_LEVELS - 1}: trec_eval's gain order depends on every level up to the highest)")
        wanted: range | list[int] = range(num_levels)
    else:
        wanted = sorted(lv for lv in set(present) if 0 <= lv < num_levels)
    entries = [[level, gain, -1] for level, gain in pairs]
    first_named: dict[int, list] = {}
    for e in entries:
        first_named.setdefault(e[0], e)
    for lvl in wanted:
        named = first_named.get(lvl)
        if named is not None:
            named[2] = lvl
        else:
            entries.append([lvl, float(lvl), lvl])
    if exact:
        # exact integer differences: the comparator is a true order, and any
        # stable sort gives the merge sort's result
        ordered = sorted(entries, key=lambda e: e[1])
    else:
        ordered = glibc_msort(entries, lambda a, b: _c_int_diff(a[1], b[1]))
    all_gains = [g for _, g in pairs]
    lo, hi = _free_levels(pairs, num_levels)
    all_gains += [float(x) for x in (lo, hi) if x is not None]
    return GainTable(
        levels=tuple(e[0] for e in ordered),
        gains=tuple(e[1] for e in ordered),
        count_level=tuple(e[2] for e in ordered),
        num_levels=num_levels,
        min_gain=min(all_gains) if all_gains else 0.0,
        max_gain=max(all_gains) if all_gains else 0.0,
    )


def group_table(b, rows: np.ndarray | slice, pairs: tuple, levels: int) -> GainTable:
    """The (sparse where possible) gain table of topics ``rows`` of batch ``b``,
    which all have ``levels`` levels."""
    judged = b.gain_judged[rows]
    present = tuple(sort_distinct(judged[judged >= 0]).tolist())
    return gain_table(pairs, levels, present)


# ---------------------------------------------------------------- per batch
@record(frozen=False)
class BatchGains:
    """Gains of one batch under one parameter set.

    ret : float64 (n, W), gain of the document at each rank (0 past the end)
    ideal : float64 (n, I), the ideal ranking's gains (0 past its end), I >= 1
    ideal_len : int64 (n,), length of the ideal ranking
    """

    ret: np.ndarray
    ideal: np.ndarray
    ideal_len: np.ndarray


_BATCH_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def batch_gains(b, pairs: tuple) -> BatchGains:
    """Retrieved and ideal gains for every topic of batch ``b`` (computed once
    per batch and gain parameters: several measures share them)."""
    per_batch = _BATCH_CACHE.setdefault(b, {})
    if pairs not in per_batch:
        per_batch[pairs] = _batch_gains(b, pairs)
    return per_batch[pairs]


def num_levels(b) -> np.ndarray:
    """int64 (n,): ``L`` per topic, its highest qrels level + 1 (0 if none is >= 0)."""
    top = b.gain_judged[:, 0] if b.gain_judged.shape[1] else np.full(b.n, -1)
    return np.where(top >= 0, top + 1, 0).astype(np.int64)


def groups_by_levels(b):
    """``(L, rows)`` for each distinct ``L`` among the batch's topics."""
    levels = num_levels(b)
    for lv in sort_distinct(levels).tolist():
        yield int(lv), np.flatnonzero(levels == lv)


#: tables with at most this many levels are read through a lookup by code in C
#: (one entry per level); larger, sparse ones through their sorted keys
C_LOOKUP_MAX_LEVELS = 1 << 16


def retrieved_gains(b, rows: np.ndarray | slice, table: GainTable) -> np.ndarray:
    """float64 (len(rows), W): the gains of the documents ranked in ``rows``
    (``slice(None)``: every topic of the batch, not copied), 0 past the end."""
    kernels = _native.extension("kernels")
    if kernels is not None and table.num_levels <= C_LOOKUP_MAX_LEVELS:
        rel = np.ascontiguousarray(b.rel[rows])
        out = np.empty(rel.shape)
        kernels.gains_of(rel, rel.shape[1], np.ascontiguousarray(b.num_ret[rows]), np.ascontiguousarray(table.lookup),
                         out)
        return out
    gains, _ = table.gain_of(b.rel[rows])
    return np.where(b.valid[rows], gains, 0.0)


def _ideal(b, rows: np.ndarray | slice, table: GainTable) -> tuple[np.ndarray, np.ndarray]:
    """(gains (len(rows), J), lengths): each topic's ideal ranking. Every judged
    document sits at the table entry that carries its level's count; the walk
    takes them from the top entry down and stops at the first with a gain <= 0."""
    judged = np.ascontiguousarray(b.gain_judged[rows])
    lv_keys, lv_pos = table.carriers
    if not len(lv_keys):
        return np.zeros((len(judged), 1)), np.zeros(len(judged), dtype=np.int64)
    kernels = _native.extension("kernels")
    if kernels is not None and table.num_levels <= C_LOOKUP_MAX_LEVELS:
        carrier = np.full(table.num_levels, -1, dtype=np.int64)
        carrier[lv_keys] = lv_pos
        out = np.zeros(judged.shape)
        lens = np.empty(len(judged), dtype=np.int64)
        kernels.ideal_gains(judged, judged.shape[1], carrier, np.array(table.gains, dtype=np.float64), out, lens)
        return out, lens
    i = np.minimum(np.searchsorted(lv_keys, judged), len(lv_keys) - 1)
    has = (judged >= 0) & (lv_keys[i] == judged)
    pos = np.where(has, lv_pos[i], -1)
    pos = -np.sort(-pos, axis=1)  # top entry first; documents of one entry together
    gains = np.array(table.gains, dtype=np.float64)
    g = np.where(pos >= 0, gains[np.maximum(pos, 0)], 0.0)
    keep = (pos >= 0) & (np.cumsum((pos >= 0) & (g <= 0.0), axis=1) == 0)
    return np.where(keep, g, 0.0), keep.sum(axis=1)


def _batch_gains(b, pairs: tuple) -> BatchGains:
    n, w = b.rel.shape
    groups: list = list(groups_by_levels(b))
    if len(groups) == 1:  # one table for every topic: the batch's own rows, none gathered
        groups = [(groups[0][0], slice(None))]
    ret = np.zeros((n, w), dtype=np.float64)  # left untouched when one table serves every row
    lens = np.zeros(n, dtype=np.int64)
    pieces = []
    for levels, rows in groups:
        table = group_table(b, rows, pairs, levels)
        gains = retrieved_gains(b, rows, table)
        if isinstance(rows, slice):
            ret = gains
        else:
            ret[rows] = gains
        if not table.gains or table.gains[-1] <= 0.0:
            continue  # no ideal ranking at all
        g, glens = _ideal(b, rows, table)
        lens[rows] = glens
        pieces.append((rows, g))
    ideal = np.zeros((n, max(int(lens.max()) if n else 0, 1)), dtype=np.float64)
    for rows, g in pieces:
        k = min(g.shape[1], ideal.shape[1])
        ideal[rows, :k] = g[:, :k]
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
    logs = np.array([c_log2_one(v) for v in uniq.tolist()], dtype=np.float64)
    return logs[inv].reshape(x.shape)


def discounted(gains: np.ndarray) -> np.ndarray:
    """``gain / log2(rank + 1)`` per cell (0 stays 0)."""
    return gains / log2_rank1(gains.shape[1])


def running(x: np.ndarray) -> np.ndarray:
    """Left-to-right running sums along each row (a C accumulation loop)."""
    return np.cumsum(x, axis=1)


def dcg_at(x: np.ndarray, cols, skip_zero: bool = False) -> np.ndarray:
    """float64 (n, len(cols)): the running sums of ``x / log2(rank + 1)`` along
    each row (:func:`running` of :func:`discounted`), read at columns ``cols``
    (numpy's indexing: -1 is the last). ``skip_zero`` makes a zero gain's term
    0.0, as ``np.where(x != 0, discounted(x), 0)`` does. One walk of each row
    in C when it is built (``_kernels.c``), the same additions in the same
    order."""
    n, w = x.shape
    picked = np.arange(w, dtype=np.int64)[np.asarray(cols, dtype=np.int64)]
    kernels = _native.extension("kernels")
    if kernels is not None and n and w and len(picked):
        out = np.empty((n, len(picked)))
        kernels.dcg_at(np.ascontiguousarray(x, dtype=np.float64), w, skip_zero, picked, log2_rank1(w), out)
        return out
    terms = discounted(x)
    if skip_zero:
        terms = np.where(x != 0.0, terms, 0.0)
    return running(terms)[:, picked]


def ndcg_at_cutoffs(gains: np.ndarray, ideal: np.ndarray, cutoffs) -> np.ndarray:
    """nDCG of each row at each cutoff: the dcg of the run's ``gains`` (rank
    order, 0 past the end) over the dcg of the ``ideal`` gains (best first),
    both summed over the top ``k`` (a shorter row sums what it has). A row
    whose ideal dcg is 0 scores 0. Shape (n, len(cutoffs))."""
    dcg = dcg_at(gains, [min(k, gains.shape[1]) - 1 for k in cutoffs])
    best = dcg_at(ideal, [min(k, ideal.shape[1]) - 1 for k in cutoffs])
    out = dcg.copy()
    np.divide(dcg, best, out=out, where=best > 0.0)
    return out
