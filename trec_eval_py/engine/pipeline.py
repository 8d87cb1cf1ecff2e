"""The one orchestrator: parse -> join/rank -> measures -> aggregate -> format.

Both the CLI and the Python API call :func:`evaluate`; nothing else strings
the stages together.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Iterable

import numpy as np

from .aggregate import SummaryInfo, num_averaged, summarize
from ..errors import NoTopicsError, UsageError
from .format import trec_lines
from .join import EvalContext, build_rankings, iter_batches
from .join.keys import distinct_sorted
from .join.context import check_compat
from .join.judgments import check_rel_format, join_judgments
from .measures import Kind, Measure, registry
from .parse import Run, read_qrels, read_run
from .parse.zscores import read_zscores
from .zscore import apply_zscores


@dataclass(frozen=True)
class Options:
    """Everything that changes what is computed (the CLI's flags, as values)."""

    measures: tuple[str, ...] = ("official",)
    relevance_level: int = 1
    num_docs_in_coll: int = 0
    max_docs: int | None = None
    judged_only: bool = False
    complete: bool = False
    compat: str = "9.0.8"
    rel_format: str = "qrels"
    results_format: str = "trec_results"
    zscore_file: str | None = None
    order: str = "score"  # what ranks each topic's documents: score, rank (column) or file (line order)
    max_cells: int | None = None  # batch size bound (testing and tuning)

    def __post_init__(self):
        check_compat(self.compat)
        check_rel_format(self.rel_format)
        if self.max_docs is not None and self.max_docs < 0:
            # trec_eval reads -M -1 as "no document counts" without a word; a negative cut is a typo
            raise UsageError(f"-M (documents per topic) must be 0 or more, not {self.max_docs}")
        from .join.ranking import ORDERS

        if self.order not in ORDERS:
            raise UsageError(f"unknown --order {self.order!r}; choose one of {', '.join(ORDERS)}")
        if self.results_format != "trec_results":
            raise UsageError(f"unknown results format '-T {self.results_format}'; only 'trec_results' is read")

    @property
    def context(self) -> EvalContext:
        return EvalContext(
            relevance_level=self.relevance_level,
            num_docs_in_coll=self.num_docs_in_coll,
            max_docs=self.max_docs,
            judged_only=self.judged_only,
            complete=self.complete,
            compat=self.compat,
            order=self.order,
        )


@dataclass(frozen=True)
class Column:
    """One printed measure name (e.g. ``P_5``) and how to print it."""

    name: str
    measure: Measure
    index: int
    kind: Kind
    summary_kind: Kind
    prefix: str = ""  # printed before the padded name ("Z" under -Z)
    printed: str | None = None  # trec_eval's name when ``name`` is an ir_measures label

    @property
    def trec_name(self) -> str:
        """The name trec_eval prints for this value."""
        return self.name if self.printed is None else self.printed


@dataclass
class Evaluation:
    """Per-topic values and the summary of one run.

    ``values[name][i]`` is the value of output ``name`` for ``topics[i]``;
    ``summary[name]`` is its ``all`` value (absent for measures without one).
    """

    topics: list[str]
    columns: list[Column]
    values: dict[str, np.ndarray]
    summary: dict[str, object]
    filled: np.ndarray
    printable: np.ndarray
    runid: str
    options: Options = field(default_factory=Options)

    def per_topic(self) -> dict[str, dict[str, object]]:
        """``{topic: {measure: value}}`` for the measures that have per-topic values."""
        out: dict[str, dict[str, object]] = {}
        cols = [c for c in self.columns if c.measure.per_topic]
        for t, qid in enumerate(self.topics):
            out[qid] = {c.name: _py(self.values[c.name][t], c.kind) for c in cols}
        return out

    def lines(self, *, query: bool = False, summary: bool = True) -> Iterable[str]:
        return trec_lines(self, query=query, summary=summary)

    def to_text(self, *, query: bool = False, summary: bool = True) -> str:
        return "".join(trec_lines(self, query=query, summary=summary, blocks=True))

    def to_dataframe(self, per_topic: bool = True, *, wide: bool = False):
        """A pandas DataFrame: long (run, topic, measure, value) or ``wide`` (a row per
        topic); per-topic values, or with ``per_topic=False`` the summary."""
        from .tables import evaluation_frame

        return evaluation_frame(self, per_topic=per_topic, wide=wide)

    def _repr_html_(self) -> str:
        from .tables import evaluation_html

        return evaluation_html(self)


def _py(v, kind: Kind):
    if kind is Kind.FLOAT:
        return float(v)
    if kind is Kind.INT:
        return int(v)
    return v


def evaluate(qrels, run, measures: Iterable[str] | str | None = None, **options) -> Evaluation:
    """Evaluate ``run`` against ``qrels``.

    ``qrels`` and ``run`` may be paths, ``-``, file objects, bytes, dicts in
    pytrec_eval's layout, or already-parsed :class:`~trec_eval_py.engine.parse.Qrels`
    / :class:`~trec_eval_py.engine.parse.Run`. ``measures`` are ``-m`` specs
    (default ``official``); the other keywords are the fields of :class:`Options`.
    """
    if isinstance(measures, str):
        measures = [measures]
    opts = Options(**options)
    if measures is not None:
        opts = replace(opts, measures=tuple(measures))
    reg = registry()
    selected = reg.resolve(list(opts.measures), opts.compat, opts.rel_format)
    zs = read_zscores(opts.zscore_file) if opts.zscore_file is not None else None
    columns: list[Column] = []
    for s in selected:
        for i, name, printed in zip(s.indices, s.names, s.trec_names):
            columns.append(Column(name, s.measure, i, s.measure.kind, s.measure.kind, printed=printed))
    # measures asked for with their own rel=/judged_only= are computed on their own
    # evaluation: one pass of the stages per distinct set of options
    groups: dict[tuple, list] = {}
    for s in selected:
        groups.setdefault(s.overrides, []).append(s)
    contexts = [(replace(opts.context, measures=tuple(s.measure.name for s in group), **dict(overrides)), group)
                for overrides, group in groups.items()]

    if opts.rel_format == "qrels":
        q = read_qrels(qrels)
        num_qrels_topics = len(distinct_sorted(q.qid))
        num_positive = int(np.count_nonzero(q.rel >= 1))
        if len(contexts) > 1 and not isinstance(run, Run):
            run = read_run(run, rank_column=opts.order == "rank")  # read once for every pass
    else:
        num_qrels_topics = num_positive = None
    passes = []
    for ctx, group in contexts:
        cols = [c for c in columns if any(c.measure is s.measure and c.name in s.names for s in group)]
        passes.append(_stages(qrels if opts.rel_format != "qrels" else q, run, group, cols, opts, ctx))
    if num_qrels_topics is None:
        num_qrels_topics, num_positive = passes[0][1], 0
    topics, filled, values, runid = _merge([p[0] for p in passes])
    ctx = contexts[0][0]
    if not np.any(~filled):
        raise NoTopicsError("no topic has both judgments and results")
    if zs is not None:  # -Z: per-topic values become z-scores before aggregation
        columns, values = apply_zscores(zs, columns, values, topics, filled, ctx)

    n_avg = num_averaged(int(np.count_nonzero(~filled)), num_qrels_topics, ctx.complete)
    info = SummaryInfo(filled, n_avg, ctx.complete, ctx.compat, runid, num_positive)
    summary = {}
    for c in columns:
        v = summarize(c.measure, values[c.name], info)
        if v is not None:
            summary[c.name] = v
    # 9.0.8 never prints the topics it filled in for -c; 10.0 does.
    printable = np.ones(len(topics), dtype=bool) if ctx.v10 else ~filled
    return Evaluation(topics, columns, values, summary, filled, printable, runid, opts)


def _stages(qrels, run, selected, columns, opts, ctx):
    """join/rank -> measures for one set of evaluation options.

    Returns ``((topics, filled, values, runid), qrels topics)``.
    """
    if opts.rel_format == "qrels":
        # the pieces of a streamed run carry no rank column: --order rank reads it whole
        if _worth_streaming(run) and opts.order != "rank":
            from .join.stream import Interleaved, prefetch, spill_rankings, stream_rankings
            from .parse.run import iter_run_chunks

            try:
                # a reader thread scans and ranks the next piece while this one is measured
                parts = prefetch(stream_rankings(qrels, iter_run_chunks(run), ctx))
                return _compute(parts, selected, columns, opts), None
            except Interleaved:  # topics not grouped: regroup them through temporary files
                parts = prefetch(spill_rankings(qrels, iter_run_chunks(run), ctx, size_hint=os.path.getsize(run)))
                return _compute(parts, selected, columns, opts), None
        rankings = build_rankings(qrels, read_run(run, rank_column=opts.order == "rank"), ctx)
        return _compute([rankings], selected, columns, opts), None
    # other judgment formats have their own readers, join and batches
    rankings = join_judgments(opts.rel_format, qrels, run, ctx)
    return _compute([rankings], selected, columns, opts), rankings.num_qrels_topics


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


#: runs at least this large (in bytes, uncompressed files on disk) are read in pieces
STREAM_MIN_BYTES = 64 << 20


def _worth_streaming(run) -> bool:
    if not isinstance(run, (str, os.PathLike)) or os.fspath(run) == "-":
        return False
    try:
        return os.path.getsize(run) >= STREAM_MIN_BYTES
    except OSError:
        return False  # the reader reports the problem


def _compute(parts, selected, columns, opts):
    """Run the measure kernels over every batch of every part (groups of topics).

    Returns topics, filled flags, per-topic values (topics in byte order of
    their ids) and the run id.
    """
    values: dict[str, list[np.ndarray]] = {c.name: [] for c in columns}
    qids: list[str] = []
    filled: list[np.ndarray] = []
    runid = ""
    n_parts = 0
    for rankings in parts:
        n_parts += 1
        runid = rankings.runid
        qids.extend(rankings.qids)
        filled.append(np.asarray(rankings.filled, dtype=bool))
        kw = {} if opts.max_cells is None else {"max_cells": opts.max_cells}
        batches = iter_batches(rankings, **kw) if opts.rel_format == "qrels" else rankings.batches(**kw)
        for batch in batches:
            for s in selected:
                out = s.measure.compute(batch, s.params)
                for i, name in zip(s.indices, s.names):
                    # a copy of the column: a view could keep a kernel's whole
                    # intermediate matrix (or the batch) alive until the end
                    values[name].append(np.array(out[:, i]))
    # one column at a time, dropping its pieces as it goes: with many topics
    # the values are hundreds of MB, and never held twice
    flat = {}
    for name in list(values):
        v = values.pop(name)
        flat[name] = np.concatenate(v) if v else np.zeros(0)
        del v
    fill = np.concatenate(filled) if filled else np.zeros(0, dtype=bool)
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
            for name in flat:
                flat[name] = flat[name][order]
    if not qids:
        raise NoTopicsError("no topic has both judgments and results")
    return qids, fill, flat, runid
