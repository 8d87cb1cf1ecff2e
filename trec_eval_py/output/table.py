"""Tables on the page: one model, one writer per format.

Every tool that prints rows and columns (compare, batch, validate, diff,
curves, the notebook views) builds a :class:`Table` and hands it to
:func:`render`; how a format escapes text, aligns columns or writes numbers
is decided here and nowhere else.

Formats (``--format`` everywhere; :data:`ALIASES` gives other spellings):

``text``
    aligned columns two spaces apart. Control characters (terminal escape
    sequences with them), bidirectional overrides and undecodable bytes in a
    cell are shown as Python escapes (``\\x1b``; :func:`clean`, the one rule
    of :mod:`~trec_eval_py.output.names`), so a run id cannot move the
    cursor, set the window title or reorder what is shown.
``markdown`` (``md``)
    a GitHub/CommonMark table. ``\\ | < > & * _ ` [ ] # ~`` are escaped
    with a backslash and line breaks become spaces (other controls are
    escaped as in text), so a cell can neither split a row nor carry HTML
    or emphasis.
``latex``
    a booktabs ``tabular`` (inside a ``table`` float when there is a
    caption or label); text is escaped, ``digits`` sets the decimals.
``html``
    a standalone page (``<meta charset="utf-8">``, a small style sheet) or,
    with ``fragment=True``, the ``<table>`` alone for embedding and
    notebooks. Everything is escaped; the table has a ``<thead>`` and a
    ``<tbody>``, as sorting scripts expect.
``csv``
    one header line, then a line per row, at full precision. Safe to open
    in a spreadsheet (OWASP's rule against CSV injection): a text cell that
    starts with ``= + - @``, a tab or a carriage return gets a leading
    ``'`` (text that is a plain number is left alone), numbers stay
    numbers, and a fraction is written as two (or more) numeric columns,
    never as ``3/4``, which a spreadsheet reads as a date.
``tsv``
    tab-separated, numbers as people see them (the column's digits); tabs
    and line breaks inside a cell become spaces; the same spreadsheet
    rules as csv (fractions in columns of their own too).
``json``
    a list of objects keyed by column (full precision; NaN and infinities
    as ``null``); several tables: ``{"tables": [{"title", "rows"}...]}``.

A cell is a plain value (``str``, ``int``, ``float``, ``None``, a tuple
for a fraction) or a :class:`Cell`, which adds the text people see
(``text``), emphasis (``bold``), arrows (``marks``: ``up``, ``down``) and
a superscript (``sup``); machine formats (csv, tsv's numbers, json) take
the value and drop the decoration.
"""
from __future__ import annotations

import contextlib
import gc
import itertools
import math
import re
from collections.abc import Iterable, Sequence
from operator import methodcaller

from .._record import field, record
from .names import printable

#: every writer, by its one name
FORMATS = ("text", "markdown", "latex", "html", "csv", "tsv", "json")
#: other spellings of a writer's name
ALIASES = {"md": "markdown"}
#: formats meant for programs: full precision, no decoration
MACHINE = ("csv", "json")

KINDS = ("auto", "text", "int", "float", "shortest", "pvalue", "percent", "fraction")
ALIGNS = (None, "left", "right", "center")
MARKS = {"up": ("\u2191", r"\uparrow"), "down": ("\u2193", r"\downarrow")}

#: decimals of a float column that does not fix its own
DEFAULT_DIGITS = 4


class Raw(str):
    """Text already written in the target's markup (a LaTeX caption with math,
    a column head such as ``$\\Delta$``): written as it is, never escaped.
    Only the writer it was made for should get it; others escape it as text."""


