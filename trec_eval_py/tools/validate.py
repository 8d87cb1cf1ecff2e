"""Checking run files the way an evaluation campaign does before accepting them.

Unlike the readers, which stop at the first bad line, this is a linter: it
reads every line with its own tolerant scanner and reports every problem it
finds, each with the file, the line and what is wrong. Fields are split as
the readers split them (runs of blanks, CR included; lines whose first field
starts with ``#`` are comments), and numbers must have the shape the readers
accept. Many files and folders are checked in one go (walked as ``batch``
walks them, see :mod:`trec_eval_py.tools.submissions`).

Errors are things that make the file malformed or make trec_eval (or this
package) refuse it or read it differently from what was meant; warnings are
well-formed but suspicious. The first finding names the real problem: a
file that is not a run at all (a zip, a binary, a qrels file, CR-only line
endings) gets one error saying so instead of one per line. The checks, by
code::

    errors
      ``zip``              a zip archive (or a zip-based document such as .docx), not a text file
      ``binary``           another binary file (a PDF, NUL bytes near the start)
      ``nul``              a NUL byte in a line
      ``line-endings``     lines end in CR alone (classic Mac): every reader sees one long line;
                           or a carriage return inside a line, which every reader rejects
      ``looks-like-qrels`` every line is ``qid iter docno rel``: qrels and run given in swapped order
      ``header``           the first line is a header (its rank and score are words)
      ``fields``           fewer than the six fields ``qid iter docno rank score runid``
      ``score-type``       the score is not a decimal number (NaN included)
      ``duplicate-docno``  a document listed twice for one topic
      ``runid``            more than one run id in the file
      ``too-many-docs``    a topic has more documents than allowed (default 1000)
      ``empty``            no result lines (nothing, or only comments)
      ``no-common-topics`` no topic of the run is in the qrels (or ``--topics``), with a hint
                           when the ids differ by a pattern (a prefix, zero padding, case)
    warnings
      ``rank-type``        the rank is not an integer (the rank column is ignored)
      ``rank-sequence``    a topic's ranks are not 1, 2, ... n (the rank column is ignored)
      ``encoding``         a line that is not valid UTF-8
      ``bom``              the file starts with a UTF-8 byte-order mark: trec_eval (and so the
                           TREC formats here) reads it as part of the first topic id; the
                           readers of the other formats skip it
      ``extra-fields``     more than six fields (the extra ones are ignored)
      ``comment``          a ``#`` line (trec_eval 10.0 skips it; 9.0.8 reads it as a result)
      ``score-order``      a score higher than the one at the rank before it
      ``rank-order``       equal scores whose ranks disagree with the tie-break trec_eval
                           applies (docno, descending), so the evaluated order is not the
                           submitted one; scores are compared as the engine's ranking rule
                           compares them for the chosen trec_eval version (9.0.8: single
                           precision, so 1.00000001 and 1.0 tie)
      ``cutoff-tie``       equal scores straddle a common cutoff (5, 10, 20, 100, 1000), so
                           the docno tie-break decides what falls inside it
      ``topic-not-in-qrels``  a run topic without judgments (trec_eval ignores it)
      ``topic-not-in-run``    a judged topic the run lacks (it scores 0 on the board;
                              trec_eval skips it unless -c)
      ``unjudged``         too many unjudged documents in a topic's top 10 (default:
                           more than half), so its scores are underestimates

The topic checks need the qrels (``qrels``) or just their topic ids
(``topics``: one id per line, or a qrels file, whose first column is read), so
students can check their runs without seeing the judgments; ``unjudged``
needs the qrels. Windows (CRLF) line endings are not a finding: every reader
takes CR for a blank. Checks that would fire on every line of a large file
list at most ``max_per_check`` findings, and a last one counts the rest;
the totals of a :class:`Report` count every finding, listed or not.
"""
from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from .._record import field, record
from ..errors import InputError, UsageError
from ..engine.join.order import RankRule
from ..engine.parse import Qrels, Run
from ..engine.parse.fields import has_bare_cr
from ..engine.parse.numbers import FLOAT_RE, INT_RE
from ..engine.parse.source import read_source, source_name

