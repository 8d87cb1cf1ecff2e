"""Many runs against one set of judgments: a leaderboard fit for grading a class.

The judgments are read once and shared by every run. Each run goes through
the same :func:`~trec_eval_py.engine.pipeline.evaluate` as the main command, so
its numbers are the ones ``trec_eval_py -c QRELS RUN`` prints (or, with
``complete=False``, ``trec_eval_py QRELS RUN``). Each run is also checked by
:func:`~trec_eval_py.tools.validate.validate_run`, and its findings travel with
its row. A run that cannot be read or evaluated does not stop the others: it
gets a row with the reason (the validator's hint when it names the cause, such
as a header line or topic ids with a prefix, else the reader's error).

Fairness rules:

* every judged topic counts by default: a topic a run lacks is an empty
  ranking and scores 0 (as ``-c`` and ``compare`` do), so leaving out hard
  topics does not pay; ``complete=False`` averages over the topics a run
  answers, as trec_eval does by default;
* each row says how many judged topics the run answers, and a run answering
  fewer than the best-covered run gets a warning;
* rows are ordered by :func:`default_sort_by` unless told otherwise, best
  first, runs whose value is undefined (NaN) after those that have one;
  exactly equal values share a rank and keep the order of their names;
  failed runs come last.

Runs are evaluated in ``jobs`` worker processes; each process reads the
qrels once.
"""
from __future__ import annotations

import re

import numpy as np

from .._record import factory, record, replace
from ..errors import InputError, TrecEvalError, UsageError
from ..engine.join.keys import distinct_sorted
from ..engine.inputs import judgment_format
from ..engine.measures import Kind, registry
from ..engine.pipeline import Column, Evaluation, Options, evaluate
from .submissions import Submission, find_submissions
from .validate import NOT_A_RUN, Finding, load_qrels, validate_run

#: measures of a leaderboard when none are named
DEFAULT_MEASURES = ("map", "P.10")
#: validator findings that fail a run even where a reader would take it: the file is
#: no run, or its line endings make every reader see one line (a one-document run)
UNGRADABLE = NOT_A_RUN + ("line-endings",)
#: the curve kept for each run (for the report): interpolated precision at 11 recall levels
CURVE = "ipr"


@record(frozen=False)
class Entry:
    """One run: its evaluation, or why there is none, and what the validator found."""

    path: str  # the submission's name (relative to the folder given)
    evaluation: Evaluation | None = None
    error: str | None = None
    rank: int | None = None
    topics: int = 0  # judged topics the run has results for
    topics_total: int = 0  # judged topics
    findings: list[Finding] = factory(list)
    warnings: list[str] = factory(list)
    curve: np.ndarray | None = None  # (levels, 2): recall level, mean interpolated precision
    missing: list[str] = factory(list)  # judged topics the run has no results for

    @property
    def name(self) -> str:
        return self.path

    @property
    def runid(self) -> str:
        return self.evaluation.runid if self.evaluation is not None else ""

    @property
    def ok(self) -> bool:
        return self.evaluation is not None


@record(frozen=False)
class Leaderboard:
    """Evaluated runs in leaderboard order.

    ``columns`` are the printed measure names in the order they were asked
    for (the run id has its own column); ``sort_by`` the one that orders
    the board (None: no measure fits, rows stay in name order).
    """

    columns: list[str]
    kinds: dict[str, Kind]
    entries: list[Entry] = factory(list)
    sort_by: str | None = None
    topics_total: int = 0
    complete: bool = True
    qrels_name: str = ""
    hide_judgments: bool = False

    def to_dataframe(self, per_topic: bool = False):
        """A pandas DataFrame: a row per run, or with ``per_topic`` per run, topic and measure."""
        from ..output.notebook import leaderboard_frame

        return leaderboard_frame(self, per_topic=per_topic)

    def __repr__(self) -> str:
        return render_leaderboard(self, "text")  # the notebook shows _repr_html_ instead

    def _repr_html_(self) -> str:
        from ..output.notebook import leaderboard_html

        return leaderboard_html(self)

    @property
    def failed(self) -> list[Entry]:
        return [e for e in self.entries if not e.ok]

    @property
    def graded(self) -> list[Entry]:
        return [e for e in self.entries if e.ok]


