"""``trec_eval_py batch QRELS RUN...``: grade many runs against one qrels."""
from __future__ import annotations

import contextlib
import os
from typing import List, Optional

import typer

from ..flags import evaluation_flags
from ..output import check_output, write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command()
@evaluation_flags("measures", "complete", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only", "order",
                  "compat", "rel_format", "results_format", "valid_codes", help={"measures": "Measure or nickname (repeatable). Default: map, P.10.",
                                  "complete": "Every judged topic counts: batch's default, kept for trec_eval's flag."})
def batch(
    qrels: str = typer.Argument(..., metavar="QRELS", help="Relevance judgments, read once for all runs."),
    runs: List[str] = typer.Argument(..., metavar="RUN...", help="Run files, folders (walked recursively; hidden files skipped) and .zip archives (read member by member)."),
    sort_by: Optional[str] = typer.Option(None, "--sort-by", metavar="MEASURE", help="Measure that orders the board. Default: map if shown, else the first measure that is not a count or the run id."),
    only_answered: bool = typer.Option(False, "--only-answered", help="Average each run over the topics it answers (trec_eval's default) instead of over every judged topic."),
    fmt: str = typer.Option("text", "--format", help="text (default), md, csv or json."),
    per_topic: bool = typer.Option(False, "--per-topic", help="One row per run, topic and measure instead of one per run."),
    output: Optional[str] = typer.Option(None, "-o", "--output", metavar="FILE", help="Write the board to FILE instead of standard output."),
    report: Optional[str] = typer.Option(None, "--report", metavar="DIR", help="Also write a self-contained report into DIR: index.html, a page per run, leaderboard.csv and .md, feedback/<run>.txt."),
    hide_judgments: bool = typer.Option(False, "--hide-judgments", help="Leave every judged docno out of the board and the report (to publish them to students)."),
    title: str = typer.Option("Leaderboard", "--title", help="Title of the report's pages."),
    jobs: Optional[int] = typer.Option(None, "-j", "--jobs", metavar="N", help="Evaluate runs in N processes. Default: the number of cores."),
    no_validate: bool = typer.Option(False, "--no-validate", help="Skip the validator's checks (faster on very large runs; no findings reach the board)."),
    engine: str = typer.Option("local", "--engine", metavar="ENGINE", help="local (processes of this machine, see -j) or dask (one task per run on a dask cluster)."),
    workers: Optional[int] = typer.Option(None, "--workers", metavar="N", help="With --engine dask: start a cluster of N worker processes on this machine."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS", help="With --engine dask: grade on the running dask cluster whose scheduler is at ADDRESS."),
    *,
    options: dict,
) -> int:
    """Grade many runs against one set of judgments: a leaderboard, and with
    --report a report for the class.

    Every judged topic counts: a topic a run does not answer scores 0 (as with
    trec_eval -c), so leaving out hard topics does not pay; --only-answered
    averages each run over the topics it answers instead. Each row shows the
    topics answered and a count of warnings (the validator's findings, and a
    note when a run answers fewer topics than others). Values are those
    `trec_eval_py -c QRELS RUN` prints for each run (without -c under
    --only-answered). A run that cannot be graded is listed with the reason and
    the others are still graded; the exit status is then 1. -R, -T and
    --valid-codes read other formats (e.g. -R codiesp -T codiesp) as the
    main command does; runs in a results format other than trec_results are
    graded without the validator's checks (it reads TREC runs).
    """
    from ...errors import UsageError
    from ...tools.leaderboard import LEADERBOARD_FORMATS, build_leaderboard, render_leaderboard
    from ...tools.submissions import find_submissions
    from ..progress import Progress

    if fmt not in LEADERBOARD_FORMATS:
        raise UsageError(f"unknown --format {fmt!r}; choose one of {', '.join(LEADERBOARD_FORMATS)}")
    if options.pop("complete") and only_answered:
        raise UsageError("-c and --only-answered contradict each other")
    check_output(output)
    subs = find_submissions(runs)
    if not subs:
        raise UsageError("no run files found")
    measures = options.pop("measures") or None
    n_jobs = jobs if jobs is not None else (os.cpu_count() or 1)
    cluster = contextlib.nullcontext()
    if engine != "local" or workers is not None or scheduler is not None:
        from ...tools.cluster import client_for

        cluster = client_for(engine, workers, scheduler)
    with cluster as client, Progress(len(subs), "grading", unit="runs") as bar:
        board = build_leaderboard(
            qrels, subs, measures, sort_by=sort_by, jobs=n_jobs, check=not no_validate,
            curves=report is not None, hide_judgments=hide_judgments,
            progress=lambda done, total, name: bar.update(1),
            # each run's per-topic values only for what shows them
            per_topic=per_topic or report is not None, client=client,
            complete=not only_answered, **options,
        )
    out = render_leaderboard(board, fmt, per_topic=per_topic).encode("utf-8", "surrogateescape")
    if report is not None:
        from ...tools.report import write_report

        write_report(board, report, title=title)
    write_output(out, output)
    return 1 if board.failed else 0
