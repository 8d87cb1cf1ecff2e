"""Running one measure of the gain family on plain lists, for the unit tests."""
from __future__ import annotations

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.join.batch import TopicBatch
from trec_eval_py.engine.measures import registry


def compute(name, rels, judged, params=None, **ctx):
    """Per-topic values (n, k) of measure ``name`` with ``-m name.params``."""
    m = registry()[name]
    b = TopicBatch.from_lists(rels, judged, EvalContext(**ctx))
    return m.compute(b, m.params.parse(name, params))


def column(name, rels, judged, params=None, **ctx):
    return compute(name, rels, judged, params, **ctx)[:, 0].tolist()
