"""Aggregation stage: per-topic values to the summary (``all``) values.

Sums run over topics in evaluation order, one addition at a time, because
that is what trec_eval does and pairwise summation can change the fourth
decimal.

Every summary is also an exact *fold* over consecutive ranges of topics
(:class:`SummaryFold`): a range contributes a small payload
(:func:`summary_chunks`: the values it adds to a sum, the C logs of a
geometric mean, an integer total), and the payloads are combined in topic
order, each sum continuing from the running total of the ranges before it
(one ``cumsum`` started from that carry is the same additions as one over
every topic). What only the whole evaluation knows (topics averaged over,
``-c``, the run id) is applied at the end. So an evaluation cut into ranges,
wherever the cuts fall, prints what one pass over every topic prints, and
holds one range's values at a time. The whole evaluation is the fold of a
single range.
"""
from __future__ import annotations

import math

import numpy as np

from .. import _native
from .._record import record
from .measures import Agg, Measure, quiet_numpy

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
    adds it after its loop, in one product. (The fold of one range: the same
    arithmetic as every range of a sharded evaluation.)
    """
    return _agg_finish(agg, _agg_combine(None, _agg_chunk(agg, values, info)), info)


def seq_continue(total: float | None, values: np.ndarray) -> float | None:
    """``total`` (None: nothing yet) with ``values`` added to it left to right:
    the running total one sequential sum over everything so far would hold."""
    if len(values) == 0:
        return total
    values = values.astype(np.float64)
    if total is not None:
        values = np.concatenate([np.array([total], dtype=np.float64), values])
    return float(np.cumsum(values)[-1])


# ---- the standard aggregates as folds ----
# a payload is None (nothing to add), ("f", float64 values to add in order) or
# ("i", an exact integer total); a state is [running float total or None,
# values added, integer total or None]

def _agg_chunk(agg: Agg, values: np.ndarray, info: SummaryInfo):
    if agg in (Agg.NUM_Q, Agg.RUNID, Agg.NONE):
        return None
    values = np.asarray(values)[np.asarray(info.evaluated, dtype=bool)]
    if agg is Agg.SUM and values.dtype.kind != "f":
        return ("i", int(np.sum(values.astype(np.int64))))
    if agg is Agg.GMEAN:
        return ("f", c_logs(values.astype(np.float64), MIN_GEO_MEAN))
    # real-valued totals (z-scores under -Z) and means add in topic order
    return ("f", values.astype(np.float64))


def _agg_combine(state, payload):
    state = [None, 0, None] if state is None else state
    if payload is None:
        return state
    kind, x = payload
    if kind == "i":
        state[2] = x if state[2] is None else state[2] + x
    else:
        state[0] = seq_continue(state[0], x)
        state[1] += len(x)
    return state


def _agg_finish(agg: Agg, state, info: SummaryInfo):
    n_avg = info.n_avg
    if agg is Agg.NUM_Q:
        return n_avg
    if agg is Agg.RUNID:
        return info.runid
    if agg is Agg.NONE:
        return None
    total, count, whole = state if state is not None else (None, 0, None)
    if agg is Agg.MEAN:
        return (0.0 if total is None else total) / n_avg if n_avg else 0.0
    if agg is Agg.SUM:
        if whole is not None:
            return whole
        return 0.0 if total is None else total
    if agg is Agg.GMEAN or agg is Agg.GMEAN_LOGS:
        if not n_avg:
            return 0.0
        total = (0.0 if total is None else total) + (n_avg - count) * math.log(MIN_GEO_MEAN)
        return math.exp(total / n_avg)
    raise AssertionError(agg)


def _fold_kind(measure: Measure, has_parts: bool) -> str:
    """How ``measure``'s column folds: its own ``fold``, the columns kept whole
    (a ``summary`` without a fold), or its ``aggregate``."""
    if measure.parts is not None and not has_parts:  # -Z: the aggregate of the z-scores
        return "agg"
    if measure.fold is not None:
        return "own"
    if measure.summary is not None:
        return "keep"
    return "agg"


def summary_chunks(measures: list[Measure], values: list[np.ndarray], info: SummaryInfo,
                   parts: list[np.ndarray | None]) -> list:
    """What one range of topics adds to each column's summary (the map side of
    the fold; run where the range is evaluated). ``info`` is the range's
    (``evaluated``, ``filled``); ``parts[j]`` column j's measure parts, if any."""
    out = []
    with quiet_numpy():
        for m, v, p in zip(measures, values, parts):
            kind = _fold_kind(m, p is not None)
            own = info if p is None else _replace_parts(info, p)
            if kind == "keep":
                out.append((np.asarray(v), np.asarray(info.evaluated, dtype=bool),
                            None if info.filled is None else np.asarray(info.filled, dtype=bool), p))
            elif kind == "own" and m.fold is not None and m.fold.chunk is not None:
                out.append(m.fold.chunk(v, own))
            else:
                out.append(_agg_chunk(m.aggregate, v, own))
    return out