ERROR = "error"
WARNING = "warning"

#: cutoffs at which a tie in score makes the tie-break decide the value
COMMON_CUTOFFS = (5, 10, 20, 100, 1000)
DEFAULT_MAX_DOCS = 1000
DEFAULT_MAX_UNJUDGED = 0.5
UNJUDGED_DEPTH = 10
DEFAULT_MAX_PER_CHECK = 20
#: checks that say the file is not a run at all (nothing else is reported for it)
NOT_A_RUN = ("zip", "binary", "looks-like-qrels")
#: errors that name a cause a student can fix at once; ``batch`` prefers them as a failed run's reason
HINTS = ("zip", "binary", "line-endings", "looks-like-qrels", "header", "no-common-topics")


@record
class Finding:
    """One problem: where it is, how bad, which check, and what is wrong."""

    path: str
    line: int | None
    severity: str
    code: str
    message: str

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.severity}: {self.message} [{self.code}]"

    def short(self, run: str | None = None) -> str:
        """Without the path when it is the run's own, ``run`` (for a board or a student's feedback)."""
        if self.path != run and run is not None:
            where = f"{self.path}: " if self.line is None else f"{self.path}:{self.line}: "
        else:
            where = "" if self.line is None else f"line {self.line}: "
        return f"{where}{self.severity}: {self.message} [{self.code}]"

    def to_dict(self) -> dict:
        return {"path": self.path, "line": self.line, "severity": self.severity,
                "code": self.code, "message": self.message}


@record(frozen=False)
class Report:
    """Every finding for one run file (problems first, then in line order), plus what was read.

    ``findings`` lists at most ``max_per_check`` findings of a check that
    fires line by line; ``num_errors`` and ``num_warnings`` count them all.
    """

    path: str
    findings: list[Finding] = field(factory=list)
    lines: int = 0
    results: int = 0
    topics: int = 0
    num_errors: int = 0
    num_warnings: int = 0
    #: per judged topic of the run: (unjudged documents, documents) in its top
    #: :data:`UNJUDGED_DEPTH` (the engine's judged.10 is 1 - their ratio); empty
    #: without single-document judgments
    unjudged: dict = field(factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == WARNING]

    def codes(self) -> set[str]:
        return {f.code for f in self.findings}

    def passed(self, strict: bool = False) -> bool:
        """No errors (and with ``strict``, no warnings either)."""
        return not (self.num_errors or (strict and self.num_warnings))

    def hint(self) -> Finding | None:
        """The first error that names a cause a person can fix at once, if any."""
        return next((f for f in self.findings if f.severity == ERROR and f.code in HINTS), None)

    def summary(self) -> str:
        ne, nw = self.num_errors, self.num_warnings
        return (f"{self.path}: {ne} error{'s' * (ne != 1)}, {nw} warning{'s' * (nw != 1)} "
                f"({self.results} results, {self.topics} topics)")

    def to_dict(self, strict: bool = False) -> dict:
        return {"path": self.path, "ok": self.passed(strict), "errors": self.num_errors,
                "warnings": self.num_warnings, "lines": self.lines, "results": self.results,
                "topics": self.topics, "findings": [f.to_dict() for f in self.findings]}


@record(frozen=False)
class _Row:
    line: int
    qid: bytes
    docno: bytes
    rank: int | None
    score: float | None
    runid: bytes


def _show(b: bytes) -> str:
    return repr(b.decode("utf-8", "replace"))


