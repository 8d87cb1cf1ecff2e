"""Results as pandas DataFrames and as HTML tables for notebooks.

DataFrames (``pip install 'trec_eval_py[pandas]'``) keep full precision and
name each measure as it was asked for (``nDCG@10`` stays ``nDCG@10``). HTML
tables are what Jupyter shows for an :class:`~trec_eval_py.engine.results.Evaluation`,
a comparison or a leaderboard; their values are printed as trec_eval prints
them (``%6.4f``), so they can be checked against the text output.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.measures import Kind, in_asked_order
from ..engine.parse.python import require_pandas
from .evaluation import evaluation_records, format_value, python_value

if TYPE_CHECKING:
    from .protocols import BoardResult, ComparisonResult, EvaluationResult


def evaluation_frame(result: EvaluationResult, *, per_topic: bool = True, wide: bool = False):
    """An :class:`Evaluation` as a DataFrame.

    Long form (default): columns ``run, topic, measure, value``, one row per
    value. ``per_topic`` gives the per-topic values (the topics trec_eval's
    ``-q`` prints), otherwise the summary (topic ``all``). Wide form: one row
    per topic (index ``topic``), one column per measure, and the ``run``.
    """
    pd = require_pandas()
    rows = [(result.runid, t, n, python_value(k, v))
            for t, n, k, v in evaluation_records(result, query=per_topic, summary=not per_topic)]
    # each topic's measures in the order they were asked for (-m), as every tool shows them
    asked: dict[str, int] = {}
    for c in in_asked_order(list(result.columns)):
        asked.setdefault(c.prefix + c.name, len(asked))
    first: dict[str, int] = {}
    for _, t, _, _ in rows:
        first.setdefault(t, len(first))
    rows.sort(key=lambda r: (first[r[1]], asked.get(r[2], len(asked))))
    long = pd.DataFrame(rows, columns=["run", "topic", "measure", "value"])
    if not wide:
        return long
    names = list(dict.fromkeys(long["measure"]))
    topics = list(dict.fromkeys(long["topic"]))
    table: dict[str, dict] = {n: {} for n in names}
    for _, t, n, v in rows:
        table[n][t] = v
    out = pd.DataFrame({n: [table[n].get(t) for t in topics] for n in names}, index=pd.Index(topics, name="topic"))
    out.insert(0, "run", result.runid)
    return out


def comparison_frame(comparison: ComparisonResult):
    """A comparison's rows (one per test, run and measure) as a DataFrame,
    with a column per field of its row records, in their order."""
    pd = require_pandas()
    return pd.DataFrame(comparison.records(), columns=list(comparison.row_fields()))


def leaderboard_frame(board: BoardResult, *, per_topic: bool = False):
    """A leaderboard as a DataFrame: one row per run (rank, run, runid, measures...,
    error), or with ``per_topic`` one row per run, topic and measure."""
    pd = require_pandas()
    if per_topic:
        rows: list[tuple] = []
        for e in board.entries:
            if not e.ok:
                rows.append((e.rank, e.path, None, None, None, None, e.error))
                continue
            long = evaluation_frame(e.result, per_topic=True)
            summary = evaluation_frame(e.result, per_topic=False)
            for part in (long, summary):
                picked = [(t, n, v) for t, n, v in zip(part["topic"], part["measure"], part["value"])
                          if n in board.columns]
                # the board's columns are in the order asked for: each topic's rows follow them
                first: dict[str, int] = {}
                for t, _, _ in picked:
                    first.setdefault(t, len(first))
                picked.sort(key=lambda r: (first[r[0]], board.columns.index(r[1])))
                rows += [(e.rank, e.path, e.runid, t, n, v, None) for t, n, v in picked]
        return pd.DataFrame(rows, columns=["rank", "run", "runid", "topic", "measure", "value", "error"])
    run_rows = []
    for e in board.entries:
        s = e.result.summary if e.ok else {}
        vals = [python_value(board.kinds[c], s[c]) if c in s else None for c in board.columns]
        run_rows.append([e.rank if e.ok else None, e.path, e.runid if e.ok else None, *vals, e.error])
    return pd.DataFrame(run_rows, columns=["rank", "run", "runid", *board.columns, "error"])


# ---- HTML ----
# Tables written by trec_eval_py.output.table (escaped, well-formed); values
# as trec_eval prints them.

def _fragment(table) -> str:
    from .table import render

    return render(table, "html", fragment=True, css_class="trec_eval_py")


def _trec_cell(kind: Kind, v):
    """A value with trec_eval's printed text (``%6.4f``, ``-nan``) for people."""
    from .table import Cell

    return Cell(python_value(kind, v), text=format_value(kind, v).strip())


