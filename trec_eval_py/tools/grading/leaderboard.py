"""Many runs against one set of judgments: a leaderboard fit for grading a class.

The judgments are read once and shared by every run. Each run goes through
the same :func:`~trec_eval_py.engine.pipeline.evaluate` as the main command, so
its numbers are the ones ``trec_eval_py -c QRELS RUN`` prints (or, with
``complete=False``, ``trec_eval_py QRELS RUN``).

One verdict: each run is first checked by
:func:`~trec_eval_py.tools.grading.validate.validate_run` with the settings ``validate``
would use, and **a run with an error is not graded**: its row carries the
first error (the real problem: a missing column, a header line, topic ids with
a prefix...) and the findings, exactly as ``validate --qrels`` prints them.
Warnings and notes travel with a graded run. Checks are turned off with
``ignore``/``select`` in both commands alike; ``skip_header`` grades a run
whose first line is a header without that line (a warning says so). A run
the validator passes but the evaluation refuses gets an ``unreadable`` error
with the reader's reason. Without the check (``check=False``) a run is graded
if the evaluation reads it.

Fairness rules:

* every judged topic counts by default: a topic a run lacks is an empty
  ranking and scores 0 (as ``-c`` and ``compare`` do), so leaving out hard
  topics does not pay; ``complete=False`` averages over the topics a run
  answers, as trec_eval does by default;
* each row says how many judged topics the run answers (the validator's
  ``topic-not-in-run`` warning names the missing ones);
* rows are ordered by :func:`default_sort_by` unless told otherwise, best
  first, runs whose value is undefined (NaN) after those that have one;
  exactly equal values share a rank and keep the order of their names;
  failed runs come last.

Runs are evaluated in ``jobs`` worker processes; each process reads the
qrels once. Stopping the grading (Ctrl-C, ``kill``) stops the workers too, and
their temporary files go with them.

Submissions are found as :mod:`~trec_eval_py.tools.shared.submissions` says (links,
pipes, devices, hidden files and files that are no run, such as a README,
are not read): what was left out is the board's ``skipped`` list. Students
are named from the submissions' names (:mod:`~trec_eval_py.tools.grading.students`).
"""
from __future__ import annotations

import contextlib
import io
import os
import re

import numpy as np

from ..._record import replace
from ...engine.inputs import judgment_format
from ...engine.join.keys import distinct_sorted
from ...engine.measures import Kind, in_asked_order, measure_specs, registry
from ...engine.parse.source import bound_hint, expand, read_limits
from ...engine.pipeline import Evaluation, Options, measure_columns
from ...errors import InputError, TrecEvalError, UsageError
from ..shared.submissions import Skipped, Submission, close_archives, find_submissions, scan_submissions
from .board import (
    BOARD_FIELDS,
    LEADERBOARD_FORMATS,
    Entry,
    Leaderboard,
    leaderboard_json,
    leaderboard_table,
    render_leaderboard,
)
from .validate import (
    Finding,
    blank_line,
    checks_read,
    load_qrels,
    qrels_topics,
    selected_checks,
    unreadable_report,
    validate_run,
)

#: measures of a leaderboard when none are named
DEFAULT_MEASURES = ("map", "P.10")
#: the curve kept for each run (for the report): trec_eval's interpolated precision at
#: 11 recall levels, averaged as evaluate() averages it (the plot's "pr" figure draws the same)
CURVE = "iprec_at_recall"


def expand_run_paths(paths) -> list[str]:
    """Names of the submissions ``paths`` stand for (see
    :func:`~trec_eval_py.tools.shared.submissions.find_submissions`)."""
    return [s.name for s in find_submissions(paths)]


def default_sort_by(columns: list[str], kinds: dict[str, Kind]) -> str | None:
    """The measure that orders a board by default.

    ``map`` when it is on the board, else the first real-valued measure (not a
    count such as ``num_ret``, not the run id), else the first count other than
    ``num_q`` (the number of topics says nothing about quality); None if none is.
    """
    if "map" in columns:
        return "map"
    for c in columns:
        if kinds[c] is Kind.FLOAT:
            return c
    for c in columns:
        if kinds[c] is Kind.INT and c != "num_q":
            return c
    return None


