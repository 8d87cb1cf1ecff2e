"""The writers, one per format (text, Markdown, LaTeX, HTML, CSV, TSV, JSON), and
:func:`render`, which picks one; the collector paused while a big table is written."""
from __future__ import annotations

import contextlib
import gc
import math
import re
from collections.abc import Iterable, Sequence
from operator import methodcaller

from ._model import DEFAULT_DIGITS, FORMATS, MARKS, Cell, Column, Table, canonical, spellings
from ._safety import _formula_first, _one_line, clean, html_escape, latex_escape, markdown_escape, spreadsheet_safe
from ._values import ABSENT, _columns, _human, _plain_text, _rows_of, _unwrap


def _text(tables: list[Table], intro: list[str], digits: int, **_) -> str:
    lines = [clean(x) for x in intro]
    for k, t in enumerate(tables):
        if lines or k:
            lines.append("")
        if t.title:
            lines.append(clean(t.title))
        lines += [clean(x) for x in t.lead]
        lines += [clean(t.empty)] if t.empty is not None and not t.rows else _text_rows(t, digits)
        lines += [clean(x) for x in t.notes]
    return "\n".join(lines) + "\n" if lines else ""


def _decorated_text(text: str, c: Cell | None) -> str:
    if c is None:
        return text
    text += "".join(" " + MARKS[m][0] for m in c.marks)
    return text + (f"^{c.sup}" if c.sup else "")


_PRINTED_KINDS = ("int", "float", "shortest", "pvalue", "percent", "fraction")


def _text_rows(t: Table, digits: int) -> list[str]:
    texts, decos, spans = _human(t, digits)
    head = [clean(c.name) for c in t.columns]
    cols = []
    for col, tx, deco in zip(t.columns, texts, decos):
        if deco is not None:
            tx = [_decorated_text(s, c) for s, c in zip(tx, deco)]
        if (col.kind not in _PRINTED_KINDS or deco is not None) and not all(map(str.isprintable, tx)):
            tx = [s if s.isprintable() else clean(s) for s in tx]  # (numbers print no control character)
        cols.append(tx)
    lens = [len(r) for r in t.rows]
    widths = []
    for j, (h, tx) in enumerate(zip(head, cols)):
        if spans is None:
            widths.append(max(len(h), max(map(len, tx), default=0)))
        else:  # a spanning cell neither widens its column nor is padded
            widths.append(max([len(h)] + [len(s) for s, sp, n in zip(tx, spans, lens) if not (sp and j == n - 1)]))

    def pad(j, strings):
        a, w = t.columns[j].align, widths[j]
        return list(map(methodcaller("rjust" if a == "right" else "center" if a == "center" else "ljust", w),
                        strings))

    out = ["  ".join(s for j, h in enumerate(head) for s in pad(j, [h])).rstrip()]
    padded = [pad(j, tx) for j, tx in enumerate(cols)]
    out += list(map(str.rstrip, map("  ".join, zip(*padded)))) if padded else [""] * len(t.rows)
    if spans is not None:
        for i, (sp, n) in enumerate(zip(spans, lens)):
            if sp:
                out[1 + i] = "  ".join([padded[j][i] for j in range(n - 1)] + [cols[n - 1][i]]).rstrip()
    return out


def _markdown(tables: list[Table], intro: list[str], digits: int, **_) -> str:
    parts = []
    if intro:
        parts.append("".join(markdown_escape(x) + "\n" for x in intro))
    for t in tables:
        block = []
        if t.title:
            block.append(f"### {markdown_escape(t.title)}\n\n")
        if t.lead:
            block.append("".join(markdown_escape(x) + "\n" for x in t.lead) + "\n")
        block.append(markdown_escape(t.empty) + "\n" if t.empty is not None and not t.rows
                     else _markdown_table(t, digits))
        if t.notes:
            block.append("\n" + "".join(markdown_escape(x) + "\n" for x in t.notes))
        parts.append("".join(block))
    return "\n".join(parts)