def _replace_parts(info: SummaryInfo, parts):
    from .._record import replace

    return replace(info, parts=parts)


class SummaryFold:
    """The summaries of a list of columns, folded range by range in topic order.

    ``measures[j]`` is column j's measure and ``has_parts[j]`` whether its
    ranges bring the measure's parts (false under ``-Z``). Ranges are added
    with :meth:`add` (payloads of :func:`summary_chunks`) strictly in topic
    order; :meth:`result` gives the summary values from the whole
    evaluation's :class:`SummaryInfo`.
    """

    def __init__(self, measures: list[Measure], has_parts: list[bool]):
        self.measures = list(measures)
        self.kinds = [_fold_kind(m, p) for m, p in zip(measures, has_parts)]
        self.states: list = [None] * len(self.measures)

    @staticmethod
    def keeps_columns(measures: list[Measure]) -> bool:
        """Whether a measure among ``measures`` may keep its whole column for its
        summary (its state then grows with the topics, not a few numbers)."""
        return any(m.fold is None and m.summary is not None for m in measures)

    def add(self, chunks: list) -> None:
        for j, (m, kind, payload) in enumerate(zip(self.measures, self.kinds, chunks)):
            if kind == "keep":
                self.states[j] = (self.states[j] or []) + [payload]
            elif kind == "own" and m.fold is not None and m.fold.combine is not None:
                self.states[j] = m.fold.combine(self.states[j], payload)
            else:
                self.states[j] = _agg_combine(self.states[j], payload)

    def result(self, info: SummaryInfo) -> list:
        out = []
        with quiet_numpy():
            for m, kind, state in zip(self.measures, self.kinds, self.states):
                if kind == "keep":
                    assert m.summary is not None  # what "keep" means (_fold_kind)
                    out.append(m.summary(*_kept(state, info)))
                elif kind == "own" and m.fold is not None and m.fold.combine is not None:
                    out.append(m.fold.finish(state, info))
                elif kind == "own":
                    assert m.fold is not None  # what "own" means (_fold_kind)
                    out.append(m.fold.finish(_agg_finish(m.aggregate, state, info), info))
                else:
                    out.append(_agg_finish(m.aggregate, state, info))
        return out


def _kept(pieces, info: SummaryInfo):
    """A kept column's ranges as one column and the whole evaluation's info."""
    from .._record import replace

    pieces = pieces or []

    def cat(k, empty):
        arrs = [p[k] for p in pieces if p[k] is not None]
        return np.concatenate(arrs) if arrs else empty

    values = cat(0, np.zeros(0))
    evaluated = cat(1, np.zeros(0, dtype=bool))
    filled = cat(2, None) if any(p[2] is not None for p in pieces) else info.filled
    parts = cat(3, None) if any(p[3] is not None for p in pieces) else None
    return values, replace(info, evaluated=evaluated, filled=filled, parts=parts)