def _pick_sort_by(sort_by: str, columns: list[str], opts: Options) -> str:
    if sort_by in columns:
        return sort_by
    try:  # a -m spec such as P.10 names the column P_10
        selected = registry().resolve([sort_by], opts.compat, opts.measures_for, given=opts.rel_format)
        names = [n for s in selected for n in s.names]
    except TrecEvalError:
        names = []
    if len(names) == 1 and names[0] in columns:
        return names[0]
    raise UsageError(f"--sort-by {sort_by}: not a measure on the board ({', '.join(columns)}); add it with -m")


def _reason(e: TrecEvalError, names: tuple[str, ...], hide: bool = False) -> str:
    if isinstance(e, InputError) and (e.path in names or hide):
        msg = e.reason if e.line is None else f"line {e.line}: {e.reason}"
        if e.path not in names:
            msg = f"{e.path}: {msg}"
        if e.text is not None and not hide:  # a quoted line may hold any docno
            shown = e.text if len(e.text) <= 60 else e.text[:57] + "..."
            msg += f": {shown!r}"
        return msg
    return str(e)


def _sort_key(kind: Kind, value):
    if kind is Kind.STR:
        return (0, str(value))
    v = float(value)
    return (1, 0.0) if v != v else (0, -v)  # best first; NaN last


class _Grader:
    """What grading a run needs, made once by the board and shipped as it is to
    each worker process or dask worker (it pickles: its evaluators are resolved
    again there, once): one :class:`Evaluator` of the board's measures (and the
    curve's, when kept: one evaluation a run gives the board, the student's page
    and the curve), the validator's settings and the judged topics, and what
    hiding the judgments keeps public. A bad measure or option is an error here,
    before any run is graded."""

    def __init__(self, q, specs, options, check, curve, hide=False, keep=True, checked_against=None) -> None:
        from ...engine.pipeline import Evaluator

        self.board_specs = len(specs)  # the columns asked for after these are the curve's
        self.levels = None
        self.curve_apart = None  # the curve's own evaluator, when the board's measures hold its measure
        extra = []
        if curve:
            opts = Options(**options)
            reg = registry()
            try:
                (sel,) = reg.resolve([CURVE], opts.compat, opts.measures_for, given=opts.rel_format)
                self.levels = np.array(sel.params.values, dtype=np.float64)
            except TrecEvalError:  # judgments the curve's measure does not read: no curve
                self.levels = None
            board = reg.resolve(list(specs), opts.compat, opts.measures_for, given=opts.rel_format)
            if self.levels is not None and any(s.measure.name == CURVE for s in board):
                # asked for by the board, maybe with other levels (the first spec's parameters win)
                self.curve_apart = Evaluator(q, [CURVE], **options)
            elif self.levels is not None:
                extra = [CURVE]
        self.evaluator = Evaluator(q, list(specs) + extra, **options)
        self.check = check
        self.topics = None
        #: the judgments the validator checks against (None: those evaluated)
        self.checked_against = checked_against
        if check is not None:
            try:
                self.topics = qrels_topics(q if checked_against is None else checked_against)  # once, not once per run
            except AttributeError:  # judgments without per-row topic ids
                self.topics = None
        self.hide = hide
        self.keep = keep
        self.public = _public_words(q) if hide else frozenset()


#: a pool worker's grader, set by its initializer (a process grades for one board)
_pool_grader: list[_Grader] = []


def _init_worker(grader: _Grader, limits=None, pool=False) -> None:
    from ...engine.parse.source import use_read_limits

    if pool:
        _pool_grader[:] = [grader]
    if limits is not None:
        use_read_limits(limits)
    if pool:  # a worker: the parent alone answers Ctrl-C, and stops the workers with SIGTERM
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, _worker_stop)