_MD_ALIGN = {None: "---", "left": ":---", "right": "---:", "center": ":---:"}


def _marked_cell(text: str, c: Cell | None, escape, bold: str) -> str:
    """A cell's text escaped, in ``bold`` (a format with one ``{}``) when the cell is,
    followed by its marks and its superscript (Markdown and HTML alike)."""
    s = escape(text)
    if c is None:
        return s
    if c.bold and s:
        s = bold.format(s)
    s += "".join(" " + MARKS[m][0] for m in c.marks)
    return s + (f"<sup>{escape(c.sup)}</sup>" if c.sup else "")


def _markdown_cell(text: str, c: Cell | None) -> str:
    return _marked_cell(text, c, markdown_escape, "**{}**")


def _markdown_table(t: Table, digits: int) -> str:
    n = len(t.columns)
    texts, decos, _ = _human(t, digits)
    lines = ["| " + " | ".join(markdown_escape(c.name) for c in t.columns) + " |",
             "|" + "|".join(_MD_ALIGN[c.align] for c in t.columns) + "|"]
    for i, row in enumerate(t.rows):
        cells = [_markdown_cell(text, c) for text, c in _rows_of(texts, decos, i, min(len(row), n))]
        cells += [""] * (n - len(cells))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


_TEX_ALIGN = {None: "l", "left": "l", "right": "r", "center": "c"}


def _latex_cell(text: str, c: Cell | None, value) -> str:
    if value is None and (c is None or c.text is None) and text == "-":
        s = "--"  # the typographic dash of a missing value
    else:
        s = latex_escape(text)
    if c is None:
        return s
    if c.bold and s:
        s = rf"\textbf{{{s}}}"
    sup = [MARKS[m][1] for m in c.marks]
    if c.sup:
        sup.append(r"\mathrm{" + latex_escape(c.sup) + "}")
    if sup:
        s += "$^{" + r"\,".join(sup) + "}$"
    return s


def _comment(line: str) -> str:
    return "% " + _one_line(str(line))


def _latex(tables: list[Table], intro: list[str], digits: int, caption=None, label=None, **_) -> str:
    blocks = []
    head = [_comment(x) for x in intro]
    for k, t in enumerate(tables):
        cap = caption if caption is not None and k == 0 else t.caption
        lab = label if label is not None and k == 0 else t.label
        out = list(head) if k == 0 else []
        if t.title:
            out.append(_comment(t.title))
        out += [_comment(x) for x in t.lead]
        out.append("% needs \\usepackage{booktabs}")
        floating = cap is not None or lab is not None
        if floating:
            out += [r"\begin{table}[t]", r"\centering"]
            if cap is not None:
                out.append(rf"\caption{{{latex_escape(cap)}}}")
            if lab is not None:
                out.append(rf"\label{{{re.sub(r'[^A-Za-z0-9:._/+-]', '', clean(str(lab)))}}}")
        n = len(t.columns)
        out += [r"\begin{tabular}{" + "".join(_TEX_ALIGN[c.align] for c in t.columns) + "}", r"\toprule",
                " & ".join(latex_escape(c.name) for c in t.columns) + r" \\", r"\midrule"]
        rules = set(t.rules)
        texts, decos, _ = _human(t, digits)
        for i, row in enumerate(t.rows):
            length = min(len(row), n)
            cells = []
            for j, (text, c) in enumerate(_rows_of(texts, decos, i, length)):
                s = _latex_cell(text, c, c.value if c is not None else row[j])
                if c is not None and c.span and j == length - 1 and length < n:
                    s = rf"\multicolumn{{{n - j}}}{{l}}{{{s}}}"
                cells.append(s)
            out.append(" & ".join(cells) + r" \\")
            if i in rules and i < len(t.rows) - 1:
                out.append(r"\midrule")
        out += [r"\bottomrule", r"\end{tabular}"]
        out += [_comment(x) for x in t.notes]
        if floating:
            out.append(r"\end{table}")
        blocks.append("\n".join(out) + "\n")
    return "\n".join(blocks)