class _Collector:
    """Findings, with per-check caps for the checks that can fire on every line."""

    def __init__(self, path: str, max_per_check: int):
        self.path = path
        self.cap = max_per_check
        self.items: list[Finding] = []
        self.counts: dict[str, int] = {}
        self.totals = {ERROR: 0, WARNING: 0}
        self.first_dropped: dict[str, tuple[int | None, str]] = {}

    def add(self, line, severity, code, message, path=None, capped=True):
        n = self.counts.get(code, 0) + 1
        self.counts[code] = n
        self.totals[severity] += 1
        if capped and self.cap and n > self.cap:
            self.first_dropped.setdefault(code, (line, severity))
            return
        self.items.append(Finding(path or self.path, line, severity, code, message))

    def collapse(self, code: str, lines: int) -> None:
        """A check that fired on each of ``lines`` (> 1) lines becomes one finding saying so."""
        if lines < 2 or self.counts.get(code, 0) != lines:
            return
        listed = [f for f in self.items if f.code == code]
        first = listed[0]
        self.items = [f for f in self.items if f.code != code]
        self.first_dropped.pop(code, None)
        self.items.append(Finding(first.path, first.line, first.severity, code,
                                  f"every one of the {lines} lines: {first.message}"))

    def done(self, report: "Report") -> None:
        for code, (line, severity) in self.first_dropped.items():
            more = self.counts[code] - self.cap
            self.items.append(Finding(self.path, line, severity, code,
                                      f"{more} more like this from here on (not listed)"))
        # what makes the file unusable as a whole first, then line by line
        report.findings = sorted(self.items, key=lambda f: (f.code not in HINTS or f.severity != ERROR,
                                                            f.path != self.path, f.path, f.line or 0))
        report.num_errors = self.totals[ERROR]
        report.num_warnings = self.totals[WARNING]


# ---- what kind of file is it? ----

_PDF = b"%PDF"
_ZIP = (b"PK\x03\x04", b"PK\x05\x06")


def _not_text(data: bytes, out: _Collector) -> bool:
    """One error for a file that is no text at all; True if so."""
    if data.startswith(_ZIP):
        out.add(None, ERROR, "zip",
                "this is a zip archive (or a zip-based document such as .docx or .odt), not a text run file; "
                "hand in the run file itself (batch and validate do read the members of an archive named *.zip)")
        return True
    head = data[:4096]
    if data.startswith(_PDF) or b"\0" in head:
        kind = "a PDF document" if data.startswith(_PDF) else "a binary file"
        out.add(None, ERROR, "binary", f"this is {kind}, not a text run file: save the run as plain text")
        return True
    return False


def _split_lines(data: bytes, out: _Collector) -> list[bytes]:
    if b"\r" in data and b"\n" not in data.rstrip(b"\r\n") and data.rstrip(b"\r\n").count(b"\r") >= 1:
        out.add(None, ERROR, "line-endings",
                "lines end in CR alone (an old Mac convention): trec_eval and every reader here see the whole "
                "file as one line; save it with LF or CRLF line endings")
        data = data.replace(b"\r", b"\n")
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


def _check_bom(data: bytes, results_format: str, out: _Collector) -> None:
    """A UTF-8 byte-order mark at the start of the file (Notepad writes one): said once,
    with what the evaluation makes of it."""
    from ..engine.parse.source import BOM

    if not data.startswith(BOM):
        return
    if results_format in _TREC_EVAL_FORMATS:
        first = data[3:].split(None, 1)[:1]
        shown = _show(BOM + first[0]) if first else "''"
        out.add(1, WARNING, "bom",
                f"the file starts with a UTF-8 byte-order mark: trec_eval reads it as part of the first "
                f"topic id ({shown}), which matches no topic of judgments saved without it; save the file without it (as UTF-8, not "
                "'UTF-8 with BOM')", capped=False)
    else:
        out.add(1, WARNING, "bom",
                "the file starts with a UTF-8 byte-order mark: it is skipped, as the format's official "
                "scripts skip it; saving the file without it is safer", capped=False)


#: results formats read as trec_eval reads them, byte for byte (a byte-order mark included)
_TREC_EVAL_FORMATS = ("trec_results",)


def sniff(data: bytes, probe: int = 20) -> str | None:
    """``'run'``, ``'qrels'`` or None: what the first content lines look like."""
    shapes = []
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


