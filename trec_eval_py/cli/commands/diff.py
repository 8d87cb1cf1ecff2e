"""``trec_eval_py diff OLD NEW``: the regression check between two evaluation outputs."""
from __future__ import annotations

import typer

from ...errors import ExitCode
from ...output.table import check_format, choices_text
from ...tools.compare.diff import FORMATS
from ..help import exit_codes_epilog
from ..output import tell, write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command(epilog=exit_codes_epilog(ExitCode.FAILED))
def diff(
    old: str = typer.Argument(..., metavar="OLD", help=(
        "Reference output: trec_eval's text (with or without -q), or trec_eval_py --format json or csv.")),
    new: str = typer.Argument(..., metavar="NEW", help="Output to check against it, in any of the same formats."),
    tol: list[str] = typer.Option(["1e-4"], "--tol", help=(
        "Largest change that still counts as equal (default 1e-4); MEASURE=NUMBER gives a measure its own "
        "(repeatable; shell-style patterns allowed, e.g. 'P_*=0.001').")),
    ignore: list[str] = typer.Option([], "--ignore", help=(
        "Leave these measures out (repeatable, or a comma-separated list; e.g. runid, or a pattern such as "
        "'iprec_at_recall_*').")),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="Text: print only the summary line."),
    fmt: str = typer.Option("text", "--format", help=f"Output: {choices_text(FORMATS, 'text')} "
                            "(csv: one difference a row; json: the settings, counts and differences)."),
) -> int:
    """Compare two evaluation outputs by measure and topic.

    Lists values that changed by more than the tolerance and measures or
    topics present on one side only, then how many differences each measure
    and each topic has, and a summary line. Exit status 3 (failed) if there
    is any difference, else 0.
    """
    from ...tools.compare.diff import diff_outputs, render_diff

    fmt = check_format(fmt, FORMATS)
    report = diff_outputs(old, new, list(tol), ignore=[m for spec in ignore for m in spec.replace(",", " ").split()])
    write_output(render_diff(report, fmt, quiet=quiet))
    if report.same:
        return ExitCode.OK
    n = len(report.differences)
    tell(f"{old} and {new} differ: {n} difference{'s' * (n != 1)}")
    return ExitCode.FAILED
