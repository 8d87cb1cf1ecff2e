"""Formatting stage: evaluation results to trec_eval's text layout.

Lines are ``"%-22s\\t%s\\t%6.4f\\n"`` for real values, whole numbers for
counts, and text for strings, exactly as trec_eval prints them.
"""
from __future__ import annotations

import math
from typing import Iterator

from .measures import Kind


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


def trec_lines(result, *, query: bool, summary: bool) -> Iterator[str]:
    """The lines trec_eval would print for ``result`` (an :class:`Evaluation`)."""
    if query:
        cols = [c for c in result.columns if c.measure.per_topic]
        for t, qid in enumerate(result.topics):
            if not result.printable[t]:
                continue
            for c in cols:
                yield line(c.name, qid, c.kind, result.values[c.name][t], c.prefix)
    if summary:
        for c in result.columns:
            v = result.summary.get(c.name)
            if v is not None:
                yield line(c.name, "all", c.summary_kind, v, c.prefix)


# ---- machine-readable output (the main command's --format) and tables ----
# The text layout above is trec_eval's; what follows serves scripts and
# reports. Machine formats keep full float precision; tables meant for
# people print values exactly as trec_eval would, so they can be checked
# against the plain output.

OUTPUT_FORMATS = ("trec", "json", "csv")


def plain_value(kind: Kind, value):
    """A value as a JSON-able Python object: float, int or str (NaN as None)."""
    if kind is Kind.FLOAT:
        v = float(value)
        return None if v != v else v
    if kind is Kind.INT:
        return int(value)
    return str(value)


def _csv_value(kind: Kind, value) -> str:
    if kind is Kind.FLOAT:
        return repr(float(value))
    return format_value(kind, value)


def _printed_name(c) -> str:
    return getattr(c, "prefix", "") + c.name


def evaluation_records(result, *, query: bool, summary: bool) -> Iterator[tuple]:
    """``(topic, name, kind, value)`` in trec_eval's print order ('all' for the summary)."""
    if query:
        cols = [c for c in result.columns if c.measure.per_topic]
        for t, qid in enumerate(result.topics):
            if not result.printable[t]:
                continue
            for c in cols:
                yield qid, _printed_name(c), c.kind, result.values[c.name][t]
    if summary:
        for c in result.columns:
            v = result.summary.get(c.name)
            if v is not None:
                yield "all", _printed_name(c), c.summary_kind, v


def evaluation_json(result, *, query: bool, summary: bool) -> dict:
    """``{"runid", "per_topic": {topic: {measure: value}}, "summary": {measure: value}}``.

    ``per_topic`` is present with ``query``, ``summary`` unless ``summary`` is false.
    """
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


def csv_text(rows) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerows(rows)
    return buf.getvalue()


def check_output_format(fmt: str) -> None:
    if fmt not in OUTPUT_FORMATS:
        from ..errors import UsageError

        raise UsageError(f"unknown output format {fmt!r}; choose one of {', '.join(OUTPUT_FORMATS)}")


def render_evaluation(result, fmt: str = "trec", *, query: bool = False, summary: bool = True) -> Iterator[str]:
    """The main command's output of ``result`` in ``fmt`` (trec, json or csv).

    csv is long format, one value a row: ``runid,topic,measure,value``.
    """
    if fmt == "trec":
        return trec_lines(result, query=query, summary=summary)
    if fmt == "json":
        import json

        return iter([json.dumps(evaluation_json(result, query=query, summary=summary), indent=1) + "\n"])
    if fmt == "csv":
        rows = [("runid", "topic", "measure", "value")]
        rows += [(result.runid, t, n, _csv_value(k, v))
                 for t, n, k, v in evaluation_records(result, query=query, summary=summary)]
        return iter([csv_text(rows)])
    check_output_format(fmt)
    raise AssertionError(fmt)


