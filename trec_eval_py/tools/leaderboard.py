"""Many runs against one set of judgments: a leaderboard.

The judgments are read once and shared by every run. Each run goes through
the same :func:`~trec_eval_py.engine.pipeline.evaluate` as the main command, so its
numbers are the ones ``trec_eval_py QRELS RUN`` prints. A run that cannot be
read or evaluated does not stop the others: it gets a row with the reason.

Rows are ordered by the first requested measure, best (highest) first; equal
values share a rank and keep the order of their file names. Failed runs come
last.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..errors import InputError, TrecEvalError
from ..engine.measures import Kind, registry
from ..engine.parse import read_qrels
from ..engine.pipeline import Column, Evaluation, Options, evaluate

#: measures of a leaderboard when none are named
DEFAULT_MEASURES = ("map", "P.10")


@dataclass
class Entry:
    """One run: its evaluation, or why there is none."""

    path: str
    evaluation: Evaluation | None = None
    error: str | None = None
    rank: int | None = None

    @property
    def runid(self) -> str:
        return self.evaluation.runid if self.evaluation is not None else ""

    @property
    def ok(self) -> bool:
        return self.evaluation is not None


@dataclass
class Leaderboard:
    """Evaluated runs in leaderboard order.

    ``columns`` are the printed measure names in the order they were asked
    for (the run id has its own column); ``sort_by`` is the first of them.
    """

    columns: list[str]
    kinds: dict[str, Kind]
    entries: list[Entry] = field(default_factory=list)

    @property
    def sort_by(self) -> str | None:
        return self.columns[0] if self.columns else None

    @property
    def failed(self) -> list[Entry]:
        return [e for e in self.entries if not e.ok]


def expand_run_paths(paths: list[str]) -> list[str]:
    """Paths as given, with a directory replaced by the files in it (sorted, no dot files)."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            names = sorted(n for n in os.listdir(p) if not n.startswith("."))
            out.extend(os.path.join(p, n) for n in names if os.path.isfile(os.path.join(p, n)))
        else:
            out.append(p)
    return out


def _display_columns(specs: list[str], evaluation_columns: list, compat: str, rel_format: str) -> list[str]:
    """Output names in the order the user asked for them, without the run id."""
    reg = registry()
    wanted: list[str] = []  # measure names in request order
    for spec in specs:
        for s in reg.resolve([spec], compat, rel_format):
            if s.measure.name not in wanted:
                wanted.append(s.measure.name)
    order = []
    for name in wanted:
        order += [c for c in evaluation_columns if c.measure.name == name and c.measure.name != "runid"]
    return order


def _reason(e: TrecEvalError, path: str) -> str:
    if isinstance(e, InputError) and e.path == path:
        msg = e.reason if e.line is None else f"line {e.line}: {e.reason}"
        if e.text is not None:
            shown = e.text if len(e.text) <= 60 else e.text[:57] + "..."
            msg += f": {shown!r}"
        return msg
    return str(e)


def _sort_key(kind: Kind, value):
    if kind is Kind.STR:
        return str(value)
    v = float(value)
    return float("inf") if v != v else -v  # best first; NaN last


def build_leaderboard(qrels, runs: list, measures: list[str] | None = None, **options) -> Leaderboard:
    """Evaluate every run in ``runs`` against ``qrels`` and rank them.

    ``qrels`` is anything :func:`~trec_eval_py.engine.parse.read_qrels` reads (an
    unreadable qrels file is an error for the whole board); ``runs`` are
    paths or anything else :func:`~trec_eval_py.engine.pipeline.evaluate` accepts.
    ``options`` are the fields of :class:`~trec_eval_py.engine.pipeline.Options`.
    """
    specs = list(measures) if measures else list(DEFAULT_MEASURES)
    opts = Options(measures=tuple(specs), **options)
    reg = registry()
    selected = reg.resolve(specs, opts.compat, opts.rel_format)  # unknown measures fail here, once
    q = read_qrels(qrels)

    entries: list[Entry] = []
    for run in runs:
        if isinstance(run, (str, os.PathLike)):
            path = os.fspath(run)
        else:
            path = getattr(run, "name", None) or f"<run {len(entries) + 1}>"
        try:
            ev = evaluate(q, run, specs, **options)
            entries.append(Entry(path, ev))
        except TrecEvalError as e:
            entries.append(Entry(path, error=_reason(e, path)))

    # every successful evaluation has these columns; derive them from the request
    eval_columns = [Column(n, s.measure, i, s.measure.kind, s.measure.kind)
                    for s in selected for i, n in enumerate(s.names)]
    shown = _display_columns(specs, eval_columns, opts.compat, opts.rel_format)
    board = Leaderboard([c.name for c in shown], {c.name: c.summary_kind for c in shown})

    good = [e for e in entries if e.ok]
    bad = [e for e in entries if not e.ok]
    good.sort(key=lambda e: e.path)
    key = board.sort_by
    if key is not None:
        kind = board.kinds[key]
        good.sort(key=lambda e: _sort_key(kind, e.evaluation.summary.get(key, 0)))
    for i, e in enumerate(good):
        tie = i > 0 and key is not None and e.evaluation.summary.get(key) == good[i - 1].evaluation.summary.get(key)
        e.rank = good[i - 1].rank if tie else i + 1
    bad.sort(key=lambda e: e.path)
    board.entries = good + bad
    return board
