"""Checking run files the way an evaluation campaign does before accepting them.

One validator gives one verdict: ``validate``, ``batch``, its report and the
students' feedback files all show the findings of :func:`validate_run`, with
the same severities and counts. A run with an error is not graded by
``batch`` (see :mod:`trec_eval_py.tools.grading.leaderboard`); warnings and notes
travel with its grade.

Unlike the readers, which stop at the first bad line, this is a linter: it
reads every line and reports every problem, each check **once per run** (a
:class:`Finding` counts its lines or topics and lists a few of them), so a
run of 50,000 lines with one mistake gets one finding, not 50,000. The first
finding names the real problem: a file that is not a run at all (a zip, a
binary, a qrels file, CR-only line endings) gets one error saying so; a
missing column is named from the shape of the other fields; a header only
when the first line differs from the rest; a comma-separated file as such.

Severities order the list:

``error``
    the file is malformed, is read differently from what was meant, or
    breaks a campaign rule (a second run id, too many documents): not graded;
``warning``
    well-formed, but something changes the values (scores that rise with the
    rank, a tie the docno tie-break decides across a cutoff, topics left out,
    most topics mostly unjudged);
``note``
    worth knowing, changes no value or little (the rank column, which is
    ignored; topics nobody judged; ties decided by the docno tie-break
    within a cutoff; a few topics mostly unjudged). ``tie`` and ``unjudged``
    are notes unless severe: nearly every run of a class has some tied scores
    and some unjudged documents, and a finding every run gets warns of
    nothing.

Checks, by code, in the order they are listed (the real problem first)::

    errors
      ``zip``              a zip archive (or a zip-based document such as .docx), not a text file
      ``binary``           another binary file (a PDF, NUL bytes near the start)
      ``looks-like-qrels`` every line is ``qid iter docno rel``: qrels and run given in swapped order
      ``line-endings``     lines end in CR alone (classic Mac): every reader sees one long line;
                           or a carriage return inside a line, which every reader rejects
      ``empty``            no result lines (nothing, or only comments)
      ``nul``              a NUL byte in a line
      ``separator``        fields separated by commas, semicolons or bars instead of blanks
      ``fields``           fewer than the six fields ``qid iter docno rank score runid`` (the
                           missing column is named from the other lines), or more than 32
      ``header``           the first line is a header (unlike every other line)
      ``score-type``       the score is not a decimal number (NaN, a decimal comma)
      ``duplicate-docno``  a document listed twice for one topic
      ``runid``            more than one run id in the file
      ``too-many-docs``    topics with more documents than allowed (default 1000)
      ``no-common-topics`` no topic of the run is in the qrels (or ``--topics``), with a hint
                           when the ids differ by a pattern (a prefix, zero padding, case)
      ``unreadable``       the file cannot be read (or the evaluation refused it)
      ``format``           a run in another results format (``-T``): its reader's first error
    warnings
      ``reversed-scores``  in most topics scores rise with the rank: trec_eval ranks by score,
                           higher first, so the ranking is evaluated upside down
      ``topic-not-in-run`` judged topics the run lacks (each scores 0 when every judged topic
                           counts, batch's default)
      ``tie``              (a note unless severe) equal scores where the tie-break (docno, not the
                           rank column) decides a value: with judgments, tied documents judged
                           differently and ranked otherwise by the run; without, a tie across a
                           cutoff (5, 10, 20, 100, 1000). A warning when a tie decides which
                           documents are inside a cutoff (with judgments: documents judged
                           differently), so a cutoff measure such as P@10 changes
      ``score-order``      in a few topics a score is higher than at the rank before it
      ``unjudged``         (a note unless severe) topics whose top 10 is more than half (default)
                           unjudged: their scores are underestimates. A warning when that is so
                           of more than half of the run's judged topics (its mean is then an
                           underestimate, not a few of its topics)
      ``comment``          ``#`` lines (trec_eval 10.0 skips them; 9.0.8 reads them as results)
      ``extra-fields``     more than six fields (the extra ones are ignored)
      ``bom``              a UTF-8 byte-order mark at the start: trec_eval reads it as part of the
                           first topic id (the readers of other formats skip it)
      ``encoding``         lines that are not valid UTF-8
    notes
      ``rank-sequence``    a topic's ranks are not 1, 2, ... n (the rank column is ignored)
      ``rank-type``        the rank is not an integer (the rank column is ignored)
      ``topic-not-in-qrels``  run topics without judgments (trec_eval ignores them)

``header`` is a warning instead when the header line is skipped on request
(``skip_header``, ``--skip-header``): the file is then graded without it.
Checks are turned off with ``ignore`` (or all but some with ``select``), as
a linter's are; a check without which the file cannot be read as meant
(those marked :attr:`Check.blocking`) cannot be ignored.

The topic checks need the qrels (``qrels``) or just their topic ids
(``topics``: one id per line, or a qrels file, whose first column is read), so
students can check their runs without seeing the judgments; ``unjudged`` and
the judgment rule of ``tie`` need the qrels. Windows (CRLF) line endings and
tabs are not findings: every reader takes them for blanks.

Memory and speed: a TREC run is read in pieces of about 8 MB
(:data:`PIECE_BYTES`), as the evaluation reads a large run. Each piece is
split by the readers' own scanner
(:func:`~trec_eval_py.engine.parse.fields.split_fields`) and checked column
by column; a piece with a line problem is looked at in parts of 64 KB
(:data:`PROBLEM_BYTES`), and only the parts with a problem are read line by
line, to find every bad line. The other checks run on groups of complete
topics as the pieces complete them (a run lists each topic's lines
together), and each check keeps its count, its first example and the lines
it lists: memory holds a piece's rows, a little per topic and per run id,
and the judgments, whatever the size of the file. The findings, their counts,
examples and order are those of the file checked whole.

A run that lists a topic in two places (its lines not together: runs
concatenated from several files, lines sorted by score across topics) is
read again in pieces: its line checks and run ids go in file order as
before, while each line's columns are written to one of several temporary
files chosen by a hash of its topic id (about a piece of the run each, at
most :data:`REGROUP_FILES`); each file, every line of its topics in file
order, is then checked as one group. Memory is then that of a piece or of
one file's topics, not of the run (a topic's lines are always held
together). The temporary files live in a scratch folder removed when the
check ends, fails or is stopped (Ctrl-C, SIGTERM). The report is still the
whole check's, by construction rather than by the order of the files: a check
keeps the example the whole check finds first (the least first line of its
topic, or the least line) and the least lines it lists, whatever order its
groups of topics come in. Such a run costs a second reading, and the first
reading's work up to where a topic came back.
"""
from __future__ import annotations

import contextlib
import functools
import itertools
import math
import os
import re
import stat
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from ..._record import field, record
from ..._versions import DEFAULT_COMPAT
from ...errors import InputError, UsageError
from ...engine.join.keys import docno_words, row_hash, run_starts
from ...engine.join.order import RankRule
from ...engine.join.stream import whole_topics
from ...engine.parse import Qrels, Run
from ...engine.parse.fields import FLOAT as _F, INT as _I, TEXT as _T, column_budget, has_bare_cr, split_fields
from ...engine.parse.numbers import FLOAT_RE, INT_RE
from ...engine.parse.source import (BINARY_HEAD, binary_reason, expand, read_pieces, read_source, source_name,
                                  split_pieces, text_size)

ERROR = "error"
WARNING = "warning"
NOTE = "note"
SEVERITIES = (ERROR, WARNING, NOTE)

#: cutoffs at which a tie in score makes the tie-break decide the value (without judgments)
COMMON_CUTOFFS = (5, 10, 20, 100, 1000)
DEFAULT_MAX_DOCS = 1000
DEFAULT_MAX_UNJUDGED = 0.5
UNJUDGED_DEPTH = 10
#: example lines (or topics) listed per finding
DEFAULT_MAX_PER_CHECK = 5
#: more fields than this on a line: several lines run together (the reader's bound)
MAX_FIELDS = 32


@record
class Check:
    """One check: its code, severity, what its count counts, and whether the
    evaluation needs it (a blocking check cannot be ignored: without it the
    file is not read as meant)."""

    code: str
    severity: str
    unit: str
    blocking: bool = False


#: every check, in the order findings are listed (the real problem first)
CHECKS: tuple[Check, ...] = (
    Check("zip", ERROR, "file", True),
    Check("binary", ERROR, "file", True),
    Check("looks-like-qrels", ERROR, "file", True),
    Check("line-endings", ERROR, "lines", True),
    Check("empty", ERROR, "file", True),
    Check("nul", ERROR, "lines", True),
    Check("separator", ERROR, "lines", True),
    Check("fields", ERROR, "lines", True),
    Check("header", ERROR, "line", True),
    Check("score-type", ERROR, "lines", True),
    Check("duplicate-docno", ERROR, "lines", True),
    Check("runid", ERROR, "lines"),
    Check("too-many-docs", ERROR, "topics"),
    Check("no-common-topics", ERROR, "topics", True),
    Check("unreadable", ERROR, "file", True),
    Check("format", ERROR, "line", True),
    Check("reversed-scores", WARNING, "topics"),
    Check("topic-not-in-run", WARNING, "topics"),
    # tie and unjudged: notes unless severe, then warnings listed here (see _report_ties, _report_unjudged)
    Check("tie", NOTE, "topics"),
    Check("score-order", WARNING, "topics"),
    Check("unjudged", NOTE, "topics"),
    Check("comment", WARNING, "lines"),
    Check("extra-fields", WARNING, "lines"),
    Check("bom", WARNING, "file"),
    Check("encoding", WARNING, "lines"),
    Check("rank-sequence", NOTE, "topics"),
    Check("rank-type", NOTE, "lines"),
    Check("topic-not-in-qrels", NOTE, "topics"),
)
CHECK = {c.code: c for c in CHECKS}
_PRIORITY = {c.code: i for i, c in enumerate(CHECKS)}
#: checks that say the file is not a run at all (nothing else is reported for it)
NOT_A_RUN = ("zip", "binary", "looks-like-qrels")
#: errors that name a cause a student can fix at once
HINTS = ("zip", "binary", "line-endings", "looks-like-qrels", "header", "separator", "fields",
         "no-common-topics")


def check_codes(codes: Iterable[str], what: str = "--ignore") -> tuple[str, ...]:
    """``codes`` checked against :data:`CHECKS` (a comma-separated list counts as several)."""
    out = []
    for c in codes:
        for code in str(c).split(","):
            code = code.strip()
            if not code:
                continue
            if code not in CHECK:
                raise UsageError(f"{what} {code}: no such check; the checks are {', '.join(CHECK)}")
            out.append(code)
    return tuple(dict.fromkeys(out))


def selected_checks(ignore: Iterable[str] = (), select: Iterable[str] = ()) -> frozenset:
    """The codes of the checks that run under ``ignore`` and ``select`` (as a linter's
    ``--ignore``/``--select``): every check but the ignored ones, or only the selected
    ones. Blocking checks always run: the file is not read as meant without them."""
    ignore = check_codes(ignore, "--ignore")
    select = check_codes(select, "--select")
    blocked = [c for c in ignore if CHECK[c].blocking]
    if blocked:
        raise UsageError(f"--ignore {blocked[0]}: the evaluation cannot read such a file as meant, so this "
                         "check cannot be turned off" + (" (--skip-header grades a file with a header line)"
                                                         if blocked[0] == "header" else ""))
    on = set(select) if select else set(CHECK)
    on |= {c.code for c in CHECKS if c.blocking}
    return frozenset(on - set(ignore))