_HTML_ALIGN = {None: "", "left": ' style="text-align:left"', "right": ' style="text-align:right"',
               "center": ' style="text-align:center"'}

_CSS = ("body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:24px;color:#1d2330}"
        "table{border-collapse:collapse;font-size:14px;margin:12px 0}"
        "caption{text-align:left;padding:4px 0;color:#4a5263}"
        "th,td{padding:4px 10px;border-bottom:1px solid #e4e7ec;vertical-align:top}"
        "thead th{background:#f3f5f9;text-align:left}td{font-variant-numeric:tabular-nums}")


def _html_cell(text: str, c: Cell | None) -> str:
    return _marked_cell(text, c, html_escape, "<b>{}</b>")


def _html_table(t: Table, digits: int, css_class: str, caption=None) -> str:
    n = len(t.columns)
    lines = [f'<table class="{html_escape(css_class)}">']
    said = [x for x in [t.title, caption if caption is not None else t.caption, *t.lead, *t.notes] if x]
    if said:
        lines.append("<caption>" + "<br>".join(html_escape(str(x)) for x in said) + "</caption>")
    lines.append("<thead><tr>" + "".join(f"<th>{html_escape(str(c.name))}</th>" for c in t.columns)
                 + "</tr></thead>")
    lines.append("<tbody>")
    texts, decos, _ = _human(t, digits)
    for i, row in enumerate(t.rows):
        length = min(len(row), n)
        cells = []
        for j, (text, c) in enumerate(_rows_of(texts, decos, i, length)):
            if j == 0 and t.row_header:
                cells.append(f'<th style="text-align:left">{_html_cell(text, c)}</th>')
                continue
            span = f' colspan="{n - j}"' if c is not None and c.span and j == length - 1 and length < n else ""
            cells.append(f"<td{span}{_HTML_ALIGN[t.columns[j].align]}>{_html_cell(text, c)}</td>")
        lines.append("<tr>" + "".join(cells) + "</tr>")
    lines += ["</tbody>", "</table>"]
    return "\n".join(lines) + "\n"


def _html(tables: list[Table], intro: list[str], digits: int, fragment: bool = False, css_class="trec-eval-py",
          caption=None, title=None, **_) -> str:
    body = "".join(_html_table(t, digits, css_class, caption if k == 0 else None) for k, t in enumerate(tables))
    if fragment:
        return "".join(f"<p>{html_escape(x)}</p>\n" for x in intro) + body
    name = title or next((t.title or t.caption for t in tables if t.title or t.caption), None) or "trec_eval_py"
    head = ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html_escape(str(name))}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n")
    h1 = f"<h1>{html_escape(title)}</h1>\n" if title else ""
    return head + h1 + "".join(f"<p>{html_escape(x)}</p>\n" for x in intro) + body + "</body>\n</html>\n"


def _machine_one(kind: str, v):
    """The value a machine format writes for ``v`` in a column of ``kind``: str, int, float, bool or None."""
    if v is None or v is ABSENT:
        return None
    if hasattr(v, "item") and not isinstance(v, str):  # a numpy scalar: Python's own number
        v = v.item()
    if kind == "text":
        return str(v)
    if kind == "int":
        return int(v)
    if kind in ("float", "shortest", "pvalue", "percent"):
        return float(v)
    if isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


def _machine_columns(t: Table) -> list[list]:
    """Per machine column (a fraction gives one per part), the values machines get."""
    out = []
    for col, cells in zip(t.columns, _columns(t)):
        values, _ = _unwrap(cells)
        if col.kind == "fraction":
            parts = [[None] * len(col.parts) if v is None or v is ABSENT else [int(x) for x in v] for v in values]
            out += [list(p) for p in zip(*parts)] if parts else [[] for _ in col.parts]
            continue
        types = set(map(type, values))
        if (types == {float} and col.kind in ("float", "shortest", "pvalue", "percent", "auto")) or \
                (types == {int} and col.kind in ("int", "auto")) or (types == {str} and col.kind in ("text", "auto")):
            out.append(list(values))
        else:
            out.append([_machine_one(col.kind, v) for v in values])
    return out


