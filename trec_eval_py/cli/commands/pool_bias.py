"""``trec_eval_py pool-bias QRELS RUN...``: how each run would score had it not contributed to the pool."""
from __future__ import annotations

import typer

from ..flags import evaluation_flags
from ..help import exit_codes_epilog

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command(epilog=exit_codes_epilog())
@evaluation_flags("measures", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only", "complete",
                  "order", "compat", "rel_format", "results_format",
                  help={"measures": "The measure compared (one; default map)."})
def pool_bias(
    qrels: str = typer.Argument(..., metavar="QRELS", help="The judgments of the pool."),
    runs: list[str] = typer.Argument(..., metavar="RUN...", help="Every run that contributed to the pool."),
    depth: int = typer.Option(100, "-k", "--depth", help="Depth of the pool the runs contributed to."),
    groups: str | None = typer.Option(None, "--groups", metavar="CSV",
                                         help="Leave one group out: a CSV file of run,group lines (runs named as in "
                                              "the output)."),
    group_prefix: int | None = typer.Option(None, "--group-prefix", metavar="N",
                                               help="Leave one group out, a group being the runs whose names share "
                                                    "their first N characters."),
    group_separator: str | None = typer.Option(None, "--group-separator", metavar="SEP",
                                                  help="Leave one group out, a group being the runs whose names agree "
                                                       "up to SEP (e.g. '-': team-run1)."),
    fmt: str = typer.Option("text", "--format", help="text, csv or json."),
    output: str | None = typer.Option(None, "-o", "--output", metavar="FILE",
                                         help="Write the table to FILE instead of standard output."),
    *,
    options: dict,
) -> None:
    """Leave each run (or group) out of the pool: its score and rank on the
    judgments without the documents only it contributed.

    The depth-k pool of all the runs is formed with the main command's
    ranking; for each run, the documents no other run (no run of another
    group) put in the pool are removed from QRELS and the run is evaluated
    again. Its rank is among the other runs' scores on the full judgments.
    """
    from ...errors import UsageError
    from ...tools.organiser.pool_bias import FORMATS, read_groups, render
    from ...tools.organiser.pool_bias import pool_bias as compute
    from ...tools.shared.runs import run_labels
    from ..output import check_output, write_output

    if fmt not in FORMATS:
        raise UsageError(f"unknown --format {fmt!r}; choose one of {', '.join(FORMATS)}")
    check_output(output)
    measures = options.pop("measures") or ["map"]
    if len(measures) != 1:
        raise UsageError("pool-bias compares one measure: give one -m")
    group_names = None
    if groups is not None or group_prefix is not None or group_separator is not None:
        from ...engine.pipeline import Options

        opts = Options(**{k: v for k, v in options.items() if k in ("results_format", "order", "compat")})
        labels = run_labels(runs, [_runid(r, opts) for r in runs])
        group_names = read_groups(groups, labels, prefix=group_prefix, separator=group_separator)
    report = compute(qrels, runs, measures[0], depth=depth, groups=group_names, **options)
    write_output(render(report, fmt), output)


def _runid(path, opts) -> str:
    """A run's id (its last line's), read as the tools read it."""
    from ...tools.shared.runs import iter_ranked

    runid = ""
    for block in iter_ranked(path, opts):
        runid = block.runid
    return runid
