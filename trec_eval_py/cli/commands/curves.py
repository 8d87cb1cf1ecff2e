"""``trec_eval_py curves``: a run's precision/recall, ROC or CROC curve points.

Prints, per topic and (where meaningful) averaged over topics, the points of
the chosen curve as TSV (``topic<TAB>x<TAB>y`` with a header line) or JSON,
ready to plot. The computation lives in :mod:`trec_eval_py.tools.curves`.
"""
from __future__ import annotations

from typing import Optional

import typer

from ...tools.curves import DEFAULT_LEVELS, KINDS, compute_curves, compute_table
from ...errors import UsageError
from ..flags import evaluation_flags
from ..output import write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command()
@evaluation_flags("complete", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only", "order", "compat",
                  "results_format", help={"num_docs_in_coll": "Collection size: every unretrieved document is a negative ranked last (roc, croc, table's rej_recall). Relevant documents never retrieved (LingPipe's misses) count in recall without it."})
def curves(
    rel_info_file: str = typer.Argument(..., metavar="QRELS"),
    results_file: str = typer.Argument(..., metavar="RUN"),
    curve: str = typer.Option("pr", "--curve", help="pr, ipr, roc, croc_exp / croc_pow / croc_log with an optional .alpha (e.g. croc_exp.7), proc, ac, cac_*, pac, or table (LingPipe's per-rank table)."),
    topic: Optional[str] = typer.Option(None, "--topic", help="Only this topic's points; 'all' for only the average."),
    fmt: str = typer.Option("tsv", "--format", help="tsv (topic, x, y with a header line) or json; for --curve table also text (aligned columns)."),
    levels: int = typer.Option(DEFAULT_LEVELS, "--levels", help="Number of evenly spaced x levels of the averaged curve (ipr, roc, croc)."),
    *,
    options: dict,
) -> None:
    """Print the points of a ranking curve (pr, ipr, roc, croc_*), per topic and averaged.

    pr: (recall, precision) at each retrieved relevant document. ipr: the
    corners of the interpolated precision/recall step curve; its average is the
    interpolated precision at evenly spaced recall levels. roc: vertices of the
    ROC step curve (fpr, tpr) from (0,0) to (1,1); croc_*: the same with fpr
    magnified by the CROC function. Their average is the mean tpr at evenly
    spaced x levels. Negatives are the retrieved non-relevant documents, or with
    -N the collection's non-relevant documents.

    table: LingPipe's per-rank table, one row per retrieved document: rank, score,
    relevant (1/0), then with the threshold at that score recall, precision,
    rejection recall (negatives still rejected) and F1. Relevant documents never
    retrieved (LingPipe's addMisses) count in recall only.
    """
    if curve.strip() == "table":
        if fmt not in ("tsv", "json", "text"):
            raise UsageError(f"unknown --format {fmt!r}; choose tsv, json or text")
        if topic == "all":
            raise UsageError("the table has no average over topics; pick a topic")
        table = compute_table(rel_info_file, results_file, topics=None if topic is None else [topic], **options)
        write_output({"tsv": table.to_tsv, "json": table.to_json, "text": table.to_text}[fmt]())
        return
    if fmt not in ("tsv", "json"):
        raise UsageError(f"unknown --format {fmt!r}; choose tsv or json (text: --curve table only)")
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
    text = result.to_tsv(per_topic=per_topic, summary=summary) if fmt == "tsv" else result.to_json(per_topic=per_topic, summary=summary)
    write_output(text)


__all__ = ["app", "KINDS"]
