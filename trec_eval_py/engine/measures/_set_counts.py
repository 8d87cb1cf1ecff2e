"""Per-topic counts shared by the set-based and judgment-based measures.

trec_eval builds these while joining a ranking with the qrels: only
documents with a real judgment (level >= 0) can be relevant, whatever ``-l``
says, and the qrels entries with negative levels (pooled but not judged) are
never counted as relevant. They are the batch's own ``num_rel`` and
``num_rel_ret``, defined there once.
"""
from __future__ import annotations

import numpy as np


def judged_rel(b) -> np.ndarray:
    """bool (n, W): a ranked document with a judgment at or above the relevance level."""
    return b.judged_rel


def judged_nonrel(b) -> np.ndarray:
    """bool (n, W): a ranked document judged below the relevance level."""
    return (b.rel >= 0) & (b.rel < b.level) & b.valid


def num_rel(b) -> np.ndarray:
    """int64 (n,): relevant entries in the topic's qrels."""
    return b.num_rel


def num_rel_ret(b) -> np.ndarray:
    """int64 (n,): relevant documents among those ranked."""
    return b.num_rel_ret
