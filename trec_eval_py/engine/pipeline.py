"""The one orchestrator: parse -> join/rank -> measures -> aggregate -> format.

The stages are exposed here once, and every consumer (``evaluate``, curves,
compare, batch, validate, the pytrec_eval drop-in) goes through them; nothing
else strings parse, join and batching together:

:func:`read_judgments` ``(qrels, options)``
    the parse stage for judgments: ``options.rel_format``'s reader (see
    :mod:`trec_eval_py.engine.inputs`); parse once, pass the result on to
    evaluate many runs against the same judgments.
:func:`read_results` ``(run, options, ctx=None)``
    the parse stage for the run: ``options.results_format``'s reader.
:func:`join` ``(judgments, run, options, ctx=None)``
    read the run and join it whole: the format's joined value (``qids``,
    ``filled``, ``runid``...).
:func:`batches` ``(qrels, run, options=None, ctx=None)``
    read, join and cut into batches (the one batching loop), whole-run.
:func:`map_batches` ``(fn, qrels, run, options=None, ctx=None)``
    ``fn(batch)`` for every batch, reading big runs in pieces in bounded
    memory (grouped topics streamed, interleaved ones regrouped through
    temporary files); returns a :class:`BatchResults` whose topics are in
    byte order of their ids, as trec_eval reports them.

``options`` is an :class:`Options` (or a dict of its fields); ``ctx`` an
:class:`~trec_eval_py.engine.join.EvalContext` overriding ``options.context``.
:func:`evaluate` is ``map_batches`` with the measure kernels as ``fn``,
then aggregation.
"""
from __future__ import annotations

import gc
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from .._record import record, replace
from ..errors import InputError, MeasureError, NoTopicsError, UsageError
from .aggregate import SummaryFold, SummaryInfo, num_averaged, summary_chunks
from .inputs import judgment_format, results_format
from .join import EvalContext, iter_batches
from .join.empty_topics import evaluated_topics, reset_placeholder_outputs
from .join.policy import POLICY
from .measures import measure_specs, quiet_numpy, registry
from .options import Options
from .parse.python import dict_rows, parquet_size
from .parse.run import Run
from .parse.source import text_size
from .results import ByName, Column, Evaluation  # noqa: F401  (also imported from here)

if TYPE_CHECKING:
    from .parse.zscores import ZScores


def measure_columns(selected) -> list[Column]:
    """The columns of an evaluation of ``selected`` (the registry's resolved
    measures), in their order: each kept output under its name, with the index
    of that output among the kernel's outputs (``P@10`` keeps ``P_10``, the
    kernel's second output, not its first), trec_eval's printed name and what
    the value is. Every evaluation's columns, and a board's, are made here."""
    columns: list[Column] = []
    for pos, s in enumerate(selected):
        for i, name, printed in zip(s.indices, s.names, s.trec_names):
            identity = (s.measure.name, s.overrides, s.measure.params.output_key(s.params, i))
            columns.append(Column(name, s.measure, i, s.measure.kind, s.measure.kind, printed=printed, source=pos,
                                  identity=identity, asked=s.asked))
    return columns


