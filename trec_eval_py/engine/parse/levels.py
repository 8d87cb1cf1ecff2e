"""The relevance levels a judgment may carry (the qrels reader and the dict conversion check both)."""

#: the highest relevance level accepted: trec_eval keeps one counter per level
#: up to a topic's highest and sorts gains by their int differences, so higher
#: levels cannot be evaluated the way it does (negative levels, "in the pool
#: but unjudged", have no bound)
MAX_LEVEL = (1 << 30) - 1
#: the lowest: int64's minimum has no negation, which orderings rely on
MIN_LEVEL = -(1 << 63) + 1
