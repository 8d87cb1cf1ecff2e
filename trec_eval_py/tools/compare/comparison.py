"""Compare runs topic by topic, with significance tests and effect sizes.

:func:`compare_runs` evaluates every run over the same topics, pairs the
runs' per-topic values for each measure (each run with the baseline, the
first run, or every pair of runs), runs the chosen tests from
:mod:`trec_eval_py.tools.compare.significance`, and corrects the p-values of each
paired test for multiple comparisons across all (pair, measure) rows.

Topics (``topics_from``): ``qrels`` takes every topic of the qrels, as
``-c`` does (a topic missing from a run is evaluated as an empty ranking,
which scores 0 on the usual measures); ``intersection`` only the topics of
the qrels that every run has results for.

The tests over all runs (``tukey``, ``tukey-classic``) are run once per
measure over every run; their p-values are family-wise already and are not
corrected again.

Every measure is taken as "higher is better": a significant positive
difference is ``better``, a negative one ``worse``.

The :class:`Comparison` it returns prints itself as a text report, CSV, JSON
(a list of records) or a long LaTeX table (one row per pair and measure),
and as a wide table (runs x measures) in LaTeX, Markdown or HTML.
"""
from __future__ import annotations

import itertools
import math
import os
import string
from collections.abc import Iterable, Sequence

import numpy as np

from ..._record import as_dict, field, fields, record
from ...engine.aggregate import seq_total
from ...engine.measures import Kind, in_asked_order, measure_specs
from ...engine.parse.source import run_labels, source_label
from ...engine.pipeline import Evaluator
from ...errors import NoTopicsError, UsageError
from ...output import table as tb
from ..shared.submissions import scan_submissions
from .options import FAIL_IF, TOPICS_FROM, check_values, expand_tests, one_of
from .significance import (
    FAMILY_TESTS,
    TEST_NAMES,
    bootstrap,
    check_resamples,
    correct,
    effect_sizes,
    family_test,
    run_test,
    wins_ties_losses,
)

FORMATS = ("text", "csv", "json", "latex", "long-latex", "markdown", "html")
WIDE_FORMATS = ("latex", "markdown", "html")

@record
class Row:
    """One pair of runs on one measure with one test: ``run`` against ``baseline``
    (the baseline run, or the earlier run of the pair with ``pairs='all'``)."""

    run: str
    measure: str
    test: str
    baseline: str
    baseline_mean: float
    mean: float
    delta: float
    relative_delta: float | None
    statistic: float
    p_value: float
    p_value_corrected: float
    correction: str
    alpha: float
    alternative: str
    significant: bool
    direction: str
    effect_size: float
    hedges_g: float
    wins: int
    ties: int
    losses: int
    ci_low: float | None
    ci_high: float | None
    ci_level: float
    ci_method: str | None
    method: str
    resamples: int | None
    topics: int
    topics_from: str
    filled: int
    filled_baseline: int
    file: str

    def to_dict(self) -> dict:
        return {k: _json_value(v) for k, v in as_dict(self).items()}


