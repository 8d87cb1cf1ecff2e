"""``trec_eval_py compare``: is a run better than the baseline, topic by topic?

The statistics live in :mod:`trec_eval_py.tools.significance` and the pairing of
runs in :mod:`trec_eval_py.tools.comparison`; this module only maps flags to them.
"""
from __future__ import annotations

import sys
from typing import List, Optional

import typer

from ...errors import UsageError
from ...tools.comparison import FAIL_IF, FORMATS, PAIRS, TOPICS_FROM, compare_runs
from ...tools.significance import ALTERNATIVES, CORRECTIONS, TEST_NAMES, TESTS
from ..flags import evaluation_flags
from ..output import check_output, write_output

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command()
@evaluation_flags("measures", "relevance_level", "num_docs_in_coll", "max_docs", "judged_only", "compat", "order",
                  "rel_format", "results_format", "valid_codes",
                  help={"measures": "Measure (repeatable): map, P.10, ndcg_cut.10... Default: map."})
def compare(
    qrels: str = typer.Argument(..., metavar="QRELS"),
    runs: List[str] = typer.Argument(..., metavar="BASELINE RUN...",
                                     help="The baseline run, then the runs to compare with it; a folder "
                                          "stands for every file under it (in path order) and a .zip for its "
                                          "members, as for batch."),
    test: List[str] = typer.Option(["t"], "--test", help=(
        f"Significance test (repeatable): {', '.join(TESTS)} (paired); tukey (randomised Tukey HSD over all "
        "runs) or tukey-classic (ANOVA form); all = every paired test.")),
    pairs: str = typer.Option("baseline", "--pairs", help="baseline: each run against the baseline; all: every pair of runs."),
    alternative: str = typer.Option("two-sided", "--alternative", help=(
        "two-sided, greater (is the run higher than the baseline?) or less.")),
    alpha: float = typer.Option(0.05, "--alpha", help="Significance level; also sets the confidence level 1 - alpha."),
    correction: str = typer.Option("holm", "--correction", help=(
        f"Multiple-comparison correction across all (pair, measure) rows of a paired test: {', '.join(CORRECTIONS)} "
        "(bh, by: Benjamini-Hochberg, -Yekutieli).")),
    permutations: int = typer.Option(100_000, "--permutations", help=(
        "Random sign flips (randomization), resamples (bootstrap) or random tables (tukey).")),
    seed: int = typer.Option(1, "--seed", help="Seed of the random draws; the same seed gives the same p-values."),
    topics_from: str = typer.Option("qrels", "--topics-from", help=(
        "qrels: every topic of the qrels, missing ones scored as empty rankings (-c); "
        "intersection: only topics every run answered.")),
    fmt: str = typer.Option("text", "--format", help=(
        "text, csv, json, long-latex (one row per pair and measure), or a wide table of runs x measures: "
        "latex, markdown, html.")),
    fail_if: Optional[str] = typer.Option(None, "--fail-if", help=(
        "worse: exit 3 if a run is significantly worse than the baseline (after correction); "
        "different: if it differs significantly either way.")),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Write to this file instead of standard output."),
    unit: str = typer.Option("topics", "--unit", help="topics (default): tests over per-topic values; positives: the CROC paper's six tests over the relevant documents of each topic, for area measures (auc_roc, croc_exp.7, auc_ac, cac_exp.7, auc_proc, auc_pac, auc_roc_t.T, auc_roc_fp.K)."),
    *,
    options: dict,
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
    if fmt not in FORMATS:
        raise UsageError(f"unknown --format {fmt!r}; choose one of {', '.join(FORMATS)}")
    for value, flag, allowed in ((pairs, "--pairs", PAIRS), (alternative, "--alternative", ALTERNATIVES),
                                 (topics_from, "--topics-from", TOPICS_FROM)):
        if value not in allowed:
            raise UsageError(f"unknown {flag} {value!r}; choose one of {', '.join(allowed)}")
    if fail_if is not None and fail_if not in FAIL_IF:
        raise UsageError(f"unknown --fail-if {fail_if!r}; choose one of {', '.join(FAIL_IF)}")
    check_output(output)
    tests = [t.strip() for spec in test for t in spec.split(",") if t.strip()]
    if unit not in ("topics", "positives"):
        raise UsageError(f"unknown --unit {unit!r}; choose topics or positives")
    if unit == "positives":
        from ...tools.positives import POSITIVE_TESTS, positives_report

        chosen = [t for t in tests if t in POSITIVE_TESTS] or list(POSITIVE_TESTS)
        text = positives_report(qrels, runs, options.pop("measures") or ["auc_roc"], tests=chosen,
                                permutations=permutations, seed=seed, fmt=fmt, **options)
        if output:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
        return
    measures = options.pop("measures") or ["map"]
    report, bar = _progress()
    with bar:
        result = compare_runs(
            qrels, runs, measures, tests,
            alpha=alpha, correction=correction, permutations=permutations, seed=seed,
            alternative=alternative, pairs=pairs, topics_from=topics_from, progress=report, **options,
        )
    write_output(result.format(fmt), output)
    if fail_if is None:
        return 0
    failed = result.failures(fail_if)
    if not failed:
        return 0
    what = "significantly worse than" if fail_if == "worse" else "significantly different from"
    listed = ", ".join(f"{r.run} on {r.measure} ({TEST_NAMES[r.test]}, corrected p {r.p_value_corrected:.3g})"
                       for r in failed)
    sys.stderr.write(f"trec_eval_py: compare --fail-if {fail_if}: {what} {result.baseline}: {listed}\n")
    return 3


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