def evaluate(qrels, run, measures: Iterable[str] | str | None = None, *, progress=None, per_topic: bool = True,
             shards=None, client=None, **options) -> Evaluation:
    """Evaluate ``run`` against ``qrels``: ``Evaluator(qrels, measures, **options).evaluate(run, ...)``.

    To evaluate several runs against the same judgments, make one
    :class:`Evaluator` and call it for each.

    Parameters
    ----------
    qrels
        The judgments: a path, ``-``, a file object or bytes (TREC text or
        Parquet), a dict ``{topic: {docno: level}}`` (pytrec_eval's layout), a
        pandas or polars DataFrame, an Arrow table, an iterable of ir_measures
        ``Qrel`` (see :mod:`~trec_eval_py.engine.parse.python`), or an
        already-parsed :class:`~trec_eval_py.engine.parse.Qrels`.
    run
        The results, in any of those forms (a dict ``{topic: {docno: score}}``,
        ir_measures ``ScoredDoc``, a :class:`~trec_eval_py.engine.parse.Run`), or
        a sharded dataset (a folder made by ``trec_eval_py shard``).
    measures : str or iterable of str, optional
        ``-m`` specs (``"map"``, ``"P.5,10"``, ``"official"``, ``"nDCG@10"``) or
        ir_measures measure objects. Default: the judgment format's own set
        (``official`` for qrels).
    progress, per_topic, shards, client
        As for :meth:`Evaluator.evaluate`.
    **options
        The fields of :class:`Options`: ``relevance_level`` (``-l``),
        ``max_docs`` (``-M``), ``judged_only`` (``-J``), ``complete`` (``-c``),
        ``compat`` (``"9.0.8"`` or ``"10.0"``), ``rel_format`` (``-R``)...

    Returns
    -------
    Evaluation
        Per-topic values and the summary, read by measure name.

    Raises
    ------
    MeasureError
        An unknown measure or bad measure parameters.
    UsageError
        A bad option (:class:`~trec_eval_py.errors.OptionError`,
        :class:`~trec_eval_py.errors.OptionTypeError`).
    InputError
        Unreadable judgments or results, with the file, line and offending text.
    TypeError
        ``qrels`` or ``run`` of a type that holds neither.

    Examples
    --------
    >>> import trec_eval_py as te
    >>> ev = te.evaluate("examples/qrels.txt", "examples/run_a.txt", ["map", "P.10", "nDCG@10"])
    >>> round(ev.summary["map"], 4), round(ev.summary["nDCG@10"], 4)
    (0.1785, 0.3016)
    >>> te.evaluate({"q1": {"d1": 1, "d2": 0}}, {"q1": {"d2": 2.0, "d1": 1.0}}, "recip_rank").summary
    ByName({'recip_rank': 0.5})
    >>> te.evaluate("examples/qrels.txt", "examples/run_a.txt", ["mapp"])
    Traceback (most recent call last):
      ...
    trec_eval_py.errors.MeasureError: unknown measure 'mapp' (did you mean 'map' or 'AP'?)
    """
    return Evaluator(qrels, measures, **options).evaluate(run, progress=progress, per_topic=per_topic,
                                                          shards=shards, client=client)


