"""``trec_eval_py batch QRELS RUN...``: a leaderboard of many runs against one qrels."""
from __future__ import annotations

import sys
from typing import List

import typer

from ..flags import evaluation_flags

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command()
@evaluation_flags("measures", "complete", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only",
                  "compat", help={"measures": "Measure or nickname (repeatable); the first one orders the board. Default: map, P.10."})
def batch(
    qrels: str = typer.Argument(..., metavar="QRELS", help="Relevance judgments, read once for all runs."),
    runs: List[str] = typer.Argument(..., metavar="RUN...", help="Run files; a directory stands for every file in it."),
    fmt: str = typer.Option("text", "--format", help="text (default), md, csv or json."),
    per_topic: bool = typer.Option(False, "--per-topic", help="One row per run, topic and measure instead of one per run."),
    *,
    options: dict,
) -> int:
    """Evaluate many runs against one set of judgments and rank them.

    Values are those the main command prints for each run. A run that cannot
    be read is listed with the reason and the others are still evaluated; the
    exit status is then 1.
    """
    from ...engine.format import LEADERBOARD_FORMATS, render_leaderboard
    from ...errors import UsageError
    from ...tools.leaderboard import build_leaderboard, expand_run_paths

    if fmt not in LEADERBOARD_FORMATS:
        raise UsageError(f"unknown --format {fmt!r}; choose one of {', '.join(LEADERBOARD_FORMATS)}")
    paths = expand_run_paths(runs)
    if not paths:
        raise UsageError("no run files given")
    measures = options.pop("measures") or None
    board = build_leaderboard(qrels, paths, measures, **options)
    out = render_leaderboard(board, fmt, per_topic=per_topic)
    sys.stdout.buffer.write(out.encode("utf-8", "surrogateescape"))
    sys.stdout.flush()
    return 1 if board.failed else 0