@record
class Finding:
    """One problem of one kind in one run: where it first shows, how bad, which
    check, what is wrong; ``count`` places (lines or topics, :attr:`unit`) have
    it, of which ``lines`` are a few, in order."""

    path: str
    line: int | None
    severity: str
    code: str
    message: str
    count: int = 1
    lines: tuple = ()

    @property
    def unit(self) -> str:
        return CHECK[self.code].unit if self.code in CHECK else "lines"

    def counted(self) -> str:
        """``5 lines``, ``1 topic``: what :attr:`count` counts."""
        unit = self.unit.rstrip("s")
        return f"{self.count} {unit}{'s' * (self.count != 1)}"

    def _more(self) -> str:
        if self.count <= 1 or self.unit != "lines" or not self.lines:
            return ""
        listed = ", ".join(str(n) for n in self.lines[:DEFAULT_MAX_PER_CHECK])
        rest = " ..." if self.count > len(self.lines[:DEFAULT_MAX_PER_CHECK]) else ""
        return f" ({self.count} lines: {listed}{rest})"

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.severity}: {self.message}{self._more()} [{self.code}]"

    def short(self, run: str | None = None) -> str:
        """Without the path when it is the run's own, ``run`` (for a board or a student's feedback)."""
        if self.path != run and run is not None:
            where = f"{self.path}: " if self.line is None else f"{self.path}:{self.line}: "
        else:
            where = "" if self.line is None else f"line {self.line}: "
        return f"{where}{self.severity}: {self.message}{self._more()} [{self.code}]"

    def to_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "severity": self.severity, "code": self.code,
                "message": self.message, "count": self.count, "lines": list(self.lines)}


@record(frozen=False)
class Report:
    """Every finding for one run file (the real problem first), plus what was read.

    One finding per check; :meth:`counts` says how many lines or topics each covers.
    """

    path: str
    findings: list[Finding] = field(factory=list)
    lines: int = 0
    results: int = 0
    topics: int = 0
    #: per judged topic of the run: (unjudged documents, documents) in its top
    #: :data:`UNJUDGED_DEPTH` (the engine's judged.10 is 1 - their ratio); empty
    #: without single-document judgments
    unjudged: dict = field(factory=dict)
    #: the line of a header skipped on request (``skip_header``), else None
    skipped_header: int | None = None

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == WARNING]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == NOTE]

    @property
    def num_errors(self) -> int:
        return len(self.errors)

    @property
    def num_warnings(self) -> int:
        return len(self.warnings)

    @property
    def num_notes(self) -> int:
        return len(self.notes)

    def codes(self) -> set[str]:
        return {f.code for f in self.findings}

    def counts(self) -> dict[str, int]:
        """Per check that fired: how many lines or topics it covers, in the findings' order."""
        return {f.code: f.count for f in self.findings}

    def passed(self, strict: bool = False) -> bool:
        """No errors (and with ``strict``, no warnings either; notes never fail)."""
        return not (self.num_errors or (strict and self.num_warnings))

    def hint(self) -> Finding | None:
        """The first error (the real problem), if any."""
        return next((f for f in self.findings if f.severity == ERROR), None)

    def tally(self) -> str:
        """``1 error, 2 warnings [tie: 3 topics, unjudged: 2 topics]``: the findings by severity and check."""
        parts = []
        for sev, n in ((ERROR, self.num_errors), (WARNING, self.num_warnings), (NOTE, self.num_notes)):
            if n or sev != NOTE:
                parts.append(f"{n} {sev}{'s' * (n != 1)}")
        checks = ", ".join(f"{f.code}: {f.counted()}" for f in self.findings)
        return ", ".join(parts) + (f" [{checks}]" if checks else "")

    def summary(self) -> str:
        return f"{self.path}: {self.tally()} ({_count(self.results, 'result')}, {_count(self.topics, 'topic')})"

    def to_dict(self, strict: bool = False) -> dict:
        return {"path": self.path, "ok": self.passed(strict), "errors": self.num_errors,
                "warnings": self.num_warnings, "notes": self.num_notes, "counts": self.counts(),
                "lines": self.lines, "results": self.results, "topics": self.topics,
                "findings": [f.to_dict() for f in self.findings]}


def _show(b: bytes) -> str:
    return repr(b.decode("utf-8", "replace"))


def _shown_line(raw: bytes, width: int = 60) -> str:
    text = raw.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= width else text[: width - 3] + "...")


class _Collector:
    """Findings of one run, one per check: a line check's hits are counted and a
    few of their lines kept; a check that is turned off is not recorded."""

    def __init__(self, path: str, examples: int, on: frozenset | None = None):
        self.path = path
        self.examples = max(int(examples), 1) if examples else 1 << 30
        self.on = on
        self.hits: dict[str, list] = {}  # code -> [first line, message, count, lines, severity]
        self.whole: list[Finding] = []

    def wants(self, code: str) -> bool:
        return self.on is None or code in self.on

    def hit(self, code: str, line: int | None, message, severity: str | None = None) -> None:
        """One more line with the problem ``code`` (the first one's message describes them;
        a function giving it, when what it says is known only once the file is done)."""
        if not self.wants(code):
            return
        h = self.hits.get(code)
        if h is None:
            self.hits[code] = [line, message, 1, [line] if line is not None else [], severity]
            return
        h[2] += 1
        if line is not None and len(h[3]) < self.examples:
            h[3].append(line)

    def add(self, line: int | None, severity: str | None, code: str, message: str, *, count: int = 1,
            lines: Iterable = (), path: str | None = None) -> None:
        """A finding worked out whole (a topic check, a file check)."""
        if not self.wants(code):
            return
        self.whole.append(Finding(path or self.path, line, severity or CHECK[code].severity, code, message,
                                  count, tuple(list(lines)[: self.examples])))

    def count(self, code: str) -> int:
        h = self.hits.get(code)
        return h[2] if h else sum(f.count for f in self.whole if f.code == code)

    def has_error(self) -> bool:
        return any((h[4] or CHECK[c].severity) == ERROR for c, h in self.hits.items()) or \
            any(f.severity == ERROR for f in self.whole)

    def done(self, report: Report, content_lines: int = 0) -> None:
        found = list(self.whole)
        for code, (line, message, n, lines, severity) in self.hits.items():
            if callable(message):
                message = message()
            if n > 1 and n == content_lines and CHECK[code].unit == "lines":
                message = f"every one of the {n} lines: {message}"
                lines = []  # listing some of them says nothing more
            found.append(Finding(self.path, line, severity or CHECK[code].severity, code, message, n, tuple(lines)))
        report.findings = sorted(found, key=lambda f: (SEVERITIES.index(f.severity), _PRIORITY.get(f.code, 99),
                                                        f.line or 0))


# ---- what kind of file is it? ----

_ZIP = (b"PK\x03\x04", b"PK\x05\x06")


def _not_text(data: bytes, out: _Collector) -> bool:
    """One error for a file that is no text at all; True if so."""
    if data.startswith(_ZIP):
        out.add(None, ERROR, "zip",
                "this is a zip archive (or a zip-based document such as .docx or .odt), not a text run file; "
                "hand in the run file itself, as plain text")
        return True
    reason = binary_reason(data[:BINARY_HEAD])
    if reason is not None:
        out.add(None, ERROR, "binary", reason)
        return True
    return False


def _line_ends(data: bytes, out: _Collector) -> bytes:
    """``data`` (a file whole) with CR-only line endings made LF, said once as an error."""
    if b"\r" in data and b"\n" not in data.rstrip(b"\r\n") and data.rstrip(b"\r\n").count(b"\r") >= 1:
        out.add(None, ERROR, "line-endings",
                "lines end in CR alone (an old Mac convention): trec_eval and every reader here see the whole "
                "file as one line; save it with LF or CRLF line endings")
        data = data.replace(b"\r", b"\n")
    return data


def _split_lines(data: bytes, out: _Collector) -> list[bytes]:
    lines = _line_ends(data, out).split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


#: results formats read as trec_eval reads them, byte for byte (a byte-order mark included)
_TREC_EVAL_FORMATS = ("trec_results",)


def _check_bom(data: bytes, results_format: str, out: _Collector) -> None:
    """A UTF-8 byte-order mark at the start of the file (Notepad writes one): said once,
    with what the evaluation makes of it."""
    from ...engine.parse.source import BOM

    if not data.startswith(BOM):
        return
    if results_format in _TREC_EVAL_FORMATS:
        first = data[3:].split(None, 1)[:1]
        shown = _show(BOM + first[0]) if first else "''"
        out.add(1, WARNING, "bom",
                f"the file starts with a UTF-8 byte-order mark: trec_eval reads it as part of the first "
                f"topic id ({shown}), which matches no topic of judgments saved without it; save the file "
                "without it (as UTF-8, not 'UTF-8 with BOM')")
    else:
        out.add(1, WARNING, "bom",
                "the file starts with a UTF-8 byte-order mark: it is skipped, as the format's official "
                "scripts skip it; saving the file without it is safer")


def sniff(data: bytes, probe: int = 20) -> str | None:
    """``'run'``, ``'qrels'`` or None: what the first content lines look like."""
    shapes: list[str | None] = []
    for raw in data.split(b"\n", 200)[:200]:
        f = raw.split()
        if not f or f[0].startswith(b"#"):
            continue
        if len(f) == 4 and INT_RE.fullmatch(f[3]):
            shapes.append("qrels")
        elif len(f) >= 6 and FLOAT_RE.fullmatch(f[4]):
            shapes.append("run")
        else:
            shapes.append(None)
        if len(shapes) >= probe:
            break
    if shapes and all(s == shapes[0] for s in shapes):
        return shapes[0]
    return None


# ---- the columns of a run ----

@record(frozen=False)
class _Cols:
    """The result lines of a run as columns (rank NaN where it is no integer)."""

    qid: np.ndarray
    docno: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    runid: np.ndarray
    line: np.ndarray

    def __len__(self) -> int:
        return len(self.line)

    def take(self, idx) -> "_Cols":
        return _Cols(self.qid[idx], self.docno[idx], self.rank[idx], self.score[idx], self.runid[idx], self.line[idx])

    @staticmethod
    def empty() -> "_Cols":
        text = np.zeros(0, dtype="S1")
        return _Cols(text, text, np.zeros(0), np.zeros(0), text, np.zeros(0, dtype=np.int64))

    @staticmethod
    def joined(parts: list, name: str = "") -> "_Cols":
        """The rows of ``parts`` (:class:`_Cols`), one after the other. Text is stored at
        the width of its longest value: rows padded to a field far longer than the others'
        (a docno of megabytes after a topic of short ones) would fill the memory, so such
        a field is an error naming its line (the bound of the readers' columns,
        :func:`~trec_eval_py.engine.parse.fields.column_budget`)."""
        parts = [p for p in parts if len(p)]
        if len(parts) <= 1:
            return parts[0] if parts else _Cols.empty()
        rows = sum(len(p) for p in parts)
        for number, column in ((1, "qid"), (3, "docno"), (6, "runid")):
            arrays = [getattr(p, column) for p in parts]
            width = max(a.itemsize for a in arrays)
            if width * rows > column_budget(sum(a.nbytes for a in arrays)):
                wide = max(parts, key=lambda p: getattr(p, column).itemsize)
                i = int(np.argmax(np.char.str_len(getattr(wide, column))))
                raise InputError(name, f"run field {number} is {width} bytes long: padding all {rows} lines to it "
                                       f"would need {width * rows / 2**30:.1f} GiB (fields are stored at the width "
                                       f"of the longest)", int(wide.line[i]))
        return _Cols(*(np.concatenate(cols) for cols in zip(*(
            (p.qid, p.docno, p.rank, p.score, p.runid, p.line) for p in parts))))

    def then(self, other: "_Cols", name: str = "") -> "_Cols":
        """These rows followed by ``other``'s (see :meth:`joined`)."""
        return _Cols.joined([self, other], name)


