"""Comparing two rankings of one topic at the level of its relevant documents
(the CROC paper's six significance tests).

Every early-retrieval area of Swamidass et al. (2010) is the mean, over the
topic's relevant documents ("positives"), of one number per positive:
``1 - f(fpr)`` (ROC, CROC, pROC, hard thresholds) or ``1 - f(r/N)`` (AC, CAC,
pAC); see :mod:`trec_eval_py.engine.measures.early_retrieval`. Section 2.5's
example: positives at ranks {1, 2, 4, 5, 7} of 10 have false-positive rates
{0, 0, .2, .2, .4}, and AUC[CROC] is exactly the mean of
{1 - f(0), 1 - f(0), 1 - f(.2), 1 - f(.2), 1 - f(.4)}.

So two systems ranking the same list can be compared on those per-positive
numbers instead of on one area each:

``permutation-paired``
    each positive keeps its pair of values and the pair is swapped with
    probability 1/2 (the paper's coin flip per instance): the sign-flip
    randomization test of :func:`.significance.randomization` on the
    per-positive differences.
``permutation-unpaired``
    the two systems' values are pooled and split at random into two groups
    of the original sizes (:func:`unpaired_permutation`).
``t-paired`` / ``t-unpaired``
    :func:`.significance.paired_t` on the differences; Student's two-sample
    t-test with pooled variance (:func:`unpaired_t`; equals
    ``scipy.stats.ttest_ind(b, a)``).
``wilcoxon-paired`` / ``wilcoxon-unpaired``
    :func:`.significance.wilcoxon` on the differences; the Wilcoxon rank-sum
    (Mann-Whitney U) test (:func:`rank_sum`; equals
    ``scipy.stats.mannwhitneyu(b, a)`` with its default options).

A positive is identified by its docno, so pairs are exact. Statistics are
"b - a": ``greater`` means the second ranking scores higher.

The rankings are the pipeline's (:func:`~trec_eval_py.engine.pipeline.map_batches`
with the join keeping docnos): the one ranking rule, ``-M`` then ``-J`` as
trec_eval applies them, ``-N``, ``-l``, ``--order``, ``--compat`` and ``-T``
as for ``evaluate``; the per-positive values are the measure's own
(:meth:`~trec_eval_py.engine.measures.early_retrieval.Area.positives`, read
through the registry as :attr:`Measure.area`), and the per-topic values shown
beside the tests are ``evaluate()``'s, as ``compare`` counts them (every topic
of the qrels, ``-c``).

Positives not retrieved (or cut by ``-M`` or ``-J``): in the false-positive
view they sit below every negative (rate 1, value 1 - f(1) = 0), as for the
measures; in the rank view they take the last ranks of the list, in docno
order. A topic without results that trec_eval 9.0.8 does not evaluate under
``-c`` counts 0 in every average, so each of its positives counts 0 too.

``rie`` and ``bedroc`` are, topic by topic, affine transforms of ``cac_exp``
with the same alpha (the paper's equations 12 and 13; section 5.2: they "yield
the same P-values"): their tests are run on ``cac_exp``'s per-positive values,
their per-topic values are their own.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from ..._record import record
from ...errors import UsageError
from .significance import (
    SignificanceResult,
    average_ranks,
    check_alternative,
    make_rng,
    normal_p_value,
    p_from_tail,
    paired_t,
    randomization,
    t_p_value,
    tail_count,
    wilcoxon,
)

if TYPE_CHECKING:
    from ...engine.measures.early_retrieval import Area

#: the six tests, in the order of the paper's Table 2
POSITIVE_TESTS = ("permutation-unpaired", "permutation-paired", "t-unpaired", "t-paired",
                  "wilcoxon-unpaired", "wilcoxon-paired")


def _pair(a, b) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim != 1 or b.ndim != 1 or not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise UsageError("per-positive values must be one-dimensional finite numbers")
    return a, b


# ------------------------------------------------------------ unpaired tests

def unpaired_t(a, b, *, alternative: str = "two-sided") -> SignificanceResult:
    """Student's two-sample t-test (pooled variance) of mean(b) - mean(a)."""
    check_alternative(alternative)
    a, b = _pair(a, b)
    na, nb = len(a), len(b)
    n = na + nb
    if na < 1 or nb < 1 or n < 3:
        return SignificanceResult("t-unpaired", math.nan, math.nan, n, "t", alternative=alternative)
    diff = float(np.mean(b) - np.mean(a))
    ss = float(np.sum((a - np.mean(a)) ** 2) + np.sum((b - np.mean(b)) ** 2))
    df = n - 2
    se = math.sqrt(ss / df * (1.0 / na + 1.0 / nb))
    if se == 0.0:
        if diff == 0.0:
            return SignificanceResult("t-unpaired", 0.0, 1.0, n, "t", alternative=alternative)
        t = math.copysign(math.inf, diff)
        p = 0.0 if alternative == "two-sided" or (alternative == "greater") == (diff > 0) else 1.0
        return SignificanceResult("t-unpaired", t, p, n, "t", alternative=alternative)
    t = diff / se
    return SignificanceResult("t-unpaired", t, t_p_value(t, df, alternative), n, "t", alternative=alternative)


