"""``trec_eval_py correlate A B``: do two evaluations rank the runs alike (Kendall's tau, tau_AP, Spearman's rho).

The statistics are :mod:`trec_eval_py.tools.organiser.correlation`'s, the figure
:mod:`trec_eval_py.tools.curves.plotting`'s; this module maps flags to them.
"""
from __future__ import annotations

import sys

import typer

from ...errors import ExitCode
from ...output.table import check_format, choices_text
from ...tools.organiser.correlation import OUTPUT_FORMATS
from ..flags import evaluation_flags
from ..help import exit_codes_epilog
from ..output import check_output, output_errors, write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command(epilog=exit_codes_epilog(ExitCode.NO_TOPICS))
@evaluation_flags("measures", "complete", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only",
                  "rel_format", "results_format", "compat", "order", "valid_codes", help={
                      "measures": ("Measure of each side (repeatable: one for both, or the first's and the second's). "
                                   "With two files: a name they print (map, P_10); evaluating: a spec (map, P.10). "
                                   "Default: map."),
                  })
def correlate(
    inputs: list[str] = typer.Argument(..., metavar="A B | RUN...", help=(
        "Two result files (trec_eval text with runid lines, trec_eval_py --format csv/json, batch's csv/json), "
        "or with --qrels the runs to evaluate (files, folders, .zip).")),
    qrels: list[str] = typer.Option([], "--qrels", metavar="QRELS", help=(
        "Evaluate the runs here: twice for two --qrels (one -m), or once per -m for one --qrels.")),
    show: list[str] = typer.Option([], "--show", metavar="SECTION", help=(
        "What to print (repeatable or comma-separated): summary, runs, swaps. Default: all; csv takes exactly one.")),
    fmt: str = typer.Option("text", "--format", help=f"Output: {choices_text(OUTPUT_FORMATS, 'text')}."),
    plot: str | None = typer.Option(None, "--plot", metavar="FILE", help=(
        "Also draw the runs' values on both sides, swapped pairs joined (.png, .svg or .pdf; needs the plot extra).")),
    dpi: int = typer.Option(150, "--dpi", help="Resolution of a .png figure."),
    output: str | None = typer.Option(None, "-o", "--output", metavar="FILE",
                                         help="Write to FILE instead of standard output."),
    *,
    options: dict,
) -> None:
    """System-ranking correlation between two evaluations of the same runs.

    Kendall's tau-b, tau_AP (Yilmaz, Aslam and Robertson 2008, in both
    directions and their mean; ties as Urbano and Marrero's tau_AP_b) and
    Spearman's rho, the runs' ranks on both sides and the pairs of runs they
    order oppositely. Runs are matched by run id (by file name between batch
    outputs); runs on one side only, or undefined on a side, are listed and
    left out. Evaluating (--qrels), the evaluation flags mean what they mean
    to the main command; use -c to average every run over every judged topic.
    """
    from ...errors import UsageError
    from ...tools.organiser.correlation import correlate_files, evaluate_sides, render_correlation

    fmt = check_format(fmt, OUTPUT_FORMATS)
    sections = [s for spec in show for s in spec.replace(",", " ").split()] or None
    check_output(output)
    if plot is not None:
        from ...tools.curves.plotting import output_format, require_matplotlib

        output_format(plot)
        check_output(plot)
        require_matplotlib()
    measures = options.pop("measures")
    if qrels:
        report = evaluate_sides(inputs, qrels, measures, **options)
    else:
        from ..flags import FLAGS

        # the evaluation flags change how runs are evaluated: a result file is evaluated already
        given = [FLAGS[k].decls[0] for k, v in options.items() if v != FLAGS[k].default]
        if len(inputs) != 2:
            raise UsageError(f"correlate takes two result files (or runs with --qrels), not {len(inputs)} arguments")
        if given:
            raise UsageError(f"{' '.join(given)}: evaluation flags apply with --qrels, not to result files")
        report = correlate_files(inputs[0], inputs[1], measures)
    text = render_correlation(report, fmt, sections)
    if plot is not None:
        from ...tools.curves.plotting import plot_correlation, save_plot

        with output_errors(plot):
            save_plot(plot_correlation(report), plot, dpi=dpi)
        sys.stderr.write(f"wrote {plot}\n")
    write_output(text, output)