@record
class Column:
    """One column: its head, the kind of its values and how they are shown.

    kind : ``text``; ``int``; ``float`` (``digits`` decimals, default
        :data:`DEFAULT_DIGITS` or the document's ``digits``; ``signed``
        writes ``+``); ``shortest`` (the shortest text that reads back as
        the same double); ``pvalue`` (4 decimals, or 2 significant digits in
        exponent form below 1e-4, ``< 1e-16`` below that, see
        :func:`pvalue_text`); ``percent`` (a fraction shown as
        ``+12.3%``); ``fraction`` (a tuple of whole numbers shown as
        ``3/4`` or ``2/1/7``; ``parts`` names its numbers in csv and json);
        ``auto`` (by the value's type).
    align : None (left in text, no colon in markdown), ``left``, ``right``
        or ``center``.
    missing : what a ``None`` value shows.
    nan : what NaN shows (default: ``nan``/``-nan``, as C's printf shows it).
    key : the column's name in csv and json (default: its head).
    """

    name: str
    kind: str = "auto"
    digits: int | None = None
    signed: bool = False
    align: str | None = None
    missing: str = ""
    key: str | None = None
    parts: tuple = ()
    nan: str | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r}")
        if self.align not in ALIGNS:
            raise ValueError(f"unknown alignment {self.align!r}")
        if self.kind == "fraction" and len(self.parts) < 2:
            raise ValueError("a fraction column names its parts (at least two)")

    @property
    def machine_keys(self) -> tuple[str, ...]:
        return tuple(self.parts) if self.kind == "fraction" else (str(self.key or self.name),)


@record
class Cell:
    """A value with what people see of it.

    text : shown instead of the formatted value (machines still get ``value``)
    bold, marks, sup : emphasis, arrows (``up``/``down``) and a superscript
    span : the last cell of a short row, running over the remaining columns
        (in text it is not aligned and does not widen its column)
    """

    value: object = None
    text: str | None = None
    bold: bool = False
    marks: tuple = ()
    sup: str = ""
    span: bool = False


@record(frozen=False)
class Table:
    """Rows of cells under column heads, with what is said around them.

    title : a heading (a line above the table; the HTML caption)
    caption, label : LaTeX's ``\\caption`` and ``\\label`` (the caption is
        HTML's caption too)
    lead : lines above the table (LaTeX: comments)
    notes : lines below it (footnotes, a legend)
    row_header : the first column names its row (HTML ``<th>``)
    rules : a rule under each of these rows (0-based; LaTeX ``\\midrule``)
    empty : text and markdown: the line shown instead of the table when it has no rows
    """

    columns: list
    rows: list = field(factory=list)
    title: str | None = None
    caption: str | None = None
    label: str | None = None
    lead: list = field(factory=list)
    notes: list = field(factory=list)
    row_header: bool = False
    rules: tuple = ()
    empty: str | None = None


# ---------------------------------------------------------------- the vocabulary

def canonical(fmt: str) -> str:
    """The one name of a format spelled ``fmt`` (``md`` -> ``markdown``)."""
    return ALIASES.get(fmt, fmt)


def spellings(allowed: Sequence[str]) -> list[str]:
    """Every accepted spelling of ``allowed`` formats, aliases after their format."""
    out = []
    for f in allowed:
        out.append(f)
        out += [a for a, target in ALIASES.items() if target == f]
    return out


def choices_text(allowed: Sequence[str], default: str | None = None) -> str:
    """``text (default), markdown (or md), csv, json``: the formats of a command for its help."""
    words = []
    for f in allowed:
        aka = [a for a, target in ALIASES.items() if target == f]
        words.append(f + (" (default)" if f == default else "") + (f" (or {', '.join(aka)})" if aka else ""))
    return ", ".join(words)


def check_format(fmt: str, allowed: Sequence[str], flag: str = "--format") -> str:
    """The canonical name of ``fmt`` if a command offering ``allowed`` takes it,
    else a :class:`~trec_eval_py.errors.UsageError` listing what it takes."""
    name = canonical(fmt)
    if name in allowed or fmt in allowed:
        return fmt if fmt in allowed else name
    from ..errors import UsageError

    raise UsageError(f"unknown {flag} {fmt!r}; choose one of {', '.join(spellings(allowed))}")