_COMMENT_LINE = re.compile(rb"(?:^|\n)[ \t\r\x0b\x0c]*#")


def _fast_columns(data: bytes, name: str, first_line: int = 1) -> tuple[_Cols, int] | None:
    """The columns of a run (or of a piece of one whose first line is ``first_line``)
    whose every line is a plain result (6 fields, a number as score, an integer as
    rank, UTF-8, no comment), split by the readers' own scanner, and the number of
    lines; None for any other (it is read line by line)."""
    if b"#" in data and _COMMENT_LINE.search(data):  # most runs hold no '#' at all
        return None
    try:
        data.decode("utf-8")
        f = split_fields(data, name, min_fields=6, max_fields=6, wanted={0: _T, 2: _T, 3: _I, 4: _F, 5: _T},
                         labels={3: "rank", 4: "score"}, what="run", first_line=first_line)
    except (InputError, UnicodeDecodeError):
        return None
    score = f.columns[4]
    if len(score) == 0 or np.isnan(score).any():
        return None
    rank = f.columns[3].astype(np.float64)
    return _Cols(f.columns[0], f.columns[2], rank, score.astype(np.float64, copy=False), f.columns[5],
                 f.lineno.astype(np.int64, copy=False)), f.num_lines


def _kind(tok: bytes) -> str:
    if INT_RE.fullmatch(tok):
        return "i"
    if FLOAT_RE.fullmatch(tok):
        return "f"
    return "w"


#: the six columns of a run, as messages name them
COLUMN_NAMES = ("topic id", "iter ('Q0')", "docno", "rank", "score", "run id")
_SEPARATORS = ((b",", "commas"), (b";", "semicolons"), (b"|", "bars ('|')"))


def _column_fit(col: list[bytes], position: int, qids: list[bytes] | None) -> float:
    """How well the tokens ``col`` fit the run's column ``position`` (0 to 1)."""
    n = len(col)
    if position == 0:  # topic ids come in runs of equal values
        return sum(a == b for a, b in zip(col, col[1:])) / max(n - 1, 1) if n > 1 else 0.5
    if position == 1:
        return max(sum(t in (b"Q0", b"q0", b"0") for t in col) / n, 0.5 * (len(set(col)) == 1 and n > 1))
    ints = [INT_RE.fullmatch(t) is not None for t in col]
    # ranks count up by one within a topic; scores and docnos do not
    steps = [int(b) - int(a) == 1 for a, b, ia, ib in zip(col, col[1:], ints, ints[1:]) if ia and ib]
    counting = sum(steps) / len(steps) if steps else 0.0
    if position == 2:
        if len(set(col)) <= 1 and n > 1:
            return 0.0
        decimals = sum(b"." in t and FLOAT_RE.fullmatch(t) is not None for t in col) / n
        return 1.0 - 0.6 * max(counting, decimals)
    if position == 3 or position == 4:
        if position == 3:
            return sum(ints) / n * (0.5 + 0.5 * counting)
        floats = sum(FLOAT_RE.fullmatch(t) is not None for t in col) / n
        return floats * (1.0 - 0.5 * counting)
    # the run id: one word on every line
    return 1.0 if len(set(col)) == 1 and FLOAT_RE.fullmatch(col[0]) is None else 0.0


def missing_columns(rows: list[list[bytes]]) -> tuple[int, ...] | None:
    """Which of the six columns lines of fewer fields lack, from the shape of their
    fields (``rows``: the fields of such lines, all of one length), if one answer
    fits clearly better than the others; else None."""
    if not rows:
        return None
    k = len(rows[0])
    if not 2 <= k < 6:
        return None
    sample = rows[:400]
    cols = [[r[i] for r in sample] for i in range(k)]
    fits = []
    for missing in itertools.combinations(range(6), 6 - k):
        positions = [p for p in range(6) if p not in missing]
        fits.append((sum(_column_fit(c, p, None) for c, p in zip(cols, positions)), missing))
    fits.sort(reverse=True)
    best, runner = fits[0], fits[1] if len(fits) > 1 else (-1.0, ())
    if best[0] >= k - 1 and best[0] - runner[0] >= 0.3:
        return best[1]
    return None


def _missing_message(missing: tuple[int, ...] | None, k: int) -> str:
    need = "a result line has 6: qid Q0 docno rank score runid (e.g. '401 Q0 DOC1 1 12.5 myrun')"
    if missing is None:
        return f"{k} field{'s' * (k != 1)}; {need}"
    names = [COLUMN_NAMES[m] for m in missing]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    shape = " ".join(("qid", "Q0", "docno", "rank", "score", "runid")[p] for p in range(6) if p not in missing)
    return (f"the {what} column{'s are' if len(names) > 1 else ' is'} missing: the lines have {k} fields "
            f"({shape}); {need}")


#: content lines that settle whether the first one is a header (it and the 200 after it)
_HEADER_PROBE = 201
#: lines of one short shape looked at to name the missing column
_SHAPE_SAMPLE = 400


class _LineScan:
    """Every line looked at on its own (a run with a line problem), fed in file order
    one piece or more at a time: every line problem goes to the collector, the
    result lines come back as columns.

    What needs lines further on is kept, not the lines: the first content lines
    until it is settled whether the first is a header (it is when it holds no
    number and the next :data:`_HEADER_PROBE` - 1 mostly do), and per number of
    fields of the short lines, their count and the fields of the first
    :data:`_SHAPE_SAMPLE` (a missing column is named from them when the file is done).
    """

    def __init__(self, out: _Collector, skip_header: bool, report: Report):
        self.out = out
        self.skip_header = skip_header
        self.report = report
        #: content lines (not blank, not a comment, the header left out)
        self.content = 0
        #: whether any line holds more than blanks
        self.any_text = False
        self.held: list | None = []  # content lines until the header question is settled; then None
        self.short: dict[int, list] = {}  # number of fields -> [lines, the first ones' fields]

    def plain(self, cols: _Cols) -> bool:
        """Take the result lines ``cols`` of a piece of plain result lines (every one a
        result, read by the fast scanner), if the header question allows: True if so
        (they have no problem to report); False when lines are held, and the piece
        must be fed line by line."""
        if self.held:
            return False
        # its first line has numbers, so it is no header: the question is settled
        self.held = None
        self.content += len(cols)
        self.any_text = self.any_text or len(cols) > 0
        return True

    def feed(self, lines: list[bytes], first_no: int = 1) -> _Cols:
        """The result lines among ``lines`` (the first is line ``first_no``) as columns."""
        content = self._line_checks(lines, first_no)
        if self.held is None:
            return self._results(content)
        self.held += content
        held = self.held
        if not held or (len(held) < _HEADER_PROBE and not any(_kind(t) != "w" for t in held[0][2][1:])):
            return _Cols.empty()
        self.held = None
        return self._results(self._header(held))

    def finish(self) -> _Cols:
        """The result lines still held (the file was done before the header question was)."""
        if self.held is None:
            return _Cols.empty()
        held, self.held = self.held, None
        return self._results(self._header(held))

    def _line_checks(self, lines: list[bytes], first_no: int) -> list[tuple[int, bytes, list[bytes]]]:
        out = self.out
        content: list[tuple[int, bytes, list[bytes]]] = []
        for no, raw in enumerate(lines, first_no):
            if b"\0" in raw:
                out.hit("nul", no, "NUL byte in the line; the file cannot be read")
                self.any_text = True
                continue
            if has_bare_cr(raw):  # the readers stop here, so it is an error, not a field count
                out.hit("line-endings", no, "carriage return inside the line: evaluation rejects it; save the "
                        "file with LF or CRLF line endings")
                self.any_text = True
                continue
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as e:
                out.hit("encoding", no, f"not valid UTF-8 (byte {raw[e.start]:#04x} at column {e.start + 1})")
            f = raw.split()
            if not f:
                continue
            self.any_text = True
            if f[0].startswith(b"#"):
                out.hit("comment", no, "a comment line: skipped by trec_eval 10.0 and this package, read as a "
                        "result by trec_eval 9.0.8; delete it")
                continue
            content.append((no, raw, f))
        return content

    def _header(self, content: list) -> list:
        """``content`` (the first content lines: all, or at least :data:`_HEADER_PROBE`)
        without its first line if that is a header."""
        # a header: the first line, unlike the others, holds no number where they hold some
        if len(content) <= 1:
            return content
        no, raw, f = content[0]
        kinds = [_kind(t) for t in f]
        shapes: dict[tuple, int] = {}
        for _, _, g in content[1:_HEADER_PROBE]:
            key = (len(g), tuple(_kind(t) != "w" for t in g))
            shapes[key] = shapes.get(key, 0) + 1
        common, seen = max(shapes.items(), key=lambda kv: kv[1])
        numbers_elsewhere = sum(common[1])
        if sum(k != "w" for k in kinds[1:]) == 0 and numbers_elsewhere >= 2 and \
                (len(f), tuple(k != "w" for k in kinds)) != common:
            if self.skip_header:
                self.out.add(no, WARNING, "header", f"a header line ({_shown_line(raw)}), not a result: "
                             "skipped (--skip-header); trec_eval reads it as a result, so delete it")
                self.report.skipped_header = no
            else:
                self.out.add(no, ERROR, "header", f"a header line ({_shown_line(raw)}), unlike every other "
                             "line: a run has no header, trec_eval reads it as a result; delete it (or grade "
                             "the file with --skip-header)")
            return content[1:]
        return content

    def _missing(self, k: int) -> str:
        """What the first line of ``k`` (< 6) fields is told, from every such line of the file."""
        n, rows = self.short[k]
        return _missing_message(missing_columns(rows) if n >= 5 or n == self.content else None, k)

    def _results(self, content: list) -> _Cols:
        out = self.out
        self.content += len(content)
        for _, _, f in content:
            if len(f) < 6:
                seen = self.short.setdefault(len(f), [0, []])
                seen[0] += 1
                if len(seen[1]) < _SHAPE_SAMPLE:
                    seen[1].append(f)
        qid, docno, rank, score, runid, line = [], [], [], [], [], []
        for no, raw, f in content:
            if len(f) < 6:
                sep = next(((s, what) for s, what in _SEPARATORS
                            if len([x for x in raw.strip().split(s)]) >= 6 and len(f) < len(raw.strip().split(s))),
                           None)
                if sep is not None:
                    out.hit("separator", no, f"the fields are separated by {sep[1]} ({_shown_line(raw)}): "
                            "a run separates them by blanks (spaces or tabs)")
                else:
                    out.hit("fields", no, functools.partial(self._missing, len(f)))
                continue
            if len(f) > MAX_FIELDS:
                out.hit("fields", no, f"{len(f)} fields: several lines run together? (at most {MAX_FIELDS} are read)")
                continue
            if len(f) > 6:
                out.hit("extra-fields", no, f"{len(f)} fields; everything after the 6th (run id) is ignored")
            r = float(int(f[3])) if INT_RE.fullmatch(f[3]) else math.nan
            if r != r:
                out.hit("rank-type", no, f"rank {_show(f[3])} is not an integer (the rank column is ignored: "
                        "documents are ranked by score)")
            s = float(f[4]) if FLOAT_RE.fullmatch(f[4]) else math.nan
            if s != s:
                if re.fullmatch(rb"[+-]?\d+,\d+", f[4]):
                    out.hit("score-type", no, f"score {_show(f[4])} has a decimal comma: write "
                            f"{f[4].replace(b',', b'.').decode()} (a point)")
                else:
                    out.hit("score-type", no, f"score {_show(f[4])} is not a number")
                continue
            qid.append(f[0])
            docno.append(f[2])
            rank.append(r)
            score.append(s)
            runid.append(f[5])
            line.append(no)

        def arr(xs):
            return np.array(xs, dtype="S") if xs else np.zeros(0, dtype="S1")

        return _Cols(arr(qid), arr(docno), np.array(rank, dtype=np.float64), np.array(score, dtype=np.float64),
                     arr(runid), np.array(line, dtype=np.int64))


