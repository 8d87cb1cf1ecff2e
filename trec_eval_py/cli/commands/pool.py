"""``trec_eval_py pool RUN...``: the documents to judge, pooled from many runs."""
from __future__ import annotations

import typer

from ..flags import evaluation_flags
from ..help import exit_codes_epilog

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


def parse_run_depths(specs: list[str]) -> dict[str, int]:
    """``NAME=K`` items (repeatable, or comma-separated) as ``{name: k}``."""
    from ...errors import UsageError

    out: dict[str, int] = {}
    for spec in specs:
        for item in spec.split(","):
            name, sep, k = item.strip().rpartition("=")
            if not sep or not name or not k.strip().lstrip("-").isdigit():
                raise UsageError(f"--run-depth wants NAME=DEPTH, e.g. runA=50; not {item.strip()!r}")
            out[name] = int(k)
    return out


@app.command(epilog=exit_codes_epilog())
@evaluation_flags("results_format", "order", "compat", "rel_format", "relevance_level",
                  help={"rel_format": "Format of --judged (default qrels).",
                        "relevance_level": "Lowest level of --judged that counts as relevant (default 1)."})
def pool(
    runs: list[str] = typer.Argument(..., metavar="RUN...", help="Run files, in any -T format."),
    method: str = typer.Option("depth", "--method",
                               help="depth (TREC's depth-k pool), union (a depth per run: --run-depth), rbp (summed "
                                    "rank-biased weights, adaptive with --judged), mtf (move-to-front)."),
    depth: int | None = typer.Option(None, "-k", "--depth",
                                        help="Pool depth (depth, union; default 100); for rbp and mtf how deep each "
                                             "run is read (default: all of it)."),
    run_depth: list[str] = typer.Option([], "--run-depth", metavar="NAME=K",
                                        help="union: pool run NAME to depth K (repeatable; 0 leaves it out). Runs are "
                                             "named by run id, or by file name when run ids are shared."),
    budget: int = typer.Option(100, "--budget", help="rbp, mtf: documents to choose per topic."),
    p: float = typer.Option(0.8, "--p", help="rbp: the persistence of rank-biased precision."),
    judged: str | None = typer.Option(None, "--judged", metavar="QRELS",
                                         help="rbp, mtf: judgments made so far (steer the choice; never chosen "
                                              "again)."),
    fmt: str = typer.Option("text", "--format",
                            help="text (topic docno run:rank...), qrels (topic 0 docno -1, to fill in), csv or json."),
    output: str | None = typer.Option(None, "-o", "--output", metavar="FILE",
                                         help="Write the judging file to FILE instead of standard output."),
    stats: str | None = typer.Option(None, "--stats", metavar="FILE",
                                        help="Also write pool statistics (size per topic; documents each run "
                                             "contributed and those only it contributed) to FILE ('-': standard "
                                             "error)."),
    stats_format: str = typer.Option("text", "--stats-format", help="text, csv or json."),
    *,
    options: dict,
) -> None:
    """Pool many runs: the documents to judge per topic, with the runs that
    retrieved each one and at what rank.

    Ranks are those the main command evaluates (score descending, ties by
    docno; --order and --compat as there). Big runs are read piece by piece
    in bounded memory when they list their topics in byte order of topic ids.
    """
    import sys

    from ...errors import UsageError
    from ...tools.organiser.pooling import FORMATS, JSON_END, RESTART, STATS_FORMATS, iter_pool, render
    from ..output import check_output, write_output
    from ..restartable import Spool

    if fmt not in FORMATS:
        raise UsageError(f"unknown --format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if stats_format not in STATS_FORMATS:
        raise UsageError(f"unknown --stats-format {stats_format!r}; choose one of {', '.join(STATS_FORMATS)}")
    if stats not in (None, "-"):
        check_output(stats)
    if depth is None:
        depth = 100 if method in ("depth", "union") else None
    final = None
    with Spool(output) as out:
        first = True
        for part, st in iter_pool(runs, method, depth=depth, run_depths=parse_run_depths(run_depth),
                                  budget=budget, p=p, judged=judged, **options):
            if part is RESTART:
                out.reset()
                first = True
                continue
            assert st is not None  # only RESTART comes without the statistics
            text = render("pool", part, fmt, st.runs, first=first)
            if text:
                out.write(text)
                first = False
            final = st
        if fmt == "json":
            out.write("[]\n" if first else JSON_END)
    if stats is not None and final is not None:
        text = render("stats", final, stats_format)
        if stats == "-":
            sys.stderr.write(text)
        else:
            write_output(text, stats)
