"""What validate reports: the severities, the checks (:data:`CHECKS`, in the order
findings are listed), a :class:`Finding`, a file's :class:`Report`, and the
collector every check reports to."""
from __future__ import annotations

from collections.abc import Iterable

from ...._record import field, record
from ....engine.parse.layouts import MAX_FIELDS as _MAX_FIELDS
from ....errors import UsageError

ERROR = "error"
WARNING = "warning"
NOTE = "note"
SEVERITIES = (ERROR, WARNING, NOTE)

#: cutoffs at which a tie in score makes the tie-break decide the value (without judgments)
COMMON_CUTOFFS = (5, 10, 20, 100, 1000)
DEFAULT_DOC_LIMIT = 1000
DEFAULT_MAX_UNJUDGED = 0.5
UNJUDGED_DEPTH = 10
#: example lines (or topics) listed per finding
DEFAULT_MAX_PER_CHECK = 5
#: more fields than this on a line: several lines run together (the reader's bound)
MAX_FIELDS = _MAX_FIELDS


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


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"
