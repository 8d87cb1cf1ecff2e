"""The pieces both roads of an evaluation are made of (the whole run at once, and
range of topics by range: :mod:`._ranged`), exposed by :mod:`.pipeline`:

* the plan: what an evaluation computes, resolved once (:func:`_plan`, the
  columns of :func:`measure_columns`);
* the stages: :func:`read_judgments`, :func:`read_results`, :func:`join`,
  :func:`batches` and :func:`map_batches` (read, join and measure batch by batch,
  a big run in pieces: :func:`_parts`);
* one measure pass (:func:`_measure_pass`: the kernels over every batch, for one
  set of measure options) and one range of topics measured by every pass
  (:func:`_measure_range`, with -c's clean-up and -Z), and what the summary of
  the whole needs besides (:func:`_final_info`, :func:`_summary_only`).
"""
from __future__ import annotations

import gc
from typing import TYPE_CHECKING

import numpy as np

from .._record import record, replace
from ..errors import InputError, MeasureError, NoTopicsError
from .aggregate import SummaryInfo, num_averaged, summary_chunks
from .inputs import judgment_format, results_format
from .join import EvalContext, iter_batches
from .join.batch import RankedTopics
from .join.empty_topics import evaluated_topics, reset_placeholder_outputs
from .join.policy import POLICY
from .measures import measure_specs, quiet_numpy, registry
from .options import Options
from .parse.python import dict_rows, parquet_size
from .parse.run import Run
from .parse.source import text_size
from .results import Column, Evaluation

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


def _printed_columns(plan: _Plan) -> list:
    """The columns an evaluation prints (under -Z, renamed and summarised as z-scores)."""
    if plan.zs is None:
        return plan.columns
    from .standardize import apply_zscores

    empty = [np.zeros(0) for _ in plan.columns]
    return apply_zscores(plan.zs, plan.columns, empty, [], np.zeros(0, dtype=bool))[0]


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
                cols.append(parts if getattr(getattr(parts, "dtype", None), "kind", None) == "O"
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
    if isinstance(run, RankedTopics):  # joined already, under these settings (see Evaluator.join)
        yield [run]
        return
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
    from .join.policy import Interleaved

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