def _machine_rows(t: Table) -> list[list]:
    return [list(r) for r in zip(*_machine_columns(t))]


_CSV_QUOTE = re.compile(r'[",\r\n]')


def _csv_field(s: str) -> str:
    # quoted when it holds a comma, a quote or a line break: Python's csv module
    # leaves a lone carriage return bare when lines end in "\n", which splits the row
    return '"' + s.replace('"', '""') + '"' if _CSV_QUOTE.search(s) else s


def _csv_text(s: str) -> str:
    if s.isprintable() and not _formula_first(s) and "," not in s and '"' not in s:
        return s
    return _csv_field(spreadsheet_safe(s))


def _csv_column(values: list) -> list[str]:
    types = set(map(type, values))
    if types == {float}:
        return list(map(repr, values))
    if types == {int}:
        return list(map(str, values))
    if types == {str}:
        return [_csv_text(s) for s in values]
    out = []
    for v in values:
        if v is None:
            out.append("")
        elif isinstance(v, str):
            out.append(_csv_text(v))
        elif isinstance(v, float):
            out.append(repr(v))
        else:
            out.append(str(v))
    return out


def csv_rows(rows: Iterable[Sequence]) -> str:
    """Rows of text (the first usually the header) as csv, each field safe for a
    spreadsheet: for tables whose columns are not known in advance (a class
    list's own columns before the grades)."""
    return "".join(",".join(_csv_text(str(c)) for c in r) + "\n" for r in rows)


def _csv(tables: list[Table], intro: list[str], digits: int, header: bool = True, **_) -> str:
    out = []
    for k, t in enumerate(tables):
        if k:
            out.append("\n")
        if header:
            out.append(",".join(_csv_text(key) for c in t.columns for key in c.machine_keys) + "\n")
        cols = [_csv_column(v) for v in _machine_columns(t)]
        out += [",".join(r) + "\n" for r in zip(*cols)]
    return "".join(out)


def _tsv_text(s: str) -> str:
    if s.isprintable() and not _formula_first(s):
        return s
    return spreadsheet_safe(s.replace("\t", " ").replace("\r\n", " ").replace("\n", " ").replace("\r", " "))


_TSV_SPEC = {"text": "%s", "int": "%d", "shortest": "%r"}


def _tsv_rows(t: Table, digits: int) -> str | None:
    """The rows of ``t`` formatted a row at a time with one format string, the way a
    tsv of millions of plain values is written fastest; None when any cell needs more
    (a Cell, a missing or non-finite value, a text with a tab, a control character or
    a formula's first character): the column-wise writer handles those."""
    n = len(t.columns)
    specs = []
    for c in t.columns:
        if c.kind == "float":
            specs.append(("%+." if c.signed else "%.") + str(c.digits if c.digits is not None else digits) + "f")
        elif c.kind in _TSV_SPEC:
            specs.append(_TSV_SPEC[c.kind])
        else:
            return None
    rows = t.rows
    if not rows or set(map(len, rows)) != {n}:
        return None
    for j, c in enumerate(t.columns):  # '%s' and '%r' take anything: their columns are checked first
        if c.kind == "text":
            values = [r[j] for r in rows]
            if set(map(type, values)) != {str} or not _plain_text(values):
                return None
        elif c.kind == "shortest" and set(map(type, [r[j] for r in rows])) != {float}:
            return None
    try:  # a value '%d' or '%f' cannot take (None, a Cell, a text) is a TypeError
        body = "\n".join(map(("\t".join(specs)).__mod__, map(tuple, rows))) + "\n"
    except TypeError:
        return None
    if "nan" in body or "inf" in body:  # (or a text holding those letters: the column-wise writer decides)
        return None
    return body