def text_table(header: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widest cell, two spaces apart."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out = []
    for r in [header, *rows]:
        out.append("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() + "\n")
    return "".join(out)


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    def esc(s: str) -> str:
        return s.replace("|", "\\|")

    lines = ["| " + " | ".join(esc(h) for h in header) + " |\n",
             "|" + "|".join("---" for _ in header) + "|\n"]
    lines += ["| " + " | ".join(esc(c) for c in r) + " |\n" for r in rows]
    return "".join(lines)


LEADERBOARD_FORMATS = ("text", "md", "csv", "json")


def _board_cells(board, entry, machine: bool) -> list[str]:
    s = entry.evaluation.summary
    fmt = _csv_value if machine else format_value
    return [fmt(board.kinds[c], s[c]) if c in s else "" for c in board.columns]


def _board_topic_rows(board, entry, machine: bool) -> list[list[str]]:
    """(topic, measure, value) rows of one run, per-topic values then the summary."""
    ev = entry.evaluation
    fmt = _csv_value if machine else format_value
    wanted = set(board.columns)
    cols = [c for c in ev.columns if c.name in wanted]
    cols.sort(key=lambda c: board.columns.index(c.name))
    rows = []
    for t, qid in enumerate(ev.topics):
        if ev.printable[t]:
            rows += [[qid, c.name, fmt(c.kind, ev.values[c.name][t])] for c in cols if c.measure.per_topic]
    rows += [["all", c.name, fmt(c.summary_kind, ev.summary[c.name])] for c in cols if c.name in ev.summary]
    return rows


def leaderboard_json(board, *, per_topic: bool = False) -> dict:
    runs = []
    for e in board.entries:
        item: dict = {"rank": e.rank, "run": e.path, "runid": e.runid if e.ok else None}
        if e.ok:
            ev = e.evaluation
            item["summary"] = {c: plain_value(board.kinds[c], ev.summary[c]) for c in board.columns if c in ev.summary}
            if per_topic:
                doc = evaluation_json(ev, query=True, summary=False)["per_topic"]
                item["per_topic"] = {t: {c: v[c] for c in board.columns if c in v} for t, v in doc.items()}
        item["error"] = e.error
        runs.append(item)
    return {"sort_by": board.sort_by, "measures": list(board.columns), "runs": runs}


def render_leaderboard(board, fmt: str = "text", *, per_topic: bool = False) -> str:
    """A :class:`~trec_eval_py.tools.leaderboard.Leaderboard` as text, md, csv or json.

    Text and markdown print values as trec_eval does; csv and json keep full
    precision. With ``per_topic`` the table is long: one row per run, topic
    and measure (topic ``all`` for the summary). A failed run is one row
    carrying its reason.
    """
    if fmt == "json":
        import json

        return json.dumps(leaderboard_json(board, per_topic=per_topic), indent=1) + "\n"
    if fmt not in LEADERBOARD_FORMATS:
        from ..errors import UsageError

        raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(LEADERBOARD_FORMATS)}")
    machine = fmt == "csv"
    if per_topic:
        header = ["rank", "run", "runid", "topic", "measure", "value"]
    else:
        header = ["rank", "run", "runid", *board.columns]
    rows, failures = [], []
    for e in board.entries:
        if not e.ok:
            failures.append(e)
            continue
        lead = [str(e.rank), e.path, e.runid]
        if per_topic:
            rows += [lead + r for r in _board_topic_rows(board, e, machine)]
        else:
            rows.append(lead + _board_cells(board, e, machine))
    if machine:
        blank = [""] * (len(header) - 3)
        out = [header + ["error"]] + [r + [""] for r in rows]
        out += [["", e.path, "", *blank, e.error] for e in failures]
        return csv_text(out)
    if fmt == "md":
        blank = [""] * (len(header) - 3)
        return markdown_table(header, rows + [["-", e.path, f"error: {e.error}", *blank] for e in failures])
    # failed runs print their reason across the value columns, aligned on the run column
    run_w = max([len(header[1])] + [len(r[1]) for r in rows] + [len(e.path) for e in failures])
    rank_w = max([len(header[0])] + [len(r[0]) for r in rows] + [1])
    padded = [[r[0].ljust(rank_w), r[1].ljust(run_w), *r[2:]] for r in rows]
    text = text_table([header[0].ljust(rank_w), header[1].ljust(run_w), *header[2:]], padded)
    text += "".join(f"{'-'.ljust(rank_w)}  {e.path.ljust(run_w)}  error: {e.error}\n" for e in failures)
    return text
