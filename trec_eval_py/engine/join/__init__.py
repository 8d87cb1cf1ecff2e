"""Join/rank stage: parsed columns to ranked, judged topics."""
from .batch import PAD, TopicBatch, iter_batches
from .context import EvalContext
from .rankings import NONPOOL, UNJUDGED, Rankings, build_rankings

__all__ = ["PAD", "NONPOOL", "UNJUDGED", "EvalContext", "Rankings", "TopicBatch", "build_rankings", "iter_batches"]