class Evaluator:
    """Judgments read and measures resolved once; then any number of runs evaluated.

    :meth:`evaluate` gives each run's :class:`Evaluation`, exactly the one
    ``evaluate(qrels, run, measures, **options)`` gives, without parsing the
    judgments or resolving the measures again. It is what ``pytrec_eval``'s
    ``RelevanceEvaluator`` and ``ir_measures``' ``evaluator()`` are to their users,
    and what every tool that evaluates many runs uses (batch, compare, correlate,
    plot, pool-bias, fuse, the pytrec_eval drop-in, the ir_measures provider, and
    through them the workers of a process pool or a cluster).

    An evaluator pickles (for a process pool or a dask cluster) as its parsed
    judgments, its measure specs and its options: the receiver resolves the
    measures again, once.

    Parameters
    ----------
    qrels
        The judgments, in any form :func:`evaluate` takes.
    measures : str or iterable of str, optional
        ``-m`` specs or ir_measures measure objects, as for :func:`evaluate`.
    **options
        The fields of :class:`Options`.

    Raises
    ------
    MeasureError, UsageError, InputError, TypeError
        As :func:`evaluate` raises them: a bad measure, option or judgment line
        is reported here, before any run is read.

    Examples
    --------
    >>> import trec_eval_py as te
    >>> ev = te.Evaluator("examples/qrels.txt", ["map", "P.10"])
    >>> [round(ev.evaluate(r).summary["map"], 4) for r in ("examples/run_a.txt", "examples/run_b.txt")]
    [0.1785, 0.1621]
    >>> te.Evaluator("examples/qrels.txt", ["map"], relevance_level="2")
    Traceback (most recent call last):
      ...
    trec_eval_py.errors.OptionTypeError: relevance_level must be a whole number, not str '2'
    """

    def __init__(self, qrels, measures: Iterable[str] | str | None = None, **options) -> None:
        self._plan = _plan(measures, options)
        self.judgments = read_judgments(qrels, self._plan.opts)
        self._totals: tuple[int, int] | None = None

    @property
    def options(self) -> Options:
        """The evaluation's :class:`Options` (the measures asked for in ``options.measures``)."""
        return self._plan.opts

    @property
    def columns(self) -> list[Column]:
        """The columns every evaluation of this evaluator has, in print order (a new list)."""
        return list(_printed_columns(self._plan))

    @property
    def totals(self) -> tuple[int, int]:
        """The judgments' topics and positive judgments (what trec_eval's summary counts)."""
        if self._totals is None:
            self._totals = judgment_format(self._plan.opts.rel_format).totals(self.judgments)
        return self._totals

    def __reduce__(self):
        from .._record import as_dict

        opts = {k: v for k, v in as_dict(self._plan.opts).items() if k != "measures"}
        return (_rebuilt, (self.judgments, self._plan.measures, opts))

    def __repr__(self) -> str:
        return f"Evaluator(<{getattr(self.judgments, 'name', 'judgments')}>, {list(self._plan.measures)!r})"

    def evaluate(self, run, *, progress=None, per_topic: bool = True, shards=None, client=None) -> Evaluation:
        """The :class:`Evaluation` of ``run``.

        Every way of evaluating (whole, by ranges of topics, on a cluster)
        gives the same values, bit for bit (see :mod:`trec_eval_py.engine.aggregate`).

        Parameters
        ----------
        run
            Anything :func:`evaluate` takes as a run.
        progress : callable, optional
            Called with the number of topics measured as each piece of the run
            is done (big runs are measured piece by piece).
        per_topic : bool
            False asks for the summary only: the result then holds no
            per-topic values (``topics`` is empty), and a big run of many
            topics is summarised range of topics by range in bounded memory.
        shards : int, str or sequence of str, optional
            Cut the evaluation into ranges of topics evaluated one after
            another: a number of ranges of about as many topics each,
            ``"each"`` (one topic a range) or the cut points (topic ids,
            strictly increasing).
        client : dask.distributed.Client, optional
            Evaluate the ranges on its cluster.

        Returns
        -------
        Evaluation

        Raises
        ------
        InputError
            Unreadable results, with the file, line and offending text.
        NoTopicsError
            No topic has both judgments and results.

        Examples
        --------
        >>> import trec_eval_py as te
        >>> ev = te.Evaluator({"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 1}}, ["map", "P.1"])
        >>> ev.evaluate({"q1": {"d2": 2.0, "d1": 1.0}, "q2": {"d3": 1.0}}).summary
        ByName({'map': 0.75, 'P_1': 0.5})
        >>> ev.evaluate({"q1": {"d2": 2.0, "d1": 1.0}}, per_topic=False).topics
        []
        """
        plan, judgments = self._plan, self.judgments
        shards = DEFAULT_SHARDS if shards is None else shards
        if (client is not None or shards is not None or _is_dataset(run)
                or (not per_topic and _summary_in_ranges(plan, run, self.totals))):
            return _evaluate_ranges(plan, judgments, run, per_topic=per_topic, shards=shards, client=client,
                                    progress=progress, totals=self.totals)
        if len(plan.contexts) > 1 and not _dict_in_pieces(run):
            run = read_results(run, plan.opts, judgments=judgments)  # read once for every pass
        part = _measure_range(plan, judgments, run, progress, whole=True, totals=self.totals)
        fold = SummaryFold([c.measure for c in part.columns], [p is not None for p in part.parts])
        fold.add(part.chunks())
        summary = fold.result(_final_info(plan, part.num_qrels_topics, part.num_positive,
                                          int(np.count_nonzero(~part.filled)), part.runid, part.evaluated,
                                          part.filled))
        if not per_topic:
            return _summary_only(plan, part.columns, summary, part.runid)
        # only the topics trec_eval evaluates are printed (9.0.8 skips the ones -c fills in);
        # each evaluation its own list of columns (the plan's is shared by every run)
        return Evaluation(part.topics, list(part.columns), part.values, summary, part.filled, part.evaluated,
                          part.runid, plan.opts)



def _rebuilt(judgments, measures, options) -> Evaluator:
    return Evaluator(judgments, measures, **options)


