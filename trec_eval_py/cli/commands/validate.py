"""``trec_eval_py validate RUN...``: check run files before they are evaluated or accepted."""
from __future__ import annotations

import typer

from ...errors import ExitCode
from ...output.table import check_format, choices_text
from ...tools.grading.validate import DEFAULT_DOC_LIMIT, DEFAULT_MAX_PER_CHECK, DEFAULT_MAX_UNJUDGED, FORMATS
from ..flags import READING, cluster_client, cluster_flags, evaluation_flags, read_limit_flags
from ..help import exit_codes_epilog
from ..output import tell, tell_skipped, write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command(epilog=exit_codes_epilog(ExitCode.FAILED, ExitCode.CLUSTER))
@read_limit_flags(READING)
@cluster_flags(help={"engine": "local (this process) or dask (one task per file on a dask cluster; see "
                               "--workers, --scheduler)."})
@evaluation_flags("compat", "rel_format", "results_format",
                  help={"compat": "trec_eval version whose ranking the tie checks follow: 9.0.8 (default) or 10.0.",
                        "rel_format": "Format of the --qrels judgments (qrels by default; e.g. codiesp, prefs, "
                                      "qrels_jg): every format gives the topic checks, formats of single-document "
                                      "judgments the unjudged check too.",
                        "results_format": "Format of the runs (trec_results by default: every check above; "
                                          "e.g. codiesp, biocreative_int: the format's own reading checks, "
                                          "which name the first bad line, and the topic checks)."})
def validate(
    runs: list[str] = typer.Argument(..., metavar="RUN...", help=(
        "Run files, folders (walked recursively) and .zip archives; '-' for standard input.")),
    qrels: str | None = typer.Option(None, "--qrels", help="Judgments: also check topic ids and unjudged documents."),
    topics: str | None = typer.Option(None, "--topics", metavar="FILE", help=(
        "Topic ids (one a line, or a qrels file's first column): check topic ids without the judgments.")),
    fmt: str = typer.Option("text", "--format", help=(
        f"Output: {choices_text(FORMATS, 'text')} (csv: one finding a row).")),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail the check too."),
    doc_limit: int = typer.Option(DEFAULT_DOC_LIMIT, "--max-docs", help=(
        "Most documents allowed per topic (0: no limit).")),
    max_unjudged: float = typer.Option(DEFAULT_MAX_UNJUDGED, "--max-unjudged", help=(
        "Largest acceptable share of unjudged documents in a topic's top 10.")),
    max_per_check: int = typer.Option(DEFAULT_MAX_PER_CHECK, "--max-per-check", help=(
        "Lines listed per finding (0: all); its count includes the rest.")),
    ignore: list[str] = typer.Option([], "--ignore", metavar="CHECK", help=(
        "Turn a check off (repeatable, or comma-separated; e.g. runid, tie); the checks the evaluation needs "
        "cannot be.")),
    select: list[str] = typer.Option([], "--select", metavar="CHECK", help=(
        "Run only these checks (and those the evaluation needs).")),
    skip_header: bool = typer.Option(False, "--skip-header", help=(
        "A header line is a warning, not an error (batch then grades the file without it).")),
    quiet: bool = typer.Option(False, "-q", "--quiet", help=(
        "Text: print only the summary line of each file (with the count of each check).")),
    *,
    options: dict,
    cluster: dict,
    limits: dict,
) -> int:
    """Check runs the way an evaluation campaign does: format, scores, run id, topic ids,
    ranks and ties. Each check gives one finding per file, with its first line, how
    many lines or topics it covers and a few of them; errors come first, then
    warnings, then notes, and the first names the real problem (a zip or binary
    file, a missing column, a header line, qrels given as the run, topic ids that
    match none of the qrels', with the pattern when there is one). batch shows the
    same findings and does not grade a file with an error.

    Only regular files are read: links, pipes, devices and hidden files in a
    folder are skipped, each named on standard error with the reason.

    Exit status 3 (failed) when any file has errors (or, with --strict, warnings),
    1 when no run file was found, else 0.
    """
    from ...engine.parse.source import set_read_limits
    from ...errors import UsageError
    from ...tools.grading.validate import render_reports, validate_runs
    from ...tools.shared.submissions import scan_submissions
    from ..progress import Progress

    fmt = check_format(fmt, FORMATS)
    with set_read_limits(**limits):
        found = scan_submissions(runs)
        tell_skipped(found.skipped)
        if not found.submissions:
            raise UsageError(f"no run files found in {', '.join(runs)}")
        with cluster_client(cluster) as client, Progress(len(found.submissions), "checking", unit="runs") as bar:
            reports = validate_runs(found.submissions, qrels, topics=topics, doc_limit=doc_limit,
                                    max_unjudged=max_unjudged, max_per_check=max_per_check, ignore=ignore,
                                    select=select, skip_header=skip_header, client=client,
                                    progress=lambda done, total, name: bar.update(1), **options)
    text = render_reports(reports, fmt, strict=strict, quiet=quiet)
    write_output(text)
    failed = sum(not r.passed(strict) for r in reports)
    if not failed:
        return ExitCode.OK
    tell(f"{failed} of {len(reports)} file{'s' * (len(reports) != 1)} failed the checks"
         + (" (--strict: warnings count)" if strict else ""))
    return ExitCode.FAILED
