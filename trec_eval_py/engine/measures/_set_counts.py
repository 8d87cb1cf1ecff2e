"""Per-topic counts shared by the set-based and judgment-based measures.

trec_eval builds these while joining a ranking with the qrels: only
documents with a real judgment (level >= 0) can be relevant, whatever ``-l``
says, and the qrels entries with negative levels (pooled but not judged) are
never counted as relevant. For ``-l`` >= 0 these equal the batch's own
``num_rel`` / ``num_rel_ret``; they differ only for a negative ``-l``.
"""
from __future__ import annotations

import numpy as np


def rel_floor(b) -> int:
    """Lowest judged level that counts as relevant (``-l``, but never below 0)."""
    return max(b.level, 0)


def judged_rel(b) -> np.ndarray:
    """bool (n, W): a ranked document with a judgment at or above the relevance level."""
    return (b.rel >= rel_floor(b)) & b.valid


def judged_nonrel(b) -> np.ndarray:
    """bool (n, W): a ranked document judged below the relevance level."""
    return (b.rel >= 0) & (b.rel < b.level) & b.valid


def num_rel(b) -> np.ndarray:
    """int64 (n,): relevant entries in the topic's qrels."""
    return np.count_nonzero(b.judged >= rel_floor(b), axis=1).astype(np.int64)


def num_rel_ret(b) -> np.ndarray:
    """int64 (n,): relevant documents among those ranked."""
    return np.count_nonzero(judged_rel(b), axis=1).astype(np.int64)