# ---- line by line ----

def _scan(lines: list[bytes], out: _Collector) -> list[_Row]:
    """Every content line as a row; problems with single lines go to ``out``."""
    rows: list[_Row] = []
    first_content = True
    for no, raw in enumerate(lines, 1):
        if b"\0" in raw:
            out.add(no, ERROR, "nul", "NUL byte in the line; the file cannot be read")
            continue
        if has_bare_cr(raw):  # the readers stop here, so it is an error, not a field count
            out.add(no, ERROR, "line-endings",
                    "carriage return inside the line: evaluation rejects it; save the file with LF or "
                    "CRLF line endings")
            continue
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as e:
            out.add(no, WARNING, "encoding", f"not valid UTF-8 (byte {raw[e.start]:#04x} at column {e.start + 1})")
        f = raw.split()
        if not f:
            continue
        if f[0].startswith(b"#"):
            out.add(no, WARNING, "comment",
                    "comment line: skipped by trec_eval 10.0 and this package, read as a result by trec_eval 9.0.8")
            continue
        was_first, first_content = first_content, False
        if was_first and len(f) >= 5 and not FLOAT_RE.fullmatch(f[4]) and not INT_RE.fullmatch(f[3]):
            out.add(no, ERROR, "header",
                    f"this looks like a header line ({raw.decode('utf-8', 'replace').strip()!r}); "
                    "a run has no header: every line is read as a result, so delete this one")
            continue
        if len(f) < 6:
            out.add(no, ERROR, "fields",
                    f"{len(f)} field{'s' * (len(f) != 1)}; a result line needs 6: qid iter docno rank score runid")
            continue
        if len(f) > 6:
            out.add(no, WARNING, "extra-fields", f"{len(f)} fields; everything after the 6th (run id) is ignored")
        rank = int(f[3]) if INT_RE.fullmatch(f[3]) else None
        if rank is None:
            out.add(no, WARNING, "rank-type",
                    f"rank {_show(f[3])} is not an integer (the rank column is ignored: documents are ranked by score)")
        score = float(f[4]) if FLOAT_RE.fullmatch(f[4]) else None
        if score is None:
            out.add(no, ERROR, "score-type", f"score {_show(f[4])} is not a number")
        rows.append(_Row(no, f[0], f[2], rank, score, f[5]))
    return rows


def _check_runids(rows: list[_Row], out: _Collector) -> None:
    if not rows:
        return
    first = rows[0]
    seen: dict[bytes, list[_Row]] = {}
    for r in rows:
        seen.setdefault(r.runid, []).append(r)
    for rid, rs in seen.items():
        if rid != first.runid:
            out.add(rs[0].line, ERROR, "runid",
                    f"run id {_show(rid)} differs from {_show(first.runid)} (line {first.line}); "
                    f"{len(rs)} line{'s' * (len(rs) != 1)} use{'s' * (len(rs) == 1)} it; a run has one run id", capped=False)


def _trec_order(rows: list[_Row], rule: RankRule) -> tuple[list[_Row], list]:
    """The order trec_eval evaluates ``rows`` (one topic's) in, and each row's sort
    key: the engine's ranking rule (:meth:`RankRule.ranked`); equal keys are ties."""
    if not rows:
        return [], []
    run = Run(
        np.zeros(len(rows), dtype="S1"),
        np.array([r.docno for r in rows], dtype="S"),
        np.array([r.score for r in rows], dtype=np.float64),
        np.array([r.line for r in rows], dtype=np.int64),
    )
    perm, key = rule.ranked(run)
    return [rows[i] for i in perm.tolist()], key.tolist()


