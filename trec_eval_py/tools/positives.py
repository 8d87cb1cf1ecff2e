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

Positives not retrieved: in the false-positive view they sit below every
negative (rate 1, value 1 - f(1) = 0), as for the measures; in the rank view
they take the last ranks of the list, in docno order.
"""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations
from typing import Sequence

import numpy as np

from .._record import record
from ..errors import UsageError
from .significance import (
    SignificanceResult, make_rng, average_ranks, check_alternative, normal_p_value, p_from_tail, paired_t,
    randomization, t_p_value, tail_count, wilcoxon,
)

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
    the share of splits whose |difference| reaches the observed one (one-sided
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
    """One ranking's per-positive values for one topic: ``docnos[i]`` has ``values[i]``."""

    qid: str
    docnos: tuple[str, ...]
    values: np.ndarray

    @property
    def area(self) -> float:
        return float(np.cumsum(self.values)[-1] / len(self.values)) if len(self.values) else 0.0


def positive_values(qrels, run, measure: str, **options) -> dict[str, PositiveValues]:
    """Per topic, the value of each relevant document under the area ``measure``
    (``auc_roc``, ``croc_exp.7``, ``auc_ac``, ``cac_log.80``, ``auc_proc``,
    ``auc_pac``, ``auc_roc_t.0.1``, ``auc_roc_fp.50``: one parameter), in docno
    order. Their mean is the measure's value for the topic.

    The ranking is the engine's (parse, ranking rule, ``-M``, ``-J``, ``-N``,
    ``-l``, ``--order`` as for ``evaluate``); every topic of the qrels with a
    relevant document is included, a topic without results as an empty ranking.
    """
    from ..engine.join.order import RankRule
    from ..engine.measures import registry
    from ..engine.measures.early_retrieval import AREAS
    from ..engine.parse import read_qrels, read_run
    from ..engine.pipeline import Options

    name, _, text = measure.partition(".")
    # Importing a measure's module registers its area; croc_* and auc_roc have
    # theirs registered beside their Z-scores (croc_z), so import both modules.
    for n in (name, name + "_z"):
        if n in registry():
            registry()[n]
    if name not in AREAS:
        raise UsageError(f"--unit positives needs an area measure ({', '.join(sorted(AREAS))}), not {measure!r}")
    params = registry()[name].params.parse(name, text or None).values
    if len(params) > 1:
        raise UsageError(f"--unit positives takes one parameter per measure (got {measure!r})")
    param = params[0] if params else None
    area = AREAS[name]
    ctx = Options(**options).context
    q = read_qrels(qrels)
    r = read_run(run, rank_column=ctx.order == "rank")
    judged: dict[str, dict[str, int]] = {}
    for qid, doc, rel in zip(q.qid, q.docno, q.rel):
        judged.setdefault(qid.decode("utf-8", "surrogateescape"), {})[doc.decode("utf-8", "surrogateescape")] = int(rel)
    qcodes, qinv = np.unique(r.qid, return_inverse=True)
    order = RankRule.of(ctx).order_rows(qinv, r)
    ranked: dict[str, list[str]] = {}
    for i in order:
        ranked.setdefault(r.qid[i].decode("utf-8", "surrogateescape"), []).append(
            r.docno[i].decode("utf-8", "surrogateescape"))
    out = {}
    for qid in sorted(judged, key=lambda s: s.encode("utf-8", "surrogateescape")):
        levels = judged[qid]
        rel = {d for d, lv in levels.items() if lv >= ctx.relevance_level and lv >= 0}
        if not rel:
            continue
        docs = ranked.get(qid, [])
        if ctx.judged_only:
            docs = [d for d in docs if levels.get(d, -1) >= 0]
        if ctx.max_docs is not None:
            docs = docs[: ctx.max_docs]
        nonrel_ret = sum(1 for d in docs if d not in rel)
        neg = nonrel_ret
        if ctx.num_docs_in_coll > 0:
            neg = max(ctx.num_docs_in_coll - len(rel), nonrel_ret)
        size = neg + len(rel)
        value: dict[str, float] = {}
        above = 0
        for k, d in enumerate(docs, start=1):
            if d in rel:
                x = (k / size) if area.view == "rank" else (above / neg if neg else 0.0)
                value[d] = float(1.0 - area.transform(np.array([x]), param, neg, size)[0])
            else:
                above += 1
        missed = sorted((d for d in rel if d not in value), key=lambda s: s.encode("utf-8", "surrogateescape"))
        for j, d in enumerate(missed):
            x = (size - len(missed) + j + 1) / size if area.view == "rank" else 1.0
            value[d] = float(1.0 - area.transform(np.array([x]), param, neg, size)[0])
        names = tuple(sorted(value, key=lambda s: s.encode("utf-8", "surrogateescape")))
        out[qid] = PositiveValues(qid, names, np.array([value[d] for d in names]))
    return out


def compare_positives(qrels, run_a, run_b, measure: str, *, tests: Sequence[str] = POSITIVE_TESTS,
                      permutations: int = 100_000, seed: int | None = 1, alternative: str = "two-sided",
                      **options) -> dict[str, dict]:
    """Per topic: both areas and the six tests on the per-positive values of
    ``measure`` (``compare --unit positives``)."""
    va = positive_values(qrels, run_a, measure, **options)
    vb = positive_values(qrels, run_b, measure, **options)
    out = {}
    for qid in va:
        a, b = va[qid], vb[qid]
        out[qid] = {"area_a": a.area, "area_b": b.area, "positives": len(a.values),
                    "tests": positive_tests(a.values, b.values, tests=tests, permutations=permutations,
                                            seed=seed, alternative=alternative)}
    return out


def positives_report(qrels, runs: Sequence, measures: Sequence[str], *, tests: Sequence[str] = POSITIVE_TESTS,
                     permutations: int = 100_000, seed: int | None = 1, alternative: str = "two-sided",
                     fmt: str = "text", **options) -> str:
    """``compare --unit positives``: every run against the first (the baseline),
    per area measure and topic, as text (a table) or JSON."""
    import json

    rows = []
    for run in runs[1:]:
        for m in measures:
            for qid, r in compare_positives(qrels, runs[0], run, m, tests=tests, permutations=permutations,
                                            seed=seed, alternative=alternative, **options).items():
                rows.append({"run": str(run), "measure": m, "topic": qid, "positives": r["positives"],
                             "baseline": r["area_a"], "value": r["area_b"],
                             "p": {t: res.p_value for t, res in r["tests"].items()},
                             "method": {t: res.method for t, res in r["tests"].items()}})
    if fmt == "json":
        return json.dumps({"unit": "positives", "baseline": str(runs[0]), "alternative": alternative,
                           "rows": rows}) + "\n"
    if fmt != "text":
        raise UsageError(f"--unit positives prints text or json, not {fmt!r}")
    head = ["run", "measure", "topic", "pos", "baseline", "value"] + list(tests)
    body = [[r["run"], r["measure"], r["topic"], str(r["positives"]), f"{r['baseline']:.4f}", f"{r['value']:.4f}"]
            + [f"{r['p'][t]:.4g}" for t in tests] for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body)] if body else [len(h) for h in head]
    lines = [f"Tests on the per-positive values of each area (p-values, {alternative}; "
             f"baseline {runs[0]}; Swamidass et al. 2010, section 2.5)"]
    for line in [head] + body:
        lines.append("  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip())
    return "\n".join(lines) + "\n"


__all__ = ["POSITIVE_TESTS", "positives_report", "unpaired_t", "rank_sum", "unpaired_permutation", "positive_tests",
           "PositiveValues", "positive_values", "compare_positives"]