#: cut every evaluation into this many ranges of topics (None: only when asked); for tests
DEFAULT_SHARDS = None


@record(frozen=False)
class _Plan:
    """What an evaluation computes, resolved once: options, printed columns, one
    measure pass per distinct set of measure options, the -Z table."""

    opts: Options
    columns: list
    contexts: list
    zs: ZScores | None = None
    measures: tuple = ()


def _plan(measures, options) -> _Plan:
    opts = Options(**options)
    if measures is not None:  # names, or ir_measures measure objects (nDCG@10, AP(rel=2))
        opts = replace(opts, measures=tuple(measure_specs(measures)))
    if opts.measures is not None and not opts.measures:  # (None: the format's own set)
        raise MeasureError("no measure asked for: name at least one (e.g. 'official', 'map', 'nDCG@10')")
    reg = registry()
    selected = reg.resolve(list(opts.measure_specs), opts.compat, opts.measures_for, given=opts.rel_format)
    zs = None
    if opts.zscore_file is not None:
        from .parse.zscores import read_zscores

        zs = read_zscores(opts.zscore_file)
    columns = measure_columns(selected)
    # measures asked for with their own rel=/judged_only= are computed on their own
    # evaluation: one pass of the stages per distinct set of options
    groups: dict[tuple, list] = {}
    for pos, s in enumerate(selected):
        groups.setdefault(s.overrides, []).append((pos, s))
    # the join keeps the run's scores only for a pass whose measures read them
    contexts = [(replace(opts.context, **dict(overrides),
                         keep_scores=any(s.measure.needs_scores(s.params) for _, s in group)), group)
                for overrides, group in groups.items()]
    # the measures as specs (plain strings): what a worker of a cluster resolves again
    return _Plan(opts, columns, contexts, zs, tuple(opts.measure_specs))


@record(frozen=False)
class _Range:
    """One range of topics measured: per-topic values (topics in byte order) and
    what the summary needs from them."""

    columns: list
    topics: list
    filled: np.ndarray
    evaluated: np.ndarray
    values: list
    parts: list  # per column: its measure's parts, or None
    runid: str
    num_qrels_topics: int
    num_positive: int
    complete: bool

    def chunks(self) -> list:
        """The range's summary payloads (:func:`~.aggregate.summary_chunks`)."""
        info = SummaryInfo(self.evaluated, 0, self.complete, "", 0, filled=self.filled)
        return summary_chunks([c.measure for c in self.columns], self.values, info, self.parts)


def _measure_range(plan: _Plan, judgments, run, progress=None, *, whole: bool, totals=None) -> _Range:
    """Every measure pass over ``run`` (topics of one range, or all of them when
    ``whole``: then no topic at all is an error), -c's clean-up and -Z.
    ``totals``: the judgments' (topics, positive judgments), when already counted."""
    passes = []
    for ctx, group in plan.contexts:
        passes.append(_measure_pass(judgments, run, group, plan.opts, ctx, progress, whole=whole, totals=totals))
    num_qrels_topics, num_positive = passes[0][1]
    topics, filled, by_key, runid = _merge([p[0] for p in passes])
    columns = plan.columns
    values = [by_key[(c.source, c.index)] for c in columns]
    ctx = plan.contexts[0][0]
    evaluated = evaluated_topics(filled, ctx)
    if whole and not evaluated.any() and not _scores_unmatched(plan.opts, ctx, filled):
        raise NoTopicsError("no topic has both judgments and results")
    values = reset_placeholder_outputs(columns, values, filled, ctx)
    # parts (counts a micro-average adds up) are those of the measures' own values;
    # under -Z the summary is the mean of the z-scores, as for any other measure
    parts = [None if plan.zs is not None or c.measure.parts is None else by_key[(c.source, PARTS)]
             for c in columns]
    if plan.zs is not None:  # -Z: per-topic values become z-scores before aggregation
        from .standardize import apply_zscores

        columns, values = apply_zscores(plan.zs, columns, values, topics, evaluated)
    return _Range(columns, topics, filled, evaluated, values, parts, runid, num_qrels_topics, num_positive,
                  ctx.complete)


