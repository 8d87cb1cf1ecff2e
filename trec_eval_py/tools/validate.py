"""Checking a run file the way an evaluation campaign does before accepting it.

Unlike the readers, which stop at the first bad line, this is a linter: it
reads every line with its own tolerant scanner and reports every problem it
finds, each with the file, the line and what is wrong. Fields are split as
the readers split them (runs of blanks; lines whose first field starts with
``#`` are comments), and numbers must have the shape the readers accept.

Errors are things that make the file malformed or make trec_eval (or this
package) refuse it or read it differently from what was meant; warnings are
well-formed but suspicious. The checks, by code:

errors
  ``nul``              a NUL byte in a line
  ``fields``           fewer than the six fields ``qid iter docno rank score runid``
  ``rank-type``        the rank is not an integer
  ``score-type``       the score is not a decimal number (NaN included)
  ``duplicate-docno``  a document listed twice for one topic
  ``runid``            more than one run id in the file
  ``rank-sequence``    a topic's ranks are not 1, 2, ... n
  ``too-many-docs``    a topic has more documents than allowed (default 1000)
  ``empty``            no result lines at all
warnings
  ``encoding``         a line that is not valid UTF-8
  ``extra-fields``     more than six fields (the extra ones are ignored)
  ``comment``          a ``#`` line (trec_eval 10.0 skips it; 9.0.8 reads it as a result)
  ``score-order``      a score higher than the one at the rank before it
  ``rank-order``       equal scores whose ranks disagree with the tie-break trec_eval
                       applies (docno, descending), so the evaluated order is not the
                       submitted one
  ``cutoff-tie``       equal scores straddle a common cutoff (5, 10, 20, 100, 1000), so
                       the docno tie-break decides what falls inside it
  ``topic-not-in-qrels``  a run topic without judgments (trec_eval ignores it)
  ``topic-not-in-run``    a judged topic the run lacks (skipped unless -c, which
                          raises the average of a run that leaves out hard topics)
  ``unjudged``         too many unjudged documents in a topic's top 10 (default:
                       more than half), so its scores are underestimates

The last three need the qrels. Checks that would fire on every line of a
large file are capped (``max_per_check``); a final finding counts the rest.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

from ..errors import UsageError
from ..engine.parse import Qrels, read_qrels
from ..engine.parse.numbers import _FLOAT_RE, _INT_RE
from ..engine.parse.source import read_source, source_name

ERROR = "error"
WARNING = "warning"

#: cutoffs at which a tie in score makes the tie-break decide the value
COMMON_CUTOFFS = (5, 10, 20, 100, 1000)
DEFAULT_MAX_DOCS = 1000
DEFAULT_MAX_UNJUDGED = 0.5
UNJUDGED_DEPTH = 10
DEFAULT_MAX_PER_CHECK = 20


@dataclass(frozen=True)
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


@dataclass
class Report:
    """Every finding for one run file, in line order, plus what was read."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    lines: int = 0
    results: int = 0
    topics: int = 0

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
        return not self.findings if strict else not self.errors

    def summary(self) -> str:
        ne, nw = len(self.errors), len(self.warnings)
        return (f"{self.path}: {ne} error{'s' * (ne != 1)}, {nw} warning{'s' * (nw != 1)} "
                f"({self.results} results, {self.topics} topics)")


@dataclass
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
        self.first_dropped: dict[str, tuple[int | None, str]] = {}

    def add(self, line, severity, code, message, path=None, capped=True):
        n = self.counts.get(code, 0) + 1
        self.counts[code] = n
        if capped and self.cap and n > self.cap:
            self.first_dropped.setdefault(code, (line, severity))
            return
        self.items.append(Finding(path or self.path, line, severity, code, message))

    def done(self) -> list[Finding]:
        for code, (line, severity) in self.first_dropped.items():
            more = self.counts[code] - self.cap
            self.items.append(Finding(self.path, line, severity, code,
                                      f"{more} more like this from here on (not listed)"))
        return sorted(self.items, key=lambda f: (f.path != self.path, f.path, f.line or 0))


def _scan(data: bytes, out: _Collector) -> tuple[list[_Row], int]:
    """Every content line as a row; problems with single lines go to ``out``."""
    rows: list[_Row] = []
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for no, raw in enumerate(lines, 1):
        if b"\0" in raw:
            out.add(no, ERROR, "nul", "NUL byte in the line; the file cannot be read")
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
        if len(f) < 6:
            out.add(no, ERROR, "fields",
                    f"{len(f)} field{'s' * (len(f) != 1)}; a result line needs 6: qid iter docno rank score runid")
            continue
        if len(f) > 6:
            out.add(no, WARNING, "extra-fields", f"{len(f)} fields; everything after the 6th (run id) is ignored")
        rank = int(f[3]) if _INT_RE.fullmatch(f[3]) else None
        if rank is None:
            out.add(no, ERROR, "rank-type", f"rank {_show(f[3])} is not an integer")
        score = float(f[4]) if _FLOAT_RE.fullmatch(f[4]) else None
        if score is None:
            out.add(no, ERROR, "score-type", f"score {_show(f[4])} is not a number")
        rows.append(_Row(no, f[0], f[2], rank, score, f[5]))
    return rows, len(lines)


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


def _trec_order(rows: list[_Row]) -> list[_Row]:
    """The order trec_eval evaluates: score descending, then docno descending (bytes)."""
    by_docno = sorted(rows, key=lambda r: r.docno, reverse=True)
    return sorted(by_docno, key=lambda r: -r.score)


