"""What a table is (:class:`Table`, :class:`Column`, :class:`Cell`, :class:`Raw`) and
the formats' vocabulary: their names and spellings, and the checks of ``--format``
and of the options that only some formats take."""
from __future__ import annotations

from collections.abc import Sequence

from ..._record import field, record

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
    from ...errors import UsageError

    raise UsageError(f"unknown {flag} {fmt!r}; choose one of {', '.join(spellings(allowed))}")


def check_sections(show, sections: Sequence[str], fmt: str, default: Sequence[str]) -> list[str]:
    """The sections a report shows (``--show``), in the order named, each once:
    ``default`` when none are named. csv writes one table, so it takes exactly
    one section; an unknown name is a one-line usage error."""
    from ...errors import UsageError

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
    from ...errors import UsageError

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
