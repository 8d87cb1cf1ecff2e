"""One run checked (:func:`validate_run`): a TREC run's checks as its pieces come
(regrouped through temporary files when its topics come back), a run in another
results format through its reader."""
from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from ...._versions import DEFAULT_COMPAT
from ....engine.join.keys import run_starts
from ....engine.join.order import RankRule
from ....engine.join.policy import POLICY
from ....engine.join.stream import whole_topics
from ....engine.parse import Qrels, Run
from ....engine.parse.source import source_name
from ....errors import InputError, UsageError
from ._checks import (
    _check_duplicates,
    _check_ranks,
    _check_ties,
    _check_too_many,
    _rank_key,
    _Ranks,
    _report_ranks,
    _report_ties,
    _report_too_many,
    _RunIds,
    _Tally,
    _topics,
)
from ._findings import (
    COMMON_CUTOFFS,
    DEFAULT_DOC_LIMIT,
    DEFAULT_MAX_PER_CHECK,
    DEFAULT_MAX_UNJUDGED,
    ERROR,
    Report,
    _Collector,
    selected_checks,
)
from ._lines import _Cols, _LineScan
from ._reader import _columns, _count_lines, _head, _RunBytes
from ._sniff import _check_bom, _line_ends, _not_text, _split_lines, sniff
from ._topics import (
    TopicSet,
    _check_topics,
    _check_unjudged,
    _in_topic_order,
    _join_lines,
    _joined_levels,
    _levels_at_top,
    _rel_lookup,
    _report_unjudged,
    _top_levels,
    _Unjudged,
    load_qrels,
    qrels_topics,
    read_topics,
)


def _doc_limit(doc_limit: int, max_docs: int | None, stacklevel: int = 3) -> int:
    """``doc_limit``, or the deprecated ``max_docs`` when that is given (with a warning)."""
    if max_docs is None:
        return doc_limit
    import warnings

    warnings.warn("max_docs= of validate_run and validate_runs is now doc_limit= (max_docs is -M, the "
                  "evaluation's depth, everywhere else)", DeprecationWarning, stacklevel=stacklevel)
    return max_docs