def _json_value(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


@record(frozen=False)
class Comparison:
    """The result of :func:`compare_runs`.

    runs : labels of the runs, baseline first
    files : what each run was read from, as given
    measures : output names of the compared measures (e.g. ``map``, ``P_10``)
    topics : the topics compared
    filled : per run label, how many of ``topics`` it had no results for (scored as empty rankings)
    values : per run label and measure, the per-topic values in ``topics`` order
    rows : one :class:`Row` per (test, pair, measure), in that order
    qrels_topics : number of topics of the qrels (``topics`` is all of them with
    ``topics_from='qrels'``, those every run answered with ``'intersection'``)
    """

    runs: list[str]
    files: list[str]
    measures: list[str]
    topics: list[str]
    filled: dict[str, int]
    values: dict[str, dict[str, np.ndarray]]
    rows: list[Row]
    tests: list[str]
    alpha: float
    correction: str
    permutations: int
    seed: int | None
    options: dict = field(factory=dict)
    alternative: str = "two-sided"
    pairs: str = "baseline"
    topics_from: str = "qrels"
    qrels_topics: int = 0

    @property
    def baseline(self) -> str:
        return self.runs[0]

    def means(self) -> dict[str, dict[str, float]]:
        """Per run and measure, the mean over the compared topics (in topic order)."""
        n = len(self.topics)
        return {lab: {m: (seq_total(v) / n if n else 0.0) for m, v in per.items()}
                for lab, per in self.values.items()}

    def records(self) -> list[dict]:
        return [r.to_dict() for r in self.rows]

    @staticmethod
    def row_fields() -> tuple[str, ...]:
        """The fields of each of :meth:`records`, in order (the columns of a table of rows)."""
        return tuple(fields(Row))

    def to_json(self) -> str:
        return self.format("json")

    def to_csv(self) -> str:
        return self.format("csv")

    def to_text(self) -> str:
        return self.format("text")

    def to_long_latex(self, **opts) -> str:
        return self.format("long-latex", **opts)

    def to_latex(self, **opts) -> str:
        return self.format("latex", **opts)

    def to_markdown(self, **opts) -> str:
        return self.format("markdown", **opts)

    def to_html(self, **opts) -> str:
        return self.format("html", **opts)

    def to_dataframe(self):
        """The rows as a pandas DataFrame (one per test, pair and measure)."""
        from ...output.notebook import comparison_frame

        return comparison_frame(self)

    def __repr__(self) -> str:
        return self.format("text")  # the notebook shows _repr_html_ instead

    def _repr_html_(self) -> str:
        from ...output.notebook import comparison_html

        return comparison_html(self)

    def format(self, fmt: str, *, caption: str | None = None, label: str | None = None,
               digits: int | None = None, fragment: bool = False) -> str:
        """The comparison in ``fmt`` (one of :data:`FORMATS`, or ``md``): text, csv
        and json hold one row per test, pair and measure (long-latex too, typeset);
        latex, markdown and html the wide table of runs x measures. ``caption``,
        ``label`` and ``digits`` typeset LaTeX (the caption is HTML's too, digits
        every format people read); ``fragment`` gives HTML's table without a page."""
        fmt = _check_format(fmt)
        tb.check_typeset(fmt, caption=caption, label=label, digits=digits)
        return _render(self, fmt, caption=caption, label=label, digits=digits, fragment=fragment)

    def failures(self, fail_if: str) -> list[Row]:
        """Rows of a run against the baseline that are significant after
        correction: every such row for ``different``, those where the run is
        worse for ``worse``. The regression gate of ``compare --fail-if``."""
        one_of(fail_if, "fail_if", FAIL_IF)
        return [r for r in self.rows if r.baseline == self.baseline and r.significant
                and (fail_if == "different" or r.direction == "worse")]


def expand_runs(runs: Sequence) -> list:
    """Runs as given, with a folder standing for every file under it and a
    ``.zip`` for its members, exactly as ``batch`` finds submissions
    (:func:`~trec_eval_py.tools.shared.submissions.scan_submissions`: what a folder
    holds but is not read, a link or a pipe, is an
    :class:`~trec_eval_py.errors.InputWarning`): files as their paths,
    archive members as named streams. A file named directly is read as the
    main command reads it. A folder or archive with no run file in it is a
    :class:`~trec_eval_py.errors.UsageError`, as in ``validate``."""
    import warnings

    from ...errors import InputWarning

    out: list = []
    for r in runs:
        p = os.fspath(r) if isinstance(r, (str, os.PathLike)) else None
        if p is None or not (os.path.isdir(p) or p.lower().endswith(".zip")):
            out.append(r)  # a run file named by the user is read as the main command reads it
            continue
        found = scan_submissions([p])
        if not found.submissions:  # as validate says it: an empty folder is no run, not a missing one
            raise UsageError(f"no run files found in {p}")
        for k in found.skipped:  # what a folder holds but no run is read from: said, not dropped silently
            if not k.reason.startswith("a hidden "):
                warnings.warn(InputWarning(k.path, f"skipped: {k.reason}"), stacklevel=2)
        out.extend(s.path if s.member is None and s.problem is None else s.source() for s in found.submissions)
    return out


def per_topic_values(qrels, runs: Sequence, measures: Iterable[str] | str = ("map",), *,
                     topics_from: str = "qrels", finite: bool = True, **options):
    """Evaluate every run over the topics of the qrels (``-c``).

    Returns ``(topics, labels, files, filled, values)``: see :func:`paired_values`.
    """
    return paired_values(qrels, runs, measures, topics_from=topics_from, finite=finite, **options)[:5]


def paired_values(qrels, runs: Sequence, measures: Iterable[str] | str = ("map",), *,
                  topics_from: str = "qrels", finite: bool = True, client=None, **options):
    """Evaluate every run over the topics of the qrels (``-c``).

    Returns ``(topics, labels, files, filled, values, qrels_topics)`` where
    ``values[label][measure]`` is a float array in ``topics`` order and
    ``filled[label]`` counts the topics the run had no results for. With
    ``topics_from='intersection'`` only the topics every run answered are
    kept (and nothing is filled). Measures without per-topic numbers
    (``runid``, ``num_q``, ``relstring``) are left out. A value that is not a
    number (trec_eval's ``-nan``) cannot be paired: it is a :class:`UsageError`
    unless ``finite`` is False, for callers that explain it in their own terms.
    ``client`` (a ``dask.distributed.Client``) evaluates the runs on its cluster,
    one task a run, the judgments shipped to each worker once.
    """
    one_of(topics_from, "topics_from", TOPICS_FROM)
    measures = measure_specs(measures)  # names, or ir_measures measure objects
    options = dict(options)
    options["complete"] = True
    if client is not None:  # the files the workers read (-Z, --valid-codes), named wherever they run
        from ..shared.cluster import located

        options = located(options)
    evaluator = Evaluator(qrels, measures, **options)  # judgments parsed once, in the -R format, for every run
    files = [source_label(r, i) for i, r in enumerate(runs)]
    def failed(i: int, e: Exception):
        if isinstance(e, NoTopicsError):
            raise NoTopicsError(f"{files[i]}: {e}") from None
        raise e

    shared = (evaluator,)
    if client is not None:
        from ..shared.cluster import map_on_cluster

        evals = map_on_cluster(client, _evaluate_one, list(runs), shared, on_error=failed)
    else:
        evals = []
        for i, src in enumerate(runs):
            try:
                evals.append(_evaluate_one(src, shared))
            except NoTopicsError as e:
                failed(i, e)
    topics = list(evals[0].topics)
    for ev, name in zip(evals, files):
        if list(ev.topics) != topics:  # cannot happen with -c on one qrels; guard the pairing anyway
            raise UsageError(f"{name}: evaluated topics differ from the baseline's")
    keep = np.ones(len(topics), dtype=bool)
    if topics_from == "intersection":
        for ev in evals:
            keep &= ~np.asarray(ev.filled, dtype=bool)
        if not keep.any():
            raise NoTopicsError("no topic of the qrels has results in every run (--topics-from intersection)")
    # the measures in the order asked for (-m AP -m nDCG@10 -m P@10), as every tool shows them
    cols = [c for c in in_asked_order(evals[0].columns) if c.measure.per_topic and c.kind is not Kind.STR]
    if not cols:
        raise UsageError(f"no measure with per-topic numbers among: {' '.join(measures)}")
    kept_topics = [t for t, k in zip(topics, keep) if k]
    # a missing topic counts as the -c summary counts it (0 in 9.0.8)
    counted = [{c.name: v for c, v in zip(ev.columns, ev.counted_values())} for ev in evals]
    for name, vals in zip(files, counted):
        for c in (cols if finite else ()):
            bad = ~np.isfinite(vals[c.name].astype(np.float64)[keep])
            if np.any(bad):
                raise UsageError(f"{name}: {c.name} is undefined (nan) on topic {kept_topics[int(np.argmax(bad))]}; "
                                 "it cannot be compared")
    labels = run_labels([e.runid for e in evals], files)
    values = {lab: {c.name: vals[c.name].astype(np.float64)[keep] for c in cols} for lab, vals in zip(labels, counted)}
    filled = {lab: int(np.count_nonzero(np.asarray(e.filled, dtype=bool)[keep])) for lab, e in zip(labels, evals)}
    return kept_topics, labels, files, filled, values, len(topics)


def _evaluate_one(src, shared: tuple):
    """One run's evaluation for the pairing (``shared``: the one :class:`Evaluator`)."""
    (evaluator,) = shared
    return evaluator.evaluate(src)


def compare_runs(qrels, runs: Sequence, measures: Iterable[str] | str = ("map",),
                 tests: Iterable[str] | str = ("t",), *, alpha: float = 0.05, correction: str = "holm",
                 permutations: int = 100_000, seed: int | None = 1, alternative: str = "two-sided",
                 pairs: str = "baseline", topics_from: str = "qrels", progress=None, **options) -> Comparison:
    """Compare runs on every measure, topic by topic (``trec_eval_py compare``).

    Parameters
    ----------
    qrels
        The judgments: anything :func:`~trec_eval_py.evaluate` accepts.
    runs : sequence
        The runs, each anything :func:`~trec_eval_py.evaluate` accepts; a
        directory stands for every file in it. ``runs[0]`` is the baseline.
    measures : str or iterable of str
        ``-m`` specs (default ``map``).
    tests : str or iterable of str
        Keys of :data:`~trec_eval_py.tools.compare.significance.ALL_TESTS` (default the
        paired t-test; ``all``: every paired test).
    alpha : float
        The significance level, in ]0, 1[.
    correction : str
        The correction for several comparisons (``holm`` by default).
    permutations : int
        The number of random sign flips of the randomization test, resamples
        of the bootstrap and random tables of the randomised Tukey HSD.
    seed : int or None
        The seed of those random draws.
    alternative : str
        ``two-sided``, ``greater`` (the run scores higher) or ``less``.
    pairs : str
        ``baseline`` compares every other run with the baseline; ``all``
        compares every pair of runs (the earlier run of a pair plays the
        baseline).
    topics_from : str
        ``qrels`` or ``intersection`` (see the module doc).
    progress : callable, optional
        ``progress(done, total)``, called as the resampling tests advance.
    **options
        Evaluation options (``relevance_level``, ``max_docs``, ``judged_only``,
        ``num_docs_in_coll``, ``compat``); ``complete`` is always on.
        ``client`` (a ``dask.distributed.Client``) evaluates the runs on its
        cluster (see :func:`paired_values`); the tests run here.

    Returns
    -------
    Comparison
        One :class:`Row` per (test, pair, measure), and the per-topic values
        they were computed from.

    Raises
    ------
    UsageError
        Fewer than two runs, an unknown test, correction, alternative or
        pairing, or an ``alpha`` outside ]0, 1[.
    MeasureError, InputError
        As :func:`~trec_eval_py.evaluate` raises them.

    Examples
    --------
    >>> from trec_eval_py.tools.compare.comparison import compare_runs
    >>> c = compare_runs("examples/qrels.txt", ["examples/run_a.txt", "examples/run_b.txt"], ["map", "P.10"])
    >>> [(r.run, r.measure, round(r.delta, 4), round(r.p_value, 4), r.significant) for r in c.rows]
    [('PERTURBED', 'map', -0.0164, 0.3071, False), ('PERTURBED', 'P_10', 0.0667, 0.4226, False)]
    """
    runs = expand_runs(runs)
    if len(runs) < 2:
        raise UsageError("compare needs a baseline run and at least one other run")
    tests = expand_tests(tests)
    check_values(alternative=alternative, pairs=pairs, topics_from=topics_from, correction=correction)
    if alternative != "two-sided" and any(t in FAMILY_TESTS for t in tests):
        raise UsageError("Tukey's HSD is two-sided: use --alternative two-sided with --test tukey")
    if not 0.0 < alpha < 1.0:
        raise UsageError(f"alpha must be between 0 and 1, not {alpha}")
    permutations = check_resamples(permutations)

    topics, labels, files, filled, values, qrels_topics = paired_values(
        qrels, runs, measures, topics_from=topics_from, **options)
    names = list(values[labels[0]])
    index = {lab: i for i, lab in enumerate(labels)}
    if pairs == "baseline":
        pair_list = [(labels[0], lab) for lab in labels[1:]]
    else:
        pair_list = list(itertools.combinations(labels, 2))
    rows: list[Row] = []
    intervals: dict = {}
    effects: dict = {}
    n = len(topics)

    def interval(base, lab, m, a, b, res):
        """The test's own interval of the mean difference, or else (for the rank,
        sign, randomization and Tukey tests, which give none) a paired bootstrap one."""
        if res is not None and res.ci_low is not None:
            return res.ci_low, res.ci_high, "bootstrap" if res.test == "bootstrap" else "t"
        key = (base, lab, m)
        if key not in intervals:
            boot = bootstrap(a, b, resamples=permutations, seed=seed, alpha=alpha, alternative=alternative,
                             progress=progress)
            intervals[key] = (boot.ci_low, boot.ci_high, "bootstrap")
        return intervals[key]

    for test in tests:
        pending: list[tuple] = []  # (base, lab, m, statistic, p, res-or-None, method, resamples)
        if test in FAMILY_TESTS:
            for m in names:
                table = np.column_stack([values[lab][m] for lab in labels])
                fam = family_test(test, table, permutations=permutations, seed=seed, progress=progress)
                for base, lab in pair_list:
                    p = float(fam.p_values[index[base], index[lab]])
                    stat = float(fam.means[index[lab]] - fam.means[index[base]])
                    pending.append((base, lab, m, stat, p, None, fam.method, fam.resamples))
            adjusted = [p[4] for p in pending]
            corr_name = "family-wise"
        else:
            for base, lab in pair_list:
                for m in names:
                    res = run_test(test, values[base][m], values[lab][m], alpha=alpha, permutations=permutations,
                                   seed=seed, alternative=alternative, progress=progress)
                    pending.append((base, lab, m, res.statistic, res.p_value, res, res.method, res.resamples))
            adjusted = correct([p[4] for p in pending], correction).tolist()
            corr_name = correction
        for (base, lab, m, stat, p, res, method, resamples), p_adj in zip(pending, adjusted):
            a, b = values[base][m], values[lab][m]
            bm = seq_total(a) / n if n else 0.0
            rm = seq_total(b) / n if n else 0.0
            delta = rm - bm
            w, t_, l_ = wins_ties_losses(a, b)
            ci_low, ci_high, ci_method = interval(base, lab, m, a, b, res)
            if (base, lab, m) not in effects:
                effects[(base, lab, m)] = effect_sizes(a, b)
            d, g = effects[(base, lab, m)]
            significant = bool(p_adj <= alpha)
            direction = ("better" if delta > 0 else "worse" if delta < 0 else "") if significant else ""
            rows.append(Row(
                run=lab, measure=m, test=test, baseline=base,
                baseline_mean=bm, mean=rm, delta=delta,
                relative_delta=(delta / bm) if bm != 0 else None,
                statistic=stat, p_value=p, p_value_corrected=float(p_adj),
                correction=corr_name, alpha=alpha, alternative=alternative,
                significant=significant, direction=direction,
                effect_size=d, hedges_g=g,
                wins=w, ties=t_, losses=l_,
                ci_low=ci_low, ci_high=ci_high, ci_level=1.0 - alpha, ci_method=ci_method,
                method=method, resamples=resamples,
                topics=n, topics_from=topics_from, filled=filled[lab], filled_baseline=filled[base],
                file=files[index[lab]],
            ))
    return Comparison(labels, files, names, list(topics), filled, values, rows, tests, alpha,
                      correction, permutations, seed, dict(options), alternative, pairs, topics_from,
                      qrels_topics)


def _alternative_words(alt: str) -> str:
    return {"two-sided": "two-sided",
            "greater": "one-sided (is the run higher?)",
            "less": "one-sided (is the run lower?)"}[alt]


def _topics_words(c: Comparison) -> str:
    """"40 (every topic of the qrels; ...)": how many topics, and which."""
    if c.topics_from == "qrels":
        return (f"{len(c.topics)} (every topic of the qrels; a topic missing from a run "
                "scores as an empty ranking)")
    left = c.qrels_topics - len(c.topics)
    return (f"{len(c.topics)} of the qrels' {c.qrels_topics} (only topics every run answered; "
            f"{left} left out)")


def _family_size(c: Comparison, test: str) -> int:
    return sum(1 for r in c.rows if r.test == test)


def _correction_words(c: Comparison, test: str) -> str:
    if test in FAMILY_TESTS:
        return f"family-wise over the {len(c.runs)} runs of each measure, no further correction"
    if c.correction == "none":
        return "no correction"
    return f"{c.correction} correction over {_family_size(c, test)} comparisons"


def _interval_words(test: str, c: Comparison) -> str:
    level = f"{100 * (1 - c.alpha):g}%"
    sided = "" if c.alternative == "two-sided" else "one-sided "
    if test == "t":
        return f"{sided}{level} t interval of the mean difference"
    if test == "bootstrap":
        return f"{sided}{level} percentile interval of this bootstrap"
    return (f"{sided}{level} paired bootstrap percentile interval of the mean difference "
            f"({c.permutations} resamples, seed {c.seed}), not part of this test")


def _ci_header(test: str, c: Comparison) -> str:
    kind = {"t": "t", "bootstrap": "bootstrap"}.get(test, "bootstrap*")
    return f"{100 * (1 - c.alpha):g}% CI ({kind})"


# ---------------------------------------------------------------- tables
# What each format shows is decided here; how it is written (alignment,
# escaping, numbers) by trec_eval_py.output.table.

def _check_format(fmt: str) -> str:
    return tb.check_format(fmt, FORMATS)


def _render(c: Comparison, fmt: str, *, caption=None, label=None, digits=None, fragment=False) -> str:
    if fmt in ("csv", "json"):
        return tb.render(_rows_table(c), fmt)
    if fmt == "text":
        return tb.render(_text_tables(c, digits), "text", intro=_text_intro(c), digits=digits)
    if fmt == "long-latex":
        return tb.render(_long_latex_table(c), "latex", caption=caption, label=label, digits=digits)
    return _wide(c, tb.canonical(fmt), caption=caption, label=label, digits=digits, fragment=fragment)


def _rows_table(c: Comparison) -> tb.Table:
    """One row per test, pair and measure, every field of :class:`Row` (csv, json)."""
    names = list(fields(Row))
    return tb.Table([tb.Column(n) for n in names], [list(rec.values()) for rec in c.records()])


def _finite(x):
    """None for a value that is not a number (shown as '-')."""
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def _bound(x: float, digits: int) -> str:
    return "+inf" if math.isinf(x) and x > 0 else tb.float_text(x, digits, signed=True)


def _ci(r: Row, digits: int) -> str:
    if r.ci_low is None or r.ci_high is None:
        return "-"
    return f"[{_bound(r.ci_low, digits)}, {_bound(r.ci_high, digits)}]"


def _method_note(test: str, rows: list[Row], c: Comparison) -> str:
    if test == "randomization":
        methods = {r.method for r in rows}
        if methods == {"exact"}:
            return "exact: all sign assignments"
        return f"{c.permutations} random sign assignments, seed {c.seed}" + (
            " (exact where 2^topics <= permutations)" if "exact" in methods else "")
    if test == "bootstrap":
        return f"{c.permutations} resamples, seed {c.seed}"
    if test == "wilcoxon":
        return "zero differences dropped; " + "/".join(sorted({r.method for r in rows})) + " p-value"
    if test == "t":
        return f"{len(c.topics) - 1} degrees of freedom"
    if test == "tukey":
        methods = {r.method for r in rows}
        if methods == {"exact"}:
            return "exact: every arrangement of each topic's values among the runs"
        return f"{c.permutations} random arrangements of each topic's values among the runs, seed {c.seed}"
    if test == "tukey-classic":
        return f"studentized range, {(len(c.runs) - 1) * (len(c.topics) - 1)} degrees of freedom"
    return "ties dropped, exact binomial"


def _text_intro(c: Comparison) -> list[str]:
    lines = [f"baseline:   {c.baseline} ({c.files[0]})",
             "runs:       " + ", ".join(f"{lab} ({f})" for lab, f in zip(c.runs[1:], c.files[1:])),
             "pairs:      " + ("each run against the baseline" if c.pairs == "baseline" else
                               f"every pair of the {len(c.runs)} runs (the earlier run of a pair is 'vs')"),
             f"topics:     {_topics_words(c)}"]
    if c.topics_from == "qrels":
        lines.append("filled in:  " + ", ".join(f"{lab} {c.filled[lab]}" for lab in c.runs))
    lines.append(f"p-values:   {_alternative_words(c.alternative)}; significant if corrected p <= {c.alpha:g}")
    lines.append("effect:     d = mean difference / SD of the differences (paired Cohen's d); "
                 "g = d with Hedges' small-sample correction")
    return lines


def _text_tables(c: Comparison, digits: int | None) -> list[tb.Table]:
    """A table per test: its rows, with the means, differences, p-values, effects and interval."""
    all_pairs = c.pairs == "all"
    places = tb.DEFAULT_DIGITS if digits is None else digits
    out = []
    for test in c.tests:
        rows = [r for r in c.rows if r.test == test]
        cols = [tb.Column("run", "text")] + ([tb.Column("vs", "text")] if all_pairs else []) + [
            tb.Column("measure", "text"),
            tb.Column("vs mean" if all_pairs else "baseline", "float", align="right", missing="-"),
            tb.Column("mean", "float", align="right", missing="-"),
            tb.Column("delta", "float", signed=True, align="right", missing="-"),
            tb.Column("rel", "percent", signed=True, align="right", missing="-"),
            tb.Column("p", "pvalue", align="right"),
            tb.Column("p_corr", "pvalue", align="right"),
            tb.Column("sig", "text"),
            tb.Column("d", "float", digits=2, signed=True, align="right", missing="-"),
            tb.Column("g", "float", digits=2, signed=True, align="right", missing="-"),
            tb.Column("W/T/L", "fraction", parts=("wins", "ties", "losses")),
            tb.Column(_ci_header(test, c), "text")]
        body = [([r.run, r.baseline] if all_pairs else [r.run]) + [
            r.measure, _finite(r.baseline_mean), _finite(r.mean), _finite(r.delta), r.relative_delta,
            r.p_value, r.p_value_corrected, r.direction or ("yes" if r.significant else "no"),
            _finite(r.effect_size), _finite(r.hedges_g), (r.wins, r.ties, r.losses), _ci(r, places)]
            for r in rows]
        out.append(tb.Table(cols, body, title=f"{TEST_NAMES[test]} ({_method_note(test, rows, c)}; "
                                              f"{_correction_words(c, test)})",
                            lead=[f"interval: {_interval_words(test, c)}"]))
    return out


def _settings_words(c: Comparison, test: str) -> str:
    return (f"{TEST_NAMES[test]}, {_alternative_words(c.alternative)}, {_correction_words(c, test)}, "
            f"alpha {c.alpha:g}; topics: {_topics_words(c)}")


_MARK = {"better": ("up",), "worse": ("down",), "": ()}


def _long_latex_table(c: Comparison) -> tb.Table:
    """One row per test, pair and measure, typeset (long-latex)."""
    multi = len(c.tests) > 1
    all_pairs = c.pairs == "all"
    cols = ([tb.Column("Test", "text")] if multi else []) + [tb.Column("Run", "text")] + (
        [tb.Column("vs", "text")] if all_pairs else []) + [
        tb.Column("Measure", "text"),
        tb.Column("vs mean" if all_pairs else "Baseline", "float", align="right"),
        tb.Column("Mean", "float", align="right"),
        tb.Column(tb.Raw(r"$\Delta$"), "float", signed=True, align="right"),
        tb.Column(tb.Raw(r"$\Delta$\%"), "percent", signed=True, align="right", missing="-"),
        tb.Column(tb.Raw("$p$"), "pvalue", align="right"),
        tb.Column(tb.Raw("$p$ (corr.)"), "pvalue", align="right"),
        tb.Column(tb.Raw("$d$"), "float", digits=2, signed=True, align="right", missing="-"),
        tb.Column("W/T/L", "fraction", align="center", parts=("wins", "ties", "losses"))]
    body = [([TEST_NAMES[r.test]] if multi else []) + [r.run] + ([r.baseline] if all_pairs else []) + [
        r.measure, r.baseline_mean, tb.Cell(r.mean, marks=_MARK[r.direction]), r.delta, r.relative_delta,
        r.p_value, r.p_value_corrected, _finite(r.effect_size), (r.wins, r.ties, r.losses)] for r in c.rows]
    vs = "the run it is compared with" if all_pairs else c.baseline
    return tb.Table(cols, body, lead=["; ".join(_settings_words(c, t) for t in c.tests)],
                    notes=[rf"$^{{\uparrow}}$ / $^{{\downarrow}}$: significantly better / worse than {vs} "
                           f"at {c.alpha:g} after correction"])


# ---------------------------------------------------------------- wide tables

def _letters(n: int) -> list[str]:
    """a, b, ..., z, aa, ab, ...: one label per run."""
    out = []
    for i in range(n):
        s, k = "", i
        while True:
            s = string.ascii_lowercase[k % 26] + s
            k = k // 26 - 1
            if k < 0:
                break
        out.append(s)
    return out


@record
class _Cell:
    value: float
    best: bool
    vs_baseline: str  # "better", "worse" or ""
    beats: tuple[str, ...]  # letters of the runs this one is significantly better than


def wide_cells(c: Comparison, test: str | None = None) -> dict[str, dict[str, _Cell]]:
    """Per run and measure: the mean, whether it is the best of the measure,
    its significant direction against the baseline and (``pairs='all'``) the
    letters of the runs it significantly beats, all under ``test`` (default:
    the first test)."""
    test = test or c.tests[0]
    means = c.means()
    letter = dict(zip(c.runs, _letters(len(c.runs))))
    out: dict[str, dict[str, _Cell]] = {}
    rows = [r for r in c.rows if r.test == test]
    for lab in c.runs:
        out[lab] = {}
        for m in c.measures:
            best = means[lab][m] == max(means[x][m] for x in c.runs)
            vs = next((r.direction for r in rows if r.measure == m and r.baseline == c.baseline and r.run == lab), "")
            beats = []
            if c.pairs == "all":
                for r in rows:
                    if r.measure != m or not r.significant:
                        continue
                    if r.run == lab and r.direction == "better":
                        beats.append(r.baseline)
                    elif r.baseline == lab and r.direction == "worse":
                        beats.append(r.run)
            out[lab][m] = _Cell(means[lab][m], best, vs,
                                tuple(letter[x] for x in c.runs if x in beats))
    return out


def _legend(c: Comparison, test: str, arrows: str = "up / down arrow") -> list[str]:
    parts = [f"{arrows}: significantly better / worse than the baseline {c.baseline}"]
    if c.pairs == "all":
        parts.append("letters: significantly better than the run with that letter")
    parts.append("bold: best value of the measure")
    return ["; ".join(parts) + ".", _settings_words(c, test) + "."]


def _wide_key(c: Comparison) -> tb.Raw:
    """The wide LaTeX table's caption: what the marks mean, under which test."""
    test = c.tests[0]
    esc = tb.latex_escape
    return tb.Raw(r"$\uparrow$/$\downarrow$: significantly better/worse than " + esc(c.baseline)
                  + ("; superscript letters: significantly better than the run with that letter"
                     if c.pairs == "all" else "")
                  + rf" ({esc(TEST_NAMES[test])}, {esc(_correction_words(c, test))}, "
                  + rf"$\alpha = {c.alpha:g}$, {len(c.topics)} topics). Bold: best value of each measure.")


def _wide(c: Comparison, fmt: str, *, caption=None, label=None, digits=None, fragment=False) -> str:
    """Runs x measures: each run's mean, bold where best, an arrow where significantly
    better or worse than the baseline and (``pairs='all'``) the letters of the runs it
    significantly beats, under the first test."""
    test = c.tests[0]
    cells = wide_cells(c, test)
    letters = dict(zip(c.runs, _letters(len(c.runs))))
    prefix = (lambda lab: f"({letters[lab]}) ") if c.pairs == "all" else (lambda lab: "")
    cols = [tb.Column("Run", "text", align="left")] + [tb.Column(m, "float", align="right") for m in c.measures]
    body = [[prefix(lab) + lab] + [tb.Cell(cells[lab][m].value, bold=cells[lab][m].best,
                                           marks=_MARK[cells[lab][m].vs_baseline], sup="".join(cells[lab][m].beats))
                                   for m in c.measures] for lab in c.runs]
    rules = (0,) if len(c.runs) > 1 else ()
    if fmt == "latex":
        table = tb.Table(cols, body, lead=_legend(c, test), rules=rules)
        return tb.render(table, "latex", caption=_wide_key(c) if caption is None else caption,
                         label="tab:compare" if label is None else label, digits=digits)
    table = tb.Table(cols, body, notes=_legend(c, test, "\u2191 / \u2193"), row_header=True, rules=rules)
    if fmt == "markdown":
        return tb.render(table, "markdown", digits=digits)
    return tb.render(table, "html", digits=digits, caption=caption, fragment=fragment,
                     css_class="trec-eval-compare", title=f"Runs compared with the baseline {c.baseline}")
