"""``trec_eval_py plot``: figures comparing runs (needs the ``plot`` extra).

The figures are drawn by :mod:`trec_eval_py.tools.plotting`; this module maps flags
to it.
"""
from __future__ import annotations

import sys
from typing import List, Optional

import typer

from ...errors import UsageError
from ...tools.plotting import KINDS, make_plot, output_format, require_matplotlib, save_plot

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command()
def plot(
    qrels: str = typer.Argument(..., metavar="QRELS"),
    runs: List[str] = typer.Argument(..., metavar="RUN...", help="Runs to draw; for per-topic, the first is the baseline."),
    kind: str = typer.Option("pr", "--kind", "-k", help=f"Figure: {', '.join(KINDS)}."),
    output: str = typer.Option(..., "-o", "--output", help="Figure file; .png, .svg or .pdf."),
    measure: str = typer.Option("map", "-m", "--measure", help="Measure of the per-topic figure (one output, e.g. map, P.10, ndcg_cut.10)."),
    croc_alpha: float = typer.Option(7.0, "--alpha", help="Magnification of the croc figure's false-positive axis."),
    dpi: int = typer.Option(150, "--dpi", help="Resolution of .png figures."),
    level: int = typer.Option(1, "-l", "--level_for_rel", help="Lowest judgment level that counts as relevant."),
    num_docs: int = typer.Option(0, "-N", "--Number_docs_in_coll", help="Collection size: with it, every non-relevant document is a ROC negative."),
    max_docs: Optional[int] = typer.Option(None, "-M", "--Max_retrieved_per_topic", help="Only the top N documents of each topic count."),
    judged_only: bool = typer.Option(False, "-J", "--Judged_docs_only", help="Drop unjudged documents before evaluating."),
    compat: str = typer.Option("9.0.8", "--compat", help="trec_eval version whose measure definitions to use: 9.0.8 or 10.0."),
) -> None:
    """Draw runs' averaged P/R, ROC or CROC curves, or per-topic differences from the first run.

    Every topic of the qrels counts (as with -c). Needs matplotlib:
    pip install 'trec_eval_py[plot]'.
    """
    if kind not in KINDS:
        raise UsageError(f"unknown --kind {kind!r}; choose one of {', '.join(KINDS)}")
    output_format(output)
    require_matplotlib()
    if kind == "per-topic" and len(runs) < 2:
        raise UsageError("the per-topic figure needs a baseline run and at least one other run")
    fig = make_plot(kind, qrels, runs, measure=measure, croc_alpha=croc_alpha,
                    relevance_level=level, num_docs_in_coll=num_docs, max_docs=max_docs,
                    judged_only=judged_only, compat=compat)
    save_plot(fig, output, dpi=dpi)
    sys.stderr.write(f"wrote {output}\n")
