"""``trec_eval_py shard RUN -o DIR``: a run as a Parquet dataset cut into ranges of topics."""
from __future__ import annotations

import typer

from ..help import exit_codes_epilog
from ..output import write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command(epilog=exit_codes_epilog())
def shard(
    run: str = typer.Argument(..., metavar="RUN", help="A TREC run file (read with trec_eval_py's own reader)."),
    out: str = typer.Option(..., "-o", "--output", metavar="DIR",
                            help="Folder to write the shards and manifest.json into."),
    shards: int | None = typer.Option(None, "--shards", metavar="N",
                                      help="Number of shards (default: one per 4M lines)."),
) -> int:
    """Write RUN as a sharded Parquet dataset: one file per range of topics
    (topic ids in byte order, about as many lines each; a topic is never split)
    and a manifest (the cuts, the run id, the source file's size and SHA-256).
    Evaluate it like the run itself (trec_eval_py QRELS DIR), on one machine or
    with --engine dask, each shard a task. Needs pyarrow (the \\[dask] extra).
    """
    # (the backslash keeps typer's rich help from reading [dask] as markup and dropping it)
    import os

    from ...engine.join.dataset import write_dataset
    from ...errors import InputError

    if not os.path.lexists(run):  # worded as every command words it
        raise InputError(run, "no such file")
    m = write_dataset(run, out, shards=shards)
    write_output(f"{out}: {len(m['shards'])} shards, {m['lines']} lines, {m['topics']} topics, "
                 f"run id {m['runid']}\n")
    return 0