def expand_run_paths(paths) -> list[str]:
    """Names of the submissions ``paths`` stand for (see :func:`~trec_eval_py.tools.submissions.find_submissions`)."""
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


def _display_columns(specs: list[str], evaluation_columns: list, compat: str, rel_format: str) -> list:
    """Output columns in the order the user asked for them, without the run id."""
    reg = registry()
    wanted: list[str] = []  # measure names in request order
    for spec in specs:
        for s in reg.resolve([spec], compat, rel_format):
            if s.measure.name not in wanted:
                wanted.append(s.measure.name)
    order = []
    for name in wanted:
        order += [c for c in evaluation_columns if c.measure.name == name and c.measure.name != "runid"]
    return order


def _reason(e: TrecEvalError, names: tuple[str, ...]) -> str:
    if isinstance(e, InputError) and e.path in names:
        msg = e.reason if e.line is None else f"line {e.line}: {e.reason}"
        if e.text is not None:
            shown = e.text if len(e.text) <= 60 else e.text[:57] + "..."
            msg += f": {shown!r}"
        return msg
    return str(e)


def _sort_key(kind: Kind, value):
    if kind is Kind.STR:
        return (0, str(value))
    v = float(value)
    return (1, 0.0) if v != v else (0, -v)  # best first; NaN last


# ---- grading one run (in a worker process or in this one) ----

_WORKER: dict = {}


def _init_worker(q, specs, options, check, curve, keep=True) -> None:
    _WORKER.update(q=q, specs=specs, options=options, check=check, curve=curve, keep=keep)


def _grade_task(sub: Submission, q, init_args: tuple) -> dict:
    """:func:`_grade` as one task of a dask cluster (``q``, the judgments, shipped once)."""
    _init_worker(q, *init_args)
    return _grade(sub)


def _source(sub: Submission):
    return sub.source()


def _grade(sub: Submission) -> dict:
    """Validate and evaluate one submission; plain data only (it crosses processes)."""
    w = _WORKER
    q, specs, options = w["q"], w["specs"], w["options"]
    out: dict = {"error": None, "findings": [], "curve": None}
    hint = None
    if w["check"]:
        try:
            # tie findings follow the ranking rule of the trec_eval version evaluated
            report = validate_run(_source(sub), q, name=sub.name, compat=options.get("compat", "9.0.8"),
                                  rel_format=options.get("rel_format", "qrels"),
                                  results_format=options.get("results_format", "trec_results"))
            out["findings"] = report.findings
            hint = report.hint()
        except TrecEvalError:
            pass  # the evaluation below says why the file cannot be read
    try:
        if hint is not None and hint.code in UNGRADABLE:
            raise InputError(sub.name, hint.message, hint.line)
        ev = evaluate(q, _source(sub), specs, **options)
    except TrecEvalError as e:
        if hint is None:
            out["error"] = _reason(e, (sub.name, sub.path))
        else:  # the validator names the cause ("a header line"), the reader only the symptom
            out["error"] = hint.message if hint.line is None else f"line {hint.line}: {hint.message}"
        return out
    except Exception as e:  # a bug must not take the class down; the row says what happened
        out["error"] = f"internal error ({type(e).__name__}: {e})"
        return out
    filled = np.asarray(ev.filled, dtype=bool)
    # the topics a coverage warning names: judged topics without results
    missing = [t for t, f in zip(ev.topics, filled.tolist()) if f] if ev.options.complete else \
        sorted(set(_qrels_topic_ids(q)) - set(ev.topics), key=lambda t: t.encode("utf-8", "surrogateescape"))
    out.update(summary=ev.column_summary, runid=ev.runid, answered=int(np.count_nonzero(~filled)), missing=missing)
    if w.get("keep", True):  # per-topic values only for what shows them (a report, --per-topic)
        out.update(topics=list(ev.topics), values=ev.counted_values(), filled=ev.filled, printable=ev.printable)
    del ev
    if w["curve"]:
        from .curves import compute_curves

        try:
            c = compute_curves(q, _source(sub), CURVE, **options)
            out["curve"] = c.average
        except TrecEvalError:
            pass
    return out


