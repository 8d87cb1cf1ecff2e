"""Formatting stage: evaluation results to trec_eval's text layout.

Lines are ``"%-22s\\t%s\\t%6.4f\\n"`` for real values, whole numbers for
counts, and text for strings, exactly as trec_eval prints them.
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..engine.measures import Kind

if TYPE_CHECKING:
    from .protocols import EvaluationResult, PrintedColumn


def format_value(kind: Kind, value) -> str:
    if kind is Kind.FLOAT:
        if value != value:
            # C's printf keeps a NaN's sign ("-nan", as 0.0/0.0 gives on x86); Python's drops it
            return "%6s" % ("-nan" if math.copysign(1.0, value) < 0 else "nan")
        return "%6.4f" % value
    if kind is Kind.INT:
        return "%d" % int(value)
    return str(value)


def line(name: str, qid: str, kind: Kind, value, prefix: str = "") -> str:
    # a prefix (-Z's "Z") goes before the padded name, so it widens the field
    return "%s%-22s\t%s\t%s\n" % (prefix, name, qid, format_value(kind, value))


def format_column(kind: Kind, values) -> list[str]:
    """:func:`format_value` of every value of one output column, at list speed."""
    arr = np.asarray(values)
    if kind is Kind.FLOAT and arr.dtype.kind == "f":
        out = ["%6.4f" % v for v in arr.tolist()]
        for i in np.flatnonzero(np.isnan(arr)).tolist():  # the sign of a NaN, as printf shows it
            out[i] = format_value(kind, float(arr[i]))
        return out
    if kind is Kind.INT and arr.dtype.kind in "iu":
        return ["%d" % v for v in arr.tolist()]
    return [format_value(kind, v) for v in (arr.tolist() if arr.dtype != object else list(arr))]


def _printed_once(result: EvaluationResult, values: Sequence) -> list[tuple]:
    """``(column, value)`` pairs for trec_eval's text: a measure asked for twice under
    different names (``-m AP -m map``, ``-m P.5 -m P@5``) prints once, as trec_eval
    prints a measure named twice once; JSON and CSV keep every name asked for. Columns
    that merely share a printed name (``iprec_at_recall.0.999,1``) are different values
    and all print."""
    seen = set()
    out = []
    for c, v in zip(result.columns, values):
        key = c.identity
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        out.append((c, v))
    return out


def _query_blocks(result: EvaluationResult) -> Iterator[str]:
    """Each printed topic's lines as one string, formatted a column at a time."""
    # column by column: two columns may share a printed name
    pairs = [(c, v) for c, v in _printed_once(result, result.column_values) if c.measure.per_topic]
    cols = [c for c, _ in pairs]
    rows = np.flatnonzero(np.asarray(result.printable, dtype=bool))
    if not cols or not len(rows):
        return
    # a topic's block is one %-format of a template that holds the names, with the
    # topic's id put in for the marker (no measure name or prefix holds a NUL): the
    # values a plain %6.4f or %d prints are formatted there, the others
    # (NaN, text) before, by format_column
    heads = [("%s%-22s" % (c.prefix, _trec_name(c))).replace("%", "%%") for c in cols]
    values = [np.asarray(v) for _, v in pairs]
    topics = result.topics
    step = max(1, 200_000 // len(cols))  # a bounded number of strings alive at once
    for lo in range(0, len(rows), step):
        part = rows[lo : lo + step]
        specs, cells = [], []
        for c, v in zip(cols, values):
            arr = v[part]
            if c.kind is Kind.FLOAT and arr.dtype.kind == "f" and not np.isnan(arr).any():
                specs.append("%6.4f")
                cells.append(arr.tolist())
            elif c.kind is Kind.INT and arr.dtype.kind in "iu":
                specs.append("%d")
                cells.append(arr.tolist())
            else:
                specs.append("%s")
                cells.append(format_column(c.kind, arr))
        template = "".join([h + "\t\0\t" + spec + "\n" for h, spec in zip(heads, specs)])
        for t, row in zip(part.tolist(), zip(*cells)):
            yield template.replace("\0", topics[t].replace("%", "%%")) % row


def trec_lines(result: EvaluationResult, *, query: bool, summary: bool, blocks: bool = False) -> Iterator[str]:
    """The lines trec_eval would print for ``result`` (an :class:`Evaluation`).

    With ``blocks`` the per-topic part comes as one string per topic (all its
    lines), which is much faster to write out.
    """
    if query:
        if blocks:
            yield from _query_blocks(result)
        else:
            for block in _query_blocks(result):  # (no id or name holds a newline)
                yield from [x + "\n" for x in block.split("\n")[:-1]]
    if summary:
        for c, v in _printed_once(result, result.column_summary):
            if v is not None:
                yield line(_trec_name(c), "all", c.summary_kind, v, c.prefix)


def _trec_name(c: PrintedColumn) -> str:
    # trec_eval's name even when the value was asked for by an ir_measures name;
    # one that sets rel= or judged_only= says so, else P(rel=2)@10 would print
    # as P_10 beside -m P.10's other value
    name = c.trec_name
    identity = c.identity  # (measure, options that differ for it, output)
    if identity is not None and identity[1]:
        from ..engine.measures import printed_with_options

        return printed_with_options(name, identity[1])
    return name


def _records(result: EvaluationResult, *, query: bool, summary: bool) -> Iterator[tuple]:
    """``(topic, column, kind, value)`` in trec_eval's print order ('all' for the
    summary), column by column: two columns may share a printed name."""
    if query:
        cols = [(c, v) for c, v in zip(result.columns, result.column_values) if c.measure.per_topic]
        for t, qid in enumerate(result.topics):
            if not result.printable[t]:
                continue
            for c, v in cols:
                yield qid, c, c.kind, v[t]
    if summary:
        for c, v in zip(result.columns, result.column_summary):
            if v is not None:
                yield "all", c, c.summary_kind, v


# ---- machine-readable output (the main command's --format) and tables ----
# The text layout above is trec_eval's; what follows serves scripts and
# reports. Machine formats keep full float precision; tables meant for
# people print values exactly as trec_eval would, so they can be checked
# against the plain output.

OUTPUT_FORMATS = ("trec", "json", "csv", "parquet")


def plain_value(kind: Kind, value):
    """A value as a JSON-able Python object: float, int or str (NaN as None)."""
    v = python_value(kind, value)
    return None if v != v else v


def csv_value(kind: Kind, value) -> str:
    if kind is Kind.FLOAT:
        return repr(float(value))
    return format_value(kind, value)


def _printed_name(c: PrintedColumn) -> str:
    return c.prefix + c.name


def evaluation_records(result: EvaluationResult, *, query: bool, summary: bool) -> Iterator[tuple]:
    """``(topic, name, kind, value)`` in trec_eval's print order ('all' for the summary)."""
    for topic, c, kind, value in _records(result, query=query, summary=summary):
        yield topic, _printed_name(c), kind, value


def evaluation_json(result: EvaluationResult, *, query: bool, summary: bool) -> dict:
    """``{"runid", "per_topic": {topic: {measure: value}}, "summary": {measure: value}}``.

    ``per_topic`` is present with ``query``, ``summary`` unless ``summary`` is false.
    """
    names = [_printed_name(c) for c in result.columns]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        from ..errors import UsageError

        raise UsageError(f"two outputs are named {twice[0]!r} (their parameters print alike); "
                         "JSON keys must differ: use --format csv or trec")
    doc: dict = {"runid": result.runid}
    if query:
        per_topic: dict = {}
        for topic, name, kind, value in evaluation_records(result, query=True, summary=False):
            per_topic.setdefault(topic, {})[name] = plain_value(kind, value)
        doc["per_topic"] = per_topic
    if summary:
        doc["summary"] = {name: plain_value(kind, value)
                          for _, name, kind, value in evaluation_records(result, query=False, summary=True)}
    return doc


def check_output_format(fmt: str) -> None:
    if fmt in OUTPUT_FORMATS:  # (the plain evaluation imports no more than it needs)
        return
    from .table import check_format

    check_format(fmt, OUTPUT_FORMATS)


def python_value(kind: Kind, value):
    """A value as a plain Python float, int or str (NaN kept: csv, Parquet and
    DataFrames write it; JSON has :func:`plain_value`)."""
    if kind is Kind.FLOAT:
        return float(value)
    if kind is Kind.INT:
        return int(value)
    return str(value)


def render_evaluation(result: EvaluationResult, fmt: str = "trec", *, query: bool = False,
                      summary: bool = True) -> Iterator[str | bytes]:
    """The main command's output of ``result`` in ``fmt`` (trec, json or csv: text;
    parquet: the file's bytes).

    csv is long format, one value a row: ``runid,topic,measure,value``.
    """
    if fmt == "trec":
        return trec_lines(result, query=query, summary=summary, blocks=True)
    if fmt == "json":
        import json

        return iter([json.dumps(evaluation_json(result, query=query, summary=summary), indent=1) + "\n"])
    if fmt == "csv":
        from .table import Column, Table, render

        rows = [[result.runid, t, n, python_value(k, v)]
                for t, n, k, v in evaluation_records(result, query=query, summary=summary)]
        cols = [Column("runid", "text"), Column("topic", "text"), Column("measure", "text"), Column("value")]
        return iter([render(Table(cols, rows), "csv")])
    if fmt == "parquet":
        data = evaluation_parquet(result, query=query, summary=summary)
        assert data is not None  # no path given: the bytes
        return iter([data])
    check_output_format(fmt)
    raise AssertionError(fmt)


def evaluation_columns(result: EvaluationResult, *, query: bool, summary: bool) -> dict:
    """The long table ``runid, topic, measure, value`` (value a float: counts too) as
    columns, in trec_eval's print order; text values (``runid``, ``relstring``) are
    left out, as a float column cannot hold them."""
    rows = [(t, n, float(v)) for t, n, k, v in evaluation_records(result, query=query, summary=summary)
            if k is not Kind.STR]
    return {"runid": [result.runid] * len(rows), "topic": [r[0] for r in rows],
            "measure": [r[1] for r in rows], "value": [r[2] for r in rows]}


def evaluation_parquet(result: EvaluationResult, *, query: bool, summary: bool, path=None) -> bytes | None:
    """:func:`evaluation_columns` as a Parquet file: its bytes, or written to ``path``
    (needs pyarrow: the ``parquet`` extra)."""
    from ..engine.parse.python import parquet_bytes, write_parquet

    cols = evaluation_columns(result, query=query, summary=summary)
    if path is not None:
        write_parquet(path, cols)
        return None
    return parquet_bytes(cols)
