"""What the server takes from the tools, in one place: the judgments split into
public and private topics, one stored run graded, the class's ``grades.csv``.

Every import of :mod:`trec_eval_py.tools` by the server is here (the tools are
its only source of grading rules: nothing here grades a run another way).

A run is graded as ``batch`` grades it (:func:`~trec_eval_py.tools.grading.leaderboard.build_leaderboard`
on that one run and the judgments of the public topics): validated first
against the whole judgments, with the findings ``trec_eval_py validate --qrels
QRELS RUN`` gives (a run with an error is not graded), then evaluated on the
public topics; a valid run is evaluated on the private topics too, by the
engine's :class:`~trec_eval_py.Evaluator`. Every judged topic of a part counts
(``-c``, as batch does): a run's public ``map`` is the one ``trec_eval_py -c -m
map QRELS.public RUN`` prints, where ``QRELS.public`` holds the lines of the
public topics only.
"""
from __future__ import annotations

import io
import random

# ---- the engine ----
from ..engine.measures import Kind, in_asked_order, measure_specs
from ..engine.parse.qrels import Qrels
from ..engine.parse.source import expand, read_source
from ..engine.pipeline import Evaluation, Evaluator, Options
from ..errors import InputError, UsageError

# ---- the tools (re-point these when the tools move) ----
from ..tools.grading.board import Entry, Leaderboard
from ..tools.grading.leaderboard import DEFAULT_MEASURES, build_leaderboard, default_sort_by, rank_entries
from ..tools.grading.report import class_medians, class_topic_stats, feedback_text, grades_csv
from ..tools.grading.students import Student, read_roster, same_name
from ..tools.grading.validate import Finding, load_qrels, read_topics
from ..tools.shared.submissions import Submission

__all__ = ["Grading", "Student", "Submission", "class_of", "grade_stored", "grades_csv_of", "init_worker",
           "read_roster", "same_name", "split_topics", "topic_ids"]


def _named(data: bytes, name: str):
    stream = io.BytesIO(data)
    stream.name = name
    return stream


def topic_ids(q) -> list[str]:
    """The judged topics of ``q`` (judgments read, or a qrels file), sorted."""
    if not isinstance(q, Qrels):
        q = load_qrels(q)
    return _ids(q)


def _ids(q: Qrels) -> list[str]:
    return sorted({t.decode("utf-8", "surrogateescape") for t in q.qid.tolist()})


def _part(q: Qrels, topics: set[str], name: str) -> Qrels:
    """The judgments of ``topics`` only (row order and line numbers kept)."""
    import numpy as np

    keep = np.array([t.decode("utf-8", "surrogateescape") in topics for t in q.qid.tolist()], dtype=bool)
    return Qrels(q.qid[keep], q.docno[keep], q.rel[keep], q.lineno[keep], name)


def split_topics(topics: list[str], public_file: str | None, share: float, seed: int) -> list[str]:
    """The public topics: those listed in ``public_file`` (the first field of each
    line, as ``validate --topics`` reads them), else ``share`` of ``topics`` drawn
    with ``random.Random(seed)`` (the same class, share and seed give the same split)."""
    if public_file is not None:
        listed = {t.decode("utf-8", "surrogateescape") for t in read_topics(public_file).first_line}
        unknown = sorted(listed - set(topics))
        if unknown:
            raise InputError(public_file, f"topic {unknown[0]!r} is not judged in the qrels")
        public = sorted(listed)
    else:
        if not 0 < share < 1:
            raise UsageError(f"--public-share must be between 0 and 1 (both excluded), not {share}")
        order = sorted(topics)
        random.Random(seed).shuffle(order)
        public = sorted(order[:max(1, round(share * len(order)))])
    if not public or len(public) == len(topics):
        raise UsageError("the split leaves no public or no private topic: list fewer public topics or more")
    return public