def _check_topic(qid: bytes, rows: list[_Row], out: _Collector, max_docs: int, cutoffs: Iterable[int]) -> list[_Row]:
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
            out.add(r.line, ERROR, "rank-sequence", msg + "; ranks must run 1, 2, ... without gaps")
            break

    scored = [r for r in unique if r.score is not None]
    both = sorted((r for r in scored if r.rank is not None), key=lambda r: (r.rank, r.line))
    rises = [(a, b) for a, b in zip(both, both[1:]) if b.score > a.score]
    if rises:
        a, b = rises[0]
        more = f" ({len(rises) - 1} more in this topic)" if len(rises) > 1 else ""
        out.add(b.line, WARNING, "score-order",
                f"topic {t}: score {b.score:g} at rank {b.rank} is higher than {a.score:g} at rank {a.rank}; "
                f"scores should not increase with rank, and trec_eval ranks by score{more}")

    # among equal scores trec_eval orders by docno (descending); compare with the ranks given
    order = _trec_order(scored)
    swaps = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and order[j + 1].score == order[i].score:
            j += 1
        group = [r for r in order[i:j + 1] if r.rank is not None]
        swaps += [(a, b) for a, b in zip(group, group[1:]) if a.rank > b.rank]
        i = j + 1
    if swaps:
        a, b = swaps[0]
        more = f" ({len(swaps) - 1} more in this topic)" if len(swaps) > 1 else ""
        out.add(a.line, WARNING, "rank-order",
                f"topic {t}: {_show(a.docno)} (rank {a.rank}) and {_show(b.docno)} (rank {b.rank}) have the same "
                f"score {a.score:g}; trec_eval breaks the tie by docno and evaluates {_show(a.docno)} first{more}")

    straddled = [k for k in cutoffs if k < len(order) and order[k - 1].score == order[k].score]
    if straddled:
        k = straddled[0]
        out.add(order[k - 1].line, WARNING, "cutoff-tie",
                f"topic {t}: equal scores ({order[k - 1].score:g}) straddle cutoff"
                f"{'s' * (len(straddled) > 1)} {', '.join(map(str, straddled))}; the docno tie-break decides "
                f"which documents fall inside, not the run")
    return order


def validate_run(
    run,
    qrels=None,
    *,
    name: str | None = None,
    max_docs: int = DEFAULT_MAX_DOCS,
    max_unjudged: float = DEFAULT_MAX_UNJUDGED,
    cutoffs: Iterable[int] = COMMON_CUTOFFS,
    max_per_check: int = DEFAULT_MAX_PER_CHECK,
) -> Report:
    """Check the run file ``run`` (a path, ``-``, bytes or a file object).

    ``qrels`` (anything :func:`~trec_eval_py.engine.parse.read_qrels` reads) enables
    the topic coverage and unjudged-document checks; it must itself be
    valid. ``max_docs`` (0: no limit) bounds the documents per topic;
    ``max_unjudged`` is the largest acceptable share of unjudged documents
    in a topic's top 10; ``max_per_check`` caps the findings listed for a
    check that fires line by line (0: no cap).
    """
    if max_docs < 0:
        raise UsageError("the document limit must be 0 (none) or positive")
    if not 0.0 <= max_unjudged <= 1.0:
        raise UsageError("the unjudged share must be between 0 and 1")
    cutoffs = tuple(int(k) for k in cutoffs)
    path = name or source_name(run)
    q: Qrels | None = read_qrels(qrels) if qrels is not None else None
    data = read_source(run)
    out = _Collector(path, max_per_check)
    rows, nlines = _scan(data, out)
    report = Report(path, lines=nlines, results=len(rows))
    if not rows:
        out.add(None, ERROR, "empty", "no result lines: the run is empty", capped=False)
        report.findings = out.done()
        return report
    _check_runids(rows, out)

    topics: dict[bytes, list[_Row]] = {}
    for r in rows:
        topics.setdefault(r.qid, []).append(r)
    report.topics = len(topics)
    ordered = {qid: _check_topic(qid, rs, out, max_docs, cutoffs) for qid, rs in topics.items()}

    if q is not None:
        _check_against_qrels(topics, ordered, q, out, max_unjudged)
    report.findings = out.done()
    return report


def _check_against_qrels(topics, ordered, q: Qrels, out: _Collector, max_unjudged: float) -> None:
    judged: dict[bytes, dict[bytes, int]] = {}
    first_line: dict[bytes, int] = {}
    for qid, docno, rel, line in zip(q.qid.tolist(), q.docno.tolist(), q.rel.tolist(), q.lineno.tolist()):
        judged.setdefault(qid, {})[docno] = rel
        first_line.setdefault(qid, line)
    for qid, rs in topics.items():
        if qid not in judged:
            out.add(rs[0].line, WARNING, "topic-not-in-qrels",
                    f"topic {_show(qid)} has no judgments in {q.name}; trec_eval ignores it")
    for qid, line in first_line.items():
        if qid not in topics:
            out.add(line, WARNING, "topic-not-in-run",
                    f"judged topic {_show(qid)} is missing from the run; it is skipped unless -c is given",
                    path=q.name)
    for qid, order in ordered.items():
        levels = judged.get(qid)
        if levels is None or not order:
            continue
        top = order[:UNJUDGED_DEPTH]
        # a negative level marks a pooled document nobody judged: unjudged as well
        unj = [r for r in top if levels.get(r.docno, -1) < 0]
        share = len(unj) / len(top)
        if unj and share > max_unjudged:
            out.add(unj[0].line, WARNING, "unjudged",
                    f"topic {_show(qid)}: {len(unj)} of the top {len(top)} documents are unjudged "
                    f"({math.floor(share * 100 + 0.5)}%); the scores of this topic are underestimates")