def _grade_task(sub: Submission, shared: tuple) -> dict:
    """:func:`_grade` as one task of a dask cluster. ``shared`` (the grader and the
    read limits) is shipped to each worker once and deserialised there once: every
    task of a board gets the same object, and grades with it, whatever other
    board the worker's other threads grade for."""
    grader, limits = shared
    _init_worker(grader, limits)
    return _grade(sub, grader)


class _Stop(BaseException):
    """SIGTERM reached a worker while it grades: unwind (temporary files go), then exit."""


_IN_TASK = [False]


def _worker_stop(signum, frame) -> None:
    if _IN_TASK[0]:
        raise _Stop()
    os._exit(128 + signum)


def _grade_in_worker(sub: Submission) -> dict:
    _IN_TASK[0] = True
    try:
        return _grade(sub, _pool_grader[0])
    except _Stop:
        from ...engine.join.scratch import remove_scratch

        remove_scratch()  # a reader thread may still hold its temporary folder
        os._exit(143)
    finally:
        _IN_TASK[0] = False


def _named(data: bytes, name: str):
    stream = io.BytesIO(data)
    stream.name = name
    return stream


def _grade(sub: Submission, g: _Grader) -> dict:
    """Validate and evaluate one submission with ``g``; plain data only (it crosses processes).

    The submission is read once (see :meth:`Submission.read`), and the validator
    and the one evaluation (the board's measures and the curve) read those bytes.
    Grading it may take ``max_seconds`` of the read limits in force (see
    :func:`_timed`); a slower one is an error row."""
    try:
        with _timed(read_limits().max_seconds):
            out = _grade_unhidden(sub, g)
    except _OverTime as e:
        out = {"error": f"took longer than {e.seconds:g} s (raise the bound with {bound_hint('max_seconds')})",
               "findings": [], "curve": None}
    if g.hide:
        out["error"] = None if out["error"] is None else hide_quoted(out["error"], g.public)
        out["findings"] = [replace(f, message=hide_quoted(f.message, g.public)) for f in out["findings"]]
    return out


class _OverTime(BaseException):
    """Grading a submission took longer than its bound (a BaseException: no
    ``except Exception`` of the grading turns it into another error)."""

    def __init__(self, seconds: float):
        super().__init__(seconds)
        self.seconds = seconds


@contextlib.contextmanager
def _timed(seconds: float):
    """Raise :class:`_OverTime` in the block once it has run ``seconds`` (wall
    time; 0: no bound), with a timer of this process (SIGALRM). Only the main
    thread hears signals: elsewhere (a dask worker's task), or when the program
    runs a timer of its own, the block is not bounded."""
    import signal
    import threading

    if (not seconds or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_REAL)[0]):
        yield
        return
    armed = [True]

    def over(signum, frame) -> None:
        if armed[0]:  # not once the block is over: the signal may be handled a moment late
            armed[0] = False
            raise _OverTime(seconds)

    old = signal.signal(signal.SIGALRM, over)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _where(f: Finding) -> str:
    return f.message if f.line is None else f"line {f.line}: {f.message}"