def _scores_unmatched(opts: Options, ctx: EvalContext, filled: np.ndarray) -> bool:
    """Whether a run that matches no judged topic is scored rather than refused:
    a format whose campaign scores such a run (``scores_unmatched``), under
    ``-c``, with judged topics to average over (see :mod:`.inputs`)."""
    return bool(ctx.complete and len(filled) and judgment_format(opts.rel_format).scores_unmatched)


def _final_info(plan: _Plan, num_qrels_topics: int, num_positive: int, num_topics: int, runid: str,
                evaluated=None, filled=None) -> SummaryInfo:
    """The whole evaluation's summary info (what no range knows alone)."""
    ctx = plan.contexts[0][0]
    n_avg = num_averaged(num_topics, num_qrels_topics, ctx.complete)
    return SummaryInfo(np.zeros(0, bool) if evaluated is None else evaluated, n_avg, ctx.complete, runid,
                       num_positive, filled=filled)


def _summary_only(plan: _Plan, columns, summary, runid) -> Evaluation:
    empty = [np.zeros(0) for _ in columns]
    return Evaluation([], list(columns), empty, summary, np.zeros(0, bool), np.zeros(0, bool), runid, plan.opts)


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


def _printed_columns(plan: _Plan) -> list:
    """The columns an evaluation prints (under -Z, renamed and summarised as z-scores)."""
    if plan.zs is None:
        return plan.columns
    from .standardize import apply_zscores

    empty = [np.zeros(0) for _ in plan.columns]
    return apply_zscores(plan.zs, plan.columns, empty, [], np.zeros(0, dtype=bool))[0]


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


_PLANS: dict = {}


def _plan_cached(measures, options) -> _Plan:
    key = (tuple(measures), tuple(sorted(options.items())))
    try:
        plan = _PLANS.get(key)
    except TypeError:  # an option that is not hashable
        return _plan(measures, options)
    if plan is None:
        plan = _PLANS[key] = _plan(measures, options)
    return plan


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


def _measure_pass(judgments, run, selected, opts, ctx, progress=None, *, whole: bool = True, totals=None):
    """The measure kernels over every batch, for one set of evaluation options.

    ``selected`` are ``(position, Selected)`` pairs; ``values`` are keyed by
    (position, output index), since one measure may be requested twice with
    other parameters and two outputs may share a printed name.
    Returns ``((topics, filled, values, runid), (qrels topics, positive judgments))``.
    """
    def keys(s):
        return list(s.indices) + ([PARTS] if s.measure.parts is not None else [])

    def measure(batch):
        out = []
        for _, s in selected:
            v = s.measure.compute(batch, s.params)
            # copies of the columns: a view could keep a kernel's whole
            # intermediate matrix (or the batch) alive until the end
            cols = [np.array(v[:, i]) for i in s.indices]
            if s.measure.parts is not None:
                parts = s.measure.parts(batch, s.params)
                # counts as floats; per-topic arrays of any length (an object array) as they are
                cols.append(parts if getattr(parts, "dtype", None) == object
                            else np.array(parts, dtype=np.float64))
            out.append(cols)
        return out

    res = _map_batches(measure, judgments, run, opts, ctx, progress=progress, totals=totals)
    if not res.topics and whole:
        raise NoTopicsError("no topic has both judgments and results")
    pieces: dict[tuple, list[np.ndarray]] = {(pos, i): [] for pos, s in selected for i in keys(s)}
    for outs in res.results:
        for (pos, s), cols in zip(selected, outs):
            for i, col in zip(keys(s), cols):
                pieces[(pos, i)].append(col)
    res.results = []
    # one column at a time, dropping its pieces as it goes: with many topics
    # the values are hundreds of MB, and never held twice
    values = {}
    for name in list(pieces):
        v = pieces.pop(name)
        values[name] = res.reorder(np.concatenate(v) if v else np.zeros(0))
        del v
    return (res.topics, res.filled, values, res.runid), (res.num_qrels_topics, res.num_positive)


