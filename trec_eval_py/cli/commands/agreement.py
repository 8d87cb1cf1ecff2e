"""``trec_eval_py agreement QRELS_A QRELS_B [...]``: inter-assessor agreement.

The statistics are :mod:`trec_eval_py.tools.organiser.agreement`'s; this module maps flags to it.
"""
from __future__ import annotations

import typer

from ...output.table import check_format, choices_text
from ...tools.organiser.agreement import OUTPUT_FORMATS
from ..flags import evaluation_flags
from ..help import exit_codes_epilog
from ..output import check_output, write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command(epilog=exit_codes_epilog())
@evaluation_flags("relevance_level", "rel_format", help={
    "relevance_level": "Lowest level that counts as relevant, for the kappas on relevance (default 1).",
    "rel_format": "qrels (default: one assessor a file) or qrels_jg (one assessor a judgment group).",
})
def agreement(
    judgments: list[str] = typer.Argument(..., metavar="QRELS...", help=(
        "Judgments of each assessor: two files or more (-R qrels), or qrels_jg files whose groups are the assessors.")),
    show: list[str] = typer.Option([], "--show", metavar="SECTION", help=(
        "What to print (repeatable or comma-separated): summary, confusion, topics, pairs, disagreements. "
        "Default: summary, confusion, topics (and pairs with more than two assessors); csv takes exactly one.")),
    relevance_only: bool = typer.Option(False, "--relevance-only", help=(
        "List only the disagreements on relevance (at -l), not every difference of level.")),
    fmt: str = typer.Option("text", "--format", help=f"Output: {choices_text(OUTPUT_FORMATS, 'text')}."),
    output: str | None = typer.Option(None, "-o", "--output", metavar="FILE",
                                         help="Write to FILE instead of standard output."),
    *,
    options: dict,
) -> None:
    """Inter-assessor agreement on the documents that every assessor judged.

    Two assessors: Cohen's kappa on relevance (level >= -l) and on the levels
    (unweighted, linear and quadratic weights), positive agreement, the
    confusion matrix of levels. More: Fleiss' kappa and every pair's kappa.
    Always Krippendorff's alpha (nominal, ordinal, interval) over the documents
    judged by two assessors or more, per-topic values, and on request the
    documents they disagree on. Documents judged by one assessor only are
    counted and left out; a negative level (pooled, not judged) is no
    judgment. A statistic that is 0/0 (everything judged alike: chance
    agreement is 1) prints as undefined (null in json).
    """
    from ...tools.organiser.agreement import agreement as compute
    from ...tools.organiser.agreement import render_agreement

    fmt = check_format(fmt, OUTPUT_FORMATS)
    sections = [s for spec in show for s in spec.replace(",", " ").split()] or None
    check_output(output)
    report = compute(judgments, rel_format=options["rel_format"], relevance_level=options["relevance_level"])
    write_output(render_agreement(report, fmt, sections, relevance_only=relevance_only), output)
