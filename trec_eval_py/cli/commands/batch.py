"""``trec_eval_py batch QRELS RUN...``: a leaderboard of many runs against one qrels."""
from __future__ import annotations

import sys
from typing import List, Optional

import typer

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command()
def batch(
    qrels: str = typer.Argument(..., metavar="QRELS", help="Relevance judgments, read once for all runs."),
    runs: List[str] = typer.Argument(..., metavar="RUN...", help="Run files; a directory stands for every file in it."),
    measure: List[str] = typer.Option([], "-m", "--measure", help="Measure or nickname, with .params (repeatable); the first one orders the board. Default: map, P.10."),
    fmt: str = typer.Option("text", "--format", help="text (default), md, csv or json."),
    per_topic: bool = typer.Option(False, "--per-topic", help="One row per run, topic and measure instead of one per run."),
    complete: bool = typer.Option(False, "-c", "--complete_rel_info_wanted", help="Average over every judged topic; missing ones score 0."),
    level: int = typer.Option(1, "-l", "--level_for_rel", help="Lowest judgment level that counts as relevant."),
    judged_only: bool = typer.Option(False, "-J", "--Judged_docs_only", help="Drop unjudged documents before evaluating."),
    num_docs: int = typer.Option(0, "-N", "--Number_docs_in_coll", help="Number of documents in the collection."),
    max_docs: Optional[int] = typer.Option(None, "-M", "--Max_retrieved_per_topic", help="Only the top N documents of each topic count."),
    compat: str = typer.Option("9.0.8", "--compat", help="trec_eval version to reproduce: 9.0.8 (default) or 10.0."),
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
    board = build_leaderboard(
        qrels, paths, measure or None,
        relevance_level=level, judged_only=judged_only, num_docs_in_coll=num_docs,
        max_docs=max_docs, complete=complete, compat=compat,
    )
    out = render_leaderboard(board, fmt, per_topic=per_topic)
    sys.stdout.buffer.write(out.encode("utf-8", "surrogateescape"))
    sys.stdout.flush()
    return 1 if board.failed else 0