# ---- checks on the columns ----

class _Tally:
    """One check's finding added up over groups of whole topics, given in any
    order: the example (where, and what to say of it) with the least ``key``,
    the places counted, the least of their lines (at most ``most``) and a
    number of the check's own (``extra``: a largest size, a count of groups;
    ``severe``: how many of those make the finding a warning).

    The key of an example is where checking every line at once finds it first:
    the first line of its topic for a check of topics (which looks at topics in
    the order they first appear), else its own line. So the finding does not
    depend on how the topics were grouped, nor on the order of the groups.
    """

    __slots__ = ("line", "example", "key", "count", "lines", "most", "extra", "severe")

    def __init__(self, most: int = DEFAULT_MAX_PER_CHECK):
        self.line: int | None = None
        self.example: Any = None  # what the check's message is made from
        self.key = 0
        self.count = 0
        self.lines: list = []
        self.most = most
        self.extra = 0
        self.severe = 0

    def add(self, line, example, count: int, lines=(), key: int | None = None) -> None:
        """``count`` more places, ``lines`` the least of their lines (at most
        :attr:`most`), the example at ``line`` (found first at ``key``, default ``line``)."""
        if not count:
            return
        key = line if key is None else key
        if not self.count or key < self.key:
            self.line, self.example, self.key = line, example, key
        self.count += count
        lines = list(lines)
        if lines:
            self.lines = sorted(self.lines + lines)[: self.most]


class _RunIds:
    """The run id of every result line, in file order: the first line's, every id
    (in order of first use) and the lines whose id differs from the first's."""

    def __init__(self) -> None:
        self.first: bytes | None = None
        self.ids: dict = {}
        self.other = _Tally()

    def add(self, c: _Cols) -> None:
        if not len(c):
            return
        if self.first is None:
            self.first = c.runid[0]
        for rid in c.runid[run_starts(c.runid)].tolist():
            self.ids.setdefault(rid, None)
        other = np.flatnonzero(c.runid != self.first)
        if len(other):
            self.other.add(int(c.line[other[0]]), None, len(other), c.line[other[:DEFAULT_MAX_PER_CHECK]].tolist())

    def report(self, out: _Collector) -> None:
        n = self.other.count
        if not n:
            return
        ids = list(self.ids)
        shown = ", ".join(_show(r) for r in ids[:4]) + (f" and {len(ids) - 4} more" if len(ids) > 4 else "")
        assert self.first is not None  # lines were counted
        out.add(self.other.line, ERROR, "runid",
                f"{len(ids)} run ids ({shown}): a run has one; {n} line{'s' * (n != 1)} "
                f"differ{'s' * (n == 1)} from the first line's {_show(self.first)}; "
                "--ignore runid grades the file as one run",
                count=n, lines=self.other.lines)


