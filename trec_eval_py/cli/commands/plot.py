"""``trec_eval_py plot``: figures comparing runs (needs the ``plot`` extra).

The figures are drawn by :mod:`trec_eval_py.tools.curves.plotting`; this module maps flags
to it.
"""
from __future__ import annotations

import sys

import typer

from ...errors import ExitCode, UsageError
from ...tools.curves.plotting import KINDS, make_plot, output_format, require_matplotlib, save_plot
from ..flags import evaluation_flags
from ..help import exit_codes_epilog
from ..output import check_output, output_errors

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command(epilog=exit_codes_epilog(ExitCode.NO_TOPICS))
@evaluation_flags("relevance_level", "num_docs_in_coll", "max_docs", "judged_only", "compat", "order",
                  "rel_format", "results_format", "valid_codes",
                  help={"num_docs_in_coll": "Collection size: with it, every non-relevant document is a ROC negative."})
def plot(
    qrels: str = typer.Argument(..., metavar="QRELS"),
    runs: list[str] = typer.Argument(..., metavar="RUN...",
                                     help="Runs to draw; for per-topic, the first is the baseline."),
    kind: str = typer.Option("pr", "--kind", "-k", help=f"Figure: {', '.join(KINDS)}."),
    output: str = typer.Option(..., "-o", "--output", help="Figure file; .png, .svg or .pdf."),
    measure: str = typer.Option("map", "-m", "--measure",
                                help="Measure of the per-topic figure (one output, e.g. map, P.10, ndcg_cut.10)."),
    croc_alpha: float = typer.Option(7.0, "--alpha",
                                     help="Magnification (exponential) of the croc figure's false-positive axis and "
                                          "of the cac figure's fraction-ranked axis."),
    dpi: int = typer.Option(150, "--dpi", help="Resolution of .png figures."),
    *,
    options: dict,
) -> None:
    """Draw runs' averaged P/R, ROC, CROC, pROC or accumulation (ac, cac, pac) curves, or per-topic
    differences from the first run.

    Accumulation figures shade what no ranking can reach (above the best and
    below the worst possible curve), as the CROC paper does.

    Every topic of the qrels counts (as with -c). Needs matplotlib:
    pip install 'trec_eval_py\\[plot]'.
    """
    # (the backslash above keeps typer's rich help from reading [plot] as markup and dropping it)
    if kind not in KINDS:
        raise UsageError(f"unknown --kind {kind!r}; choose one of {', '.join(KINDS)}")
    output_format(output)
    check_output(output)
    require_matplotlib()
    if kind == "per-topic" and len(runs) < 2:
        raise UsageError("the per-topic figure needs a baseline run and at least one other run")
    fig = make_plot(kind, qrels, runs, measure=measure, croc_alpha=croc_alpha,
                    **options)
    with output_errors(output):
        save_plot(fig, output, dpi=dpi)
    sys.stderr.write(f"wrote {output}\n")
