"""Join/rank stage: parsed columns to ranked, judged topics.

The stage's names are imported on first use: :mod:`.policy` (how runs are read)
is read by the command line before numpy is imported."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ... import _lazy_attributes

__all__ = ["PAD", "NONPOOL", "UNJUDGED", "EvalContext", "Rankings", "TopicBatch", "build_rankings", "iter_batches"]

_LAZY = {
    **dict.fromkeys(("NONPOOL", "PAD", "UNJUDGED", "Rankings", "TopicBatch", "iter_batches"), ".batch"),
    "EvalContext": ".context",
    "build_rankings": ".qrels",
}

if TYPE_CHECKING:
    from .batch import NONPOOL, PAD, UNJUDGED, Rankings, TopicBatch, iter_batches
    from .context import EvalContext
    from .qrels import build_rankings

__getattr__ = _lazy_attributes(__name__, _LAZY)


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
