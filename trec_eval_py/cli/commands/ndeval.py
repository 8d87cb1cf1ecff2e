"""``trec_eval_py ndeval [options] QRELS RUN``: NIST ndeval's diversity report
(see :mod:`trec_eval_py.tools.organiser.ndeval`), with ndeval's own option spellings."""
from __future__ import annotations

import typer

from ...errors import ExitCode
from ..flags import evaluation_flags
from ..help import exit_codes_epilog
from ..output import write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help", "-help"]})


@app.command(epilog=exit_codes_epilog(ExitCode.NO_TOPICS))
@evaluation_flags("complete", "max_docs", help={
    "complete": "Average over every topic of the judgments (and, with -baseline, every topic of both runs).",
    "max_docs": "Keep each topic's first N documents (N above 0).",
})
def ndeval(
    qrels: str | None = typer.Argument(None, metavar="QRELS", help=(
        "Subtopic judgments: 'topic subtopic docno rel' lines (-R qrels_diversity).")),
    run: str | None = typer.Argument(None, metavar="RUN", help="The run: 'topic Q0 docno rank score runid' lines."),
    alpha: str = typer.Option("0.5", "-alpha", metavar="A", help=(
        "Redundancy penalty of alpha-DCG, alpha-nDCG, ERR-IA and NRBP, 0 to 1: a document relevant to a "
        "subtopic already covered c times gains (1-A)^c there.")),
    beta: str = typer.Option("0.5", "-beta", metavar="B", help=(
        "Patience of NRBP, 0 to 1: the chance of reading on to the next rank.")),
    traditional: bool = typer.Option(False, "-traditional", help=(
        "Rank each topic's documents by score, ties by docno descending (trec_eval's order), not by "
        "the rank column.")),
    baseline: str | None = typer.Option(None, "-baseline", metavar="RUN", help=(
        "Risk-sensitive evaluation: report each value against this baseline run's.")),
    risk_alpha: str = typer.Option("0", "-riskAlpha", metavar="A", help=(
        "With -baseline: losses against the baseline weigh 1+A (A 0 or more; default 0).")),
    ignored_a: bool = typer.Option(False, "-a", hidden=True, help="Accepted as ndeval accepts it; no effect."),
    version: bool = typer.Option(False, "-version", help="Print the version and exit."),
    *,
    options: dict,
) -> None:
    """NIST ndeval's report: diversity measures per topic and their mean, as CSV.

    Prints what ndeval (the TREC Web track's evaluation program, 2009-2014)
    prints: a header, one row per topic of the run and an 'amean' row, with
    ERR-IA, nERR-IA, alpha-DCG and alpha-nDCG at 5, 10 and 20, NRBP, nNRBP,
    MAP-IA, P-IA and subtopic recall (strec) at 5, 10 and 20. Topics are
    numbers (a run's may carry a prefix such as 'wt09-'). Documents are
    ranked by the rank column unless -traditional is given. The same
    measures are offered to the main command with -R qrels_diversity
    (-m ndeval for all of them).
    """
    from ... import __version__
    from ...errors import UsageError
    from ...tools.organiser.ndeval import NDEVAL_VERSION, NdevalSettings, build_report, option_number, report_text

    if version:
        write_output(f"trec_eval_py {__version__} (reproduces ndeval version {NDEVAL_VERSION})\n")
        return
    if qrels is None or run is None:
        raise UsageError("need two files: QRELS RUN (see -help)")
    settings = NdevalSettings(
        alpha=option_number("-alpha", alpha), beta=option_number("-beta", beta), traditional=traditional,
        depth=options["max_docs"], complete=options["complete"],
        risk_alpha=option_number("-riskAlpha", risk_alpha), risk_alpha_text=risk_alpha,
    )
    write_output(report_text(build_report(qrels, run, baseline, settings)))
