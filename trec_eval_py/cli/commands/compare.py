"""``trec_eval_py compare``: is a run better than the baseline, topic by topic?

The statistics live in :mod:`trec_eval_py.tools.significance` and the pairing of
runs in :mod:`trec_eval_py.tools.comparison`; this module only maps flags to them.
"""
from __future__ import annotations

from typing import List, Optional

import typer

from ...tools.comparison import FORMATS, compare_runs
from ...errors import UsageError
from ..flags import evaluation_flags
from ..output import check_output, write_output
from ...tools.significance import CORRECTIONS, TESTS

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command()
@evaluation_flags("measures", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only", "compat", "order",
                  help={"measures": "Measure (repeatable): map, P.10, ndcg_cut.10... Default: map."})
def compare(
    qrels: str = typer.Argument(..., metavar="QRELS"),
    runs: List[str] = typer.Argument(..., metavar="BASELINE RUN...", help="The baseline run, then the runs to compare with it."),
    test: List[str] = typer.Option(["t"], "--test", help=f"Significance test (repeatable): {', '.join(TESTS)} or all."),
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level; also sets the confidence level 1 - alpha."),
    correction: str = typer.Option("holm", "--correction", help=f"Multiple-comparison correction across all (run, measure) pairs: {', '.join(CORRECTIONS)}."),
    permutations: int = typer.Option(100_000, "--permutations", help="Random sign flips (randomization test) or resamples (bootstrap)."),
    seed: int = typer.Option(1, "--seed", help="Seed of the random draws; the same seed gives the same p-values."),
    fmt: str = typer.Option("text", "--format", help=f"Output format: {', '.join(FORMATS)}."),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Write to this file instead of standard output."),
    *,
    options: dict,
) -> None:
    """Compare runs with a baseline (the first run) on every measure, topic by topic.

    Every topic of the qrels counts; a topic missing from a run is evaluated as
    an empty ranking (as with -c), and the output says how many were filled in.
    Prints, per run and measure: both means, the difference, p-values (two-sided,
    raw and corrected), wins/ties/losses over topics and a confidence interval.
    """
    if len(runs) < 2:
        raise UsageError("compare needs QRELS, a baseline run and at least one other run")
    if fmt not in FORMATS:
        raise UsageError(f"unknown --format {fmt!r}; choose one of {', '.join(FORMATS)}")
    check_output(output)
    tests = [t.strip() for spec in test for t in spec.split(",") if t.strip()]
    measures = options.pop("measures") or ["map"]
    result = compare_runs(
        qrels, runs, measures, tests,
        alpha=alpha, correction=correction, permutations=permutations, seed=seed, **options,
    )
    text = result.format(fmt)
    write_output(text, output)
