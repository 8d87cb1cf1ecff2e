"""The evaluation range of topics by range: on a dask cluster (each range a task,
the summary folded from worker to worker), or folded in one process (a big run
summarised in bounded memory, a sharded dataset, ``shards=`` asked for). The
values are the whole evaluation's, bit for bit (see :mod:`.aggregate`).

:meth:`.pipeline.Evaluator.evaluate` takes this road when :func:`_is_dataset`
or :func:`_summary_in_ranges` says so, or shards or a client are given; the
workers of a cluster receive :func:`measure_range` and :func:`fold_step` by
their qualified names (the same version of the package on both sides).
"""
from __future__ import annotations

import functools

import numpy as np

from ..errors import InputError, NoTopicsError, UsageError
from ._passes import (
    _final_info,
    _measure_range,
    _Plan,
    _plan,
    _printed_columns,
    _summary_only,
    _worth_streaming,
    read_results,
)
from .aggregate import SummaryFold
from .inputs import judgment_format, results_format
from .join.policy import POLICY
from .parse.run import Run
from .parse.source import text_size
from .results import Evaluation


def _is_dataset(run) -> bool:
    """Whether ``run`` is a sharded dataset (a folder: its module is imported only then)."""
    import os

    if not isinstance(run, (str, os.PathLike)) or not os.path.isdir(run):
        return False
    from .join.dataset import is_dataset

    return is_dataset(run)


def _fold_streams(plan: _Plan, run) -> bool:
    """Whether ``run`` is a big file in a format read in pieces (what a range of
    topics can be cut from through temporary files)."""
    fmt = judgment_format(plan.opts.rel_format)
    res_fmt = results_format(plan.opts.results_format)
    return (fmt.stream is not None and res_fmt.read_pieces is not None
            and all(ctx.order != "rank" for ctx, _ in plan.contexts) and _worth_streaming(run))


def _summary_in_ranges(plan: _Plan, run, totals: tuple[int, int]) -> bool:
    """Whether a summary-only evaluation of ``run`` is folded range by range: a
    big file (:func:`_fold_streams`) against judgments of many topics."""
    return totals[0] >= POLICY.range_min_topics and _fold_streams(plan, run)


def _evaluate_ranges(plan: _Plan, judgments, run, *, per_topic: bool, shards, client, progress,
                     totals: tuple[int, int]) -> Evaluation:
    """The evaluation cut into ranges of topics, folded in topic order."""
    from .join.dataset import open_dataset
    from .join.ranges import can_cut, check_cuts, distinct_topics, even_cuts, split
    from .join.stream import first_error, negative_only_topic, spill_ranges

    num_qrels_topics, num_positive = totals
    # a topic judged only negatively reads the levels of the topic before it: one range
    single = negative_only_topic(judgments) or not can_cut(judgments)
    dataset = open_dataset(run) if _is_dataset(run) else None
    if dataset is not None:
        if single:
            raise InputError(dataset.path, "these judgments cannot be evaluated range by range "
                                           "(a topic judged only with negative levels)")
        if any(ctx.order == "rank" for ctx, _ in plan.contexts):
            raise UsageError("a sharded run keeps no rank column: --order rank needs the run file")
        cuts = dataset.cuts
        runid = dataset.runid
        runs = dataset.ranges()
    elif not isinstance(run, Run) and shards is None and (client is None or _fold_streams(plan, run)):
        # a big file, summarised range by range through temporary files
        read_pieces = results_format(plan.opts.results_format).read_pieces
        assert read_pieces is not None  # _fold_streams checked it (evaluate does, when there is no client)
        pieces = read_pieces(run)
        n = 1 if single else max(1, (text_size(run) or 0) // POLICY.range_bytes,
                                 _default_ranges(client) if client is not None else 1)
        cuts = even_cuts(distinct_topics(judgments), n)
        runid = None  # the whole run's: known once it is read
        runs = spill_ranges(pieces, cuts)
    else:
        run = read_results(run, plan.opts, judgments=judgments)
        if single or not can_cut(run):
            cuts = check_cuts([])
        elif isinstance(shards, str) and shards == "each":
            cuts = distinct_topics(judgments, run)[1:]
        elif isinstance(shards, (int, np.integer)) or shards is None:
            n = int(shards) if shards is not None else _default_ranges(client) if client is not None else 1
            cuts = even_cuts(distinct_topics(judgments, run), n)
        else:
            cuts = check_cuts(list(shards))
        runid = run.runid
        runs = split(run, cuts)
    check_cuts(cuts)
    judged = split(judgments, cuts)

    columns = _printed_columns(plan)
    folded = _fold_ranges(plan, judged, runs, client, per_topic, progress)
    if folded.errors:
        raise first_error(folded.errors, getattr(judgments, "name", ""))
    if folded.states is None or not folded.any_evaluated:
        raise NoTopicsError("no topic has both judgments and results")
    if runid is None:
        runid = folded.runid
    fold = folded.fold([c.measure for c in columns])
    summary = fold.result(_final_info(plan, num_qrels_topics, num_positive, folded.num_topics, runid or ""))
    kept = folded.kept
    if not per_topic:
        return _summary_only(plan, columns, summary, runid or "")
    topics = [q for r in kept for q in r[0]]
    filled = np.concatenate([r[1] for r in kept])
    evaluated = np.concatenate([r[2] for r in kept])
    values = [np.concatenate([r[3][j] for r in kept]) for j in range(len(columns))]
    return Evaluation(topics, list(columns), values, summary, filled, evaluated, runid or "", plan.opts)


