"""Slow per-topic counts for the set measures' reference implementations."""


def counts(codes, judged, level=1):
    """(retrieved, relevant in qrels, relevant retrieved) as trec_eval counts them."""
    floor = max(level, 0)
    return len(codes), sum(1 for j in judged if j >= floor), sum(1 for c in codes if c >= floor)


def compute(name, rels, judged, text=None, **ctx):
    from trec_eval_py.engine.join import EvalContext
    from trec_eval_py.engine.join.batch import TopicBatch
    from trec_eval_py.engine.measures import registry

    m = registry()[name]
    b = TopicBatch.from_lists(rels, judged, EvalContext(**ctx))
    return m.compute(b, m.params.parse(name, text))[:, 0].tolist()