def _topic_codes(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's topic code (topics numbered in order of first appearance) and the topic ids."""
    return _topics(qid)[:2]


def _topics(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_topic_codes`, and each topic's first row."""
    starts = run_starts(qid)
    heads = qid[starts]
    if len(np.unique(heads)) == len(heads):  # each topic's lines together, as runs are written
        return np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(qid)))), heads, starts
    ids, first, inv = np.unique(qid, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rename = np.empty(len(order), dtype=np.int64)
    rename[order] = np.arange(len(order))
    return rename[inv.ravel()], ids[order], first[order]


def _check_duplicates(c: _Cols, topic: np.ndarray, qids: np.ndarray, found: _Tally) -> np.ndarray:
    """Duplicates (topic, docno) found; returns the rows to keep (each document's first)."""
    keys = row_hash(topic, _words(c.docno), len(qids))
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    cand = np.flatnonzero(sk[1:] == sk[:-1])
    keep = np.ones(len(c), dtype=bool)
    if not len(cand):
        return keep
    # equal hashes: compare the documents themselves, each with every earlier one of its key
    pairs = []
    for i in cand.tolist():
        b = int(order[i + 1])
        j = i
        while j >= 0 and sk[j] == sk[i + 1]:
            a = int(order[j])
            if topic[a] == topic[b] and c.docno[a] == c.docno[b]:
                pairs.append((min(a, b), max(a, b)))
                break
            j -= 1
    if not pairs:
        return keep
    first_of: dict[int, int] = {}
    for a, b in sorted(pairs):
        first_of.setdefault(b, first_of.get(a, a))
    dup = np.array(sorted(first_of), dtype=np.int64)
    keep[dup] = False
    d = int(dup[0])
    found.add(int(c.line[d]),
              f"docno {_show(c.docno[d])} already listed for topic {_show(qids[topic[d]])} on line "
              f"{int(c.line[first_of[d]])}; a document is listed once per topic (trec_eval stops at it)",
              len(dup), c.line[dup[:DEFAULT_MAX_PER_CHECK]].tolist())
    return keep


def _words(docno: np.ndarray) -> np.ndarray:
    w = docno_words(docno)
    return w.reshape(-1, 1) if w.ndim == 1 else w


def _check_too_many(c: _Cols, topic: np.ndarray, qids: np.ndarray, max_docs: int, found: _Tally,
                    first_line: np.ndarray) -> None:
    """Topics over ``max_docs``; the first one's id, size and line of its document past
    the limit are the example, the largest size is ``found.extra`` (``first_line``:
    each topic's first line, the examples' key)."""
    if not max_docs:
        return
    sizes = np.bincount(topic, minlength=len(qids))
    over = np.flatnonzero(sizes > max_docs)
    if not len(over):
        return
    t = int(over[0])
    rows = np.flatnonzero(topic == t)
    found.add(int(c.line[rows[max_docs]]), (qids[t], int(sizes[t])), len(over), key=int(first_line[t]))
    found.extra = max(found.extra, int(sizes.max()))


def _report_too_many(found: _Tally, topics: int, max_docs: int, out: _Collector) -> None:
    if not found.count:
        return
    qid, size = found.example
    n = found.count
    out.add(found.line, ERROR, "too-many-docs",
            f"{n} topic{'s' * (n != 1)} of {topics} list more than the {max_docs} documents "
            f"allowed (up to {found.extra}); topic {_show(qid)} has {size}, its document "
            f"{max_docs + 1} is on this line: keep the top {max_docs} of each topic (-M does not change this "
            "check; --ignore too-many-docs grades every document, which favours this run)", count=n)


class _Ranks:
    """The rank column's findings added up: topics whose ranks are not 1..n
    (``sequence``: the first one's message), topics with ranked rows (more than
    one), topics where a score rises along the ranks (``rises``: the first rise
    as example) and those where rises outnumber falls (``reversed``)."""

    __slots__ = ("sequence", "ranked", "rises", "reversed")

    def __init__(self):
        self.sequence = _Tally()
        self.ranked = 0
        self.rises = _Tally()
        self.reversed = _Tally()


def _rank_order(c: _Cols, topic: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, their topics, their ranks)``: the rows with a rank, by topic, rank and line."""
    idx = np.flatnonzero(~np.isnan(c.rank))
    t, r = topic[idx], c.rank[idx]
    # as they are, in a run written topic by topic in rank order
    if len(idx) > 1 and not ((t[1:] > t[:-1]) | ((t[1:] == t[:-1]) & (r[1:] >= r[:-1]))).all():
        idx = idx[np.lexsort([c.line[idx], r, t])]
        t, r = topic[idx], c.rank[idx]
    return idx, t, r


def _sequence_wrong(c: _Cols, topic: np.ndarray) -> tuple:
    """``(rows by topic and rank, their topics, ranks, the ranks 1..n expected, where they
    differ)`` (see :func:`_rank_order`)."""
    order, t, r = _rank_order(c, topic)
    starts = np.flatnonzero(np.concatenate([[True], t[1:] != t[:-1]])) if len(order) else np.zeros(0, np.int64)
    sizes = np.diff(np.append(starts, len(order)))
    expect = np.arange(len(order)) - np.repeat(starts, sizes) + 1
    return order, t, r, expect, r != expect


def _sequence(c: _Cols, topic: np.ndarray, qids: np.ndarray, first_line: np.ndarray,
              only: np.ndarray | None = None) -> tuple | None:
    """The first place the ranks of ``c`` do not run 1, 2, ... in a topic (of the topics
    ``only`` marks, by code), as the arguments of ``_Tally.add`` (line, message, topics,
    key); None when they do."""
    order, t, r, expect, wrong = _sequence_wrong(c, topic)
    if only is not None:
        wrong &= only[t]
    if not wrong.any():
        return None
    bad_topics = np.unique(t[wrong])
    i = int(np.flatnonzero(wrong)[0])
    row = order[i]
    q = _show(qids[t[i]])
    pos = int(expect[i])
    if pos == 1:
        msg = f"ranks of topic {q} start at {int(r[i])}, not 1"
    elif r[i] == r[i - 1]:
        msg = f"rank {int(r[i])} of topic {q} is used again (first on line {int(c.line[order[i - 1]])})"
    else:
        msg = f"rank {pos} of topic {q} is missing: ranks jump from {int(r[i - 1])} to {int(r[i])}"
    return int(c.line[row]), msg, len(bad_topics), int(first_line[t[i]])


def _check_ranks(c: _Cols, topic: np.ndarray, qids: np.ndarray, key: np.ndarray, found: _Ranks,
                 first_line: np.ndarray, written: tuple | None = None) -> None:
    """The rank column against 1..n (a note: it is ignored) and against the scores
    (``first_line``: each topic's first line, the examples' key). ``written``: every
    line's ``(columns, topics)`` when duplicates were dropped from ``c``: a rank problem
    of the lines read that the lines as written do not have is the duplicates' (a
    dropped line still holds its rank: "rank 6 is missing" where line 6, a duplicate,
    holds it), said once, by the duplicate-docno error."""
    only = None
    if written is not None:  # the topics whose ranks are wrong as written too
        _, wt, _, _, wwrong = _sequence_wrong(*written)
        only = np.zeros(len(qids), dtype=bool)
        only[wt[wwrong]] = True
    seq = _sequence(c, topic, qids, first_line, only)
    if seq is not None:
        line, msg, n, key_line = seq
        found.sequence.add(line, msg, n, key=key_line)
    order, t, r = _rank_order(c, topic)
    if not len(order):
        return
    # scores along the ranks: key ascending is score descending; a fall in key is a rise in score
    k = key[order]
    same = t[1:] == t[:-1]
    rise = same & (k[1:] < k[:-1])
    n_topics = len(qids)
    ranked = np.bincount(t, minlength=n_topics) > 1
    found.ranked += int(ranked.sum())
    if not rise.any():
        return
    fall = same & (k[1:] > k[:-1])
    rises = np.bincount(t[1:][rise], minlength=n_topics)
    falls = np.bincount(t[1:][fall], minlength=n_topics)
    reversed_topics = np.flatnonzero((rises > falls) & ranked)
    i = int(np.flatnonzero(rise)[0])
    a, b = order[i], order[i + 1]
    found.rises.add(int(c.line[b]), f"topic {_show(qids[t[i]])}: score {c.score[b]:g} at rank {int(c.rank[b])} is "
                    f"higher than {c.score[a]:g} at rank {int(c.rank[a])}", int(np.count_nonzero(rises)),
                    key=int(first_line[t[i]]))
    if len(reversed_topics):
        first = order[np.flatnonzero(t == int(reversed_topics[0]))[0]]
        found.reversed.add(int(c.line[first]), None, len(reversed_topics), key=int(first_line[reversed_topics[0]]))


def _report_ranks(found: _Ranks, out: _Collector) -> None:
    seq = found.sequence
    if seq.count:
        out.add(seq.line, NOTE, "rank-sequence",
                f"{seq.example}; ranks should run 1, 2, ... in each topic ({seq.count} topic"
                f"{'s' * (seq.count != 1)}); the rank column is ignored (documents are ranked by score), "
                "so no value changes", count=seq.count)
    rises, rev = found.rises, found.reversed
    if not rises.count:
        return
    if rev.count * 2 >= max(found.ranked, 1):
        out.add(rev.line, WARNING, "reversed-scores",
                f"in {rev.count} of {found.ranked} topics the scores rise with the rank "
                f"({rises.example}): trec_eval ranks by score, highest first, so this ranking is evaluated upside "
                "down; give the best document the highest score", count=rev.count)
    else:
        out.add(rises.line, WARNING, "score-order",
                f"{rises.example}; in {rises.count} topic{'s' * (rises.count != 1)} a score is "
                "higher than at the rank before it: trec_eval ranks by score, not by the rank column",
                count=rises.count)


def _ranked(c: _Cols, topic: np.ndarray, rule: RankRule) -> tuple[np.ndarray, np.ndarray]:
    """Rows in the ranking rule's evaluation order (topic by topic) and each row's key."""
    run = Run(np.zeros(len(c), dtype="S1"), c.docno, c.score, c.line)
    perm = rule.order_rows(topic, run)
    return perm, rule.key(run)


def _tie_groups(topic_sorted: np.ndarray, key_sorted: np.ndarray) -> np.ndarray:
    """Group id of each position of a ranked run (equal topic and key: one group)."""
    n = len(key_sorted)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    new = np.ones(n, dtype=bool)
    new[1:] = (topic_sorted[1:] != topic_sorted[:-1]) | (key_sorted[1:] != key_sorted[:-1])
    return np.cumsum(new) - 1


def _check_ties(c: _Cols, topic: np.ndarray, qids: np.ndarray, perm: np.ndarray, key: np.ndarray,
                rel_of, cutoffs: tuple[int, ...], found: _Tally, first_line: np.ndarray) -> None:
    """Ties the docno tie-break decides where it can change a value (see the module
    docstring): topics counted, groups in ``found.extra``, those of them across a
    cutoff (the tie-break decides which documents are inside it) in ``found.severe``
    (``first_line``: each topic's first line, the example's key)."""
    t = topic[perm]
    k = key[perm]
    gid = _tie_groups(t, k)
    sizes = np.bincount(gid)
    tied = np.flatnonzero(sizes[gid] > 1)
    if not len(tied):
        return
    rows = perm[tied]
    g = gid[tied]
    # the ranks given, in evaluation order: a later document with a smaller rank was meant earlier
    r = c.rank[rows]
    disagree = np.zeros(len(rows), dtype=bool)
    valid = ~np.isnan(r)
    if valid.any():
        same = g[1:] == g[:-1]
        # the running maximum of the ranks within each group (groups lifted apart so that one
        # accumulate serves them all): a rank below it was meant before a document evaluated earlier
        lo = float(np.nanmin(r))
        span = float(np.nanmax(r)) - lo + 1.0
        lifted = np.where(valid, r - lo, 0.0) + g * span
        run_max = np.maximum.accumulate(lifted) - g * span + lo
        disagree[1:] = same & (r[1:] < run_max[:-1]) & valid[1:]
    no_ranks = not valid.any()
    group_disagrees = np.zeros(len(sizes), dtype=bool)
    group_disagrees[g[disagree]] = True
    if no_ranks:
        group_disagrees[g] = True
    # position of each row in its topic's ranking; a group straddles k if it holds positions k-1 and k
    starts = np.flatnonzero(np.concatenate([[True], t[1:] != t[:-1]]))
    pos = np.arange(len(perm)) - np.repeat(starts, np.diff(np.append(starts, len(perm))))
    gpos_lo = np.full(len(sizes), np.iinfo(np.int64).max)
    gpos_hi = np.full(len(sizes), -1)
    np.minimum.at(gpos_lo, gid, pos)
    np.maximum.at(gpos_hi, gid, pos)
    straddle = np.zeros(len(sizes), dtype=bool)
    for cut in cutoffs:
        straddle |= (gpos_lo < cut) & (gpos_hi >= cut)
    if rel_of is not None:
        rel = rel_of(rows)
        rel_lo = np.full(len(sizes), np.inf)
        rel_hi = np.full(len(sizes), -np.inf)
        np.minimum.at(rel_lo, g, rel)
        np.maximum.at(rel_hi, g, rel)
        matters = group_disagrees & (rel_hi > rel_lo)
    else:
        matters = group_disagrees & straddle
    if not matters.any():
        return
    topics = np.unique(t[np.isin(gid, np.flatnonzero(matters))])
    first_group = int(np.flatnonzero(matters)[0])
    members = rows[g == first_group]
    mr = c.rank[members]
    if not np.isnan(mr).all():
        # the pair shown: the document evaluated first, and one the run ranked before it
        a = members[0]
        later = [m for m in members[1:] if not np.isnan(c.rank[m]) and c.rank[m] < c.rank[a]]
        b = later[0] if later else members[1]
        pair = (f"{_show(c.docno[a])} (rank {int(c.rank[a])}) is evaluated before {_show(c.docno[b])} "
                f"(rank {int(c.rank[b])})")
    else:
        a, b = members[0], members[1]
        pair = f"{_show(c.docno[a])} is evaluated before {_show(c.docno[b])}"
    equal = (f"the same score {c.score[a]:g}" if c.score[a] == c.score[b] else
             f"scores {c.score[a]!r} and {c.score[b]!r}, equal in single precision as trec_eval 9.0.8 "
             "compares them")
    found.add(int(c.line[a]), f"topic {_show(qids[topic[a]])}: {pair}, with {equal}", len(topics),
              key=int(first_line[topic[a]]))
    found.extra += int(matters.sum())
    found.severe += int((matters & straddle).sum())


def _report_ties(found: _Tally, why: str, cutoffs: tuple[int, ...], out: _Collector) -> None:
    """The ``tie`` finding: a note, or a warning when a tie decides which documents are
    inside a cutoff (``found.severe``: a cutoff measure's value then depends on the docno)."""
    if not found.count:
        return
    n, topics, cut = found.extra, found.count, found.severe
    across = ""
    if cut and cut != n:
        across = f" ({cut} of them across a cutoff: {', '.join(map(str, cutoffs))})"
    elif cut and "cutoff" not in why:
        across = f" across a cutoff ({', '.join(map(str, cutoffs))})"
    out.add(found.line, WARNING if cut else NOTE, "tie",
            f"{n} group{'s' * (n != 1)} of tied scores {why}{across} in {topics} topic{'s' * (topics != 1)}: "
            f"trec_eval orders equal scores by docno (descending), not by the rank column; e.g. "
            f"{found.example}; give documents distinct scores", count=topics)


# ---- topic ids ----

@record
class TopicSet:
    """Topic ids to check a run against, and where each is first listed."""

    name: str
    first_line: dict  # bytes -> line


def read_topics(source) -> TopicSet:
    """Topic ids from ``source``: the first field of every non-blank, non-comment line
    (a file of ids, one a line, or a qrels file)."""
    data = read_source(source)
    first: dict[bytes, int] = {}
    for no, raw in enumerate(data.splitlines(), 1):
        f = raw.split()
        if f and not f[0].startswith(b"#"):
            first.setdefault(f[0], no)
    if not first:
        raise InputError(source_name(source), "no topic ids")
    return TopicSet(source_name(source), first)


#: how findings name the judgments: never by their path, which a student's feedback would show
JUDGMENTS = "the judgments"


def qrels_topics(q) -> TopicSet:
    """The topic ids of judgments ``q`` (any judgment format with topic ids), each
    with the line it is first judged on; named :data:`JUDGMENTS` in the findings."""
    qid = np.asarray(q.qid)
    if not len(qid):
        return TopicSet(JUDGMENTS, {})
    ids, first = np.unique(qid, return_index=True)
    order = np.argsort(first, kind="stable")
    lines = np.asarray(q.lineno)[first[order]].tolist()
    return TopicSet(JUDGMENTS, dict(zip(ids[order].tolist(), lines)))


_qrels_topics = qrels_topics


def _id_hint(run_ids: list[bytes], known: list[bytes]) -> str:
    """How the run's topic ids differ from the known ones, if by a simple pattern."""
    known_set = set(known)
    ks, rs = sorted(known_set)[:3], sorted(set(run_ids))
    example = f"the run has {', '.join(_show(r) for r in rs[:3])}; expected ids such as {', '.join(_show(k) for k in ks)}"

    def share(f) -> float:
        return sum(1 for r in rs if f(r) in known_set) / len(rs)

    # a prefix on the run's side (q401 vs 401) or on the known side (401 vs q401)
    for pre in sorted({r[:n] for r in rs for n in range(1, min(len(r), 8)) if not r[:n].isdigit()},
                      key=len, reverse=True):
        if share(lambda r: r[len(pre):] if r.startswith(pre) else None) >= 0.5:
            return f"{example}: remove the prefix {_show(pre)}"
    for pre in sorted({k[:n] for k in ks for n in range(1, min(len(k), 8)) if not k[:n].isdigit()}, key=len):
        if share(lambda r: pre + r) >= 0.5:
            return f"{example}: add the prefix {_show(pre)}"
    if share(lambda r: r.lstrip(b"0") or b"0") >= 0.5:
        return f"{example}: remove the leading zeros"
    padded = {k.lstrip(b"0") or b"0": k for k in known_set}
    if share(lambda r: padded.get(r.lstrip(b"0") or b"0")) >= 0.5:
        return f"{example}: pad the ids with zeros as the qrels do"
    lower = {k.lower(): k for k in known_set}
    if share(lambda r: lower.get(r.lower())) >= 0.5:
        return f"{example}: the ids differ in upper/lower case"
    return example


def _listed(ids: list[bytes], most: int = 10) -> str:
    shown = ", ".join(i.decode("utf-8", "replace") for i in ids[:most])
    return shown + (f" and {len(ids) - most} more" if len(ids) > most else "")


def _check_topics(topic_lines: dict, ts: TopicSet, out: _Collector) -> bool:
    """Coverage of ``ts`` by the run (``topic_lines``: its topic ids, in order of first
    appearance, each with its first line); False if they share no topic (one error,
    nothing else)."""
    run_ids = list(topic_lines)
    known = ts.first_line
    common = [q for q in run_ids if q in known]
    if not common:
        out.add(topic_lines[run_ids[0]], ERROR, "no-common-topics",
                f"no topic of the run is in {ts.name}, so nothing can be evaluated; {_id_hint(run_ids, list(known))}",
                count=len(run_ids))
        return False
    extra = [q for q in run_ids if q not in known]
    if extra:
        out.add(topic_lines[extra[0]], NOTE, "topic-not-in-qrels",
                f"{len(extra)} topic{'s' * (len(extra) != 1)} of the run {'are' if len(extra) != 1 else 'is'} not "
                f"in {ts.name} ({_listed(extra)}); trec_eval ignores them", count=len(extra))
    have = set(run_ids)
    missing = sorted((q for q in known if q not in have), key=lambda q: known[q])
    if missing:
        out.add(None, WARNING, "topic-not-in-run",
                f"answers {len(known) - len(missing)} of {len(known)} judged topics; missing {_listed(missing)}: "
                "each scores 0 when every judged topic counts (batch's default, trec_eval -c), and is left out "
                "of the averages otherwise", count=len(missing))
    return True


def unjudged_at_top(ordered, q: Qrels, compat: str = DEFAULT_COMPAT, name: str = "<run>") -> dict[bytes, np.ndarray]:
    """Per topic of ``ordered`` (``{qid: docnos in the ranking rule's order}``) that the
    judgments ``q`` cover: the positions, among its top :data:`UNJUDGED_DEPTH`, of the
    documents without a judgment (not in the qrels, or with a negative level), found
    by the engine's own join."""
    qids = np.array([qid for qid, docs in ordered.items() for _ in docs[:UNJUDGED_DEPTH]], dtype="S")
    docs = np.array([d for ds in ordered.values() for d in ds[:UNJUDGED_DEPTH]], dtype="S")
    lv = _levels(q, qids, docs, compat, name)
    ends = np.cumsum(lv.sizes)
    return {qid: np.flatnonzero(lv.rel[e - k:e] < 0) for qid, k, e in zip(lv.qids.tolist(), lv.sizes.tolist(),
                                                                          ends.tolist())}


@record
class _Levels:
    """The relevance levels the engine's join gives rows of a run (see :func:`_levels`):
    per topic the judgments cover, in the engine's order, its id (``qids``) and
    number of rows (``sizes``); then every such row, topic after topic, in the
    order given: its level (``rel``, negative: unjudged) and its index among the
    rows given (``row``)."""

    qids: np.ndarray
    sizes: np.ndarray
    rel: np.ndarray
    row: np.ndarray


def _levels(q: Qrels, qid: np.ndarray, docno: np.ndarray, compat: str, name: str) -> _Levels:
    """Relevance level (negative: unjudged) of each row (``qid``, ``docno``), rows given
    topic by topic in the ranking rule's order, by the engine's join."""
    from ...engine.pipeline import Options, join

    n = len(qid)
    none = _Levels(np.zeros(0, "S1"), np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64))
    if not n:
        return none
    starts = run_starts(qid)
    sizes = np.diff(np.append(starts, n))
    pos = np.arange(n) - np.repeat(starts, sizes)
    # scores that keep the given order under the ranking rule (strictly falling, exact in float32)
    run = Run(qid, docno, float(1 << 22) - pos.astype(np.float64), np.arange(1, n + 1, dtype=np.int64), "", name)

    # the join stage alone (no batches): each ranked row's level, a negative one
    # marking a document nobody judged (pooled or not)
    ranked = join(q, run, Options(compat=compat, measures=()))
    if not ranked.qids:
        return none
    ids = np.array([t.encode("utf-8", "surrogateescape") for t in ranked.qids], dtype="S")
    counts = np.asarray(ranked.num_ret, dtype=np.int64)
    rel = np.asarray(ranked.rel, dtype=np.float64)
    # each topic's first row among those given: a topic's levels are its rows' in order
    heads = qid[starts]
    by_id = np.argsort(heads, kind="stable")
    at = np.minimum(np.searchsorted(heads[by_id], ids), len(heads) - 1)
    first = starts[by_id[at]]
    offsets = np.cumsum(counts) - counts
    row = np.repeat(first - offsets, counts) + np.arange(len(rel))
    return _Levels(ids, counts, rel, row)


class _Unjudged:
    """Topics with too many unjudged documents at the top, added up: the one whose
    first such document comes first (line, topic, unjudged, of), their number, and
    every judged topic's counts (for :attr:`Report.unjudged`)."""

    __slots__ = ("first", "count", "per_topic")

    def __init__(self) -> None:
        self.first: tuple[int, bytes, int, int] | None = None  # line, topic, unjudged, of
        self.count = 0
        self.per_topic: dict[bytes, tuple[int, int]] = {}


def _check_unjudged(c: _Cols, topic, qids, perm, q: Qrels, max_unjudged: float, compat: str, name: str,
                    found: _Unjudged) -> None:
    """Too many unjudged documents in a topic's top 10; every judged topic's count goes to ``found``."""
    t = topic[perm]
    starts = run_starts(t)
    depth = np.arange(len(t)) - np.repeat(starts, np.diff(np.append(starts, len(t))))
    top = perm[depth < UNJUDGED_DEPTH]
    lv = _levels(q, c.qid[top], c.docno[top], compat, name)
    if not len(lv.qids):
        return
    unjudged = lv.rel < 0
    ends = np.cumsum(lv.sizes)
    begins = ends - lv.sizes
    # per topic: its unjudged documents (cumulative counts at the topic ends)
    before = np.concatenate([[0], np.cumsum(unjudged)])
    n_unjudged = before[ends] - before[begins]
    found.per_topic.update(zip(lv.qids.tolist(), zip(n_unjudged.tolist(), lv.sizes.tolist())))
    with np.errstate(divide="ignore", invalid="ignore"):
        bad = np.flatnonzero((n_unjudged > 0) & (n_unjudged / np.maximum(lv.sizes, 1) > max_unjudged))
    if not len(bad):
        return
    # each bad topic's first unjudged document, and its line
    marks = np.flatnonzero(unjudged)
    first = marks[np.searchsorted(marks, begins[bad])]
    lines = c.line[top[lv.row[first]]]
    i = int(np.argmin(lines))
    least = (int(lines[i]), bytes(lv.qids[bad[i]]), int(n_unjudged[bad[i]]), int(lv.sizes[bad[i]]))
    found.first = least if found.first is None else min(found.first, least)
    found.count += len(bad)


def _report_unjudged(found: _Unjudged, max_unjudged: float, out: _Collector, report: Report) -> None:
    """The ``unjudged`` finding: a note, or a warning when more than half of the run's
    judged topics have too many unjudged documents (its mean is then an underestimate)."""
    # topics in byte order of their ids, as the evaluation gives them
    report.unjudged = {qid.decode("utf-8", "surrogateescape"): counts
                       for qid, counts in sorted(found.per_topic.items())}
    if not found.count or found.first is None:  # (a count comes with its first)
        return
    line, qid, n, of = found.first
    k, judged = found.count, len(found.per_topic)
    out.add(line, WARNING if 2 * k > judged else NOTE, "unjudged",
            f"in {k} of {judged} judged topic{'s' * (judged != 1)} more than {math.floor(max_unjudged * 100 + 0.5)}% of "
            f"the top {UNJUDGED_DEPTH} documents are unjudged (topic {_show(qid)}: {n} of {of}); their scores "
            "are underestimates", count=k)


def _rel_lookup(c: _Cols, q: Qrels, compat: str, name: str):
    """A function giving the relevance (unjudged: 0) of rows of ``c`` by the engine's join
    over just those rows (given in evaluation order)."""
    def lookup(rows: np.ndarray) -> np.ndarray:
        lv = _levels(q, c.qid[rows], c.docno[rows], compat, name)
        rel = np.zeros(len(rows), dtype=np.float64)
        rel[lv.row] = np.maximum(lv.rel, 0.0)
        return rel

    return lookup


def _swapped_hint(qrels) -> None:
    """Reading the qrels failed: say so plainly if they look like a run."""
    try:
        data = read_source(qrels, allow_stdin=False) if isinstance(qrels, (str, bytes)) else None
    except InputError:
        return
    if data is not None and sniff(data) == "run":
        raise UsageError(f"{source_name(qrels)} looks like a run (6 fields a line), not qrels: "
                         "were the qrels and the run given in swapped order?")


def load_qrels(qrels, options=None):
    """The pipeline's judgment-reading stage (qrels format, or ``options.rel_format``),
    with a hint when the file given as qrels is a run."""
    from ...engine.pipeline import read_judgments

    if isinstance(qrels, Qrels) and options is None:
        return qrels
    try:
        return read_judgments(qrels, options)
    except InputError:
        _swapped_hint(qrels)
        raise


def blank_line(data: bytes, lineno: int) -> bytes:
    """``data`` with line ``lineno`` emptied (the line numbers of the others kept):
    how a header skipped on request is left out of the evaluation."""
    from ...engine.parse.source import line_start

    start = line_start(data, lineno)
    end = data.find(b"\n", start)
    return data[:start] + (b"" if end < 0 else data[end:])


def validate_run(
    run,
    qrels=None,
    *,
    topics=None,
    name: str | None = None,
    max_docs: int = DEFAULT_MAX_DOCS,
    max_unjudged: float = DEFAULT_MAX_UNJUDGED,
    cutoffs: Iterable[int] = COMMON_CUTOFFS,
    max_per_check: int = DEFAULT_MAX_PER_CHECK,
    compat: str = DEFAULT_COMPAT,
    rel_format: str = "qrels",
    results_format: str = "trec_results",
    ignore: Iterable[str] = (),
    select: Iterable[str] = (),
    skip_header: bool = False,
    data: bytes | None = None,
) -> Report:
    """Check the run file ``run`` (a path, ``-``, bytes, a file object or a
    :class:`~trec_eval_py.tools.shared.submissions.Submission`; or its bytes already read,
    ``data``, with ``run`` naming it). A TREC run is checked in pieces (see the
    module docstring): a regular file is never read whole, even when it lists a
    topic in two places (it is then regrouped through temporary files).

    ``qrels`` (anything :func:`~trec_eval_py.engine.parse.read_qrels` reads, or a
    parsed :class:`~trec_eval_py.engine.parse.Qrels`) enables the topic,
    unjudged-document and judgment-tie checks; it must itself be valid. ``topics`` (a
    :class:`TopicSet` or a file for :func:`read_topics`) enables the topic
    checks alone. ``max_docs`` (0: no limit) bounds the documents per topic;
    ``max_unjudged`` is the largest acceptable share of unjudged documents
    in a topic's top 10; ``cutoffs`` are those a tie across which matters when
    there are no judgments; ``max_per_check`` is how many of its lines a finding
    lists (0: all). ``compat`` is the trec_eval version whose ranking rule the
    score and tie checks follow. ``rel_format`` is the judgment format of
    ``qrels`` (``-R``); every format gives the topic checks, the unjudged and
    tie checks need judgments of single documents (qrels and the formats read
    into them). ``results_format`` (``-T``) is the run's format: the checks
    above are those of TREC runs (``trec_results``); a run in another format
    gets that format's own reading checks (the first bad line) and the topic
    checks. ``ignore`` and ``select`` turn checks off (:func:`selected_checks`);
    ``skip_header`` takes a header line for a warning, and the report says
    which line to leave out (:attr:`Report.skipped_header`).
    """
    if max_docs < 0:
        raise UsageError("the document limit must be 0 (none) or positive")
    if not 0.0 <= max_unjudged <= 1.0:
        raise UsageError("the unjudged share must be between 0 and 1")
    on = selected_checks(ignore, select)
    rule = RankRule.for_compat(compat)
    cutoffs = tuple(int(k) for k in cutoffs)
    path = name or source_name(run)
    q = load_qrels(qrels, {"rel_format": rel_format}) if qrels is not None else None
    ts: TopicSet | None = None
    if topics is not None:
        ts = topics if isinstance(topics, TopicSet) else read_topics(topics)
    elif q is not None:
        ts = qrels_topics(q)
    source = _RunBytes(run, data, path)
    if results_format != "trec_results":
        data = source.whole()
        out = _Collector(path, max_per_check, on)
        report = Report(path)
        if _not_text(data, out):
            out.done(report)
            return report
        _check_bom(data, results_format, out)
        report.lines = len(_split_lines(data, out))
        return _validate_other_format(data, path, results_format, ts, out, report)
    checks = functools.partial(_check_trec, path=path, q=q, ts=ts, rule=rule, compat=compat, max_docs=max_docs,
                               max_unjudged=max_unjudged, cutoffs=cutoffs, on=on, max_per_check=max_per_check,
                               skip_header=skip_header)
    with contextlib.closing(source.pieces()) as pieces:
        first, more = _head(pieces)
        if more is None:
            return checks(first, None)
        try:
            return checks(first, more)
        except _Interleaved:
            pass
    # a topic's lines are not together: the file is read again, its lines regrouped
    # by topic through temporary files of about a piece each
    with contextlib.closing(source.pieces()) as pieces:
        first, more = _head(pieces)
        buckets = min(REGROUP_FILES, max(1, -(-source.size() // PIECE_BYTES)))
        return checks(first, more, regroup=buckets)


#: a run file is read and checked in pieces of about this many bytes: memory holds
#: one piece's rows and a little per topic and per run id, whatever the file's size
PIECE_BYTES = 8 << 20
#: at most this many temporary files regroup a run whose topics come back (each
#: about :data:`PIECE_BYTES` of the run, up to a run of this many pieces)
REGROUP_FILES = 512


class _RunBytes:
    """Where a run's bytes come from: in pieces, as often as asked (a run whose
    topics come back is read twice), or whole (a run in another format). A
    regular file (a path, or a submission that is a file) is read again each
    time; anything else (standard input, a pipe, bytes, a file object, a zip
    member) is read whole once and its pieces cut from memory."""

    def __init__(self, run, data: bytes | None, name: str):
        from ..shared.submissions import Submission

        self.run, self.name = run, name
        self.data = None
        if data is not None:
            self.data = expand(data, name)
        elif isinstance(run, Submission):
            if not run.on_disk:
                self.data = expand(run.read(), name)
        elif not _regular_file(run):
            self.data = read_source(run)

    def pieces(self):
        if self.data is not None:
            return split_pieces(self.data, PIECE_BYTES, self.name)
        if isinstance(self.run, (str, os.PathLike)):
            return read_pieces(self.run, PIECE_BYTES)
        return self.run.pieces(PIECE_BYTES)

    def whole(self) -> bytes:
        if self.data is not None:
            return self.data
        if isinstance(self.run, (str, os.PathLike)):
            return read_source(self.run)
        return expand(self.run.read(), self.name)

    def size(self) -> int:
        """The run's size in bytes of text (a guess for a compressed file; 0 when it cannot be told)."""
        if self.data is not None:
            return len(self.data)
        return text_size(self.run if isinstance(self.run, (str, os.PathLike)) else self.run.path) or 0


def _regular_file(run) -> bool:
    """Whether ``run`` names a regular file (one that can be read twice; not a pipe)."""
    if not isinstance(run, (str, os.PathLike)) or os.fspath(run) == "-":
        return False
    try:
        return stat.S_ISREG(os.stat(run).st_mode)
    except (OSError, ValueError):
        return False  # read_source says what is wrong with it


#: what the looks at the whole file need to see of its start: the bytes that tell
#: a binary file, and the lines that tell a qrels file (:func:`sniff`)
_HEAD_BYTES = 4096
_HEAD_LINES = 200


def _head(pieces) -> tuple[bytes, Iterator | None]:
    """The first pieces of a file joined until they hold its first :data:`_HEAD_BYTES`,
    its first :data:`_HEAD_LINES` lines and a line end followed by more text (so the
    file does not end its lines in CR alone); and the pieces after them, or None when
    the file is all in the first."""
    it = iter(pieces)
    parts: list[bytes] = []
    size = lines = 0
    for piece in it:
        parts.append(bytes(piece))  # (a view into a buffer the next piece may reuse)
        size += len(parts[-1])
        lines += parts[-1].count(b"\n")
        if size >= _HEAD_BYTES and lines >= _HEAD_LINES and re.search(rb"\n[^\r\n]", b"".join(parts)):
            break
    head = b"".join(parts)
    following = next(it, None)
    if following is None:
        return head, None
    return head, itertools.chain((bytes(following),), (bytes(p) for p in it))


class _Interleaved(Exception):
    """A topic's lines are not together in the file (it comes back after another)."""


def _check_trec(first: bytes, more: Iterator | None, *, path, q, ts, rule, compat, max_docs, max_unjudged,
                cutoffs, on, max_per_check, skip_header, regroup: int = 0) -> Report:
    """The checks of a TREC run: ``first`` is the file whole (``more`` None) or its first
    pieces, ``more`` the pieces after them, checked as they come (the topics
    as they complete). Raises :class:`_Interleaved` when the file, read in pieces,
    turns out to list a topic in two places; with ``regroup`` (a number of
    temporary files) the topics are instead checked once every line is read,
    regrouped through that many files (:func:`_check_regrouped`)."""
    out = _Collector(path, max_per_check, on)
    report = Report(path)
    if _not_text(first, out):
        out.done(report)
        return report
    _check_bom(first, "trec_results", out)
    if more is None:
        first = _line_ends(first, out)
    if sniff(first) == "qrels":  # (the first 200 lines are those of a qrels file)
        report.lines = sum(_count_lines(p) for p in itertools.chain((first,), more or ()))
        return _looks_like_qrels(out, report)
    scan = _LineScan(out, skip_header, report)
    checks = _RunChecks(out, path, q, ts, rule, compat, max_docs, max_unjudged, cutoffs, whole=more is None,
                        regrouped=bool(regroup) and more is not None)
    if checks.regrouped:
        assert more is not None
        _check_regrouped(_columns(itertools.chain((first,), more), scan, path, report), scan, checks, regroup)
    elif more is None:
        cols = _Cols.joined(list(_columns((first,), scan, path, report)) + [scan.finish()], path)
        checks.rows(cols)
        if len(cols):
            checks.topics(cols)
    else:
        def lines() -> Iterator[_Cols]:
            for c in _columns(itertools.chain((first,), more), scan, path, report):
                checks.rows(c)
                yield c
            rest = scan.finish()  # the lines the scan holds back, once the pieces are read
            checks.rows(rest)
            yield rest

        # the topics as they complete (the one loop that reads a run in pieces)
        for group in whole_topics(lines(), take=lambda c, lo, hi: c.take(slice(lo, hi)),
                                  then=lambda a, b: a.then(b, path)):
            checks.topics(group)
    if not checks.rows_seen:
        if not out.has_error():
            what = "only comments" if scan.any_text else "nothing"
            out.add(None, ERROR, "empty", f"no result lines: the file holds {what}")
        out.done(report, scan.content)
        return report
    checks.report(report)
    out.done(report, scan.content)
    return report


def _check_regrouped(pieces: Iterator[_Cols], scan: _LineScan, checks: _RunChecks, buckets: int) -> None:
    """The topic checks of a run whose topics come back, in bounded memory: the
    result lines of ``pieces`` (the file's, in order), once their run ids and
    topics are seen (:meth:`_RunChecks.seen`), go to ``buckets`` temporary files
    by a hash of their topic id; then each file is checked as one group, which
    holds every line of its topics, in file order, as the file checked whole
    holds them. The files are deleted as they are read, and all of them when the
    checks stop (an error, Ctrl-C, a signal)."""
    from ...engine.join.stream import spill_by_topic

    def spilled(c: _Cols) -> Iterator[Run]:
        checks.seen(c)
        if len(c):  # (the run id is checked; the topic checks need the other columns)
            yield Run(c.qid, c.docno, c.score, c.line, rank=c.rank)

    def rows() -> Iterator[Run]:
        for c in pieces:
            yield from spilled(c)
        yield from spilled(scan.finish())  # the last lines, once the pieces are read

    with contextlib.closing(spill_by_topic(rows(), buckets)) as groups:
        for part in groups:
            rank = part.rank
            assert rank is not None  # every part was written with its ranks
            checks.topics(_Cols(part.qid, part.docno, rank, part.score, np.zeros(len(part), dtype="S1"),
                                part.lineno))


#: a piece with a line problem is looked at in parts of about this many bytes: only
#: the parts with a problem are read line by line, the others by the fast scanner
PROBLEM_BYTES = 64 << 10


def _columns(pieces, scan: _LineScan, name: str, report: Report) -> Iterator[_Cols]:
    """The result lines of each of ``pieces`` (consecutive, the first one the file's
    first), line problems reported through ``scan``; ``report.lines`` counts the lines."""
    line = 1
    for piece in pieces:
        fast = _plain_columns(piece, scan, name, line)
        if fast is None:
            found = []
            parts = split_pieces(piece, PROBLEM_BYTES) if len(piece) > PROBLEM_BYTES else (piece,)
            for part in parts:
                part = bytes(part)
                cols, n = (_plain_columns(part, scan, name, line) if len(piece) > PROBLEM_BYTES else None) or \
                    _problem_columns(part, scan, line)
                found.append(cols)
                line += n
                report.lines += n
            yield _Cols.joined(found, name)
        else:
            cols, n = fast
            line += n
            report.lines += n
            yield cols


def _plain_columns(piece: bytes, scan: _LineScan, name: str, line: int) -> tuple[_Cols, int] | None:
    """The columns and number of lines of a piece of plain result lines, if it is one (and
    no lines are held for the header question); else None."""
    if scan.held:
        return None
    fast = _fast_columns(piece, name, line)
    if fast is None or not scan.plain(fast[0]):
        return None
    return fast


def _problem_columns(piece: bytes, scan: _LineScan, line: int) -> tuple[_Cols, int]:
    lines = piece.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return scan.feed(lines, line), len(lines)


def _count_lines(piece: bytes) -> int:
    return piece.count(b"\n") + (len(piece) > 0 and not piece.endswith(b"\n"))


def _looks_like_qrels(out: _Collector, report: Report) -> Report:
    out.add(None, ERROR, "looks-like-qrels",
            "every line has 4 fields (qid iter docno relevance), as a qrels file does, not the 6 of a run: "
            "were the qrels and the run given in swapped order?")
    out.done(report)
    return report


class _RunChecks:
    """The checks on a run's result lines: the run ids of every line as the lines
    come (:meth:`rows`), the others on groups of complete topics (:meth:`topics`),
    each check's findings added up over the groups and reported once the file is
    done (:meth:`report`), as one group of every topic would have them. What is
    kept between groups is a few numbers per check, the example of each (the one
    found first in the file checked whole: see :class:`_Tally`), and each topic's
    id and first line.

    The groups come in file order (``whole``: one group, the file whole), or, a
    run whose topics come back read again (``regrouped``), as the temporary
    files of :func:`_check_regrouped` give them: each group holds every line
    of its topics in file order, the topics' ids and first lines are known
    before the first group (:meth:`seen`).

    Findings that depend on the topic checks (judged ties, unjudged documents need a
    topic shared with the qrels or ``--topics``) are worked out both ways while that
    is not known; a group of topics nobody judged adds nothing to the judged ones.
    """

    def __init__(self, out: _Collector, path: str, q, ts, rule: RankRule, compat: str, max_docs: int,
                 max_unjudged: float, cutoffs: tuple, *, whole: bool, regrouped: bool = False):
        self.out, self.path, self.q, self.ts, self.rule, self.compat = out, path, q, ts, rule, compat
        self.max_docs, self.max_unjudged, self.cutoffs, self.whole = max_docs, max_unjudged, cutoffs, whole
        self.regrouped = regrouped
        self.rows_seen = 0
        self.runids = _RunIds()
        self.topic_lines: dict = {}  # topic id -> its first line, in file order
        self.duplicates = _Tally()
        self.too_many = _Tally()
        self.ranks = _Ranks()
        self.ties_judged = _Tally()
        self.ties_cut = _Tally()
        self.unjudged = _Unjudged()
        self.judges = type(q) is Qrels  # judgments of single documents (not preferences, not groups)
        self.common = ts is None  # a topic of the run shared with ts seen yet
        self._subset: Callable[[np.ndarray], Any] | None = None

    def rows(self, c: _Cols) -> None:
        """Result lines, in file order."""
        self.rows_seen += len(c)
        self.runids.add(c)

    def seen(self, c: _Cols) -> None:
        """Result lines, in file order, whose topics are checked later (regrouped):
        :meth:`rows`, and the ids and first lines of their topics."""
        self.rows(c)
        if not len(c):
            return
        _, qids, first = _topics(c.qid)
        self._first_seen(qids.tolist(), c.line[first].tolist())

    def _first_seen(self, names: list, lines: list) -> None:
        """Topics ``names`` whose first lines are ``lines``: those not seen before are noted."""
        new = [(n, line) for n, line in zip(names, lines) if n not in self.topic_lines]
        self.topic_lines.update(new)
        if not self.common:
            self.common = any(n in self.ts.first_line for n, _ in new)

    def topics(self, c: _Cols) -> None:
        """The lines of complete topics (every line of each), in file order."""
        topic, qids, first = _topics(c.qid)
        if not self.regrouped:
            names = qids.tolist()
            if not self.whole and (len(names) != len(run_starts(c.qid)) or
                                   any(n in self.topic_lines for n in names)):
                raise _Interleaved()
            self._first_seen(names, c.line[first].tolist())
        # each topic's first line: where the file checked whole finds a topic's example first
        first_line = c.line[first]
        keep = _check_duplicates(c, topic, qids, self.duplicates)
        # the rank column as the student wrote it, every line: a line dropped as a duplicate
        # still holds its rank (else "rank 6 is missing" where line 6 holds rank 6)
        written = None if keep.all() else (c, topic)
        if written is not None:
            c, topic = c.take(keep), topic[keep]
        _check_too_many(c, topic, qids, self.max_docs, self.too_many, first_line)
        perm, key = _ranked(c, topic, self.rule)
        _check_ranks(c, topic, qids, key, self.ranks, first_line, written)
        q = self._judgments(qids)
        if self.out.wants("tie"):
            if q is not None:
                _check_ties(c, topic, qids, perm, key, _rel_lookup(c, q, self.compat, self.path),
                            self.cutoffs, self.ties_judged, first_line)
            if not (self.common and self.judges):  # (else the ties without judgments are not reported)
                _check_ties(c, topic, qids, perm, key, None, self.cutoffs, self.ties_cut, first_line)
        if q is not None:
            _check_unjudged(c, topic, qids, perm, q, self.max_unjudged, self.compat, self.path, self.unjudged)

    def _judgments(self, qids: np.ndarray):
        """The judgments of topics ``qids`` when they are judged documents; None when
        none is (or, the file whole, when the run shares no topic with ``ts``)."""
        if not self.judges:
            return None
        if self.whole:
            return self.q if self.common else None
        if self._subset is None:
            from ...engine.join.stream import topic_subsets

            self._subset = topic_subsets(self.q)
        part = self._subset(np.sort(qids))
        return part if len(part.qid) else None

    def report(self, report: Report) -> None:
        """Every check's finding, once every line went through :meth:`rows` and :meth:`topics`."""
        out = self.out
        report.results = self.rows_seen
        report.topics = len(self.topic_lines)
        self.runids.report(out)
        d = self.duplicates
        if d.count:
            out.add(d.line, ERROR, "duplicate-docno", d.example, count=d.count, lines=d.lines)
        _report_too_many(self.too_many, len(self.topic_lines), self.max_docs, out)
        _report_ranks(self.ranks, out)
        common = True
        if self.ts is not None:
            common = _check_topics(self.topic_lines, self.ts, out)
        judged = self.judges and common
        if out.wants("tie"):
            if judged:
                _report_ties(self.ties_judged, "judged differently", self.cutoffs, out)
            else:
                _report_ties(self.ties_cut, f"across a cutoff ({', '.join(map(str, self.cutoffs))})", self.cutoffs,
                             out)
        # preferences and judgment groups judge pairs or per assessor: "unjudged" is not one thing there
        if judged:
            _report_unjudged(self.unjudged, self.max_unjudged, out, report)


def _validate_other_format(data: bytes, path: str, fmt: str, ts, out: _Collector, report: Report) -> Report:
    """A run in results format ``fmt`` (not a TREC run): read by the pipeline's
    reading stage, whose first error (file, line, text) is the finding, then
    the topic checks on what it read."""
    from ...engine.pipeline import Options, read_results

    try:
        run = read_results(data, Options(results_format=fmt, rel_format=_partner(fmt), measures=()))
    except InputError as e:
        out.add(e.line, ERROR, "format", e.reason)
        out.done(report)
        return report
    qid = np.asarray(run.qid)
    report.results = len(run)
    if not len(run):
        out.add(None, ERROR, "empty", "no result lines")
        out.done(report)
        return report
    _, qids, first = _topics(qid)
    report.topics = len(qids)
    if ts is not None:
        _check_topics(dict(zip(qids.tolist(), np.asarray(run.lineno)[first].tolist())), ts, out)
    out.done(report)
    return report


def _partner(results_format: str) -> str:
    """The judgment format a results format requires (its own reader may need it), else qrels."""
    from ...engine.inputs import results_format as lookup

    return lookup(results_format).requires or "qrels"


def unreadable_report(name: str, reason: str, line: int | None = None) -> Report:
    """The report of a file that cannot be read at all (one ``unreadable`` error)."""
    rep = Report(name)
    out = _Collector(name, 0)
    out.add(line, ERROR, "unreadable", reason)
    out.done(rep)
    return rep


def validate_runs(paths, qrels=None, *, topics=None, rel_format: str = "qrels", progress=None, client=None,
                  **kw) -> list[Report]:
    """:func:`validate_run` for every submission ``paths`` stand for (files, folders,
    zips, walked as ``batch`` walks them; :class:`~trec_eval_py.tools.shared.submissions.Submission`
    values as they are). The qrels or topics are read once; a file that cannot be
    read is a report with one error. ``progress(done, total, name)`` hears of each file.
    ``client`` (a ``dask.distributed.Client``) checks the files on its cluster, one
    task a file, the judgments shipped to each worker once."""
    import os

    from ...engine.pipeline import Options
    from ..shared.submissions import Submission, close_archives, find_submissions

    # the formats exist and, with judgments, fit together (-T codiesp goes with
    # -R codiesp): said before any file is read
    fmt = kw.get("results_format", "trec_results")
    Options(rel_format=rel_format if qrels is not None else _partner(fmt), results_format=fmt,
            compat=kw.get("compat", DEFAULT_COMPAT), measures=())
    selected_checks(kw.get("ignore", ()), kw.get("select", ()))
    q = load_qrels(qrels, {"rel_format": rel_format}) if qrels is not None else None
    ts = (topics if isinstance(topics, TopicSet) else read_topics(topics)) if topics is not None else None
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    subs = [s for p in paths for s in ([p] if isinstance(p, Submission) else find_submissions([p]))]
    shared = (q, ts, rel_format, kw)
    if client is not None:
        from ..shared.cluster import map_on_cluster

        def heard(done: int, total: int, i: int) -> None:
            if progress is not None:
                progress(done, total, subs[i].name)

        return map_on_cluster(client, _validate_one, subs, shared, progress=heard)
    reports = []
    try:
        for i, sub in enumerate(subs):
            reports.append(_validate_one(sub, shared))
            if progress is not None:
                progress(i + 1, len(subs), sub.name)
    finally:
        close_archives()
    return reports


def _validate_one(sub, shared: tuple) -> Report:
    """One file's report (``shared``: the judgments, topics, judgment format and
    the checks' settings); a file that cannot be read is a report with one error,
    and an error of the judgments themselves is raised."""
    q, ts, rel_format, kw = shared
    try:
        # a file is read piece by piece (memory bounded by a piece, not the file)
        return validate_run(sub, q, topics=ts, name=sub.name, rel_format=rel_format, **kw)
    except InputError as e:
        if q is not None and e.path == q.name:  # the judgments' error (a docno judged twice), not the run's
            raise
        return unreadable_report(sub.name, e.reason, e.line)


#: validate's --format
def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


FORMATS = ("text", "json", "csv")


def findings_table(reports: list[Report]):
    """Every finding of every report, one a row (the csv of ``validate``)."""
    from ...output.table import Column, Table

    cols = [Column("file", "text"), Column("path", "text"), Column("line", "int"), Column("severity", "text"),
            Column("code", "text"), Column("count", "int"), Column("message", "text")]
    return Table(cols, [[r.path, f.path, f.line, f.severity, f.code, f.count, f.message]
                        for r in reports for f in r.findings])


def render_reports(reports: list[Report], fmt: str = "text", *, strict: bool = False, quiet: bool = False) -> str:
    """Reports as text (findings, then a summary line per file with the count of each
    check), JSON or CSV (one finding a row, with its count).

    Text is for a terminal: what a file holds (a run id, a bad line) is shown
    without its control characters or escape sequences."""
    from ...output.names import printable
    from ...output.table import check_format, json_text, render

    fmt = check_format(fmt, FORMATS)
    if fmt == "json":
        return json_text({"ok": all(r.passed(strict) for r in reports), "counts": total_counts(reports),
                          "files": [r.to_dict(strict) for r in reports]}, indent=1)
    if fmt == "csv":
        return render(findings_table(reports), "csv")
    text = []
    for r in reports:  # file names come from students: nothing in them acts on a terminal
        if not quiet:
            text += [f"{printable(str(f))}\n" for f in r.findings]
        text.append(f"{printable(r.path)}: {'ok' if r.passed(strict) else 'FAILED'}: {printable(r.tally())} "
                    f"({_count(r.results, 'result')}, {_count(r.topics, 'topic')})\n")
    if len(reports) > 1:
        bad = sum(not r.passed(strict) for r in reports)
        text.append(f"{len(reports)} files: {len(reports) - bad} ok, {bad} failed\n")
        counts = total_counts(reports)
        if counts:
            text.append("files per check: " + ", ".join(f"{c} {n}" for c, n in counts.items()) + "\n")
    return "".join(text)


def total_counts(reports: list[Report]) -> dict[str, int]:
    """How many of ``reports`` each check fired in, in the checks' order."""
    seen: dict[str, int] = {}
    for r in reports:
        for f in r.findings:
            seen[f.code] = seen.get(f.code, 0) + 1
    return dict(sorted(seen.items(), key=lambda kv: _PRIORITY.get(kv[0], 99)))


__all__ = ["CHECKS", "Check", "ERROR", "Finding", "NOTE", "Report", "TopicSet", "WARNING", "blank_line",
           "check_codes", "load_qrels", "missing_columns", "qrels_topics", "read_topics", "render_reports",
           "selected_checks", "sniff", "total_counts", "unjudged_at_top", "unreadable_report", "validate_run",
           "validate_runs"]