class Grading:
    """The judgments read once, split into public and private topics, and the
    evaluators of each part (``measures``: ``-m`` specs; batch's map and P.10 by
    default). It pickles (a worker process gets it once)."""

    def __init__(self, qrels, public: list[str], measures=None, **options) -> None:
        options.setdefault("complete", True)
        self.specs = measure_specs(measures) if measures else list(DEFAULT_MEASURES)
        self.options = options
        self.judgments = load_qrels(qrels, Options(**options))
        if not isinstance(self.judgments, Qrels):
            raise UsageError("serve reads judgments in the qrels format")
        self.topics = _ids(self.judgments)
        self.public = sorted(public)
        private = set(self.topics) - set(public)
        self.private = sorted(private)
        name = self.judgments.name
        self.public_evaluator = Evaluator(_part(self.judgments, set(public), f"{name} (public topics)"),
                                          self.specs, **options)
        self.private_evaluator = Evaluator(_part(self.judgments, private, f"{name} (private topics)"),
                                           self.specs, **options)
        shown = [c for c in in_asked_order(self.public_evaluator.columns) if c.measure.name != "runid"]
        #: the board's columns (numbers only) and the one that orders it
        self.columns = [c.name for c in shown if c.summary_kind is not Kind.STR]
        self.kinds = {c.name: c.summary_kind for c in shown if c.summary_kind is not Kind.STR}
        self.sort_by = default_sort_by(self.columns, self.kinds)

    def grade(self, path: str, name: str) -> dict:
        """Grade the run stored at ``path`` (called ``name`` in messages): ``error`` (None
        when graded), ``findings`` (validate's, each a dict with its one-line ``text``),
        ``runid``, ``public`` and ``private`` (``{column: value}``, None when not graded),
        ``answered`` (the public topics it answers) and ``per_topic`` (its values on each
        public topic: ``topics``, ``values`` by column, ``filled``, ``printable``)."""
        sub = Submission(name, path)
        # batch's grading on the public topics, validated against every judged topic
        board = build_leaderboard(self.public_evaluator.judgments, [sub], self.specs, jobs=1, per_topic=True,
                                  check_against=self.judgments, **self.options)
        e = board.entries[0]
        out: dict = {"error": e.error, "runid": e.runid if e.ok else "", "public": None, "private": None,
                     "findings": [dict(f.to_dict(), text=f.short(name)) for f in e.findings],
                     "answered": e.topics if e.ok else None}
        if e.ok:
            out["public"] = {c: _plain(e.result.summary.get(c)) for c in self.columns}
            ev = e.result
            out["per_topic"] = {"topics": list(ev.topics),
                                "values": {c: [_plain(v) for v in ev.values[c].tolist()] for c in self.columns
                                           if c in ev.values},
                                "filled": [bool(x) for x in ev.filled], "printable": [bool(x) for x in ev.printable]}
            data = expand(sub.read(), name)
            summary = self.private_evaluator.evaluate(_named(data, name), per_topic=False).summary
            out["private"] = {c: _plain(summary.get(c)) for c in self.columns}
        return out


    def feedback(self, runs: list[dict], which: int) -> str:
        """The batch report's feedback (``feedback/<run>.txt``: scores and rank against the
        class, topics answered, findings) of run ``which`` on the public board made of
        ``runs``: each a dict of ``id``, ``name`` (the run's), ``student`` and ``key``,
        ``runid``, ``error``, ``public`` (``{column: value}`` or None), ``answered``, ``per_topic``
        and ``findings`` (as :meth:`grade` gives them)."""
        import numpy as np

        columns = self.public_evaluator.columns
        entries, target = [], None
        for r in runs:
            findings = [Finding(f["path"], f["line"], f["severity"], f["code"], f["message"], f["count"],
                                tuple(f["lines"])) for f in r["findings"]]
            e = Entry(r["name"], findings=findings, topics_total=len(self.public),
                      student=Student(r["student"], r["key"]), error=r["error"])
            if r["public"] is not None:
                summary = [r["public"].get(c.name) for c in columns]
                per = r.get("per_topic") or {"topics": [], "values": {}, "filled": [], "printable": []}
                n = len(per["topics"])
                values = [np.array([np.nan if v is None else v for v in per["values"].get(c.name, [None] * n)],
                                   dtype=np.float64) for c in columns]
                e.evaluation = Evaluation(list(per["topics"]), columns, values, summary,
                                          np.array(per["filled"], dtype=bool), np.array(per["printable"], dtype=bool),
                                          r["runid"], self.public_evaluator.options)
                e.topics = r["answered"] or 0
            entries.append(e)
            if r["id"] == which:
                target = e
        if target is None:
            raise KeyError(which)
        board = Leaderboard(self.columns, self.kinds, sort_by=self.sort_by, topics_total=len(self.public),
                            complete=bool(self.options.get("complete", True)), qrels_name="public topics")
        board.entries = rank_entries(entries, self.sort_by, self.kinds)
        # each topic's class median and best, for the weakest topics (the columns with values per topic)
        stats = {c: class_topic_stats(board, c) for c in self.columns}
        return feedback_text(board, target, stats, class_medians(board))