def check_sections(show, sections: Sequence[str], fmt: str, default: Sequence[str]) -> list[str]:
    """The sections a report shows (``--show``), in the order named, each once:
    ``default`` when none are named. csv writes one table, so it takes exactly
    one section; an unknown name is a one-line usage error."""
    from ..errors import UsageError

    if show is None:
        if fmt == "csv":
            raise UsageError(f"--format csv writes one table: choose it with --show ({', '.join(sections)})")
        show = default
    show = list(dict.fromkeys(show))
    bad = [s for s in show if s not in sections]
    if bad:
        raise UsageError(f"unknown section {bad[0]!r}; choose from {', '.join(sections)}")
    if fmt == "csv" and len(show) != 1:
        raise UsageError(f"--format csv writes one table; --show names {len(show)}: {', '.join(show)}")
    return show


def check_typeset(fmt: str, *, caption=None, label=None, digits=None) -> None:
    """``--caption`` and ``--label`` are for LaTeX (the caption for HTML too); ``--digits``
    for the formats people read. Anything else is a usage error, not silently ignored."""
    from ..errors import UsageError

    fmt = canonical(fmt)
    latex = fmt in ("latex", "long-latex")
    if label is not None and not latex:
        raise UsageError(f"--label is for --format latex, not {fmt}")
    if caption is not None and not (latex or fmt == "html"):
        raise UsageError(f"--caption is for --format latex or html, not {fmt}")
    if digits is not None:
        if fmt in MACHINE or fmt == "tsv":
            raise UsageError(f"--digits is for the formats people read, not {fmt} (which keeps full precision)")
        if not 0 <= digits <= 15:
            raise UsageError(f"--digits must be between 0 and 15, not {digits}")


# ---------------------------------------------------------------- text safety

def clean(s: str) -> str:
    """``s`` safe to show on a terminal: :func:`~trec_eval_py.output.names.printable`
    (control characters, escape sequences, bidirectional overrides and undecodable
    bytes shown as Python escapes, ``\\x1b``), the one rule for every text output."""
    return s if s.isprintable() else printable(s)


def _one_line(s: str) -> str:
    """``s`` for a cell of a markup format: line breaks as spaces (a row stays one
    line), then :func:`clean`."""
    if s.isprintable():
        return s
    return clean(s.replace("\r\n", " ").replace("\n", " ").replace("\r", " "))


_MD_SPECIAL = re.compile(r"([\\|<>&*_`\[\]#~])")


def markdown_escape(s: str) -> str:
    """Text for a markdown table cell or paragraph (see the module doc)."""
    return _MD_SPECIAL.sub(r"\\\1", _one_line(s))


_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
        "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
        ">": r"\textgreater{}", "|": r"\textbar{}"}
_TEX_SPECIAL = re.compile(r"[\\&%$#_{}~^<>|]")


def latex_escape(s: str) -> str:
    """Text for LaTeX: every special character written as itself."""
    if isinstance(s, Raw):
        return str(s)
    return _TEX_SPECIAL.sub(lambda m: _TEX[m.group(0)], _one_line(s))


def html_escape(s: str) -> str:
    from html import escape

    return escape(_one_line(s), quote=True)


_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*\Z")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
#: look-alikes of a formula's first character that NFKC leaves as they are (the minus sign)
_FORMULA_LOOKALIKE = frozenset("\u2212")


def _formula_first(s: str) -> bool:
    """Whether ``s`` starts as a formula would: ``= + - @``, a tab, a carriage return, or a
    Unicode look-alike of one (fullwidth ``＝``, small ``﹢``, the minus sign ``−``...),
    found by NFKC, since some spreadsheets fold them to the ASCII sign."""
    c = s[:1]
    if c in _FORMULA:
        return True
    if c < "\x80":
        return False
    import unicodedata

    return c in _FORMULA_LOOKALIKE or unicodedata.normalize("NFKC", c)[:1] in _FORMULA


