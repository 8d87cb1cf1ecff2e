"""Aggregation stage: per-topic values to the summary (``all``) values.

Sums run over topics in evaluation order, one addition at a time, because
that is what trec_eval does and pairwise summation can change the fourth
decimal.
"""
from __future__ import annotations

import math

import numpy as np

from .. import _native
from .._record import record
from .measures import Agg, quiet_numpy


#: trec_eval floors values at this before taking logs for geometric means
MIN_GEO_MEAN = 0.00001


def seq_total(values: np.ndarray) -> float:
    """Left-to-right sum of a 1-D float array."""
    if len(values) == 0:
        return 0.0
    return float(np.cumsum(values.astype(np.float64))[-1])



def c_logs(values: np.ndarray, floor: float) -> np.ndarray:
    """``log(max(v, floor))`` of every value with the C library's log(), as
    trec_eval computes it; numpy's vectorised log can differ in the last bit."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    _cmath = _native.extension("cmath")
    if _cmath is not None:
        out = np.empty_like(values)
        _cmath.log_floor(values, floor, out)
        return out
    return np.array([math.log(v) for v in np.maximum(values, floor).tolist()], dtype=np.float64)


def num_averaged(num_topics: int, num_qrels_topics: int, complete: bool) -> int:
    """How many topics the summary averages over (``-c``: every judged topic)."""
    return num_qrels_topics if complete else num_topics


@record
class SummaryInfo:
    """What a measure's own ``summary`` function may look at besides its values."""

    evaluated: np.ndarray  # bool per topic: trec_eval computed it (see join.empty_topics)
    n_avg: int  # topics averaged over
    complete: bool  # -c given
    runid: str
    num_positive_judgments: int  # judgments with level >= 1 in the whole qrels file
    #: the measure's own per-topic ``parts`` (n, m), for summaries that add up
    #: counts (micro-averages); None when it declares none, or under -Z
    parts: np.ndarray | None = None
    filled: np.ndarray | None = None  # bool per topic: filled in by -c (no results)

    def of(self, agg: Agg, values: np.ndarray):
        """The standard ``agg`` summary of ``values`` (for summaries that fall back to it)."""
        return aggregate(agg, values, self)


def summarize(measure, values: np.ndarray, info: SummaryInfo):
    """The summary value of one output column of ``measure`` (``info.parts``
    must already hold that measure's parts, when it has any)."""
    with quiet_numpy():
        if measure.summary is not None:
            return measure.summary(values, info)
        return aggregate(measure.aggregate, values, info)


def aggregate(agg: Agg, values: np.ndarray, info: SummaryInfo):
    """The summary value of one output column.

    Only the topics trec_eval evaluated count (``info.evaluated``): a topic in
    the average that was not evaluated (9.0.8's ``-c``) adds 0 to a mean or a
    total, and the floor ``MIN_GEO_MEAN`` to a geometric mean, as trec_eval
    adds it after its loop, in one product.
    """
    n_avg = info.n_avg
    if agg is Agg.NUM_Q:
        return n_avg
    if agg is Agg.RUNID:
        return info.runid
    if agg is Agg.NONE:
        return None
    values = values[np.asarray(info.evaluated, dtype=bool)]
    if agg is Agg.MEAN:
        return seq_total(values) / n_avg if n_avg else 0.0
    if agg is Agg.SUM:
        if values.dtype.kind == "f":  # real-valued totals (z-scores under -Z) add in topic order
            return seq_total(values)
        return int(np.sum(values.astype(np.int64)))
    if agg is Agg.GMEAN or agg is Agg.GMEAN_LOGS:
        if not n_avg:
            return 0.0
        logs = values.astype(np.float64)
        if agg is Agg.GMEAN:
            logs = c_logs(logs, MIN_GEO_MEAN)
        total = seq_total(logs) + (n_avg - len(values)) * math.log(MIN_GEO_MEAN)
        return math.exp(total / n_avg)
    raise AssertionError(agg)
