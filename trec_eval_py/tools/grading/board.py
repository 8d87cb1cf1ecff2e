"""A leaderboard: its rows (:class:`Entry`), the board (:class:`Leaderboard`), and the
board printed (text, Markdown, CSV, JSON, HTML, LaTeX)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..._record import field, record
from ...engine.measures import Kind
from ...engine.results import Evaluation
from ..shared.submissions import Skipped
from .validate import ERROR, NOTE, WARNING, Finding

if TYPE_CHECKING:
    from .students import Roster, Student

#: measures of a leaderboard when none are named


@record(frozen=False)
class Entry:
    """One run: its evaluation, or why there is none, and what the validator found."""

    path: str  # the submission's name (relative to the folder given)
    evaluation: Evaluation | None = None
    error: str | None = None
    rank: int | None = None
    topics: int = 0  # judged topics the run has results for
    topics_total: int = 0  # judged topics
    findings: list[Finding] = field(factory=list)
    curve: np.ndarray | None = None  # (levels, 2): recall level, mean interpolated precision
    student: Student | None = None  # when the submissions name students

    @property
    def name(self) -> str:
        return self.path

    @property
    def warnings(self) -> list[str]:
        """The warnings among the findings, as one line each (no path: the run's own)."""
        return [f.short(self.path) for f in self.findings if f.severity == WARNING]

    def count(self, severity: str) -> int:
        return sum(f.severity == severity for f in self.findings)

    def headline(self) -> str:
        """The first finding's check, and how many more there are: ``tie+1``, ``-`` for none
        (one word: a text board splits on blanks)."""
        if not self.findings:
            return "-"
        more = len(self.findings) - 1
        return self.findings[0].code + (f"+{more}" if more else "")

    @property
    def runid(self) -> str:
        return self.evaluation.runid if self.evaluation is not None else ""

    @property
    def ok(self) -> bool:
        return self.evaluation is not None

    @property
    def result(self) -> Evaluation:
        """The evaluation of a graded run (one that is :attr:`ok`)."""
        if self.evaluation is None:
            raise ValueError(f"{self.path} was not graded: {self.error}")
        return self.evaluation


@record(frozen=False)
class Leaderboard:
    """Evaluated runs in leaderboard order.

    ``columns`` are the printed measure names in the order they were asked
    for (the run id has its own column); ``sort_by`` the one that orders
    the board (None: no measure fits, rows stay in name order).
    """

    columns: list[str]
    kinds: dict[str, Kind]
    entries: list[Entry] = field(factory=list)
    sort_by: str | None = None
    topics_total: int = 0
    complete: bool = True
    qrels_name: str = ""
    hide_judgments: bool = False
    skipped: list[Skipped] = field(factory=list)  # found but not graded (links, pipes, hidden files...)
    roster: Roster | None = None  # for grades.csv

    @property
    def has_students(self) -> bool:
        return any(e.student is not None for e in self.entries)

    def to_dataframe(self, per_topic: bool = False):
        """A pandas DataFrame: a row per run, or with ``per_topic`` per run, topic and measure."""
        from ...output.notebook import leaderboard_frame

        return leaderboard_frame(self, per_topic=per_topic)

    def __repr__(self) -> str:
        return render_leaderboard(self, "text")  # the notebook shows _repr_html_ instead

    def _repr_html_(self) -> str:
        from ...output.notebook import leaderboard_html

        return leaderboard_html(self)

    @property
    def failed(self) -> list[Entry]:
        return [e for e in self.entries if not e.ok]

    @property
    def graded(self) -> list[Entry]:
        return [e for e in self.entries if e.ok]


#: batch's --format (md is markdown's other spelling)
LEADERBOARD_FORMATS = ("text", "markdown", "csv", "json", "html", "latex")


def coverage(e: Entry) -> str:
    return f"{e.topics}/{e.topics_total}" if e.ok else ""


_KIND = {Kind.FLOAT: "float", Kind.INT: "int", Kind.STR: "text"}


def _board_topic_rows(board: Leaderboard, entry: Entry, show=None) -> list[list]:
    """(topic, measure, value) rows of one run, per-topic values then the summary
    (each value as ``show(kind, value)`` gives it; plain Python values by default)."""
    from ...output.evaluation import python_value

    show = show or python_value
    ev = entry.result
    wanted = set(board.columns)
    cols = [c for c in ev.columns if c.name in wanted]
    cols.sort(key=lambda c: board.columns.index(c.name))
    rows = []
    for t, qid in enumerate(ev.topics):
        if ev.printable[t]:
            rows += [[qid, c.name, show(c.kind, ev.values[c.name][t])] for c in cols if c.measure.per_topic]
    rows += [["all", c.name, show(c.summary_kind, ev.summary[c.name])] for c in cols if c.name in ev.summary]
    return rows


def leaderboard_json(board: Leaderboard, *, per_topic: bool = False) -> dict:
    from ...output.evaluation import evaluation_json, plain_value

    runs = []
    for e in board.entries:
        item: dict = {"rank": e.rank, "run": e.path, "runid": e.runid if e.ok else None,
                      "topics": e.topics if e.ok else None, "topics_total": e.topics_total}
        if board.has_students:
            item["student"] = e.student.name if e.student is not None else None
            item["student_id"] = e.student.id if e.student is not None else None
        if e.ok:
            ev = e.result
            item["summary"] = {c: plain_value(board.kinds[c], ev.summary[c]) for c in board.columns if c in ev.summary}
            if per_topic:
                doc = evaluation_json(ev, query=True, summary=False)["per_topic"]
                item["per_topic"] = {t: {c: v[c] for c in board.columns if c in v} for t, v in doc.items()}
        item.update(errors=e.count(ERROR), warnings=list(e.warnings), notes=e.count(NOTE),
                    counts={f.code: f.count for f in e.findings}, findings=[f.to_dict() for f in e.findings])
        item["error"] = e.error
        runs.append(item)
    return {"sort_by": board.sort_by, "measures": list(board.columns), "topics_total": board.topics_total,
            "complete": board.complete, "runs": runs,
            "skipped": [{"path": s.path, "reason": s.reason} for s in board.skipped]}


#: the columns of a board's csv that are not measures (readers of a board, such as
#: ``correlate``, take every other column for a measure)
BOARD_FIELDS = frozenset({"rank", "student", "student_id", "run", "runid", "topics", "topics_total", "findings",
                          "errors", "warnings", "notes", "checks", "error"})


def leaderboard_table(board: Leaderboard, fmt: str = "text", *, per_topic: bool = False, rounded: bool = False):
    """The board as a :class:`~trec_eval_py.output.table.Table` for ``fmt``: a row per
    run (with ``per_topic`` per run, topic and measure). Each row names the
    student (when the submissions name students), the judged topics the run
    answers and its findings: the first finding's check and how many more
    (``tie+1``) where people read it, a count per severity and the checks in
    csv. A failed run is one row with its reason: across the value columns in
    text, html and latex, in an ``error`` column in csv, in the runid column
    in markdown. ``rounded`` (csv): values as the text prints them.
    """
    from ...output.evaluation import format_value, python_value
    from ...output.table import Cell, Column, Table

    machine = fmt == "csv"
    students = board.has_students
    # numbers to the right where a table is typeset; text and markdown keep the board's plain layout
    num = "right" if fmt in ("latex", "html") else None
    who = []
    if students:
        who = [Column("student", "text"), Column("student_id", "text")] if machine else [Column("student", "text")]
    lead = [Column("rank", "int", align=num), *who, Column("run", "text"), Column("runid", "text"),
            Column("topics", "fraction", parts=("topics", "topics_total"), align=num)]
    if machine:
        lead += [Column("errors", "int"), Column("warnings", "int"), Column("notes", "int"), Column("checks", "text")]
    else:
        lead += [Column("findings", "text")]
    value_kind = (lambda k: "text") if rounded else (lambda k: _KIND[k])
    show = format_value if rounded else python_value
    if per_topic:
        values = [Column("topic", "text"), Column("measure", "text"), Column("value", "text" if rounded else "auto",
                                                                                align=num)]
    else:
        values = [Column(c, value_kind(board.kinds[c]), align=None if board.kinds[c] is Kind.STR else num)
                  for c in board.columns]
    cols = lead + values + ([Column("error", "text")] if machine else [])

    def student(e: Entry) -> list:
        if not students:
            return []
        name = e.student.name if e.student is not None else ""
        if machine:
            return [name, (e.student.id or "") if e.student is not None else ""]
        return [name]

    def findings(e: Entry) -> list:
        if machine:
            return [e.count(ERROR), e.count(WARNING), e.count(NOTE), " ".join(f.code for f in e.findings)]
        return [e.headline()]

    rows = []
    for e in board.entries:
        if e.ok:
            first = [e.rank, *student(e), e.path, e.runid, (e.topics, e.topics_total), *findings(e)]
            tail = [None] if machine else []
            if per_topic:
                rows += [first + r + tail for r in _board_topic_rows(board, e, show)]
            else:
                s = e.result.summary
                rows.append(first + [show(board.kinds[c], s[c]) if c in s else None for c in board.columns] + tail)
        elif machine:
            rows.append([None, *student(e), e.path, None, None, *findings(e), *[None] * len(values), e.error])
        elif fmt == "markdown":
            rows.append([Cell(None, text="-"), *student(e), e.path, f"error: {e.error}", None, *findings(e),
                         *[None] * len(values)])
        else:
            rows.append([Cell(None, text="-"), *student(e), e.path, Cell(f"error: {e.error}", span=True)])
    return Table(cols, rows)


def render_leaderboard(board: Leaderboard, fmt: str = "text", *, per_topic: bool = False, rounded: bool = False,
                       caption: str | None = None, label: str | None = None, digits: int | None = None) -> str:
    """A board as text, markdown (md), csv, json, html or latex.

    Text, markdown, html and latex print values as trec_eval does (or with
    ``digits`` decimals); csv and json keep full precision (csv with
    ``rounded``: as the text prints them, for a spreadsheet or an LMS). Each
    row shows the student (when the submissions name students), the judged
    topics the run answers (``answered/total``; csv and json: two numbers) and
    its findings (see :func:`leaderboard_table`; json lists them whole). With
    ``per_topic`` the table is long: one row per run, topic and measure (topic
    ``all`` for the summary). A failed run is one row carrying its reason.
    """
    from ...output.table import canonical, check_format, check_typeset, json_text, render

    fmt = canonical(check_format(fmt, LEADERBOARD_FORMATS))
    check_typeset(fmt, caption=caption, label=label, digits=digits)
    if fmt == "json":
        return json_text(leaderboard_json(board, per_topic=per_topic), indent=1)
    table = leaderboard_table(board, fmt, per_topic=per_topic, rounded=rounded)
    if fmt == "html":
        table.title = f"sorted by {board.sort_by}, best first" if board.sort_by else None
        return render(table, fmt, caption=caption, digits=digits, title="Leaderboard")
    return render(table, fmt, caption=caption, label=label, digits=digits)
