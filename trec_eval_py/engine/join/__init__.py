"""Join/rank stage: parsed columns to ranked, judged topics."""
from .batch import NONPOOL, PAD, UNJUDGED, Rankings, TopicBatch, iter_batches
from .context import EvalContext
from .qrels import build_rankings

__all__ = ["PAD", "NONPOOL", "UNJUDGED", "EvalContext", "Rankings", "TopicBatch", "build_rankings", "iter_batches"]
