"""``trec_eval_py validate RUN``: check a run file before it is evaluated or accepted."""
from __future__ import annotations

import sys
from typing import Optional

import typer

from ...tools.validate import DEFAULT_MAX_DOCS, DEFAULT_MAX_PER_CHECK, DEFAULT_MAX_UNJUDGED

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command()
def validate(
    run: str = typer.Argument(..., metavar="RUN", help="The run file ('-' for standard input)."),
    qrels: Optional[str] = typer.Option(None, "--qrels", help="Judgments: also check topic coverage and unjudged documents."),
    strict: bool = typer.Option(False, "--strict", help="Warnings fail the check too."),
    max_docs: int = typer.Option(DEFAULT_MAX_DOCS, "--max-docs", help="Most documents allowed per topic (0: no limit)."),
    max_unjudged: float = typer.Option(DEFAULT_MAX_UNJUDGED, "--max-unjudged", help="Largest acceptable share of unjudged documents in a topic's top 10."),
    max_per_check: int = typer.Option(DEFAULT_MAX_PER_CHECK, "--max-per-check", help="List at most this many findings of one kind (0: all)."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="Print only the summary line."),
) -> int:
    """Check a run the way an evaluation campaign does: format, ranks, scores, run id,
    topic coverage and ties. Every finding gives file, line and what is wrong.

    Exit status 1 when there are errors (or, with --strict, warnings), else 0.
    """
    from ...tools.validate import validate_run

    report = validate_run(run, qrels, max_docs=max_docs, max_unjudged=max_unjudged, max_per_check=max_per_check)
    text = "" if quiet else "".join(f"{f}\n" for f in report.findings)
    verdict = "ok" if report.passed(strict) else "FAILED"
    text += f"{report.summary()}: {verdict}\n"
    sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
    sys.stdout.flush()
    return 0 if report.passed(strict) else 1