def _default_ranges(client) -> int:
    """Ranges for a cluster when none are asked for: a few per worker thread."""
    try:
        threads = sum(client.nthreads().values())
    except Exception:  # a client without the call: one range per task slot guessed
        threads = 1
    return 4 * max(1, threads)


def measure_range(spec: tuple, judgments, run, per_topic: bool):
    """One range of topics measured, for the fold (what a worker computes; plain
    data): ``(summary payloads, parts flags, topics, evaluated topics, run id,
    (topics, filled, evaluated, per-topic values) or None)``; an :class:`InputError` is
    returned, not raised, so the caller can pick the one a whole read reports.
    ``spec`` is ``(measures, options)``; ``run`` a parsed run or a range of a
    sharded dataset (read here, where the range is measured)."""
    measures, options = spec
    plan = _plan_cached(measures, options)
    try:
        r = _measure_range(plan, judgments, run, whole=False)
    except InputError as e:
        return e
    kept = (r.topics, r.filled, r.evaluated, r.values) if per_topic and r.topics else None
    return (r.chunks(), [p is not None for p in r.parts], len(r.topics), int(np.count_nonzero(r.evaluated)),
            r.runid, kept)


def _plan_cached(measures, options) -> _Plan:
    """The plan of ``measures`` and ``options``, made once for the ranges a worker
    measures with them (a few plans at most are kept: a long-lived worker serves
    evaluations of other measures or options too)."""
    key = (tuple(measures), tuple(sorted(options.items())))
    try:
        hash(key)
    except TypeError:  # an option that is not hashable
        return _plan(measures, options)
    return _plan_of(key)


@functools.lru_cache(maxsize=16)
def _plan_of(key: tuple) -> _Plan:
    measures, options = key
    return _plan(list(measures), dict(options))


