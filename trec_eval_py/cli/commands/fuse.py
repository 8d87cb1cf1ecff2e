"""``trec_eval_py fuse RUN... -o OUT``: many runs fused into one TREC run."""
from __future__ import annotations

import typer

from ..flags import evaluation_flags
from ..help import exit_codes_epilog

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


def parse_weights(text: str | None) -> list[float] | None:
    """``0.3,0.7`` as numbers."""
    from ...errors import UsageError

    if text is None:
        return None
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        raise UsageError(f"--weights wants numbers separated by commas, e.g. 0.3,0.7; not {text!r}") from None


@app.command(epilog=exit_codes_epilog())
@evaluation_flags("results_format", "order", "compat", "rel_format", "relevance_level", "measures",
                  help={"measures": "With --train-qrels: the measure whose mean the weight search maximises (default "
                                    "map).",
                        "rel_format": "Format of --train-qrels (default qrels)."})
def fuse(
    runs: list[str] = typer.Argument(..., metavar="RUN...", help="Run files, in any -T format."),
    output: str | None = typer.Option(None, "-o", "--output", metavar="OUT",
                                         help="The fused run (default: standard output)."),
    method: str = typer.Option("rrf", "--method",
                               help="rrf, combsum, combmnz, combanz, combmax, combmin, borda or wsum."),
    norm: str | None = typer.Option(None, "--norm",
                                       help="Score normalisation before combining: minmax (default), max, sum, "
                                            "zscore, rank or none. Not for rrf and borda, which read ranks."),
    k: float = typer.Option(60, "--k", help="rrf: the constant k of 1/(k + rank)."),
    weights: str | None = typer.Option(None, "--weights", metavar="W1,W2,...",
                                          help="wsum: one weight per run, in the order given."),
    train_qrels: str | None = typer.Option(None, "--train-qrels", metavar="QRELS",
                                              help="wsum: choose the weights that maximise -m's mean on these "
                                                   "judgments (a grid of --step)."),
    step: float = typer.Option(0.1, "--step",
                               help="Grid step of the weight search (weights are multiples of it summing to 1)."),
    depth: int = typer.Option(1000, "--depth", help="Documents kept per topic (0: all)."),
    runid: str = typer.Option("fused", "--runid", help="Run id of the fused run."),
    *,
    options: dict,
) -> None:
    """Fuse runs into one TREC run (topic Q0 docno rank score runid).

    Ranks are the main command's (score descending, ties by docno); the
    fused run is ordered the same way. The fused scores equal ranx's fusion
    of the same runs where its definitions apply (see the guide for where
    they differ: ties, runs without some topics). Big runs are read piece by
    piece in bounded memory when they list their topics in byte order.
    With --train-qrels the chosen weights and their mean go to standard error.
    """
    import sys

    from ...errors import UsageError
    from ...tools.organiser.fusion import RESTART, Fused, iter_fuse, optimize_weights, render
    from ..restartable import Spool

    measures = options.pop("measures") or ["map"]
    w = parse_weights(weights)
    if train_qrels is not None:
        if method != "wsum":
            raise UsageError("--train-qrels searches the weights of --method wsum")
        if w is not None:
            raise UsageError("--weights and --train-qrels: give one or the other")
        if len(measures) != 1:
            raise UsageError("the weight search maximises one measure: give one -m")
        w, best, _ = optimize_weights(runs, train_qrels, measures[0], norm=norm, step=step, depth=depth or None,
                                      **options)
        sys.stderr.write(f"weights {','.join(repr(x) for x in w)}: {measures[0]} {best:.4f}\n")
    read_opts = {k: v for k, v in options.items() if k in ("results_format", "order", "compat")}
    with Spool(output) as out:
        for part in iter_fuse(runs, method, norm=norm, k=k, weights=w, depth=depth or None, **read_opts):
            if part is RESTART:
                out.reset()
                continue
            assert isinstance(part, Fused)  # a block, or RESTART
            out.write(render(part, runid))