def _check_topic(qid: bytes, rows: list[_Row], out: _Collector, max_docs: int, cutoffs: Iterable[int],
                 rule: RankRule) -> list[_Row]:
    """Checks within one topic. Returns its unique rows in trec_eval's order."""
    t = _show(qid)
    unique: list[_Row] = []
    first_line: dict[bytes, int] = {}
    for r in rows:
        if r.docno in first_line:
            out.add(r.line, ERROR, "duplicate-docno",
                    f"docno {_show(r.docno)} already listed for topic {t} on line {first_line[r.docno]}")
        else:
            first_line[r.docno] = r.line
            unique.append(r)

    if max_docs and len(unique) > max_docs:
        out.add(unique[max_docs].line, ERROR, "too-many-docs",
                f"topic {t} has {len(unique)} documents, more than the {max_docs} allowed "
                f"(this is document {max_docs + 1})", capped=False)

    ranked = [r for r in unique if r.rank is not None]
    if ranked:
        by_rank = sorted(ranked, key=lambda r: (r.rank, r.line))
        for i, r in enumerate(by_rank):
            if r.rank == i + 1:
                continue
            if i == 0:
                msg = f"ranks of topic {t} start at {r.rank}, not 1"
            elif r.rank == by_rank[i - 1].rank:
                msg = f"rank {r.rank} of topic {t} is used again (first on line {by_rank[i - 1].line})"
            else:
                msg = f"rank {i + 1} of topic {t} is missing: ranks jump from {by_rank[i - 1].rank} to {r.rank}"
            out.add(r.line, WARNING, "rank-sequence",
                    msg + "; ranks should run 1, 2, ... (the rank column is ignored: documents are ranked by score)")
            break

    scored = [r for r in unique if r.score is not None]
    # scores compared as the ranking rule compares them (single precision for 9.0.8)
    order, keys = _trec_order(scored, rule)
    key_of = {id(r): k for r, k in zip(order, keys)}
    both = sorted((r for r in scored if r.rank is not None), key=lambda r: (r.rank, r.line))
    rises = [(a, b) for a, b in zip(both, both[1:]) if key_of[id(b)] < key_of[id(a)]]
    if rises:
        a, b = rises[0]
        more = f" ({len(rises) - 1} more in this topic)" if len(rises) > 1 else ""
        out.add(b.line, WARNING, "score-order",
                f"topic {t}: score {b.score:g} at rank {b.rank} is higher than {a.score:g} at rank {a.rank}; "
                f"scores should not increase with rank, and trec_eval ranks by score{more}")

    # among equal scores trec_eval orders by docno (descending); compare with the ranks given
    swaps = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and keys[j + 1] == keys[i]:
            j += 1
        group = [r for r in order[i:j + 1] if r.rank is not None]
        swaps += [(a, b) for a, b in zip(group, group[1:]) if a.rank > b.rank]
        i = j + 1
    if swaps:
        a, b = swaps[0]
        more = f" ({len(swaps) - 1} more in this topic)" if len(swaps) > 1 else ""
        same = (f"the same score {a.score:g}" if a.score == b.score else
                f"scores {a.score!r} and {b.score!r}, equal in single precision as trec_eval 9.0.8 "
                f"compares them")
        out.add(a.line, WARNING, "rank-order",
                f"topic {t}: {_show(a.docno)} (rank {a.rank}) and {_show(b.docno)} (rank {b.rank}) have "
                f"{same}; trec_eval breaks the tie by docno and evaluates {_show(a.docno)} first{more}")

    straddled = [k for k in cutoffs if k < len(order) and keys[k - 1] == keys[k]]
    if straddled:
        k = straddled[0]
        out.add(order[k - 1].line, WARNING, "cutoff-tie",
                f"topic {t}: equal scores ({order[k - 1].score:g}) straddle cutoff"
                f"{'s' * (len(straddled) > 1)} {', '.join(map(str, straddled))}; the docno tie-break decides "
                f"which documents fall inside, not the run")
    return order


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


def _qrels_topics(q: Qrels) -> TopicSet:
    first: dict[bytes, int] = {}
    for qid, line in zip(q.qid.tolist(), q.lineno.tolist()):
        first.setdefault(qid, line)
    return TopicSet(q.name, first)


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