class _RangeFold:
    """What the ranges' results add up to so far, in topic order: the summary
    fold's states, the counts, the run id, the first errors and (when asked)
    the per-topic values. Plain data: on a cluster it travels from one range's
    worker to the next, while each range's per-topic payloads stay where they
    were computed (see :func:`_fold_ranges`)."""

    def __init__(self) -> None:
        self.states: list | None = None  # SummaryFold.states, None before the first range
        self.has_parts: list | None = None
        self.num_topics = 0
        self.any_evaluated = False
        self.runid: str | None = None
        self.errors: list[InputError] = []
        self.kept: list[tuple] = []
        self.topics_added = 0  # by the last add: what progress reports

    def fold(self, measures: list) -> SummaryFold:
        fold = SummaryFold(measures, self.has_parts or [])
        if self.states is not None:
            fold.states = self.states
        return fold

    def add(self, result, measures: list) -> None:
        """One range's :func:`measure_range` result, the next in topic order."""
        self.topics_added = 0
        if isinstance(result, InputError):  # keep going: a later range may hold the error to report
            self.errors.append(result)
            return
        if self.errors or result is None:
            return
        chunks, has_parts, topics_n, evaluated_n, runid, kept = result
        if self.has_parts is None:
            self.has_parts = has_parts
        fold = self.fold(measures)
        fold.add(chunks)
        self.states = fold.states
        self.num_topics += topics_n
        self.topics_added = topics_n
        self.any_evaluated = self.any_evaluated or evaluated_n > 0
        if self.runid is None:
            self.runid = runid
        if kept is not None:
            self.kept.append(kept)


def fold_step(spec: tuple, folded: _RangeFold | None, result) -> _RangeFold:
    """One link of the fold chain on a cluster: ``folded`` with the next range's
    result added, computed where that result lies (a new value: the one given
    may be another task's input too)."""
    import copy

    out = _RangeFold() if folded is None else copy.deepcopy(folded)
    out.add(result, [c.measure for c in _printed_columns(_plan_cached(*spec))])
    return out


def _fold_ranges(plan: _Plan, judged: list, runs, client, per_topic: bool, progress) -> _RangeFold:
    """:func:`measure_range` of every range, folded in range order.

    Without a client the ranges are measured here one after another. On a
    cluster each range is a task, and so is each step of the fold: step i
    takes step i-1's small state and range i's result, and runs on the worker
    that holds that result, so a range's per-topic payloads (one float per
    topic and measure, which the exact left-to-right sums need) never cross
    the network; only the state does. A few ranges are kept in flight, which
    bounds what the workers hold. Per-topic values asked for, or a measure that
    keeps whole columns for its summary, come back to the client instead."""
    from .._record import as_dict

    spec = (plan.measures, {k: v for k, v in as_dict(plan.opts).items() if k != "measures"})
    measures = [c.measure for c in _printed_columns(plan)]
    judged_ranges = iter(judged)
    folded = _RangeFold()

    def added() -> None:
        if progress is not None and folded.topics_added:
            progress(folded.topics_added)

    # the runs drive the loop: their reader raises a bad line's error after the last range
    if client is None:
        for r in runs:
            folded.add(measure_range(spec, next(judged_ranges), r, per_topic), measures)
            added()
        return folded
    from collections import deque

    import dask

    def submit(*args):
        # a range's rows and judgments are its task's input, sent with it: when a worker is
        # lost mid-range the scheduler still has them to run the range elsewhere (scattered
        # data would go with its worker). dask's warning that a graph is large speaks of
        # what is sent so on purpose, and is not shown (docs/guide/scale.md)
        with dask.config.set({"distributed.admin.large-graph-warning-threshold": "1TiB"}):
            return client.submit(*args, pure=False)

    limit = 2 * _default_ranges(client)  # ranges in flight
    window: deque = deque()
    if per_topic or SummaryFold.keeps_columns(measures):
        for r in runs:
            window.append(submit(measure_range, spec, next(judged_ranges), r, per_topic))
            if len(window) >= limit:
                folded.add(window.popleft().result(), measures)
                added()
        while window:
            folded.add(window.popleft().result(), measures)
            added()
        return folded
    step = None
    seen = 0
    for r in runs:
        measured = submit(measure_range, spec, next(judged_ranges), r, False)
        step = submit(fold_step, spec, step, measured)
        window.append(step)
        if len(window) >= limit:
            folded = window.popleft().result()
            if progress is not None and folded.num_topics > seen:
                progress(folded.num_topics - seen)
            seen = folded.num_topics
    if step is not None:
        folded = step.result()
        if progress is not None and folded.num_topics > seen:
            progress(folded.num_topics - seen)
    return folded