#: per-topic tables longer than this are left out of a notebook's view (use to_dataframe)
HTML_MAX_TOPICS = 50


def evaluation_html(result: EvaluationResult) -> str:
    """Summary table (measure, value), then the per-topic values when there are few topics."""
    from .table import Column, Table

    n = int(sum(1 for p in result.printable if p))
    caption = f"run {result.runid or '(no id)'}: {len(result.topics)} topics"
    rows = [[name, _trec_cell(kind, v)] for _, name, kind, v in evaluation_records(result, query=False, summary=True)]
    html = _fragment(Table([Column("measure", "text"), Column("all", align="right")], rows, title=caption))
    if 0 < n <= HTML_MAX_TOPICS:
        cols = [c for c in result.columns if c.measure.per_topic]
        header = [Column("topic", "text")] + [Column(c.prefix + c.name, align="right") for c in cols]
        body = [[t] + [_trec_cell(c.kind, result.values[c.name][i]) for c in cols]
                for i, t in enumerate(result.topics) if result.printable[i]]
        html += _fragment(Table(header, body, title="per topic"))
    return html


def comparison_html(c: ComparisonResult) -> str:
    """One row per test, run and measure: means, difference, p-values, wins/ties/losses, interval."""
    from .table import Column, Table

    level = f"{c.rows[0].ci_level:.0%} interval" if c.rows else "interval"
    cols = [Column("test", "text"), Column("run", "text"), Column("measure", "text"),
            Column(c.baseline, "float", align="right"), Column("run mean", "float", align="right"),
            Column("delta", "float", signed=True, align="right"), Column("p", align="right"),
            Column("p corrected", align="right"), Column("significant", "auto"),
            Column("W/T/L", "fraction", parts=("wins", "ties", "losses")), Column(level, "text")]
    body = []
    for r in c.rows:
        ci = "" if r.ci_low is None else f"[{r.ci_low:.4f}, {r.ci_high:.4f}]"
        body.append([r.test, r.run, r.measure, r.baseline_mean, r.mean, r.delta,
                     _general(r.p_value), _general(r.p_value_corrected), bool(r.significant),
                     (r.wins, r.ties, r.losses), ci])
    caption = f"baseline {c.baseline}; {len(c.topics)} topics; alpha {c.alpha}, {c.correction} correction"
    return _fragment(Table(cols, body, title=caption))


def _general(p: float):
    """A p-value in ``%.4g``, as the notebook view has always shown it."""
    from .table import Cell

    return Cell(p, text=f"{p:.4g}")


def leaderboard_html(board: BoardResult) -> str:
    from .table import Cell, Column, Table

    cols = [Column("rank", align="right"), Column("run", "text"), Column("runid", "text")]
    cols += [Column(c, align="right") for c in board.columns]
    body = []
    for e in board.entries:
        if e.ok:
            s = e.result.summary
            body.append([e.rank, e.path, e.runid,
                         *[_trec_cell(board.kinds[c], s[c]) if c in s else None for c in board.columns]])
        else:
            body.append([Cell(None, text="-"), e.path, Cell(f"error: {e.error}", span=True)])
    caption = f"sorted by {board.sort_by}" if board.sort_by else None
    return _fragment(Table(cols, body, title=caption))