def _check_topics(topics: dict[bytes, list[_Row]], ts: TopicSet, out: _Collector) -> bool:
    """Coverage of ``ts`` by the run; False if they share no topic (one error, nothing else)."""
    if not any(qid in ts.first_line for qid in topics):
        first = min(rs[0].line for rs in topics.values())
        out.add(first, ERROR, "no-common-topics",
                f"no topic of the run is in {ts.name}, so nothing can be evaluated; "
                f"{_id_hint(list(topics), list(ts.first_line))}", capped=False)
        return False
    for qid, rs in topics.items():
        if qid not in ts.first_line:
            out.add(rs[0].line, WARNING, "topic-not-in-qrels",
                    f"topic {_show(qid)} is not in {ts.name}; trec_eval ignores it")
    for qid, line in ts.first_line.items():
        if qid not in topics:
            out.add(line, WARNING, "topic-not-in-run",
                    f"topic {_show(qid)} of {ts.name} is missing from the run; it scores 0 on a board "
                    "(trec_eval skips it unless -c is given)", path=ts.name)
    return True


def unjudged_at_top(ordered, q: Qrels, compat: str = "9.0.8", name: str = "<run>") -> dict[bytes, np.ndarray]:
    """Per topic of ``ordered`` (each topic's unique scored rows in the ranking
    rule's order) that the judgments ``q`` cover: the positions, among its top
    :data:`UNJUDGED_DEPTH`, of the documents without a judgment (not in the
    qrels, or with a negative level), found by the engine's own join."""
    from ..engine.pipeline import Options, map_batches

    rows = [(qid, r) for qid, order in ordered.items() for r in order[:UNJUDGED_DEPTH]]
    if not rows:
        return {}
    run = Run(np.array([qid for qid, _ in rows], dtype="S"), np.array([r.docno for _, r in rows], dtype="S"),
              np.array([r.score for _, r in rows], dtype=np.float64),
              np.array([r.line for _, r in rows], dtype=np.int64), "", name)

    def unjudged(b):
        # a negative level marks a pooled document nobody judged: unjudged as well
        return [(qid, np.flatnonzero(b.rel[t, : b.num_ret[t]] < 0)) for t, qid in enumerate(b.qids)]

    res = map_batches(unjudged, q, run, Options(compat=compat, measures=()))
    return {qid.encode("utf-8", "surrogateescape"): pos for batch in res.results for qid, pos in batch}


