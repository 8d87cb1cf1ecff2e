"""The one orchestrator: parse -> join/rank -> measures -> aggregate -> format.

Both the CLI and the Python API call :func:`evaluate`; nothing else strings
the stages together.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

import numpy as np

from .aggregate import aggregate, num_averaged
from .errors import NoTopicsError, UsageError
from .format import trec_lines
from .join import EvalContext, build_rankings, iter_batches
from .join.context import COMPAT_VERSIONS
from .join.judgments import check_rel_format, join_judgments
from .measures import Agg, Kind, Measure, registry
from .parse import read_qrels, read_run
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
    max_cells: int | None = None  # batch size bound (testing and tuning)

    def __post_init__(self):
        if self.compat not in COMPAT_VERSIONS:
            raise UsageError(f"unknown --compat {self.compat!r}; choose one of {', '.join(COMPAT_VERSIONS)}")
        check_rel_format(self.rel_format)
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
        return "".join(self.lines(query=query, summary=summary))


def _py(v, kind: Kind):
    if kind is Kind.FLOAT:
        return float(v)
    if kind is Kind.INT:
        return int(v)
    return v


def evaluate(qrels, run, measures: Iterable[str] | str | None = None, **options) -> Evaluation:
    """Evaluate ``run`` against ``qrels``.

    ``qrels`` and ``run`` may be paths, ``-``, file objects, bytes, dicts in
    pytrec_eval's layout, or already-parsed :class:`~trec_eval_py.parse.Qrels`
    / :class:`~trec_eval_py.parse.Run`. ``measures`` are ``-m`` specs
    (default ``official``); the other keywords are the fields of :class:`Options`.
    """
    if isinstance(measures, str):
        measures = [measures]
    opts = Options(**options)
    if measures is not None:
        opts = replace(opts, measures=tuple(measures))
    reg = registry()
    selected = reg.resolve(list(opts.measures), opts.compat, opts.rel_format)
    if opts.rel_format == "qrels":
        q = read_qrels(qrels)
        r = read_run(run)
    else:  # other judgment formats have their own readers, join and batches
        rankings = join_judgments(opts.rel_format, qrels, run, opts.context)
    zs = read_zscores(opts.zscore_file) if opts.zscore_file is not None else None
    ctx = opts.context
    if opts.rel_format == "qrels":
        rankings = build_rankings(q, r, ctx)
    if rankings.num_topics == 0 or (not ctx.complete and rankings.num_topics == 0):
        raise NoTopicsError("no topic has both judgments and results")
    if not np.any(~rankings.filled):
        raise NoTopicsError("no topic has both judgments and results")

    columns: list[Column] = []
    for s in selected:
        for i, name in enumerate(s.names):
            columns.append(Column(name, s.measure, i, s.measure.kind, s.measure.kind))
    parts: dict[str, list[np.ndarray]] = {c.name: [] for c in columns}
    kw = {} if opts.max_cells is None else {"max_cells": opts.max_cells}
    batches = iter_batches(rankings, **kw) if opts.rel_format == "qrels" else rankings.batches(**kw)
    for batch in batches:
        for s in selected:
            out = s.measure.compute(batch, s.params)
            for i, name in enumerate(s.names):
                parts[name].append(out[:, i])
    values = {name: (np.concatenate(p) if p else np.zeros(0)) for name, p in parts.items()}
    if zs is not None:  # -Z: per-topic values become z-scores before aggregation
        columns, values = apply_zscores(zs, columns, values, rankings.qids, rankings.filled, ctx)

    n_avg = num_averaged(int(np.count_nonzero(~rankings.filled)), rankings.num_qrels_topics, ctx.complete)
    summary = {}
    for c in columns:
        v = aggregate(c.measure.aggregate, values[c.name], rankings.filled, n_avg, ctx.compat, rankings.runid)
        if v is not None:
            summary[c.name] = v
    # 9.0.8 never prints the topics it filled in for -c; 10.0 does.
    printable = np.ones(rankings.num_topics, dtype=bool) if ctx.v10 else ~rankings.filled
    return Evaluation(rankings.qids, columns, values, summary, rankings.filled, printable, rankings.runid, opts)