def validate_run(
    run,
    qrels=None,
    *,
    topics=None,
    name: str | None = None,
    doc_limit: int = DEFAULT_DOC_LIMIT,
    max_docs: int | None = None,
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
    rows: list | None = None,
    join: Callable | None = None,
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
    checks alone. ``doc_limit`` (0: no limit) bounds the documents per topic;
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
    which line to leave out (:attr:`Report.skipped_header`). ``rows`` (a list):
    when the file was checked whole and every line is a plain result, the run
    as the evaluation reads it (a :class:`~trec_eval_py.engine.parse.Run`, same
    columns, line numbers and run id) is appended to it, so that an evaluation
    of the same run reads nothing again (``batch``). ``join`` (the evaluation's
    :meth:`~trec_eval_py.engine.pipeline.Evaluator.join`, of an evaluator of
    ``qrels``): the checks of judged topics read that join, and, the run appended
    to ``rows``, the join is appended after it, for the evaluation to measure
    without joining again. ``max_docs`` is
    ``doc_limit``'s former name, deprecated (``max_docs`` is ``-M``'s, the
    evaluation's depth, elsewhere).
    """
    doc_limit = _doc_limit(doc_limit, max_docs)
    if doc_limit < 0:
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
    checks = functools.partial(_check_trec, path=path, q=q, ts=ts, rule=rule, compat=compat, doc_limit=doc_limit,
                               max_unjudged=max_unjudged, cutoffs=cutoffs, on=on, max_per_check=max_per_check,
                               skip_header=skip_header, rows=rows, join=join)
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
        buckets = POLICY.spill_files(source.size())
        return checks(first, more, regroup=buckets)


class _Interleaved(Exception):
    """A topic's lines are not together in the file (it comes back after another)."""


def _check_trec(first: bytes, more: Iterator | None, *, path, q, ts, rule, compat, doc_limit, max_unjudged,
                cutoffs, on, max_per_check, skip_header, regroup: int = 0, rows: list | None = None,
                join: Callable | None = None) -> Report:
    """The checks of a TREC run: ``first`` is the file whole (``more`` None) or its first
    pieces, ``more`` the pieces after them, checked as they come (the topics
    as they complete). Raises :class:`_Interleaved` when the file, read in pieces,
    turns out to list a topic in two places; with ``regroup`` (a number of
    temporary files) the topics are instead checked once every line is read,
    regrouped through that many files (:func:`_check_regrouped`). ``rows``, ``join``:
    see :func:`validate_run`."""
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
    checks = _RunChecks(out, path, q, ts, rule, compat, doc_limit, max_unjudged, cutoffs, whole=more is None,
                        regrouped=bool(regroup) and more is not None)
    if checks.regrouped:
        assert more is not None
        _check_regrouped(_columns(itertools.chain((first,), more), scan, path, report), scan, checks, regroup)
    elif more is None:
        plain = [True]
        parts = list(_columns((first,), scan, path, report, plain))
        rest = scan.finish()
        cols = _Cols.joined(parts + [rest], path)
        checks.rows(cols)
        # every line split by the readers' own scanner, as the evaluation splits it: the
        # evaluation reads these columns (the run id is the last line's, as it takes it)
        # and the join the checks read, when the file holds nothing else
        shared = rows is not None and plain[0] and not len(rest) and len(cols)
        run = cols.as_run(path, bytes(cols.runid[-1]).decode("utf-8", "surrogateescape")) if len(cols) else None
        if len(cols):
            checks.topics(cols, run, join)
        if shared:
            assert rows is not None
            rows.append(run)
            if checks.shared_join is not None:
                rows.append(checks.shared_join)
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
    from ....engine.join.stream import spill_by_topic

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

    def __init__(self, out: _Collector, path: str, q, ts, rule: RankRule, compat: str, doc_limit: int,
                 max_unjudged: float, cutoffs: tuple, *, whole: bool, regrouped: bool = False):
        self.out, self.path, self.q, self.ts, self.rule, self.compat = out, path, q, ts, rule, compat
        self.doc_limit, self.max_unjudged, self.cutoffs, self.whole = doc_limit, max_unjudged, cutoffs, whole
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
        #: the evaluation's join the checks read (see validate_run's ``join``), else None
        self.shared_join = None

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

    def topics(self, c: _Cols, run: Run | None = None, join: Callable | None = None) -> None:
        """The lines of complete topics (every line of each), in file order; ``run``,
        the lines as the evaluation reads them, and ``join``, its join (see
        :func:`validate_run`), when ``c`` is the file whole."""
        topic, qids, first = _topics(c.qid)
        if not self.regrouped:
            names = qids.tolist()
            if not self.whole and (len(names) != len(run_starts(c.qid)) or
                                   any(n in self.topic_lines for n in names)):
                raise _Interleaved()
            self._first_seen(names, c.line[first].tolist())
        # each topic's first line: where the file checked whole finds a topic's example first
        first_line = c.line[first]
        q = self._judgments(qids)
        # the evaluation's join of the lines with their judgments (None: it found a docno
        # listed twice, or some rank is no integer): the checks of the judged topics read
        # their ranking and levels there instead of ranking and joining on their own
        joined = None
        if q is not None:
            joined, self.shared_join = _join_lines(c, q, self.compat, self.path,
                                                   join if q is self.q else None, run)
        written = None
        if joined is None:
            keep = _check_duplicates(c, topic, qids, self.duplicates)
            # the rank column as the student wrote it, every line: a line dropped as a duplicate
            # still holds its rank (else "rank 6 is missing" where line 6 holds rank 6)
            if not keep.all():
                written = (c, topic)
                c, topic = c.take(keep), topic[keep]
        _check_too_many(c, topic, qids, self.doc_limit, self.too_many, first_line)
        key = _rank_key(c, self.rule)
        _check_ranks(c, topic, qids, key, self.ranks, first_line, written)
        # every line in the rule's order: made only where the join does not give the ranking
        perm = None if joined is not None else self.rule.order_rows(topic, c.as_run())
        if self.out.wants("tie"):
            if joined is not None:
                _check_ties(c, topic, qids, _in_topic_order(joined, topic), key, _joined_levels(joined, len(c)),
                            self.cutoffs, self.ties_judged, first_line)
            elif q is not None:
                assert perm is not None
                _check_ties(c, topic, qids, perm, key, _rel_lookup(c, q, self.compat, self.path),
                            self.cutoffs, self.ties_judged, first_line)
            if not (self.common and self.judges):  # (else the ties without judgments are not reported)
                if perm is None:
                    perm = self.rule.order_rows(topic, c.as_run())
                _check_ties(c, topic, qids, perm, key, None, self.cutoffs, self.ties_cut, first_line)
        if joined is not None:
            _check_unjudged(c, _top_levels(joined), self.max_unjudged, self.unjudged)
        elif q is not None:
            assert perm is not None
            _check_unjudged(c, _levels_at_top(c, topic, perm, q, self.compat, self.path), self.max_unjudged,
                            self.unjudged)

    def _judgments(self, qids: np.ndarray):
        """The judgments of topics ``qids`` when they are judged documents; None when
        none is (or, the file whole, when the run shares no topic with ``ts``)."""
        if not self.judges:
            return None
        if self.whole:
            return self.q if self.common else None
        if self._subset is None:
            from ....engine.join.stream import topic_subsets

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
        _report_too_many(self.too_many, len(self.topic_lines), self.doc_limit, out)
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
    from ....engine.pipeline import Options, read_results

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
    from ....engine.inputs import results_format as lookup

    return lookup(results_format).requires or "qrels"


def unreadable_report(name: str, reason: str, line: int | None = None) -> Report:
    """The report of a file that cannot be read at all (one ``unreadable`` error)."""
    rep = Report(name)
    out = _Collector(name, 0)
    out.add(line, ERROR, "unreadable", reason)
    out.done(rep)
    return rep