def _check_unjudged(ordered, q: Qrels, out: _Collector, max_unjudged: float, compat: str,
                    report: "Report") -> None:
    """Too many unjudged documents in a topic's top 10 (:func:`unjudged_at_top`);
    every topic's count goes to ``report.unjudged``."""
    for qid, pos in unjudged_at_top(ordered, q, compat, out.path).items():
        top = ordered[qid][:UNJUDGED_DEPTH]
        report.unjudged[qid.decode("utf-8", "surrogateescape")] = (len(pos), len(top))
        share = len(pos) / len(top)
        if len(pos) and share > max_unjudged:
            out.add(top[int(pos[0])].line, WARNING, "unjudged",
                    f"topic {_show(top[0].qid)}: {len(pos)} of the top {len(top)} documents are unjudged "
                    f"({math.floor(share * 100 + 0.5)}%); the scores of this topic are underestimates")


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
    from ..engine.pipeline import read_judgments

    if isinstance(qrels, Qrels) and options is None:
        return qrels
    try:
        return read_judgments(qrels, options)
    except InputError:
        _swapped_hint(qrels)
        raise


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
    compat: str = "9.0.8",
    rel_format: str = "qrels",
    results_format: str = "trec_results",
) -> Report:
    """Check the run file ``run`` (a path, ``-``, bytes or a file object).

    ``qrels`` (anything :func:`~trec_eval_py.engine.parse.read_qrels` reads, or a
    parsed :class:`~trec_eval_py.engine.parse.Qrels`) enables the topic and
    unjudged-document checks; it must itself be valid. ``topics`` (a
    :class:`TopicSet` or a file for :func:`read_topics`) enables the topic
    checks alone. ``max_docs`` (0: no limit) bounds the documents per topic;
    ``max_unjudged`` is the largest acceptable share of unjudged documents
    in a topic's top 10; ``max_per_check`` caps the findings listed for a
    check that fires line by line (0: no cap). ``compat`` is the trec_eval
    version whose ranking rule the score and tie checks follow. ``rel_format``
    is the judgment format of ``qrels`` (``-R``); every format gives the topic
    checks, the unjudged-document check needs judgments of single documents
    (qrels and the formats read into them, such as codiesp or biocreative_*).
    ``results_format`` (``-T``) is the run's format: the checks above are those
    of TREC runs (``trec_results``); a run in another format gets that format's
    own reading checks (the first bad line) and the topic checks.
    """
    if max_docs < 0:
        raise UsageError("the document limit must be 0 (none) or positive")
    if not 0.0 <= max_unjudged <= 1.0:
        raise UsageError("the unjudged share must be between 0 and 1")
    rule = RankRule.for_compat(compat)
    cutoffs = tuple(int(k) for k in cutoffs)
    path = name or source_name(run)
    q = load_qrels(qrels, {"rel_format": rel_format}) if qrels is not None else None
    ts: TopicSet | None = None
    if topics is not None:
        ts = topics if isinstance(topics, TopicSet) else read_topics(topics)
    elif q is not None:
        ts = _qrels_topics(q)
    data = read_source(run)
    out = _Collector(path, max_per_check)
    report = Report(path)
    if _not_text(data, out):
        out.done(report)
        return report
    lines = _split_lines(data, out)
    report.lines = len(lines)
    _check_bom(data, results_format, out)
    if results_format != "trec_results":
        return _validate_other_format(data, path, results_format, ts, out, report)
    if sniff(data) == "qrels":
        out.add(None, ERROR, "looks-like-qrels",
                "every line has 4 fields (qid iter docno relevance), as a qrels file does, not the 6 of a run: "
                "were the qrels and the run given in swapped order?")
        out.done(report)
        return report
    rows = _scan(lines, out)
    report.results = len(rows)
    content = sum(1 for ln in lines if ln.split() and not ln.split()[0].startswith(b"#"))
    for code in ("fields", "score-type", "rank-type", "extra-fields"):
        out.collapse(code, content)
    if not rows and not out.totals[ERROR]:
        what = "only comments" if any(ln.strip() for ln in lines) else "nothing"
        out.add(None, ERROR, "empty", f"no result lines: the file holds {what}", capped=False)
    if not rows:
        out.done(report)
        return report
    _check_runids(rows, out)

    by_topic: dict[bytes, list[_Row]] = {}
    for r in rows:
        by_topic.setdefault(r.qid, []).append(r)
    report.topics = len(by_topic)
    ordered = {qid: _check_topic(qid, rs, out, max_docs, cutoffs, rule) for qid, rs in by_topic.items()}

    # preferences and judgment groups judge pairs or per assessor: "unjudged" is not one thing there
    if ts is not None and _check_topics(by_topic, ts, out) and type(q) is Qrels:
        _check_unjudged(ordered, q, out, max_unjudged, compat, report)
    out.done(report)
    return report


def _validate_other_format(data: bytes, path: str, fmt: str, ts, out: _Collector, report: Report) -> Report:
    """A run in results format ``fmt`` (not a TREC run): read by the pipeline's
    reading stage, whose first error (file, line, text) is the finding, then
    the topic checks on what it read."""
    from ..engine.pipeline import Options, read_results

    try:
        run = read_results(data, Options(results_format=fmt, rel_format=_partner(fmt), measures=()))
    except InputError as e:
        out.add(e.line, ERROR, "format", e.reason, capped=False)
        out.done(report)
        return report
    by_topic: dict[bytes, list[_Row]] = {}
    for qid, docno, line in zip(run.qid.tolist(), run.docno.tolist(), run.lineno.tolist()):
        by_topic.setdefault(qid, []).append(_Row(line, qid, docno, None, None, b""))
    report.results, report.topics = len(run), len(by_topic)
    if not by_topic:
        out.add(None, ERROR, "empty", "no result lines", capped=False)
    elif ts is not None:
        _check_topics(by_topic, ts, out)
    out.done(report)
    return report