def _run_all(subs: list[Submission], init_args: tuple, jobs: int, progress, client=None) -> list[dict]:
    if client is not None:
        return _run_on(client, subs, init_args, progress)
    if jobs <= 1 or len(subs) <= 1:
        _init_worker(*init_args)
        results = []
        for i, s in enumerate(subs):
            results.append(_grade(s))
            if progress:
                progress(i + 1, len(subs), s.name)
        return results
    from concurrent.futures import ProcessPoolExecutor, as_completed

    results: list = [None] * len(subs)
    with ProcessPoolExecutor(max_workers=min(jobs, len(subs)), initializer=_init_worker,
                             initargs=init_args) as pool:
        futures = {pool.submit(_grade, s): i for i, s in enumerate(subs)}
        for done, fut in enumerate(as_completed(futures), 1):
            i = futures[fut]
            try:
                results[i] = fut.result()
            except Exception as e:  # a worker that died (out of memory, killed)
                results[i] = {"error": f"internal error ({type(e).__name__}: {e})", "findings": [], "curve": None}
            if progress:
                progress(done, len(subs), subs[i].name)
    return results


def _run_on(client, subs: list[Submission], init_args: tuple, progress) -> list[dict]:
    """One task per run on a dask cluster; the judgments are shipped to each worker once."""
    q, rest = init_args[0], init_args[1:]
    shared = client.scatter(q, broadcast=True)
    futures = {client.submit(_grade_task, s, shared, rest, pure=False): i for i, s in enumerate(subs)}
    results: list = [None] * len(subs)
    from distributed import as_completed  # (a client exists: dask is there)

    for done, fut in enumerate(as_completed(list(futures)), 1):
        i = futures[fut]
        try:
            results[i] = fut.result()
        except Exception as e:  # a run that failed on every worker that tried it
            results[i] = {"error": f"internal error ({type(e).__name__}: {e})", "findings": [], "curve": None}
        fut.release()
        if progress:
            progress(done, len(subs), subs[i].name)
    return results


def _qrels_topic_ids(q) -> list[str]:
    return [t.decode("utf-8", "surrogateescape") for t in distinct_sorted(q.qid).tolist()]


# ---- keeping judged documents out of what students see ----

_TOKEN = re.compile(r"[^\s'\"(),;:\[\]]+")


def redactor(q):
    """A function that replaces every judged docno of ``q`` in a text by ``[judged document]``."""
    judged = {d.decode("utf-8", "surrogateescape") for d in distinct_sorted(q.docno).tolist()}

    def redact(text: str) -> str:
        return _TOKEN.sub(lambda m: "[judged document]" if m.group(0) in judged else m.group(0), text)

    return redact