def spreadsheet_safe(s: str) -> str:
    """A text cell for csv/tsv: a leading ``'`` if a spreadsheet would run it as a formula."""
    if _formula_first(s) and not _NUMBER.match(s):
        return "'" + s
    return s


def spreadsheet_text(s: str) -> str:
    """The text :func:`spreadsheet_safe` was given (for readers of our own csv)."""
    if s[:1] == "'" and _formula_first(s[1:]) and not _NUMBER.match(s[1:]):
        return s[1:]
    return s


# ---------------------------------------------------------------- values

def float_text(v: float, digits: int = DEFAULT_DIGITS, signed: bool = False) -> str:
    """A float with ``digits`` decimals; NaN as C's printf shows it (``nan``, ``-nan``),
    infinities as ``inf``/``-inf``."""
    v = float(v)
    if v != v:
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


#: the smallest p-value shown as a number. A double near 1 has a resolution of about
#: 2.2e-16, so a test that reaches its p through 1 - cdf, or whose tail underflows in
#: scipy (the studentized range of tukey-classic), gives 0.0 or noise below it: every
#: test's p below this bound is shown as the bound, ``< 1e-16``, never as ``0.0e+00``.
P_FLOOR = 1e-16


def pvalue_text(p: float) -> str:
    """A p-value as people read it: 4 decimals, 2 significant digits in exponent form
    below 1e-4, ``< 1e-16`` below :data:`P_FLOOR` (0 included), ``nan``."""
    p = float(p)
    if p != p:
        return "nan"
    if p < P_FLOOR:
        return f"< {P_FLOOR:.0e}"
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


