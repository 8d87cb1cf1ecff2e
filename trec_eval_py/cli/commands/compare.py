"""``trec_eval_py compare``: is a run better than the baseline, topic by topic?

The statistics live in :mod:`trec_eval_py.tools.compare.significance` and the pairing of
runs in :mod:`trec_eval_py.tools.compare.comparison`; this module only maps flags to them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from ...errors import ExitCode, UsageError
from ...output.table import check_format, check_typeset, choices_text, pvalue_text
from ...tools.compare.comparison import FORMATS, Comparison, compare_runs
from ...tools.compare.options import DEFAULTS, check_options, check_values
from ...tools.compare.significance import CORRECTIONS, TEST_NAMES, TESTS
from ..flags import cluster_client, cluster_flags, evaluation_flags
from ..help import exit_codes_epilog
from ..output import check_output, tell, write_output

if TYPE_CHECKING:
    from ...tools.compare.positives import PositivesComparison

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})

_TEST_HELP = (
    f"Significance test (repeatable): {', '.join(TESTS)} (paired; default t); tukey (randomised Tukey HSD "
    "over all runs) or tukey-classic (ANOVA form); all = every paired test. With --unit positives: the "
    "CROC paper's permutation-, t- and wilcoxon-paired/-unpaired (default all six).")


@app.command(epilog=exit_codes_epilog(ExitCode.FAILED, ExitCode.CLUSTER, ExitCode.NO_TOPICS))
@cluster_flags(help={"engine": "local (this process) or dask (each run evaluated as a task on a dask cluster; "
                               "the tests run here; --unit topics only). See --workers, --scheduler."})
@evaluation_flags("measures", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only", "compat", "order",
                  "rel_format", "results_format", "valid_codes",
                  help={"measures": "Measure (repeatable): map, P.10, ndcg_cut.10... Default: map."})
def compare(
    qrels: str = typer.Argument(..., metavar="QRELS"),
    runs: list[str] = typer.Argument(..., metavar="BASELINE RUN...",
                                     help="The baseline run, then the runs to compare with it; a folder "
                                          "stands for every file under it (in path order) and a .zip for its "
                                          "members, as for batch."),
    test: list[str] = typer.Option([], "--test", help=_TEST_HELP),
    pairs: str = typer.Option("baseline", "--pairs",
                              help="baseline: each run against the baseline; all: every pair of runs."),
    alternative: str = typer.Option("two-sided", "--alternative", help=(
        "two-sided, greater (is the run higher than the baseline?) or less.")),
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level; also sets the confidence level 1 - alpha."),
    correction: str | None = typer.Option(None, "--correction", help=(
        f"Multiple-comparison correction across all (pair, measure) rows of a paired test (with --unit "
        f"positives: all (pair, measure, topic) rows of a test): {', '.join(CORRECTIONS)} "
        "(bh, by: Benjamini-Hochberg, -Yekutieli). Default holm.")),
    permutations: int | None = typer.Option(None, "--permutations", help=(
        "Random sign flips (randomization), resamples (bootstrap) or random tables (tukey); random splits "
        "of the permutation tests of --unit positives. Default 100000.")),
    seed: int | None = typer.Option(None, "--seed", help=(
        "Seed of the random draws; the same seed gives the same p-values. Default 1.")),
    topics_from: str = typer.Option("qrels", "--topics-from", help=(
        "qrels: every topic of the qrels, missing ones scored as empty rankings (-c); "
        "intersection: only topics every run answered.")),
    fmt: str = typer.Option("text", "--format", help=(
        f"{choices_text(FORMATS, 'text')}. text, csv, json and long-latex: one row per test, pair and measure; "
        "latex, markdown and html: a wide table of runs x measures. --unit positives: a row per pair, measure and "
        "topic in any of them but latex (csv, json: a row per test too).")),
    caption: str | None = typer.Option(None, "--caption", help="LaTeX (and HTML): the table's caption, "
                                          "instead of the key to its marks."),
    label: str | None = typer.Option(None, "--label", help="LaTeX: the table's \\label (wide table: "
                                        "tab:compare unless given)."),
    digits: int | None = typer.Option(None, "--digits", help=(
        "Decimals of means and differences (--unit positives: of the values) "
        "(text, latex, long-latex, markdown, html; default 4).")),
    fail_if: str | None = typer.Option(None, "--fail-if", help=(
        "worse: exit 3 (failed) if a run is significantly worse than the baseline (after correction); "
        "different: if it differs significantly either way (needs --alternative two-sided).")),
    output: str | None = typer.Option(None, "-o", "--output", help="Write to this file instead of standard output."),
    unit: str = typer.Option("topics", "--unit", help=(
        "topics (default): tests over per-topic values; positives: the CROC paper's six tests over the "
        "relevant documents of each topic, for area measures (auc_roc, croc_exp.7, auc_ac, cac_exp.7, "
        "auc_proc, auc_pac, auc_roc_t.T, auc_roc_fp.K; rie and bedroc, tested as cac_exp with their alpha).")),
    *,
    options: dict,
    cluster: dict,
) -> int:
    """Compare runs with a baseline (the first run), or every pair of runs, on every measure, topic by topic.

    By default every topic of the qrels counts; a topic missing from a run is
    evaluated as an empty ranking (as with -c), and the output says how many
    were filled in. Prints, per pair and measure: both means, the difference,
    p-values (raw and corrected), the effect size (paired Cohen's d, Hedges'
    g), wins/ties/losses over topics and a labelled confidence interval.
    -R, -T and --valid-codes read other formats (e.g. -R codiesp -T codiesp,
    -R prefs) as the main command does. Exit status 3 with --fail-if when
    the gate fails.
    """
    fmt = check_format(fmt, FORMATS)
    check_typeset(fmt, caption=caption, label=label, digits=digits)
    # the tool's own checks (the Python API makes them too), before any file is read
    check_values(unit=unit, alternative=alternative, pairs=pairs, topics_from=topics_from, correction=correction,
                 permutations=permutations, fail_if=fail_if)
    check_output(output)
    named = [t.strip() for spec in test for t in spec.split(",") if t.strip()]
    if unit == "positives":
        from ...tools.compare.positives import check_positive_format, check_positive_tests

        tests = check_positive_tests(named)
        check_positive_format(fmt)
    else:
        from ...tools.compare.options import expand_tests

        tests = expand_tests(named or DEFAULTS["tests"])
    # contradictory options: one line each, before any file is read
    check_options(unit=unit, tests=tests, alternative=alternative, fail_if=fail_if, correction=correction,
                  permutations=permutations, seed=seed)
    given = {"correction": correction, "permutations": permutations, "seed": seed}
    stats: dict[str, Any] = {k: DEFAULTS[k] if v is None else v for k, v in given.items()}
    measures = options.pop("measures")
    result: Comparison | PositivesComparison
    if unit == "positives":
        from ...tools.compare.positives import compare_positive_runs

        if cluster["engine"] != "local":
            raise UsageError("--unit positives compares on this machine: --engine dask goes with --unit topics")

        result = compare_positive_runs(qrels, runs, measures or ["auc_roc"], tests=tests, alpha=alpha,
                                       alternative=alternative, pairs=pairs, topics_from=topics_from,
                                       **stats, **options)
    else:
        report, bar = _progress()
        with cluster_client(cluster) as client, bar:
            result = compare_runs(
                qrels, runs, measures or ["map"], tests, alpha=alpha, alternative=alternative, pairs=pairs,
                topics_from=topics_from, progress=report, client=client, **stats, **options,
            )
    write_output(result.format(fmt, caption=caption, label=label, digits=digits), output)
    if fail_if is None:
        return ExitCode.OK
    if isinstance(result, Comparison):
        failed = [f"{r.run} on {r.measure} ({TEST_NAMES[r.test]}, corrected p {pvalue_text(r.p_value_corrected)})"
                  for r in result.failures(fail_if)]
    else:  # --unit positives
        failed = [f"{r.run} on {r.measure}, topic {r.topic} ({', '.join(t for t in result.tests if r.significant[t])})"
                  for r in result.failures(fail_if)]
    if not failed:
        return ExitCode.OK
    what = "significantly worse than" if fail_if == "worse" else "significantly different from"
    tell(f"compare --fail-if {fail_if}: {what} {result.baseline}: {', '.join(failed)}")
    return ExitCode.FAILED


def _progress():
    """``progress(done, total)`` for the resampling loops, drawn as one bar on
    standard error when it is a terminal (see :mod:`trec_eval_py.cli.progress`).
    Each loop counts from 0 again; the bar adds up the draws of all of them."""
    from ..progress import Progress

    bar = Progress(None, "resampling", unit="draws")
    if not bar.enabled:
        return None, bar
    last = [0]

    def report(done: int, total: int) -> None:
        step = done - last[0] if done >= last[0] else done
        last[0] = done
        bar.update(step)

    return report, bar