def _tsv(tables: list[Table], intro: list[str], digits: int, header: bool = True, **_) -> str:
    out = []
    for k, t in enumerate(tables):
        if k:
            out.append("\n")
        if header:
            heads = [key if c.kind == "fraction" else str(c.name) for c in t.columns for key in c.machine_keys]
            out.append("\t".join(_tsv_text(h) for h in heads) + "\n")
        fast = _tsv_rows(t, digits)
        if fast is not None:
            out.append(fast)
            continue
        columns = _columns(t)
        texts, _, _ = _human(t, digits, columns)
        cols = []
        for col, tx, cells in zip(t.columns, texts, columns):
            if col.kind == "fraction":  # never '3/4': a spreadsheet reads a date
                values = _unwrap(cells)[0]
                cols.append(["\t".join([""] * len(col.parts)) if v is None or v is ABSENT
                             else "\t".join("%d" % x for x in v) for v in values])
            elif col.kind in _PRINTED_KINDS or _plain_text(tx):
                cols.append(tx)
            else:
                cols.append([_tsv_text(s) for s in tx])
        if t.rows:
            out.append("\n".join(map("\t".join, zip(*cols))) + "\n")
    return "".join(out)


def json_value(v):
    """``v`` as JSON takes it: NaN and infinities as None, numpy scalars as Python's."""
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def json_text(doc, indent: int | None = 2) -> str:
    """A JSON document as every command writes it."""
    import json

    return json.dumps(doc, indent=indent) + "\n"


def records(table: Table) -> list[dict]:
    """The rows of ``table`` as JSON objects keyed by column (machine values)."""
    keys = [k for c in table.columns for k in c.machine_keys]
    return [{k: json_value(v) for k, v in zip(keys, row)} for row in _machine_rows(table)]


def _json(tables: list[Table], intro: list[str], digits: int, indent: int | None = 2, **_) -> str:
    if len(tables) == 1 and not intro:
        return json_text(records(tables[0]), indent)
    doc: dict = {}
    if intro:
        doc["intro"] = list(intro)
    doc["tables"] = [{"title": t.title, "notes": list(t.notes), "rows": records(t)} for t in tables]
    return json_text(doc, indent)


_WRITERS = {"text": _text, "markdown": _markdown, "latex": _latex, "html": _html, "csv": _csv, "tsv": _tsv,
            "json": _json}


def render(tables: Table | Iterable[Table], fmt: str, *, intro: Sequence[str] = (), digits: int | None = None,
           **opts) -> str:
    """``tables`` (one :class:`Table` or several, the sections of one document) in ``fmt``.

    ``intro``: lines before the first table (not in csv/tsv). ``digits``:
    decimals of float columns that do not fix their own (formats people
    read). Writer options: ``caption``, ``label`` (latex; caption for html
    too: they apply to the first table), ``fragment``, ``css_class``,
    ``title`` (html), ``header`` (csv, tsv), ``indent`` (json).
    """
    name = canonical(fmt)
    if name not in _WRITERS:
        from ...errors import UsageError

        raise UsageError(f"unknown format {fmt!r}; choose one of {', '.join(spellings(FORMATS))}")
    tables = [tables] if isinstance(tables, Table) else list(tables)
    with paused_gc():
        return _WRITERS[name](tables, list(intro), DEFAULT_DIGITS if digits is None else digits, **opts)


def render_sections(sections, fmt: str, *, missing: str = "", nan: str | None = None, empty: str = "(none)",
                    **opts) -> str:
    """A report of ``(title, header, rows)`` sections in ``fmt``: a table each, its
    values shown by their type (``missing`` for None, ``nan`` for NaN), ``empty``
    for a section without rows; csv holds one table, the first section's."""
    tables = [Table([Column(h, missing=missing, nan=nan) for h in header], [list(r) for r in rows],
                    title=title, empty=empty) for title, header, rows in sections]
    return render(tables[0] if canonical(fmt) == "csv" else tables, fmt, **opts)


@contextlib.contextmanager
def paused_gc():
    """The cycle collector off while a big table is built or written: its rows are
    millions of tuples of numbers and strings, which form no cycle, and each
    collection would walk them all again (a fifth of the time of a large table)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