def _merge(passes):
    """One set of per-topic values from the passes of :func:`_stages` (same topics in each)."""
    topics, filled, values, runid = passes[0]
    values = dict(values)
    for other in passes[1:]:
        if other[0] != topics or not np.array_equal(other[1], filled):
            # every pass joins the same judgments and run; only the measure options differ
            raise AssertionError("evaluations with different measure options cover different topics")
        values.update(other[2])
    return topics, filled, values, runid


#: key of a measure's per-topic parts among its output columns (see Measure.parts)
PARTS = "parts"

def _worth_streaming(run) -> bool:
    # None unless run is a readable path; a Parquet file counts its data uncompressed,
    # a compressed text file what it may expand to
    size = parquet_size(run) or text_size(run)
    return size is not None and size >= POLICY.stream_min()


def _dict_in_pieces(run) -> bool:
    # a big dict is flattened a piece at a time by each pass, never whole
    return (dict_rows(run) or 0) >= POLICY.dict_stream_min_rows


def _as_options(options) -> Options:
    if options is None:
        return Options()
    return options if isinstance(options, Options) else Options(**options)


def _rows_before(error: InputError):
    """What the lines before a reading error's line hold (``InputError.rows_before``), or None."""
    rows = error.rows_before
    return rows if error.line is not None and rows is not None and len(rows) else None


def read_judgments(qrels, options=None):
    """The judgments ``qrels`` parsed in ``options.rel_format`` (parsed values pass through).

    A bad line is reported unless the lines before it hold a docno judged twice
    in a topic (an earlier bad line, which the join finds): that is reported."""
    fmt = judgment_format(_as_options(options).rel_format)
    try:
        return fmt.read_judgments(qrels)
    except InputError as e:
        rows = _rows_before(e)
        if rows is not None:
            fmt.join(rows, Run(np.zeros(0, "S1"), np.zeros(0, "S1"), np.zeros(0), np.zeros(0, np.int64)),
                     EvalContext())
        raise


def read_results(run, options=None, ctx: EvalContext | None = None, judgments=None):
    """The whole ``run`` parsed in ``options.results_format`` (a parsed run passes through);
    its rank column is kept when the ranking needs it (``--order rank``).

    With parsed ``judgments``, a bad line is reported unless joining the lines
    before it finds a duplicate docno (an earlier bad line): that is reported,
    as when the run is read in pieces."""
    opts = _as_options(options)
    ctx = ctx or opts.context
    try:
        return results_format(opts.results_format).read(run, rank_column=ctx.order == "rank")
    except InputError as e:
        rows = _rows_before(e)
        if rows is not None and judgments is not None:
            # only the join's errors are wanted: any ranking finds them (the rows hold no rank column)
            judgment_format(opts.rel_format).join(judgments, rows, replace(ctx, complete=False, order="score"))
        raise


def join(judgments, run, options=None, ctx: EvalContext | None = None):
    """Read the whole ``run`` and join it with ``judgments`` (a source or parsed)."""
    opts = _as_options(options)
    fmt = judgment_format(opts.rel_format)
    ctx = ctx or opts.context
    judgments = read_judgments(judgments, opts)
    return fmt.join(judgments, read_results(run, opts, ctx, judgments), ctx)


def batches(qrels, run, options=None, ctx: EvalContext | None = None):
    """Every batch of evaluated topics, in byte order of topic ids (the run read whole)."""
    opts = _as_options(options)
    return iter_batches(join(qrels, run, opts, ctx), opts.max_cells)


@record(frozen=False)
class BatchResults:
    """What :func:`map_batches` gives back.

    results : ``fn(batch)`` of every batch, in the order the batches came
    topics, filled : the evaluated topics and their ``-c`` flags, in byte order of ids
    runid : the run's id
    num_qrels_topics, num_positive : the judgments' totals (topics judged, positive judgments)
    order : positions of the topics in the order the batches came, sorted
            into byte order (None when they came in byte order)
    """

    results: list
    topics: list[str]
    filled: np.ndarray
    runid: str
    num_qrels_topics: int
    num_positive: int
    order: np.ndarray | None = None

    def reorder(self, per_topic: np.ndarray) -> np.ndarray:
        """Per-topic values concatenated in batch order, put in :attr:`topics` order."""
        return per_topic if self.order is None else per_topic[self.order]