@lru_cache(maxsize=64)
def _u_counts(n1: int, n2: int) -> tuple[int, ...]:
    """counts[u] = arrangements of n1 + n2 untied values whose U statistic (of
    the first sample) is u; each arrangement is equally likely under the null."""
    # c(i, j, u): recursion on the largest value, which is in sample 1 (adds j to U) or sample 2
    table = {(0, j): [1] for j in range(n2 + 1)}
    for i in range(1, n1 + 1):
        table[(i, 0)] = [1]
        for j in range(1, n2 + 1):
            x = [0] * (i * j + 1)
            for u, c in enumerate(table[(i - 1, j)]):
                x[u + j] += c
            for u, c in enumerate(table[(i, j - 1)]):
                x[u] += c
            table[(i, j)] = x
    return tuple(table[(n1, n2)])


def rank_sum(a, b, *, alternative: str = "two-sided") -> SignificanceResult:
    """Wilcoxon rank-sum (Mann-Whitney U) test of b against a.

    U is b's statistic (pairs (b_i, a_j) with b_i > a_j, ties 1/2). As scipy's
    defaults: the exact distribution when there are no ties and one sample has
    at most 8 values, else the normal approximation with tie and continuity
    corrections.
    """
    check_alternative(alternative)
    a, b = _pair(a, b)
    n1, n2 = len(b), len(a)
    if n1 == 0 or n2 == 0:
        return SignificanceResult("wilcoxon-unpaired", math.nan, math.nan, n1 + n2, "exact", alternative=alternative)
    ranks, sizes = average_ranks(np.concatenate([b, a]))
    u1 = float(np.sum(ranks[:n1])) - n1 * (n1 + 1) / 2.0
    u2 = n1 * n2 - u1
    u, factor = {"greater": (u1, 1), "less": (u2, 1)}.get(alternative, (max(u1, u2), 2))
    ties = bool(np.any(sizes > 1))
    if (n1 <= 8 or n2 <= 8) and not ties:
        counts = _u_counts(n1, n2)
        p = sum(counts[int(round(u)):]) / math.comb(n1 + n2, n1)
        method = "exact"
    else:
        n = n1 + n2
        tie_term = float(np.sum(sizes.astype(np.float64) ** 3 - sizes))
        sd = math.sqrt(n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1))))
        z = (u - n1 * n2 / 2.0 - 0.5) / sd if sd > 0 else (math.inf if u > n1 * n2 / 2.0 + 0.5 else -math.inf)
        p = normal_p_value(z, "greater")
        method = "normal"
    return SignificanceResult("wilcoxon-unpaired", u1, min(1.0, factor * p), n1 + n2, method,
                              alternative=alternative)


