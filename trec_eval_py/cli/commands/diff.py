"""``trec_eval_py diff OLD NEW``: the regression check between two evaluation outputs."""
from __future__ import annotations

import typer

from ..output import write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command()
def diff(
    old: str = typer.Argument(..., metavar="OLD", help="Reference output (trec_eval's format, with or without -q)."),
    new: str = typer.Argument(..., metavar="NEW", help="Output to check against it."),
    tol: str = typer.Option("1e-4", "--tol", help="Largest change that still counts as equal."),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="Print only the summary line."),
) -> int:
    """Compare two evaluation outputs by measure and topic.

    Lists values that changed by more than the tolerance and measures or
    topics present on one side only. Exit status 1 if there is any, else 0.
    """
    from ...tools.diff import diff_outputs

    report = diff_outputs(old, new, tol)
    text = "" if quiet else "".join(f"{d}\n" for d in report.differences)
    text += report.summary() + "\n"
    write_output(text)
    return 0 if report.same else 1
