"""Running one measure on plain lists of relevance values, for the unit tests."""
from __future__ import annotations

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.join.batch import TopicBatch
from trec_eval_py.engine.measures import registry
from trec_eval_py.engine.measures._base import quiet_numpy


def compute(name, rels, judged, params=None, **ctx):
    """Per-topic values (n, k) of measure ``name`` with ``-m name.params``, the
    kernel run as the pipeline runs it (numpy's 0/0 warnings off: kernels
    divide by zero on purpose and choose the result with np.where)."""
    m = registry()[name]
    b = TopicBatch.from_lists(rels, judged, EvalContext(**ctx))
    with quiet_numpy():
        return m.compute(b, m.params.parse(name, params))


def column(name, rels, judged, params=None, **ctx):
    return compute(name, rels, judged, params, **ctx)[:, 0].tolist()