class _Absent:
    """No cell here: the columns of a short row after its spanning cell."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


ABSENT = _Absent()


def _nonfinite(col: Column, v: float) -> str:
    if v != v and col.nan is not None:
        return col.nan
    return float_text(v)


def _shown(col: Column, value, digits: int) -> str:
    """What people see of ``value`` in ``col`` (before escaping)."""
    if value is None:
        return col.missing
    if value is ABSENT:
        return ""
    kind = col.kind
    if kind == "auto":
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            kind = "float"
        elif isinstance(value, int):
            kind = "int"
        elif isinstance(value, tuple):
            kind = "fraction"
        elif hasattr(value, "item") and not isinstance(value, str):  # a numpy scalar
            return _shown(col, value.item(), digits)
        else:
            return str(value)
    if kind == "text":
        return str(value)
    if kind == "int":
        return "%d" % int(value)
    if kind == "float":
        v = float(value)
        if not math.isfinite(v):
            return _nonfinite(col, v)
        return float_text(v, col.digits if col.digits is not None else digits, col.signed)
    if kind == "shortest":
        v = float(value)
        return _nonfinite(col, v) if v != v else repr(v)
    if kind == "pvalue":
        v = float(value)
        return col.nan if v != v and col.nan is not None else pvalue_text(v)
    if kind == "percent":
        v = float(value)
        if v != v:
            return col.nan if col.nan is not None else "nan"
        return f"{100 * v:+.1f}%" if col.signed else f"{100 * v:.1f}%"
    if kind == "fraction":
        return "/".join("%d" % int(x) for x in value)
    raise AssertionError(kind)


def _columns(t: Table) -> list[tuple]:
    """The cells of ``t`` column by column (:data:`ABSENT` past the end of a short row)."""
    n = len(t.columns)
    if not t.rows:
        return [() for _ in range(n)]
    cols = list(itertools.zip_longest(*t.rows, fillvalue=ABSENT))[:n]
    return cols + [(ABSENT,) * len(t.rows)] * (n - len(cols))


def _unwrap(cells) -> tuple[Sequence, list | None]:
    """``(values, decorations)``: the values of a column's cells, and its :class:`Cell`
    values (None where a cell is a plain value), or None when it has none."""
    if Cell not in set(map(type, cells)):
        return cells, None
    return [c.value if type(c) is Cell else c for c in cells], [c if type(c) is Cell else None for c in cells]


def _texts(col: Column, values: Sequence, digits: int) -> list[str]:
    """:func:`_shown` of every value of a column; whole columns of floats, whole
    numbers or text at list speed (a table may have millions of rows)."""
    types = set(map(type, values))
    kind = col.kind
    if types == {float} and kind in ("float", "auto"):
        d = col.digits if col.digits is not None else digits
        out = list(map((("%+." if col.signed else "%.") + str(d) + "f").__mod__, values))
        if not all(map(math.isfinite, values)):
            out = [s if math.isfinite(v) else _nonfinite(col, v) for s, v in zip(out, values)]
        return out
    if types == {float} and kind == "shortest" and not any(map(math.isnan, values)):
        return list(map(repr, values))
    if types == {int} and kind in ("int", "auto"):
        return list(map(str, values))
    if types == {str} and kind in ("text", "auto"):
        return list(values)
    return [_shown(col, v, digits) for v in values]


# a line that may start as a formula (any non-ASCII first character is looked at closely)
_FORMULA_LINE = re.compile(r"(?m)^[=+\-@\x80-\U0010ffff]")


def _plain_text(texts: list[str]) -> bool:
    """No cell of ``texts`` needs cleaning for a terminal or a spreadsheet (checked at C speed)."""
    return all(map(str.isprintable, texts)) and not _FORMULA_LINE.search("\n".join(texts))


def _human(t: Table, digits: int, columns: list | None = None):
    """``(texts, decorations, spans)``: per column, what people see of each cell
    (a :class:`Cell`'s own ``text`` where it has one) and its Cell values (or None);
    the rows whose last cell spans the rest (None: no such row). ``columns``:
    :func:`_columns` of ``t``, when the caller has them already."""
    texts, decos = [], []
    for col, cells in zip(t.columns, _columns(t) if columns is None else columns):
        values, deco = _unwrap(cells)
        shown = _texts(col, values, digits)
        if deco is not None:
            shown = [c.text if c is not None and c.text is not None else s for s, c in zip(shown, deco)]
        texts.append(shown)
        decos.append(deco)
    n = len(t.columns)
    spans = None
    if set(map(len, t.rows)) - {n}:
        spans = [len(r) < n and type(r[-1]) is Cell and r[-1].span for r in t.rows] if t.rows else None
    return texts, decos, spans


def _rows_of(texts, decos, i: int, length: int):
    """Row ``i``'s ``(text, Cell or None)`` pairs, its first ``length`` cells."""
    return [(texts[j][i], None if decos[j] is None else decos[j][i]) for j in range(length)]


# ---------------------------------------------------------------- writers

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


def _markdown_cell(text: str, c: Cell | None) -> str:
    s = markdown_escape(text)
    if c is None:
        return s
    if c.bold and s:
        s = f"**{s}**"
    s += "".join(" " + MARKS[m][0] for m in c.marks)
    return s + (f"<sup>{markdown_escape(c.sup)}</sup>" if c.sup else "")


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
    s = html_escape(text)
    if c is None:
        return s
    if c.bold and s:
        s = f"<b>{s}</b>"
    s += "".join(" " + MARKS[m][0] for m in c.marks)
    return s + (f"<sup>{html_escape(c.sup)}</sup>" if c.sup else "")


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
        from ..errors import UsageError

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


__all__ = ["ALIASES", "FORMATS", "Cell", "Column", "Raw", "Table", "canonical", "check_format", "check_typeset",
           "check_sections", "choices_text", "clean", "csv_rows", "float_text", "html_escape", "json_text", "json_value", "latex_escape",
           "markdown_escape", "paused_gc", "pvalue_text", "records", "render", "render_sections", "spellings", "spreadsheet_safe",
           "spreadsheet_text"]