def _plain(v):
    """A summary value as JSON keeps it (NaN as None)."""
    if v is None:
        return None
    v = float(v) if not isinstance(v, (int, str)) else v
    return None if isinstance(v, float) and v != v else v


# ---- in a worker process ----

_worker: list[Grading] = []


def init_worker(grading: Grading, limits, max_memory: int) -> None:
    """A worker's start: its grading, the read limits (size, line, seconds) and a
    bound on its address space (``max_memory`` bytes, 0: none), so a hostile run
    fails alone instead of taking the machine's memory."""
    import signal

    from ..engine.parse.source import use_read_limits

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server answers Ctrl-C, then stops its workers
    _worker[:] = [grading]
    use_read_limits(limits)
    if max_memory:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (max_memory, max_memory))


def grade_stored(path: str, name: str) -> dict:
    """:meth:`Grading.grade` in a worker process (see :func:`init_worker`)."""
    try:
        return _worker[0].grade(path, name)
    except MemoryError:
        return {"error": "the evaluation needed more memory than a submission may use", "findings": [],
                "runid": "", "public": None, "private": None}


# ---- the class ----


def class_of(roster_path: str) -> tuple[list[tuple[str, str]], object]:
    """The roster's students as (key, name) in its order, and the roster itself.

    The key is the cell of the first column whose header says *id*, *username*,
    *login* or *email* (``Student ID``, ``Username``), else the first cell; the
    name is the *name* column's (``Full name``), else *first* and *last name*
    together, else the key. Two rows with one key are an error: a sign-in link
    must name one student."""
    roster = read_roster(roster_path)
    head = [same_name(h) for h in roster.header]

    def col(*words: str) -> int | None:
        for w in words:
            for i, h in enumerate(head):
                if w in h.replace("_", " ").split() or h == w:
                    return i
        return None

    key_col = col("id", "identifier", "username", "login", "email", "e-mail")
    name_col = col("name") if col("full") is None else col("full")
    first, last = col("first"), col("last", "surname")
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for n, row in enumerate(roster.rows, 2):
        cells = list(row) + [""] * (len(roster.header) - len(row))
        key = cells[key_col if key_col is not None else 0].strip()
        if name_col is not None and cells[name_col].strip():
            name = cells[name_col].strip()
        elif first is not None and last is not None:
            name = f"{cells[first].strip()} {cells[last].strip()}".strip()
        else:
            name = key
        if not key:
            raise InputError(roster.name, "a student without an id", line=n)
        if same_name(key) in seen:
            raise InputError(roster.name, f"two rows for {key!r}", line=n)
        seen.add(same_name(key))
        out.append((key, name or key))
    return out, roster


def grades_csv_of(grading: Grading, roster_path: str, finals: list[tuple[str, str, str, str]]) -> str:
    """``grades.csv`` as ``batch --roster`` writes it, of the finals on the private topics:
    ``finals`` are (student key, student name, stored path, name) of each final run;
    a student's grade is their best final (batch's "best of N runs")."""
    if not finals:
        board = build_leaderboard(grading.private_evaluator.judgments, [], grading.specs, jobs=1,
                                  per_topic=False, roster=roster_path, **grading.options)
    else:
        subs = [Submission(name, path) for _, _, path, name in finals]
        board = build_leaderboard(grading.private_evaluator.judgments, subs, grading.specs, jobs=1,
                                  per_topic=False, roster=roster_path, **grading.options)
        who = {name: Student(sname, key) for key, sname, _, name in finals}
        for e in board.entries:
            e.student = who.get(e.path)
    return grades_csv(board)


def read_bytes(path: str) -> bytes:
    """A file of the teacher's (the judgments, a roster), within the read limits."""
    return read_source(path)