def _grade_unhidden(sub: Submission, g: _Grader) -> dict:
    options = g.evaluator.options
    out: dict = {"error": None, "findings": [], "curve": None}
    try:
        # decompressed once: the validator and the evaluation read the same bytes
        data = expand(sub.read(), sub.name)
    except TrecEvalError as e:
        out["error"] = _reason(e, (sub.name, sub.path), g.hide)
        out["findings"] = unreadable_report(sub.name, out["error"]).findings
        return out
    # the run as the validator read it, when the evaluation can take it as read
    # (a plain TREC file checked whole; the ranking ignores the rank column)
    rows: list | None = [] if options.context.order != "rank" else None
    if g.check is not None:
        try:
            # with the settings validate uses; tie findings follow the ranking rule evaluated.
            # Hidden judgments: only their topic ids are checked against (no unjudged counts,
            # no ties told apart by judgments: they would say which documents are judged)
            judged = None if g.hide else (g.evaluator.judgments if g.checked_against is None else g.checked_against)
            # checked against the evaluation's judgments, the checks read the evaluation's
            # join, and the evaluation measures it (one read, one join: see validate_run);
            # not a join the checks cannot read (-M, -J): it would be made for nothing
            join = (g.evaluator.join if judged is not None and g.checked_against is None
                    and checks_read(options.context, options.compat) else None)
            report = validate_run(sub.name, judged, topics=g.topics, name=sub.name, data=data,
                                  compat=options.compat, rel_format=options.rel_format,
                                  results_format=options.results_format, rows=rows, join=join, **g.check)
        except TrecEvalError as e:
            report = unreadable_report(sub.name, _reason(e, (sub.name, sub.path), g.hide))
        out["findings"] = report.findings
        first = report.hint()
        if first is not None:  # validate's verdict: a run with an error is not graded
            out["error"] = _where(first)
            return out
        if report.skipped_header is not None:
            data = blank_line(data, report.skipped_header)

    try:
        # the join made for the checks (after the run in rows), else the run as read
        whole = g.evaluator.evaluate(rows[-1] if rows else _named(data, sub.name))
    except TrecEvalError as e:
        out["error"] = _reason(e, (sub.name, sub.path), g.hide)
        out["findings"] = out["findings"] + unreadable_report(sub.name, out["error"]).findings
        return out
    except Exception as e:  # a bug must not take the class down; the row says what happened
        out["error"] = f"internal error ({type(e).__name__}: {e})"
        return out
    ev = whole.of_asked(range(g.board_specs))
    filled = np.asarray(ev.filled, dtype=bool)
    out.update(summary=ev.column_summary, runid=ev.runid, answered=int(np.count_nonzero(~filled)))
    if g.keep:  # per-topic values only for what shows them (a report, --per-topic)
        out.update(topics=list(ev.topics), values=ev.counted_values(), filled=ev.filled, printable=ev.printable)
    if g.levels is not None:
        # (levels, 2): each recall level of CURVE and the run's summary there
        try:
            curve = (whole.of_asked([g.board_specs]) if g.curve_apart is None
                     else g.curve_apart.evaluate(rows[0] if rows else _named(data, sub.name)))
            out["curve"] = np.column_stack([g.levels, np.array(curve.column_summary, dtype=np.float64)])
        except TrecEvalError:
            pass
    return out


def _run_all(subs: list[Submission], init_args: tuple, jobs: int, progress, client=None) -> list[dict]:
    """Every submission graded (``init_args``: the :class:`_Grader` and the read limits)
    here, in ``jobs`` worker processes, or on the cluster of ``client``."""
    if client is not None:
        return _run_on(client, subs, init_args, progress)
    if jobs <= 1 or len(subs) <= 1:
        _init_worker(*init_args)
        results: list = []
        try:
            for i, s in enumerate(subs):
                results.append(_grade(s, init_args[0]))
                if progress:
                    progress(i + 1, len(subs), s.name)
        finally:
            close_archives()
        return results
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    results = [None] * len(subs)
    others = set(multiprocessing.active_children())  # children that are not this pool's workers
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(subs)), initializer=_init_worker,
                               initargs=(*init_args, True))
    try:
        futures = {pool.submit(_grade_in_worker, s): i for i, s in enumerate(subs)}
        for done, fut in enumerate(as_completed(futures), 1):
            i = futures[fut]
            try:
                results[i] = fut.result()
            except Exception as e:  # a worker that died (out of memory, killed)
                results[i] = {"error": f"internal error ({type(e).__name__}: {e})", "findings": [], "curve": None}
            if progress:
                progress(done, len(subs), subs[i].name)
    except BaseException:  # Ctrl-C, SIGTERM, a failing progress callback: no worker outlives this
        _stop_workers(pool, others)
        raise
    pool.shutdown(wait=True)
    return results


def _stop_workers(pool, others: set) -> None:
    """End the pool's workers now: each gets SIGTERM (it deletes its temporary files and
    exits), and SIGKILL if it is still there after a few seconds."""
    import multiprocessing

    pool.shutdown(wait=False, cancel_futures=True)
    workers = [p for p in multiprocessing.active_children() if p not in others]
    for p in workers:
        p.terminate()
    for p in workers:
        p.join(5)
        if p.is_alive():
            p.kill()
            p.join(5)