def build_leaderboard(qrels, runs, measures: list[str] | None = None, *, sort_by: str | None = None,
                      jobs: int = 1, check: bool = True, curves: bool = False,
                      hide_judgments: bool = False, progress=None, per_topic: bool = True, client=None,
                      **options) -> Leaderboard:
    """Evaluate every run against ``qrels`` and rank them.

    ``qrels`` is anything the judgment format ``rel_format`` (``-R``, qrels by
    default) reads (an unreadable file is an error for the whole board); ``runs`` are paths
    (files, folders walked recursively, ``.zip`` archives: see
    :mod:`~trec_eval_py.tools.submissions`) or :class:`Submission` values.
    ``measures`` are ``-m`` specs (default map and P.10); ``sort_by`` a column
    (default :func:`default_sort_by`). ``jobs`` worker processes evaluate the
    runs; ``check`` validates each run too; ``curves`` keeps each run's
    interpolated precision/recall curve; ``hide_judgments`` replaces judged
    docnos in every message; ``progress(done, total, name)`` is called as runs
    finish. ``options`` are the fields of
    :class:`~trec_eval_py.engine.pipeline.Options` (``rel_format``,
    ``results_format``, ``valid_codes``... as for ``evaluate``); ``complete``
    defaults to true (every judged topic counts). ``check`` validates each run
    first in its results format (see :func:`~trec_eval_py.tools.validate.validate_run`).
    ``per_topic=False`` keeps each run's summary only (what the board prints
    without ``--per-topic`` or a report), not its per-topic values.
    ``client`` (a ``dask.distributed.Client``) grades the runs on its cluster,
    one task per run, the judgments shipped to each worker once.
    """
    specs = list(measures) if measures else list(DEFAULT_MEASURES)
    options = dict(options)
    options.setdefault("complete", True)
    opts = Options(measures=tuple(specs), **options)
    reg = registry()
    selected = reg.resolve(specs, opts.compat, opts.measures_for, given=opts.rel_format)  # unknown measures fail here, once
    eval_columns = [Column(n, s.measure, i, s.measure.kind, s.measure.kind)
                    for s in selected for i, n in enumerate(s.names)]
    shown = _display_columns(specs, eval_columns, opts.compat, opts.measures_for)
    columns = [c.name for c in shown]
    kinds = {c.name: c.summary_kind for c in shown}
    key = _pick_sort_by(sort_by, columns, opts) if sort_by else default_sort_by(columns, kinds)
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")

    q = load_qrels(qrels, opts)  # in the -R format, read once for every run
    total = judgment_format(opts.rel_format).totals(q)[0]
    subs: list[Submission] = []
    for r in runs:
        subs += [r] if isinstance(r, Submission) else find_submissions([r])
    results = _run_all(subs, (q, specs, options, check, curves, per_topic), jobs, progress, client)
    redact = redactor(q) if hide_judgments else (lambda s: s)

    board = Leaderboard(columns, kinds, sort_by=key, topics_total=total, complete=opts.complete,
                        qrels_name=q.name, hide_judgments=hide_judgments)
    entries = []
    for sub, res in zip(subs, results):
        findings = [replace(f, message=redact(f.message)) for f in res["findings"]]
        e = Entry(sub.name, findings=findings, topics_total=total)
        if res["error"] is not None:
            e.error = redact(res["error"])
        else:
            if "values" in res:
                e.evaluation = Evaluation(res["topics"], eval_columns, res["values"], res["summary"],
                                          np.asarray(res["filled"], dtype=bool),
                                          np.asarray(res["printable"], dtype=bool), res["runid"], opts)
            else:  # the summary only
                e.evaluation = Evaluation([], eval_columns, [np.zeros(0) for _ in eval_columns], res["summary"],
                                          np.zeros(0, bool), np.zeros(0, bool), res["runid"], opts)
            e.topics = res["answered"]
            e.missing = res["missing"]
            e.curve = res["curve"]
        entries.append(e)

    good = [e for e in entries if e.ok]
    most = max((e.topics for e in good), default=0)
    for e in entries:
        if e.ok and e.topics < most:
            missing = e.missing
            listed = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
            effect = "each scores 0" if opts.complete else "its averages leave them out"
            e.warnings.append(f"answers {e.topics} of {total} judged topics, others up to {most}; "
                              f"missing {listed}: {effect}")
        # the coverage line above says what the validator's per-topic 'missing' findings would
        e.warnings += [f.short(e.path) for f in e.findings if f.code != "topic-not-in-run"]

    bad = [e for e in entries if not e.ok]
    if key is not None:
        kind = kinds[key]
        good.sort(key=lambda e: _sort_key(kind, e.evaluation.summary.get(key, 0)))

    def value(e):
        return e.evaluation.summary.get(key) if key is not None else None

    for i, e in enumerate(good):
        tie = i > 0 and (key is None or value(e) == value(good[i - 1]))
        e.rank = good[i - 1].rank if tie else i + 1
    board.entries = good + bad
    return board


# ---- printing a board ----

LEADERBOARD_FORMATS = ("text", "md", "csv", "json")


def coverage(e: Entry) -> str:
    return f"{e.topics}/{e.topics_total}" if e.ok else ""


def _board_cells(board: Leaderboard, entry: Entry, machine: bool) -> list[str]:
    from ..output.evaluation import csv_value, format_value

    s = entry.evaluation.summary
    fmt = csv_value if machine else format_value
    return [fmt(board.kinds[c], s[c]) if c in s else "" for c in board.columns]


def _board_topic_rows(board: Leaderboard, entry: Entry, machine: bool) -> list[list[str]]:
    """(topic, measure, value) rows of one run, per-topic values then the summary."""
    from ..output.evaluation import csv_value, format_value

    ev = entry.evaluation
    fmt = csv_value if machine else format_value
    wanted = set(board.columns)
    cols = [c for c in ev.columns if c.name in wanted]
    cols.sort(key=lambda c: board.columns.index(c.name))
    rows = []
    for t, qid in enumerate(ev.topics):
        if ev.printable[t]:
            rows += [[qid, c.name, fmt(c.kind, ev.values[c.name][t])] for c in cols if c.measure.per_topic]
    rows += [["all", c.name, fmt(c.summary_kind, ev.summary[c.name])] for c in cols if c.name in ev.summary]
    return rows