def _parts(fmt, res_fmt, judgments, run, opts: Options, ctx: EvalContext):
    """The joined pieces of ``run``, and a second try when the first turns out interleaved."""
    if hasattr(run, "read_pieces"):  # a shard of a dataset: its row groups, topics grouped in order
        if fmt.stream is not None:
            yield fmt.stream(judgments, run.read_pieces(), ctx)
        # (reached only when the rows turn out not grouped by topic): read whole
        yield [fmt.join(judgments, run.read(), ctx)]
        return
    # the pieces of a streamed run carry no rank column: --order rank reads it whole
    if (fmt.stream is not None and res_fmt.read_pieces is not None and ctx.order != "rank"
            and _worth_streaming(run)):
        from .join.stream import prefetch

        # a reader thread scans and ranks the next piece while this one is measured
        yield prefetch(fmt.stream(judgments, res_fmt.read_pieces(run), ctx))
        # only reached when the pieces were interleaved: regroup them through temporary files
        yield prefetch(fmt.spill(judgments, res_fmt.read_pieces(run), ctx, size_hint=text_size(run) or 0))
        return
    if fmt.stream is not None and res_fmt.read_pieces is not None and _dict_in_pieces(run):
        # a dict measured piece by piece holds only a piece's columns and
        # intermediates besides the dict (no reader thread: flattening holds the GIL)
        yield fmt.stream(judgments, res_fmt.read_pieces(run), ctx)
        # (on below only when two of its str ids are one id as bytes, lone surrogates:
        # "\udcc3\udcbf" and "ÿ" are both b"\xc3\xbf"; with topics between them the
        # pieces come back interleaved, and the dict is read whole)
    yield [fmt.join(judgments, read_results(run, opts, ctx, judgments), ctx)]


def map_batches(fn, qrels, run, options=None, ctx: EvalContext | None = None, *, progress=None) -> BatchResults:
    """``fn(batch)`` for every batch of evaluated topics (see the module docstring);
    ``progress(n)``, if given, hears of the ``n`` topics of each piece once measured."""
    opts = _as_options(options)
    return _map_batches(fn, read_judgments(qrels, opts), run, opts, ctx, progress=progress)


def _map_batches(fn, judgments, run, opts: Options, ctx: EvalContext | None, *, progress=None,
                 totals=None) -> BatchResults:
    """:func:`map_batches` of parsed ``judgments`` (``totals``: theirs, when already counted)."""
    from .join.stream import Interleaved

    fmt = judgment_format(opts.rel_format)
    num_qrels_topics, num_positive = totals if totals is not None else fmt.totals(judgments)
    for parts in _parts(fmt, results_format(opts.results_format), judgments, run, opts, ctx or opts.context):
        results: list = []
        qids: list[str] = []
        filled: list[np.ndarray] = []
        runid = ""
        n_parts = 0
        try:
            for joined in parts:
                n_parts += 1
                runid = joined.runid
                qids.extend(joined.qids)
                filled.append(np.asarray(joined.filled, dtype=bool))
                with quiet_numpy():  # the measure stage (see quiet_numpy)
                    results.extend(fn(b) for b in iter_batches(joined, opts.max_cells))
                if progress is not None:
                    progress(len(joined.qids))
        except Interleaved:
            # what the first pass read lies in reference cycles (tracebacks, generator
            # frames): free it now, before the second pass reads the run again
            joined = None
            gc.collect()
            continue
        break
    fill = np.concatenate(filled) if filled else np.zeros(0, dtype=bool)
    order = None
    if n_parts > 1 and qids:  # pieces come in run order; topics are reported in byte order
        # topic ids from files hold no newline: one encode and split gives every id's bytes
        raw = "\n".join(qids).encode("utf-8", "surrogateescape").split(b"\n")
        if len(raw) != len(qids):
            raw = [q.encode("utf-8", "surrogateescape") for q in qids]
        keys = np.array(raw)
        if not np.all(keys[1:] >= keys[:-1]):
            order = np.argsort(keys, kind="stable")
            qids = [qids[i] for i in order.tolist()]
            fill = fill[order]
    return BatchResults(results, qids, fill, runid, num_qrels_topics, num_positive, order)