def unpaired_permutation(a, b, *, permutations: int = 100_000, seed: int | None = 1,
                         exact: bool | None = None, alternative: str = "two-sided") -> SignificanceResult:
    """Unpaired permutation test of mean(b) - mean(a): the pooled values split
    into groups of the original sizes, every split (``exact``, when there are at
    most ``permutations`` of them) or ``permutations`` random ones. Two-sided:
    the share of splits whose absolute difference reaches the observed one (one-sided
    p-values equal ``scipy.stats.permutation_test``'s; its two-sided p doubles
    the smaller tail instead)."""
    check_alternative(alternative)
    a, b = _pair(a, b)
    na, nb = len(a), len(b)
    if na == 0 or nb == 0:
        return SignificanceResult("permutation-unpaired", math.nan, math.nan, na + nb, "exact",
                                  alternative=alternative)
    pooled = np.concatenate([b, a])
    n = na + nb
    total = float(np.sum(pooled))
    observed = float(np.mean(b) - np.mean(a))
    scale = float(np.sum(np.abs(pooled))) * (1.0 / na + 1.0 / nb)
    splits = math.comb(n, nb)
    if exact is None:
        exact = splits <= permutations
    if exact:
        sums = np.array([float(np.sum(pooled[list(c)])) for c in combinations(range(n), nb)])
        stats = sums / nb - (total - sums) / na
        hits = tail_count(stats, observed, alternative, scale)
        return SignificanceResult("permutation-unpaired", observed, p_from_tail(hits, splits, True), n, "exact",
                                  alternative=alternative)
    rng = make_rng(seed)
    hits = 0
    done = 0
    step = max(1, (1 << 20) // n)
    while done < permutations:
        k = min(step, permutations - done)
        keys = rng.random((k, n))
        first = np.argsort(keys, axis=1)[:, :nb]
        sums = pooled[first].sum(axis=1)
        hits += tail_count(sums / nb - (total - sums) / na, observed, alternative, scale)
        done += k
    return SignificanceResult("permutation-unpaired", observed, p_from_tail(hits, permutations, False), n,
                              "monte-carlo", resamples=permutations, alternative=alternative)


def positive_tests(a, b, *, tests: Sequence[str] = POSITIVE_TESTS, permutations: int = 100_000,
                   seed: int | None = 1, alternative: str = "two-sided") -> dict[str, SignificanceResult]:
    """The CROC paper's tests on paired per-positive values ``a`` and ``b`` (same
    positives, same order): ``{test: result}``."""
    a, b = _pair(a, b)
    if len(a) != len(b):
        raise UsageError(f"{len(a)} and {len(b)} per-positive values: the paired tests need the same positives")
    out = {}
    for t in tests:
        if t == "permutation-paired":
            r = randomization(a, b, permutations=permutations, seed=seed, alternative=alternative)
        elif t == "permutation-unpaired":
            r = unpaired_permutation(a, b, permutations=permutations, seed=seed, alternative=alternative)
        elif t == "t-paired":
            r = paired_t(a, b, alternative=alternative)
        elif t == "t-unpaired":
            r = unpaired_t(a, b, alternative=alternative)
        elif t == "wilcoxon-paired":
            r = wilcoxon(a, b, alternative=alternative)
        elif t == "wilcoxon-unpaired":
            r = rank_sum(a, b, alternative=alternative)
        else:
            raise UsageError(f"unknown test {t!r}; choose among {', '.join(POSITIVE_TESTS)}")
        out[t] = r
    return out


# ------------------------------------------------------ per-positive values

@record
class PositiveValues:
    """One ranking's per-positive values for one topic: ``docnos[i]`` has ``values[i]``
    (docno order). ``area`` is their mean added in rank order, as the measure's
    kernel adds them: for an area measure it equals the measure's per-topic value."""

    qid: str
    docnos: tuple[str, ...]
    values: np.ndarray
    area: float = 0.0


@record
class AreaSpec:
    """An area measure as asked for (``croc_exp.7``): its one output, the
    :class:`~trec_eval_py.engine.measures.early_retrieval.Area` whose
    per-positive values are tested, and that area's parameter."""

    spec: str
    output: str
    area: Area
    param: object

    @property
    def affine_of(self) -> str | None:
        return self.area.affine_of


def area_measure_names() -> list[str]:
    """Every measure with an :attr:`~trec_eval_py.engine.measures.Measure.area`, in print order."""
    from ...engine.measures import registry

    return [m.name for m in registry() if m.area is not None]


def area_spec(measure: str, opts) -> AreaSpec:
    """The area measure ``measure`` (one output) read through the registry, or a :class:`UsageError`."""
    from ...engine.measures import registry
    from ...errors import MeasureError

    try:
        selected = registry().resolve([measure], opts.compat, opts.measures_for, given=opts.rel_format)
    except MeasureError as e:
        raise UsageError(f"--unit positives: {e}") from None
    area = selected[0].measure.area if len(selected) == 1 else None
    if area is None:
        raise UsageError(f"--unit positives needs an area measure ({', '.join(area_measure_names())}), "
                         f"not {measure!r}")
    s = selected[0]
    if len(s.names) != 1:
        raise UsageError(f"--unit positives takes one parameter per measure (got {measure!r})")
    if getattr(s.params, "ties", "docno") != "docno":
        raise UsageError(f"--unit positives tests each relevant document's own value in trec_eval's order; "
                         f"ties=average is not offered there (got {measure!r})")
    values = s.params.values
    return AreaSpec(measure, s.names[0], area, values[s.indices[0]] if values else None)


def _positive_options(options: dict):
    """The pipeline options of the positives: every topic of the qrels (``-c``), ``-l`` >= 0."""
    from ...engine.pipeline import Options

    opts = Options(**{**options, "complete": True})
    if opts.relevance_level < 0:
        # with a negative -l unjudged documents pass the rank-by-rank test without
        # being judged relevant: no set of positives is the same in every run
        raise UsageError(f"--unit positives needs -l 0 or more (relevant documents are judged ones), "
                         f"not {opts.relevance_level}")
    return opts


def _batch_positives(b, areas: Sequence[AreaSpec]) -> list[tuple[str, list]]:
    """Per topic of batch ``b`` with positives: (qid, per area: (docnos in value order,
    values in rank order then the missed ones))."""
    from ...engine.join.qrels import decode_ids

    per_area = [a.area.positives(b, a.param) for a in areas]
    out = []
    for t, qid in enumerate(b.qids):
        if b.num_rel[t] == 0:
            continue
        docs = b.docnos(t)
        if docs is None:
            raise UsageError("--unit positives needs a judgment format whose join names documents (-R qrels)")
        ranked, judged_docs = docs
        level = b.level
        judged = b.judged[t, : b.num_judged[t]]
        relevant = judged_docs[(judged >= level) & (judged >= 0)]
        found = ranked[np.flatnonzero(b.is_rel[t])]
        # missed positives (never retrieved, or cut by -M/-J), in docno byte order
        missed = np.sort(np.setdiff1d(relevant, found))
        names = decode_ids(np.concatenate([found, missed]))
        if len(names) != int(b.num_rel[t]):
            raise AssertionError(f"topic {qid}: {len(names)} positives named, {int(b.num_rel[t])} counted")
        out.append((qid, [(names, v[t]) for v in per_area]))
    return out


def positives_by_area(judgments, run, areas: Sequence[AreaSpec], opts) -> list[dict[str, PositiveValues]]:
    """For each of ``areas``: ``{topic: PositiveValues}`` of ``run``, through the pipeline's stages."""
    from ..._record import replace
    from ...engine.join.empty_topics import evaluated_topics
    from ...engine.pipeline import map_batches

    ctx = replace(opts.context, keep_docnos=True)
    res = map_batches(lambda b: _batch_positives(b, areas), judgments, run, opts, ctx)
    counted = dict(zip(res.topics, evaluated_topics(res.filled, ctx).tolist()))
    out: list[dict[str, PositiveValues]] = [{} for _ in areas]
    for batch in res.results:
        for qid, per_area in batch:
            for k, (names, values) in enumerate(per_area):
                if not counted[qid]:
                    values = np.zeros(len(values))  # a topic 9.0.8 does not evaluate counts 0
                area = float(np.cumsum(values)[-1] / len(values))
                order = sorted(range(len(names)), key=lambda i: names[i].encode("utf-8", "surrogateescape"))
                out[k][qid] = PositiveValues(qid, tuple(names[i] for i in order), values[order], area)
    return [{q: d[q] for q in res.topics if q in d} for d in out]


def positive_values(qrels, run, measure: str, **options) -> dict[str, PositiveValues]:
    """Per topic, the value of each relevant document under the area ``measure``
    (``auc_roc``, ``croc_exp.7``, ``auc_ac``, ``cac_log.80``, ``auc_proc``,
    ``auc_pac``, ``auc_roc_t.0.1``, ``auc_roc_fp.50``: one parameter; for
    ``rie.A``/``bedroc.A`` those of ``cac_exp.A``), in docno order. Their mean
    is the measure's value for the topic.

    The ranking is the pipeline's (parse, ranking rule, ``-M`` then ``-J``,
    ``-N``, ``-l``, ``--order`` as for ``evaluate``); every topic of the qrels
    with a relevant document is included, a topic without results as ``-c``
    evaluates it.
    """
    from ...engine.pipeline import read_judgments

    opts = _positive_options(options)
    spec = area_spec(measure, opts)
    return positives_by_area(read_judgments(qrels, opts), run, [spec], opts)[0]


@record
class PositivesRow:
    """One pair of runs on one area measure and one topic: the measure's values
    (``evaluate()``'s, as compare counts them) and the tests on the per-positive values."""

    run: str
    baseline: str
    measure: str
    topic: str
    positives: int
    baseline_value: float
    value: float
    tests: dict  # test -> SignificanceResult
    p_corrected: dict  # test -> float
    significant: dict  # test -> bool

    @property
    def delta(self) -> float:
        return self.value - self.baseline_value


@record(frozen=False)
class PositivesComparison:
    """What ``compare --unit positives`` found: a row per (pair, measure, topic)."""

    runs: list[str]
    files: list[str]
    measures: list[AreaSpec]
    rows: list[PositivesRow]
    tests: list[str]
    alpha: float
    correction: str
    alternative: str
    pairs: str
    topics_from: str

    @property
    def baseline(self) -> str:
        return self.runs[0]

    def failures(self, fail_if: str) -> list[PositivesRow]:
        """Rows of a run against the baseline significant (after correction) under
        some test: all of them for ``different``, those where the run is worse for ``worse``."""
        return [r for r in self.rows if r.baseline == self.baseline and any(r.significant.values())
                and (fail_if == "different" or r.delta < 0)]

    def format(self, fmt: str, *, caption: str | None = None, label: str | None = None,
               digits: int | None = None, fragment: bool = False) -> str:
        """The comparison in ``fmt`` (one of :data:`FORMATS`, or ``md``), written by
        :mod:`trec_eval_py.output.table` as compare's other outputs are: text,
        markdown, html and long-latex show a row per pair, measure and topic with a
        p-value per test; csv and json a row per pair, measure, topic and test with
        every field (:data:`ROW_FIELDS`). ``caption``, ``label`` and ``digits``
        typeset it (as for :meth:`.comparison.Comparison.format`)."""
        from ...output import table as tb

        fmt = check_positive_format(fmt)
        if fmt in tb.MACHINE:
            return tb.render(self.rows_table(), fmt)
        table = self.table()
        if fmt == "long-latex":
            return tb.render(table, "latex", caption=caption, label=label, digits=digits)
        if fmt == "html":
            return tb.render(table, "html", caption=caption, digits=digits, fragment=fragment,
                             css_class="trec-eval-compare", title=f"Runs compared with {self.baseline}, "
                                                                  "relevant document by relevant document")
        return tb.render(table, tb.canonical(fmt), digits=digits)

    def to_text(self) -> str:
        return self.format("text")

    def to_json(self) -> str:
        return self.format("json")

    def records(self) -> list[dict]:
        """A dict per pair, measure, topic and test (:data:`ROW_FIELDS`; what csv and json write)."""
        from ...output.table import records

        return records(self.rows_table())

    def rows_table(self):
        """The machine table: a row per pair, measure, topic and test, every field."""
        from ...output import table as tb

        body = []
        for r in self.rows:
            for t in self.tests:
                res = r.tests[t]
                body.append([r.run, r.baseline, r.measure, r.topic, t, r.positives, r.baseline_value, r.value,
                             r.delta, res.statistic, res.p_value, r.p_corrected[t], r.significant[t], res.method,
                             res.resamples, self.alternative, self.correction, self.alpha, self.topics_from])
        kinds = {"positives": "int", "resamples": "int", "significant": "auto", "alpha": "float"}
        for name in ("baseline_value", "value", "delta", "statistic", "p_value", "p_value_corrected"):
            kinds[name] = "float"
        return tb.Table([tb.Column(f, kinds.get(f, "text")) for f in ROW_FIELDS], body)

    def table(self):
        """The table people read: a row per pair, measure and topic, a p-value per
        test and the tests significant after correction; the settings above it
        and, for rie/bedroc, why their tests are cac_exp's below it."""
        from ...output import table as tb

        all_pairs = self.pairs == "all"
        cols = [tb.Column("run", "text")] + ([tb.Column("vs", "text")] if all_pairs else []) + [
            tb.Column("measure", "text"), tb.Column("topic", "text"), tb.Column("pos", "int", align="right"),
            tb.Column("baseline", "float", align="right"), tb.Column("value", "float", align="right")] + [
            tb.Column(t, "pvalue", align="right") for t in self.tests] + [tb.Column("significant", "text")]
        body = [[r.run] + ([r.baseline] if all_pairs else []) +
                [r.measure, r.topic, r.positives, r.baseline_value, r.value] +
                [r.tests[t].p_value for t in self.tests] +
                [",".join(t for t in self.tests if r.significant[t]) or "-"] for r in self.rows]
        n = len(self.rows)
        corrected = ("no correction" if self.correction == "none" else
                     f"{self.correction} correction over the {n} row{'s' * (n != 1)} of each test")
        title = (f"Tests on the per-positive values of each area (p-values {self.alternative}; {corrected}; "
                 f"significant if corrected p <= {self.alpha:g}; baseline {self.baseline}; "
                 f"Swamidass et al. 2010, section 2.5)")
        notes = [f"{a.spec}: an affine transform of {a.affine_of} with the same alpha, tested on "
                 f"{a.affine_of}'s per-positive values (Swamidass et al. 2010, section 5.2)"
                 for a in self.measures if a.affine_of]
        return tb.Table(cols, body, title=title, notes=notes, empty="(no topic with a relevant document)")


#: what ``compare --unit positives`` writes: compare's formats but ``latex``, which is
#: compare's table of runs x measures (a table the per-topic rows do not make)
FORMATS = ("text", "csv", "json", "long-latex", "markdown", "html")

#: the fields of a csv/json row (one per pair, measure, topic and test); ``baseline`` is
#: the run compared with, ``baseline_value`` and ``value`` the measure's per-topic values
ROW_FIELDS = ("run", "baseline", "measure", "topic", "test", "positives", "baseline_value", "value", "delta",
              "statistic", "p_value", "p_value_corrected", "significant", "method", "resamples", "alternative",
              "correction", "alpha", "topics_from")


def check_positive_format(fmt: str) -> str:
    """``fmt``'s canonical name if ``--unit positives`` writes it, else a one-line :class:`UsageError`."""
    from ...output.table import canonical, check_format

    if canonical(fmt) == "latex":
        raise UsageError("--unit positives has a row per pair, measure and topic, not the runs x measures table "
                         "of --format latex: use --format long-latex")
    return check_format(fmt, FORMATS)


def check_positive_tests(tests: Sequence[str]) -> list[str]:
    """``tests`` as ``--unit positives`` runs them: every one of :data:`POSITIVE_TESTS`
    when none (or ``all``) is named; any other name is a :class:`UsageError`."""
    out: list[str] = []
    for t in tests:
        for name in (POSITIVE_TESTS if t == "all" else [t]):
            if name not in POSITIVE_TESTS:
                raise UsageError(f"--unit positives runs the CROC paper's tests: {', '.join(POSITIVE_TESTS)} "
                                 f"or all, not {name!r}")
            if name not in out:
                out.append(name)
    return out or list(POSITIVE_TESTS)


def compare_positive_runs(qrels, runs: Sequence, measures: Sequence[str] | str = ("auc_roc",), *,
                      tests: Sequence[str] = POSITIVE_TESTS, permutations: int = 100_000, seed: int | None = 1,
                      alternative: str = "two-sided", alpha: float = 0.05, correction: str = "holm",
                      pairs: str = "baseline", topics_from: str = "qrels", **options) -> PositivesComparison:
    """``compare --unit positives``: each run against the first (``pairs='baseline'``)
    or every pair (``'all'``), per area measure and topic with positives: both
    runs' values of the measure and the paper's tests on the per-positive values,
    their p-values corrected per test over every row (``correction``).

    ``topics_from`` is ``qrels`` (every topic of the qrels with a relevant
    document) or ``intersection`` (only those every run answered), as for compare.
    """
    from ...engine.pipeline import read_judgments
    from .comparison import expand_runs, paired_values
    from .options import check_values
    from .significance import check_resamples, correct

    check_values(unit="positives", alternative=alternative, pairs=pairs, topics_from=topics_from,
                 correction=correction)
    if not 0.0 < alpha < 1.0:
        raise UsageError(f"alpha must be between 0 and 1, not {alpha}")
    permutations = check_resamples(permutations)
    tests = check_positive_tests([tests] if isinstance(tests, str) else list(tests))
    if isinstance(measures, str):
        measures = [measures]
    runs = expand_runs(runs)
    if len(runs) < 2:
        raise UsageError("compare needs a baseline run and at least one other run")
    opts = _positive_options(options)
    specs = [area_spec(m, opts) for m in measures]
    judgments = read_judgments(qrels, opts)  # parsed once for every run and measure
    evaluated = {}  # spec -> (topics, labels, files, values): evaluate()'s numbers, as compare counts them
    # one evaluation of every measure at once, but a measure asked for twice (croc_exp.7,
    # croc_exp.14) in passes of its own: -m gives one set of parameters per measure
    rounds: list[list[AreaSpec]] = []
    for a in specs:
        name = a.spec.partition(".")[0]
        free = next((r for r in rounds if all(b.spec.partition(".")[0] != name for b in r)), None)
        if free is None:
            rounds.append([a])
        else:
            free.append(a)
    for batch in rounds:
        topics, labels, files, _filled, values, _n = paired_values(
            judgments, runs, [a.spec for a in batch], topics_from=topics_from, **{**options, "complete": True})
        for a in batch:
            evaluated[a.spec] = (topics, labels, files, {lab: values[lab][a.output] for lab in labels})
    labels, files = evaluated[specs[0].spec][1], evaluated[specs[0].spec][2]
    per_run = {lab: positives_by_area(judgments, run, specs, opts) for lab, run in zip(labels, runs)}
    pair_list = ([(labels[0], lab) for lab in labels[1:]] if pairs == "baseline"
                 else list(combinations(labels, 2)))
    pending = []
    for base, lab in pair_list:
        for k, a in enumerate(specs):
            topics, _, _, values = evaluated[a.spec]
            for i, qid in enumerate(topics):
                va, vb = per_run[base][k].get(qid), per_run[lab][k].get(qid)
                if va is None:
                    continue  # no positives
                if vb is None or va.docnos != vb.docnos:
                    raise AssertionError(f"topic {qid}: the two runs have different positives")
                res = positive_tests(va.values, vb.values, tests=tests, permutations=permutations, seed=seed,
                                     alternative=alternative)
                pending.append((lab, base, a.spec, qid, len(va.values), float(values[base][i]),
                                float(values[lab][i]), res))
    adjusted = {t: correct([p[-1][t].p_value for p in pending], correction).tolist() for t in tests}
    rows = []
    for j, (lab, base, spec, qid, n, bv, v, res) in enumerate(pending):
        p_adj = {t: adjusted[t][j] for t in tests}
        rows.append(PositivesRow(lab, base, spec, qid, n, bv, v, res, p_adj,
                                 {t: bool(p_adj[t] <= alpha) for t in tests}))
    return PositivesComparison(list(labels), list(files), specs, rows, tests, alpha, correction, alternative,
                               pairs, topics_from)


def compare_positives(qrels, run_a, run_b, measure: str, *, tests: Sequence[str] = POSITIVE_TESTS,
                      permutations: int = 100_000, seed: int | None = 1, alternative: str = "two-sided",
                      **options) -> dict[str, dict]:
    """Per topic with positives: both runs' values of ``measure`` (``area_a``,
    ``area_b``: ``evaluate()``'s) and the tests on the per-positive values,
    uncorrected (``{test: SignificanceResult}``)."""
    c = compare_positive_runs(qrels, [run_a, run_b], [measure], tests=tests, permutations=permutations, seed=seed,
                              alternative=alternative, correction="none", **options)
    return {r.topic: {"area_a": r.baseline_value, "area_b": r.value, "positives": r.positives, "tests": r.tests}
            for r in c.rows}


def positives_report(qrels, runs: Sequence, measures: Sequence[str], *, fmt: str = "text", **kw) -> str:
    """``compare --unit positives`` in ``fmt`` (one of :data:`FORMATS`; see
    :meth:`PositivesComparison.format`)."""
    check_positive_format(fmt)
    return compare_positive_runs(qrels, runs, measures, **kw).format(fmt)


__all__ = ["FORMATS", "POSITIVE_TESTS", "ROW_FIELDS", "check_positive_format", "positives_report", "unpaired_t",
           "rank_sum", "unpaired_permutation", "positive_tests",
           "PositiveValues", "positive_values", "compare_positives", "compare_positive_runs", "PositivesComparison",
           "PositivesRow",
           "area_spec", "area_measure_names", "check_positive_tests", "positives_by_area"]
