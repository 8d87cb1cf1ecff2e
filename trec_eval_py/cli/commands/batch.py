"""``trec_eval_py batch QRELS RUN...``: grade many runs against one qrels."""
from __future__ import annotations

import os

import typer

from ...errors import ExitCode
from ...output.table import check_format, check_typeset, choices_text
from ...tools.grading.leaderboard import LEADERBOARD_FORMATS
from ...tools.grading.validate import DEFAULT_DOC_LIMIT, DEFAULT_MAX_UNJUDGED
from ..flags import cluster_client, cluster_flags, evaluation_flags, read_limit_flags
from ..help import exit_codes_epilog
from ..output import check_output, tell, tell_skipped, write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command(epilog=exit_codes_epilog(ExitCode.INCOMPLETE, ExitCode.CLUSTER))
@read_limit_flags()
@cluster_flags(help={"engine": "local (processes of this machine, see -j) or dask (one task per run on a dask "
                                "cluster; see --workers, --scheduler)."})
@evaluation_flags("measures", "complete", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only", "order",
                  "compat", "rel_format", "results_format", "valid_codes",
                  help={"measures": "Measure or nickname (repeatable). Default: map, P.10.",
                        "complete": "Every judged topic counts: batch's default, kept for trec_eval's flag."})
def batch(
    qrels: str = typer.Argument(..., metavar="QRELS", help="Relevance judgments, read once for all runs."),
    runs: list[str] = typer.Argument(..., metavar="RUN...", help=(
        "Run files, folders (walked recursively; hidden files skipped) and .zip archives (read member by member).")),
    sort_by: str | None = typer.Option(None, "--sort-by", metavar="MEASURE", help=(
        "Measure that orders the board. Default: map if shown, else the first measure that is not a count or the "
        "run id.")),
    only_answered: bool = typer.Option(False, "--only-answered", help=(
        "Average each run over the topics it answers (trec_eval's default) instead of over every judged topic.")),
    fmt: str = typer.Option("text", "--format", help=f"Output: {choices_text(LEADERBOARD_FORMATS, 'text')}. "
                            "Text, markdown, html and latex print values as trec_eval does; csv and json at full "
                            "precision."),
    per_topic: bool = typer.Option(False, "--per-topic", help=(
        "One row per run, topic and measure instead of one per run.")),
    output: str | None = typer.Option(None, "-o", "--output", metavar="FILE", help=(
        "Write the board to FILE instead of standard output.")),
    report: str | None = typer.Option(None, "--report", metavar="DIR", help=(
        "Also write a self-contained report into DIR: index.html, a page per run, leaderboard.csv and .md, "
        "feedback/<run>.txt.")),
    hide_judgments: bool = typer.Option(False, "--hide-judgments", help=(
        "Leave every judged docno out of the board and the report (to publish them to students).")),
    title: str = typer.Option("Leaderboard", "--title", help="Title of the report's pages."),
    jobs: int | None = typer.Option(None, "-j", "--jobs", metavar="N", help=(
        "Evaluate runs in N processes. Default: the number of cores.")),
    no_validate: bool = typer.Option(False, "--no-validate", help=(
        "Skip the validator's checks: every run the evaluation reads is graded; no findings reach the board.")),
    ignore: list[str] = typer.Option([], "--ignore", metavar="CHECK", help=(
        "Turn a check off, as in validate (repeatable, or comma-separated; e.g. runid, tie).")),
    select: list[str] = typer.Option([], "--select", metavar="CHECK", help=(
        "Run only these checks, as in validate (and those the evaluation needs).")),
    skip_header: bool = typer.Option(False, "--skip-header", help=(
        "Grade a run whose first line is a header without that line (a warning says so).")),
    doc_limit: int = typer.Option(DEFAULT_DOC_LIMIT, "--max-docs", help=(
        "Most documents allowed per topic, as in validate (0: no limit); more is an error.")),
    max_unjudged: float = typer.Option(DEFAULT_MAX_UNJUDGED, "--max-unjudged", help=(
        "Largest share of unjudged documents in a topic's top 10 before a warning.")),
    student_from: str = typer.Option("auto", "--student-from", metavar="PATTERN", help=(
        "Name the students from the submissions' names: auto (default: moodle, canvas, blackboard, then the first "
        "folder), moodle, canvas, blackboard, folder, none, or a regular expression with a group "
        "(?P<student>...).")),
    pick: str = typer.Option("all", "--pick", metavar="RULE", help=(
        "A student's several files: all (default: grade each) or latest (the one changed last; the others are "
        "listed as not graded).")),
    roster: str | None = typer.Option(None, "--roster", metavar="CSV", help=(
        "Class list (e.g. the LMS's grading worksheet): grades.csv in the report gets a row per student on it.")),
    caption: str | None = typer.Option(None, "--caption", help="LaTeX (and HTML): the table's caption."),
    label: str | None = typer.Option(None, "--label", help="LaTeX: the table's \\label."),
    digits: int | None = typer.Option(None, "--digits", help=(
        "Decimals of the values (formats people read; default 4, as trec_eval).")),
    *,
    options: dict,
    cluster: dict,
    limits: dict,
) -> int:
    """Grade many runs against one set of judgments: a leaderboard, and with
    --report a report for the class.

    Every judged topic counts: a topic a run does not answer scores 0 (as with
    trec_eval -c), so leaving out hard topics does not pay; --only-answered
    averages each run over the topics it answers instead. Values are those
    `trec_eval_py -c QRELS RUN` prints for each run (without -c under
    --only-answered).

    Each run is checked as `validate --qrels QRELS` checks it, with the same
    findings and counts: a run with an error is not graded (its row gives the
    first error), warnings and notes travel with its grade (the findings
    column: the first finding's check and how many more). --ignore, --select
    and --skip-header act as in validate. A run that cannot be graded is
    listed with the reason and the others are still graded; the exit status is
    then 4. -R, -T and --valid-codes read other formats (e.g. -R codiesp -T
    codiesp) as the main command does; runs in another results format get
    that format's reading checks.
    """
    from ...engine.parse.source import set_read_limits
    from ...errors import OutputError, UsageError
    from ...tools.grading.leaderboard import build_leaderboard, render_leaderboard
    from ...tools.grading.report import check_report, report_writes, write_report
    from ...tools.shared.submissions import scan_submissions
    from ..output import check_output_folder
    from ..progress import Progress

    fmt = check_format(fmt, LEADERBOARD_FORMATS)
    check_typeset(fmt, caption=caption, label=label, digits=digits)
    if options.pop("complete") and only_answered:
        raise UsageError("-c and --only-answered contradict each other")
    with set_read_limits(**limits):
        # every output is checked before the grading: a bad one fails in a second, not after an hour
        check_output(output, [qrels, *runs])
        if report is not None:
            check_report(report)
            # the report's folder and the class never overlap, and it overwrites no input
            check_output_folder(report, report_writes, walked=runs)
            if output is not None and output != "-" and report_writes(_relative(output, report)):
                raise OutputError(output, f"is a file the report writes in {report}: name another file")
        found = scan_submissions(runs, exclude=[report])
        check_output(output, [s.path for s in found.submissions])
        tell_skipped(found.skipped)
        if not found.submissions:
            raise UsageError("no run files found")
        measures = options.pop("measures") or None
        n_jobs = jobs if jobs is not None else (os.cpu_count() or 1)
        with cluster_client(cluster) as client, Progress(len(found.submissions), "grading", unit="runs") as bar:
            board = build_leaderboard(
                qrels, found.submissions, measures, sort_by=sort_by, jobs=n_jobs, check=not no_validate,
                curves=report is not None, hide_judgments=hide_judgments,
                progress=lambda done, total, name: bar.update(1), ignore=ignore, select=select,
                skip_header=skip_header, doc_limit=doc_limit, max_unjudged=max_unjudged,
                student_from=student_from, pick=pick, roster=roster,
                # each run's per-topic values only for what shows them
                per_topic=per_topic or report is not None, client=client,
                complete=not only_answered, **options,
            )
    board.skipped = found.skipped + [k for k in board.skipped if k not in found.skipped]
    tell_skipped([k for k in board.skipped if k not in found.skipped])
    # the board first: a report that cannot be written still leaves it
    write_output(render_leaderboard(board, fmt, per_topic=per_topic, caption=caption, label=label,
                                    digits=digits).encode("utf-8", "surrogateescape"), output)
    if report is not None:
        write_report(board, report, title=title)
    if not board.failed:
        return ExitCode.OK
    n = len(board.entries)
    tell(f"{len(board.failed)} of {n} run{'s' * (n != 1)} not graded (the board's rows say why)")
    return ExitCode.INCOMPLETE


def _relative(path: str, folder: str) -> str:
    """``path`` relative to ``folder`` (``/`` separated), by their real paths; ``..`` when outside."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(folder))
    return rel.replace(os.sep, "/")
