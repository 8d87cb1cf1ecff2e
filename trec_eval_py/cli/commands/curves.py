"""``trec_eval_py curves``: ranking-curve points (precision/recall, ROC, CROC, accumulation...) or per-rank table.

Prints, per topic and (where meaningful) averaged over topics, the points of
the chosen curve as TSV (``topic<TAB>x<TAB>y`` with a header line) or JSON,
ready to plot. The computation lives in :mod:`trec_eval_py.tools.curves.curves`.
"""
from __future__ import annotations

import typer

from ...errors import ExitCode, UsageError
from ...output.table import check_format, choices_text
from ...tools.curves.curves import CURVES, DEFAULT_LEVELS, KINDS, compute_curves, compute_table, curve_help, curve_names
from ..flags import evaluation_flags
from ..help import exit_codes_epilog
from ..output import write_output

#: --format of the curves (points) and of --curve table (rows)
POINT_FORMATS = ("tsv", "csv", "json")
TABLE_FORMATS = ("tsv", "csv", "json", "text")

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


# The help is built from the curve registry (tools.curves.curves.CURVES), so a curve
# added there is listed here without another word.
_HELP = f"""Print the points of a ranking curve, per topic and averaged, or LingPipe's per-rank table.

{curve_help()}

A is the magnification's alpha (defaults as for the croc_* measures). N is the
full list's length. Negatives are the retrieved non-relevant documents, or
with -N the collection's non-relevant documents. The table has one row per
retrieved document, the threshold at its score; relevant documents never
retrieved (LingPipe's addMisses) count in recall only.
"""


@app.command(help=_HELP, epilog=exit_codes_epilog(ExitCode.NO_TOPICS))
@evaluation_flags("complete", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only", "order", "compat",
                  "rel_format", "results_format", "valid_codes",
                  help={"num_docs_in_coll": "Collection size: every unretrieved document is a negative ranked last "
                                            "(roc, croc, table's rej_recall). Relevant documents never retrieved "
                                            "(LingPipe's misses) count in recall without it."})
def curves(
    rel_info_file: str = typer.Argument(..., metavar="QRELS"),
    results_file: str = typer.Argument(..., metavar="RUN"),
    curve: str = typer.Option("pr", "--curve", help=f"One of {curve_names()}."),
    topic: str | None = typer.Option(None, "--topic", help="Only this topic's points; 'all' for only the average."),
    fmt: str = typer.Option("tsv", "--format", help=f"Output: {choices_text(POINT_FORMATS, 'tsv')} (topic, x, y "
                            "with a header line); for --curve table also text (aligned columns)."),
    levels: int = typer.Option(DEFAULT_LEVELS, "--levels",
                               help="Number of evenly spaced x levels of the averaged curve (every curve with an "
                                    "average)."),
    *,
    options: dict,
) -> None:
    kind = CURVES.get(curve.strip())
    if kind is not None and not kind.points:  # the table: rows, not (x, y) points
        fmt = check_format(fmt, TABLE_FORMATS)
        if topic == "all":
            raise UsageError("the table has no average over topics; pick a topic")
        table = compute_table(rel_info_file, results_file, topics=None if topic is None else [topic], **options)
        write_output({"tsv": table.to_tsv, "csv": table.to_csv, "json": table.to_json, "text": table.to_text}[fmt]())
        return
    if fmt == "text" and kind is not None:
        raise UsageError("--format text is for --curve table only; choose one of " + ", ".join(POINT_FORMATS))
    fmt = check_format(fmt, POINT_FORMATS)
    only_avg = topic == "all"
    result = compute_curves(
        rel_info_file, results_file, curve, levels=levels,
        topics=None if topic is None or only_avg else [topic],
        **options,
    )
    if only_avg and result.average is None:
        raise UsageError(f"curve '{result.name}' has no average over topics; pick a topic")
    per_topic = not only_avg
    summary = topic is None or only_avg
    text = {"tsv": result.to_tsv, "csv": result.to_csv, "json": result.to_json}[fmt](per_topic=per_topic,
                                                                                     summary=summary)
    write_output(text)


__all__ = ["app", "KINDS"]