def _run_on(client, subs: list[Submission], init_args: tuple, progress) -> list[dict]:
    """One task per run on a dask cluster; the judgments are shipped to each worker once."""
    from ..shared.cluster import map_on_cluster

    def failed(i: int, e: Exception) -> dict:  # a run that failed on every worker that tried it
        return {"error": f"internal error ({type(e).__name__}: {e})", "findings": [], "curve": None}

    def heard(done: int, total: int, i: int) -> None:
        if progress:
            progress(done, total, subs[i].name)

    return map_on_cluster(client, _grade_task, subs, init_args, progress=heard, on_error=failed)


def _qrels_topic_ids(q) -> list[str]:
    return [t.decode("utf-8", "surrogateescape") for t in distinct_sorted(q.qid).tolist()]


#: a value quoted in a message as Python quotes it (repr): not inside a word (trec_eval's)
_QUOTED = re.compile(r"""(?<!\w)(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?!\w)""")
#: what a hidden value reads as
HIDDEN = "[hidden]"


def _public_words(q) -> frozenset:
    """What may stay quoted when judgments are hidden: the judged topics' ids."""
    try:
        return frozenset(_qrels_topic_ids(q))
    except AttributeError:  # judgments without per-row topic ids: nothing stays quoted
        return frozenset()


def hide_quoted(text: str, public=frozenset()) -> str:
    """``text`` with every quoted value replaced by ``[hidden]``, unless it is one of ``public``.

    Messages quote a document (``'DOC12'``), a field or a whole line of the
    run; when judgments are hidden from a class, no document may show,
    judged or not: replacing only the judged ones would tell a probe run
    which of its documents are judged. So every quoted value goes, whatever
    it holds (a quoted line with tabs included), except topic ids of the
    judgments, which the class knows.
    """
    def one(m):
        try:
            import ast

            inner = ast.literal_eval(m.group(0))
        except (ValueError, SyntaxError):
            inner = None
        return m.group(0) if isinstance(inner, str) and inner in public else HIDDEN

    return _QUOTED.sub(one, text)


def redactor(q):
    """A function that hides every quoted value in a text but the topic ids of ``q``
    (see :func:`hide_quoted`): what ``hide_judgments`` applies to every message."""
    public = _public_words(q)
    return lambda text: hide_quoted(text, public)


def _submissions(runs, exclude) -> tuple[list[Submission], list[Skipped]]:
    """The submissions ``runs`` stand for (paths, or :class:`Submission` values taken as they are)."""
    if isinstance(runs, (str, os.PathLike)):
        runs = [runs]
    if not any(isinstance(r, Submission) for r in runs):
        found = scan_submissions(runs, exclude=exclude)  # together: one name, one grade per file
        return found.submissions, found.skipped
    subs: list[Submission] = []
    skipped: list[Skipped] = []
    for r in runs:
        if isinstance(r, Submission):
            subs.append(r)
        else:
            found = scan_submissions([r], exclude=exclude)
            subs += found.submissions
            skipped += found.skipped
    return subs, skipped


