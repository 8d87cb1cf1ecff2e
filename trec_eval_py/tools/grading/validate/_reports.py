"""Many runs checked (:func:`validate_runs`, on a dask cluster too) and their
reports rendered as text, JSON or CSV."""
from __future__ import annotations

from ...._versions import DEFAULT_COMPAT
from ....errors import InputError
from ._findings import _PRIORITY, DEFAULT_DOC_LIMIT, Report, _count, selected_checks
from ._run import _doc_limit, _partner, unreadable_report, validate_run
from ._topics import TopicSet, load_qrels, read_topics


def validate_runs(paths, qrels=None, *, topics=None, rel_format: str = "qrels", progress=None, client=None,
                  **kw) -> list[Report]:
    """:func:`validate_run` for every submission ``paths`` stand for (files, folders,
    zips, walked as ``batch`` walks them; :class:`~trec_eval_py.tools.shared.submissions.Submission`
    values as they are). The qrels or topics are read once; a file that cannot be
    read is a report with one error. ``progress(done, total, name)`` hears of each file.
    ``client`` (a ``dask.distributed.Client``) checks the files on its cluster, one
    task a file, the judgments shipped to each worker once."""
    import os

    from ....engine.pipeline import Options
    from ...shared.submissions import Submission, close_archives, find_submissions

    if "max_docs" in kw:  # said here, to the caller, not by each file's validate_run
        kw["doc_limit"] = _doc_limit(kw.get("doc_limit", DEFAULT_DOC_LIMIT), kw.pop("max_docs"))

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
        from ...shared.cluster import map_on_cluster

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
FORMATS = ("text", "json", "csv")


def findings_table(reports: list[Report]):
    """Every finding of every report, one a row (the csv of ``validate``)."""
    from ....output.table import Column, Table

    cols = [Column("file", "text"), Column("path", "text"), Column("line", "int"), Column("severity", "text"),
            Column("code", "text"), Column("count", "int"), Column("message", "text")]
    return Table(cols, [[r.path, f.path, f.line, f.severity, f.code, f.count, f.message]
                        for r in reports for f in r.findings])


def render_reports(reports: list[Report], fmt: str = "text", *, strict: bool = False, quiet: bool = False) -> str:
    """Reports as text (findings, then a summary line per file with the count of each
    check), JSON or CSV (one finding a row, with its count).

    Text is for a terminal: what a file holds (a run id, a bad line) is shown
    without its control characters or escape sequences."""
    from ....output.names import printable
    from ....output.table import check_format, json_text, render

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