def _partner(results_format: str) -> str:
    """The judgment format a results format requires (its own reader may need it), else qrels."""
    from ..engine.inputs import results_format as lookup

    return lookup(results_format).requires or "qrels"


def validate_runs(paths, qrels=None, *, topics=None, rel_format: str = "qrels", **kw) -> list[Report]:
    """:func:`validate_run` for every submission ``paths`` stand for (files, folders,
    zips, walked as ``batch`` walks them; :class:`~trec_eval_py.tools.submissions.Submission`
    values as they are). The qrels or topics are read once; a
    file that cannot be read is a report with one error."""
    import os

    from ..engine.pipeline import Options
    from .submissions import Submission, find_submissions

    # the formats exist and, with judgments, fit together (-T codiesp goes with
    # -R codiesp): said before any file is read
    fmt = kw.get("results_format", "trec_results")
    Options(rel_format=rel_format if qrels is not None else _partner(fmt), results_format=fmt,
            compat=kw.get("compat", "9.0.8"), measures=())
    q = load_qrels(qrels, {"rel_format": rel_format}) if qrels is not None else None
    ts = (topics if isinstance(topics, TopicSet) else read_topics(topics)) if topics is not None else None
    reports = []
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    subs = [s for p in paths for s in ([p] if isinstance(p, Submission) else find_submissions([p]))]
    for sub in subs:
        try:
            reports.append(validate_run(sub.source(), q, topics=ts, name=sub.name, rel_format=rel_format, **kw))
        except InputError as e:
            if q is not None and e.path == q.name:  # the judgments' error (a docno judged twice), not the run's
                raise
            rep = Report(sub.name)
            out = _Collector(sub.name, 0)
            out.add(e.line, ERROR, "unreadable", e.reason)
            out.done(rep)
            reports.append(rep)
    return reports


#: validate's --format
FORMATS = ("text", "json", "csv")


def findings_table(reports: list[Report]):
    """Every finding of every report, one a row (the csv of ``validate``)."""
    from ..output.table import Column, Table

    cols = [Column("file", "text"), Column("path", "text"), Column("line", "int"), Column("severity", "text"),
            Column("code", "text"), Column("message", "text")]
    return Table(cols, [[r.path, f.path, f.line, f.severity, f.code, f.message] for r in reports for f in r.findings])


def render_reports(reports: list[Report], fmt: str = "text", *, strict: bool = False, quiet: bool = False) -> str:
    """Reports as text (findings, then a summary line per file), JSON or CSV (one finding a row).

    Text is for a terminal: what a file holds (a run id, a bad line) is shown
    without its control characters or escape sequences."""
    from ..output.names import printable
    from ..output.table import check_format, json_text, render

    fmt = check_format(fmt, FORMATS)
    if fmt == "json":
        return json_text({"ok": all(r.passed(strict) for r in reports),
                          "files": [r.to_dict(strict) for r in reports]}, indent=1)
    if fmt == "csv":
        return render(findings_table(reports), "csv")
    text = []
    for r in reports:  # file names come from students: nothing in them acts on a terminal
        if not quiet:
            text += [f"{printable(str(f))}\n" for f in r.findings]
        text.append(f"{printable(r.summary())}: {'ok' if r.passed(strict) else 'FAILED'}\n")
    if len(reports) > 1:
        bad = sum(not r.passed(strict) for r in reports)
        text.append(f"{len(reports)} files: {len(reports) - bad} ok, {bad} failed\n")
    return "".join(text)