def build_leaderboard(qrels, runs, measures: list[str] | None = None, *, sort_by: str | None = None,
                      jobs: int = 1, check: bool = True, curves: bool = False,
                      hide_judgments: bool = False, progress=None, exclude=(), ignore=(), select=(),
                      skip_header: bool = False, doc_limit: int | None = None, max_unjudged: float | None = None,
                      student_from: str | None = None, pick: str = "all", roster=None,
                      per_topic: bool = True, client=None, check_against=None,
                      **options) -> Leaderboard:
    """Evaluate every run against ``qrels`` and rank them (``trec_eval_py batch``).

    ``qrels`` is anything the judgment format ``rel_format`` (``-R``, qrels by
    default) reads (an unreadable file is an error for the whole board); ``runs`` are paths
    (files, folders walked recursively, ``.zip`` archives: see
    :mod:`~trec_eval_py.tools.shared.submissions`) or :class:`Submission` values.
    ``measures`` are ``-m`` specs (default map and P.10); ``sort_by`` a column
    (default :func:`default_sort_by`). ``jobs`` worker processes evaluate the
    runs; ``check`` validates each run too; ``curves`` keeps each run's
    interpolated precision/recall curve; ``hide_judgments`` hides every quoted
    value but topic ids in every message (see :func:`hide_quoted`) and leaves out
    the counts of unjudged documents; ``progress(done, total, name)`` is called
    as runs finish; ``exclude`` names files and folders never taken as runs
    (the command's own outputs). ``options`` are the fields of
    :class:`~trec_eval_py.engine.pipeline.Options` (``rel_format``,
    ``results_format``, ``valid_codes``... as for ``evaluate``); ``complete``
    defaults to true (every judged topic counts). ``check`` validates each run
    first in its results format (see :func:`~trec_eval_py.tools.grading.validate.validate_run`), with
    ``ignore``, ``select``, ``skip_header``, ``doc_limit`` (as in validate: ``-M`` is
    the evaluation's) and ``max_unjudged`` as there;
    a run with an error is not graded. ``student_from`` names the students
    (:func:`~trec_eval_py.tools.grading.students.compile_pattern`: ``auto``, ``moodle``,
    ``canvas``, ``blackboard``, ``folder`` or a regular expression), ``pick``
    (``all``, ``latest``) says which of a student's files are graded, ``roster``
    (a CSV, :func:`~trec_eval_py.tools.grading.students.read_roster`) lists the class
    for grades.csv.
    ``per_topic=False`` keeps each run's summary only (what the board prints
    without ``--per-topic`` or a report), not its per-topic values.
    ``check_against`` (judgments read, e.g. by :func:`~trec_eval_py.tools.grading.validate.load_qrels`)
    are what the validator checks each run against instead of ``qrels`` (a board of some
    of the judged topics whose findings are still those of ``validate --qrels`` on them all).
    ``client`` (a ``dask.distributed.Client``) grades the runs on its cluster,
    one task per run, the judgments shipped to each worker once.

    Parameters
    ----------
    qrels
        The judgments (see above).
    runs : iterable
        Paths of files, folders or ``.zip`` archives, or :class:`Submission` values.
    measures : list of str, optional
        ``-m`` specs; default map and P.10.
    sort_by : str, optional
        The column that orders the board.
    jobs, check, curves, hide_judgments, progress, exclude
        How runs are found, validated and evaluated (see above).
    ignore, select, skip_header, doc_limit, max_unjudged
        The validation's settings (see above).
    student_from, pick, roster
        Who the students are, which of their files are graded (see above).
    per_topic, client
        Keep per-topic values; grade on a dask cluster (see above).
    **options
        The fields of :class:`~trec_eval_py.engine.pipeline.Options`.

    Returns
    -------
    Leaderboard
        One :class:`Entry` per run found, in board order: its rank, evaluation,
        validation findings, or the error that kept it from being graded (a
        bad run is an entry, not an exception).

    Raises
    ------
    UsageError
        A bad option (``jobs`` below 1, an unknown check, sort column or
        student pattern).
    MeasureError
        An unknown measure, before any run is graded.
    InputError
        Unreadable judgments.

    Examples
    --------
    >>> from trec_eval_py.tools.grading.leaderboard import build_leaderboard
    >>> board = build_leaderboard("examples/qrels.txt", ["examples/run_a.txt", "examples/run_b.txt"], ["map", "P.10"])
    >>> board.sort_by, board.columns
    ('map', ['map', 'P_10'])
    >>> [(e.rank, e.path, round(e.evaluation.summary["map"], 4)) for e in board.entries]
    [(1, 'examples/run_a.txt', 0.1785), (2, 'examples/run_b.txt', 0.1621)]
    >>> [f.code for f in board.entries[1].findings]  # validated first: warnings, still graded
    ['score-order', 'tie']
    """
    from .students import compile_pattern, name_students, read_roster
    from .students import pick as pick_runs

    specs = measure_specs(measures) if measures else list(DEFAULT_MEASURES)
    options = dict(options)
    options.setdefault("complete", True)
    opts = Options(measures=tuple(specs), **options)
    reg = registry()
    # unknown measures fail here, once
    selected = reg.resolve(specs, opts.compat, opts.measures_for, given=opts.rel_format)
    eval_columns = measure_columns(selected)  # evaluate()'s own: the outputs' real indices, printed names
    # in the order asked for, as every tool shows them; the run id has its own column
    shown = [c for c in in_asked_order(eval_columns) if c.measure.name != "runid"]
    columns = [c.name for c in shown]
    kinds = {c.name: c.summary_kind for c in shown}
    key = _pick_sort_by(sort_by, columns, opts) if sort_by else default_sort_by(columns, kinds)
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    settings = None
    if check:
        selected_checks(ignore, select)  # an unknown or blocking check is said before any grading
        settings = {"ignore": tuple(ignore), "select": tuple(select), "skip_header": skip_header}
        if doc_limit is not None:
            settings["doc_limit"] = doc_limit
        if max_unjudged is not None:
            settings["max_unjudged"] = max_unjudged
    pattern = compile_pattern(student_from)
    class_list = read_roster(roster) if roster is not None else None

    q = load_qrels(qrels, opts)  # in the -R format, read once for every run
    total = judgment_format(opts.rel_format).totals(q)[0]
    subs, skipped = _submissions(runs, exclude)
    students = name_students(subs, pattern)
    subs, not_picked = pick_runs(subs, students, pick)
    skipped = skipped + not_picked
    from ...engine.parse.source import read_limits

    # made here: a bad measure or option is one line before any run is graded
    grader = _Grader(q, specs, options, settings, curves, hide_judgments, per_topic, check_against)
    results = _run_all(subs, (grader, read_limits()), jobs, progress, client)

    board = Leaderboard(columns, kinds, sort_by=key, topics_total=total, complete=opts.complete,
                        qrels_name=q.name, hide_judgments=hide_judgments, skipped=skipped, roster=class_list)
    entries = []
    for sub, res in zip(subs, results):
        e = Entry(sub.name, findings=list(res["findings"]), topics_total=total, student=students.get(sub.name))
        if res["error"] is not None:
            e.error = res["error"]
        else:
            if "values" in res:
                e.evaluation = Evaluation(res["topics"], eval_columns, res["values"], res["summary"],
                                          np.asarray(res["filled"], dtype=bool),
                                          np.asarray(res["printable"], dtype=bool), res["runid"], opts)
            else:  # the summary only
                e.evaluation = Evaluation([], eval_columns, [np.zeros(0) for _ in eval_columns], res["summary"],
                                          np.zeros(0, bool), np.zeros(0, bool), res["runid"], opts)
            e.topics = res["answered"]
            e.curve = res["curve"]
        entries.append(e)

    board.entries = rank_entries(entries, key, kinds)
    return board


def rank_entries(entries: list[Entry], key: str | None, kinds: dict[str, Kind]) -> list[Entry]:
    """``entries`` in board order, each graded one's :attr:`~Entry.rank` set: by column
    ``key``, best first, undefined values (NaN) last; equal values share a rank and keep
    their order (None: no column orders them, all share rank 1); runs not graded last."""
    good = [e for e in entries if e.ok]
    bad = [e for e in entries if not e.ok]
    if key is not None:
        kind = kinds[key]
        good.sort(key=lambda e: _sort_key(kind, e.result.summary.get(key, 0)))

    def value(e):
        return e.result.summary.get(key) if key is not None else None

    for i, e in enumerate(good):
        tie = i > 0 and (key is None or value(e) == value(good[i - 1]))
        e.rank = good[i - 1].rank if tie else i + 1
    return good + bad


__all__ = ["Entry", "Leaderboard", "build_leaderboard", "default_sort_by", "render_leaderboard",
           "leaderboard_json", "leaderboard_table", "BOARD_FIELDS", "expand_run_paths", "hide_quoted", "redactor",
           "LEADERBOARD_FORMATS", "DEFAULT_MEASURES", "HIDDEN", "rank_entries"]
