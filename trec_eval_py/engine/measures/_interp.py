"""Shared pieces of the recall-level measures (``iprec_at_recall``, ``11pt_avg``,
``Rprec_mult``).

Those measures turn a fraction (a recall level, or a multiple of R) into a
whole number of documents, per topic: ``fraction * num_rel``. trec_eval 9.0.8
does that by adding 0.9 and truncating; trec_eval 10.0 rounds to the nearest
integer, halves away from zero (C's ``lround``). The two disagree, e.g. for
``0.1 * 3``: 9.0.8 gives 1, 10.0 gives 0.

Interpolated precision at the ``c``-th relevant document is the best precision
reached at that document's rank or at any later rank of the ranking.
"""
from __future__ import annotations

import numpy as np

from ... import _native
from ._base import C_NAN, c_long


def fraction_to_count(fractions, num_rel: np.ndarray, v10: bool) -> np.ndarray:
    """int64 (n, k): ``fractions[j] * num_rel[i]`` as a document count.

    9.0.8: truncate ``x + 0.9`` toward zero; 10.0: round half away from zero.
    The product is formed in double precision as the C code forms it.
    """
    x = np.asarray(fractions, dtype=np.float64)[None, :] * num_rel.astype(np.float64)[:, None]
    if not v10:
        return c_long(np.trunc(x + 0.9))
    a = np.abs(x)
    whole = np.floor(a)
    # a - floor(a) is exact in binary floating point, so the halfway test is too
    rounded = whole + (a - whole >= 0.5)
    return c_long(np.sign(x) * rounded)


def recall_counts(b, fractions: tuple) -> np.ndarray:
    """:func:`fraction_to_count` of ``fractions`` and the batch's relevant counts, made
    once per batch (iprec_at_recall and 11pt_avg share the default levels): the
    array returned is shared, its readers do not write to it."""
    return b.memo(_recall_counts, tuple(fractions))


def _recall_counts(b, fractions: tuple) -> np.ndarray:
    counts = fraction_to_count(fractions, b.num_rel, b.ctx.v10)
    counts.flags.writeable = False
    return counts


def rank_of_relevant(b, counts: np.ndarray) -> np.ndarray:
    """int64 (n, k): 0-based column of the ``counts[i, j]``-th relevant document of
    topic i, for counts from 1 to that topic's relevant retrieved (a larger
    count points past the end of the row)."""
    n, w = b.n, b.width
    if counts.shape[1] == 0 or n == 0:
        return np.zeros(counts.shape, dtype=np.int64)
    # the walk's count is non-decreasing along a row; offsetting each row by
    # (w + 1) makes the flattened array sorted, so one searchsorted serves all rows.
    stride = w + 1
    base = np.arange(n, dtype=np.int64) * stride
    keys = (b.rel_so_far + base[:, None]).ravel()
    pos = np.searchsorted(keys, (counts + base[:, None]).ravel(), side="left")
    return pos.reshape(counts.shape) - (np.arange(n, dtype=np.int64) * w)[:, None]


def best_precision_from(b) -> np.ndarray:
    """float64 (n, W): the highest precision at this rank or any later ranked one,
    precision being the walk's relevant count over the rank (see ``rel_so_far``)."""
    prec = np.where(b.valid, b.rel_so_far / b.ranks, 0.0)
    return np.ascontiguousarray(np.maximum.accumulate(prec[:, ::-1], axis=1)[:, ::-1])


def interpolated_precision_at_counts(b, counts: np.ndarray) -> np.ndarray:
    """float64 (n, k): interpolated precision once ``counts[i, j]`` relevant
    documents have been seen, as trec_eval's iprec_at_recall assigns it.

    * a count above the relevant retrieved: 0 (never reached);
    * a count from 1 to the relevant retrieved: best precision from the rank
      of that relevant document on;
    * a count of 0 or less: best precision from the first relevant document
      on; with nothing relevant retrieved that is relevant retrieved divided by
      retrieved, so 0, or 0/0 for a ranking emptied by -J (trec_eval prints
      "-nan" there).

    Counts of relevant documents are the backward walk's (``rel_so_far``), which
    differ from ``cum_rel`` only for a negative ``-l``.
    """
    kernels = _native.extension("kernels")
    if kernels is not None and b.n and counts.shape[1]:
        # the same picks in one walk of each topic (_kernels.c)
        counts = np.ascontiguousarray(counts, dtype=np.int64)
        out = np.empty(counts.shape)
        kernels.iprec_pick(np.ascontiguousarray(b.rel_so_far, dtype=np.int64), b.memo(best_precision_from), b.width,
                           counts, counts.shape[1], np.ascontiguousarray(b.num_rel_ret, dtype=np.int64), b.num_ret, out)
        return out
    nrr = b.num_rel_ret[:, None]
    reached = counts <= nrr
    any_rel = nrr > 0
    target = np.clip(counts, 1, np.maximum(nrr, 1))
    # rows without relevant documents land past their end; they are masked below
    cols = np.minimum(rank_of_relevant(b, target), b.width - 1)
    # once per batch: iprec_at_recall and 11pt_avg read the same matrix
    best = np.take_along_axis(b.memo(best_precision_from), cols, axis=1)
    # nothing relevant retrieved: trec_eval's starting value, relevant/retrieved
    empty = np.where(b.num_ret > 0, 0.0, C_NAN)[:, None]
    out = np.where(any_rel, best, empty)
    return np.where(reached, out, 0.0)