def leaderboard_json(board: Leaderboard, *, per_topic: bool = False) -> dict:
    from ..output.evaluation import evaluation_json, plain_value

    runs = []
    for e in board.entries:
        item: dict = {"rank": e.rank, "run": e.path, "runid": e.runid if e.ok else None,
                      "topics": e.topics if e.ok else None, "topics_total": e.topics_total}
        if e.ok:
            ev = e.evaluation
            item["summary"] = {c: plain_value(board.kinds[c], ev.summary[c]) for c in board.columns if c in ev.summary}
            if per_topic:
                doc = evaluation_json(ev, query=True, summary=False)["per_topic"]
                item["per_topic"] = {t: {c: v[c] for c in board.columns if c in v} for t, v in doc.items()}
        item["warnings"] = list(e.warnings)
        item["error"] = e.error
        runs.append(item)
    return {"sort_by": board.sort_by, "measures": list(board.columns), "topics_total": board.topics_total,
            "complete": board.complete, "runs": runs}


def render_leaderboard(board: Leaderboard, fmt: str = "text", *, per_topic: bool = False) -> str:
    """A board as text, md, csv or json.

    Text and markdown print values as trec_eval does; csv and json keep full
    precision. Each row shows the judged topics the run answers
    (``answered/total``) and how many warnings it has (``--report`` and json
    list them). With ``per_topic`` the table is long: one row per run, topic
    and measure (topic ``all`` for the summary). A failed run is one row
    carrying its reason.
    """
    from ..output.evaluation import csv_text, markdown_table, text_table

    if fmt == "json":
        import json

        return json.dumps(leaderboard_json(board, per_topic=per_topic), indent=1) + "\n"
    if fmt not in LEADERBOARD_FORMATS:
        raise UsageError(f"unknown --format {fmt!r}; choose one of {', '.join(LEADERBOARD_FORMATS)}")
    machine = fmt == "csv"
    lead_header = ["rank", "run", "runid", "topics", "warnings"]
    if per_topic:
        header = lead_header + ["topic", "measure", "value"]
    else:
        header = lead_header + board.columns
    rows, failures = [], []
    for e in board.entries:
        if not e.ok:
            failures.append(e)
            continue
        lead = [str(e.rank), e.path, e.runid, coverage(e), str(len(e.warnings))]
        if per_topic:
            rows += [lead + r for r in _board_topic_rows(board, e, machine)]
        else:
            rows.append(lead + _board_cells(board, e, machine))
    nlead = len(lead_header)
    if machine:
        blank = [""] * (len(header) - nlead)
        out = [header + ["error"]] + [r + [""] for r in rows]
        out += [["", e.path, "", "", str(len(e.warnings)), *blank, e.error] for e in failures]
        return csv_text(out)
    if fmt == "md":
        blank = [""] * (len(header) - nlead)
        return markdown_table(header, rows + [["-", e.path, f"error: {e.error}", "", str(len(e.warnings)), *blank]
                                              for e in failures])
    # failed runs print their reason across the value columns, aligned on the run column
    run_w = max([len(header[1])] + [len(r[1]) for r in rows] + [len(e.path) for e in failures])
    rank_w = max([len(header[0])] + [len(r[0]) for r in rows] + [1])
    padded = [[r[0].ljust(rank_w), r[1].ljust(run_w), *r[2:]] for r in rows]
    text = text_table([header[0].ljust(rank_w), header[1].ljust(run_w), *header[2:]], padded)
    text += "".join(f"{'-'.ljust(rank_w)}  {e.path.ljust(run_w)}  error: {e.error}\n" for e in failures)
    return text


__all__ = ["Entry", "Leaderboard", "build_leaderboard", "default_sort_by", "render_leaderboard",
           "leaderboard_json", "expand_run_paths", "redactor", "LEADERBOARD_FORMATS", "DEFAULT_MEASURES"]
