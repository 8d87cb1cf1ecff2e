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

This module is the road itself (:class:`Evaluator`, :func:`evaluate`); what it
is made of lives below it: the plan, the stages, one measure pass and one range
of topics measured in :mod:`._passes`, and the evaluation range of topics by
range (on a cluster, or folded in one process) in :mod:`._ranged`, which
:meth:`Evaluator.evaluate` takes when it must. A test patches a name where it
is read: ``DEFAULT_SHARDS`` here, ``_ranged.measure_range``, ``_passes.read_results``.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .._record import replace
from ..errors import UsageError
from ._passes import (  # noqa: F401  (the stages and what they give, exposed here)
    PARTS,
    BatchResults,
    _dict_in_pieces,
    _final_info,
    _measure_range,
    _plan,
    _printed_columns,
    _summary_only,
    batches,
    join,
    map_batches,
    measure_columns,
    read_judgments,
    read_results,
)
from ._ranged import _evaluate_ranges, _is_dataset, _summary_in_ranges
from .aggregate import SummaryFold
from .inputs import judgment_format
from .join.batch import RankedTopics
from .join.policy import POLICY  # noqa: F401  (its fields are set through here)
from .options import Options
from .results import ByName, Column, Evaluation  # noqa: F401  (also imported from here)


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

    def _check_joined(self, joined, shards, client) -> None:
        """A run given joined (see :meth:`join`) is measured as it is: only by the
        evaluator that joined it, whole (no ranges, no cluster)."""
        ctx = getattr(joined, "ctx", None)
        if (len(self._plan.contexts) != 1 or ctx is None
                or replace(ctx, keep_rows=False) != replace(self._plan.contexts[0][0], keep_rows=False)):
            raise UsageError("a joined run is evaluated by the Evaluator that joined it (Evaluator.join)")
        if shards is not None or client is not None:
            raise UsageError("a joined run is evaluated whole: no shards, no client")

    def __reduce__(self):
        from .._record import as_dict

        opts = {k: v for k, v in as_dict(self._plan.opts).items() if k != "measures"}
        return (_rebuilt, (self.judgments, self._plan.measures, opts))

    def __repr__(self) -> str:
        return f"Evaluator(<{getattr(self.judgments, 'name', 'judgments')}>, {list(self._plan.measures)!r})"

    def join(self, run):
        """``run`` (read whole) joined with the judgments as this evaluator's measures
        read it, each ranked document keeping its row of the run
        (:attr:`~trec_eval_py.engine.join.batch.Rankings.rows`): what a caller that
        looks at the ranked lines itself (``batch``'s validator) shares with the
        evaluation, which :meth:`evaluate` then measures without joining again.
        None when the measures need joins of their own (a measure asked for with
        ``rel=`` or ``judged_only=``)."""
        plan = self._plan
        if len(plan.contexts) != 1:
            return None
        ctx = replace(plan.contexts[0][0], keep_rows=True)
        return judgment_format(plan.opts.rel_format).join(
            self.judgments, read_results(run, plan.opts, ctx, self.judgments), ctx)

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
        if isinstance(run, RankedTopics):
            self._check_joined(run, shards, client)
        elif (client is not None or shards is not None or _is_dataset(run)
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
