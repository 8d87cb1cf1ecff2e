"""Paired significance tests for comparing two runs topic by topic.

Every test takes two equal-length sequences of per-topic values, the
baseline's and the run's (same topics, same order), looks at the differences
``run - baseline`` and asks whether they are centred on zero. All p-values are
two-sided. The tests:

``t``
    Paired Student t-test on the differences (``n - 1`` degrees of freedom);
    the p-value equals :func:`scipy.stats.ttest_rel`'s. Confidence interval:
    mean difference +/- t quantile x standard error.
``wilcoxon``
    Wilcoxon signed-rank test with zero differences dropped and no continuity
    correction; the p-value equals :func:`scipy.stats.wilcoxon`'s with its
    default options: the exact null distribution when there are no zeros or
    ties and at most 50 topics, an enumeration of all sign assignments of the
    signed ranks when there are zeros or ties and at most 13 topics, the
    normal approximation (with tie correction) otherwise.
``randomization``
    Paired randomization (sign-flip) test of the mean difference (Fisher;
    Smucker, Allan and Carterette, CIKM 2007). Under the null hypothesis each
    difference is as likely to have the other sign, so the p-value is the
    share of sign assignments whose absolute mean is at least the observed
    one. All ``2**n`` assignments are enumerated when that is no more than the
    number of permutations asked for; otherwise that many are drawn at random
    (seeded) and ``p = (hits + 1) / (draws + 1)``, which counts the observed
    assignment and never gives 0.
``bootstrap``
    Paired bootstrap of the mean difference (Efron and Tibshirani, ch. 16):
    topics are resampled with replacement. The confidence interval is the
    percentile interval of the resampled means; the p-value is the share of
    resampled means, shifted to the null (minus the observed mean), whose
    absolute value is at least the observed absolute mean, again as
    ``(hits + 1) / (resamples + 1)``.
``sign``
    Sign test: wins and losses (ties dropped) against a fair coin, exact
    binomial tail, doubled.

Degenerate inputs: when every difference is zero every test returns p = 1
(scipy returns nan there); a t-test on fewer than two topics returns nan.

Random draws use :func:`numpy.random.default_rng` with the given seed, in a
fixed order, so the same inputs and seed always give the same p-value.

scipy (the ``compare`` extra) supplies Student's t distribution and is
imported only when a t-test is run.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..errors import UsageError

TESTS = ("t", "wilcoxon", "randomization", "bootstrap", "sign")
TEST_NAMES = {
    "t": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "randomization": "paired randomization test",
    "bootstrap": "paired bootstrap test",
    "sign": "sign test",
}
CORRECTIONS = ("holm", "bonferroni", "none")

#: relative tolerance when comparing resampled statistics with the observed
#: one, so that values equal in exact arithmetic but not in floating point
#: count as "at least as extreme" (the same rule as scipy's permutation_test)
_REL_TOL = 100 * np.finfo(np.float64).eps

#: above this many topics an exact enumeration (2**n values) is refused
MAX_EXACT_TOPICS = 26

#: bound on the number of random numbers held at once by the resampling tests
_CHUNK_CELLS = 1 << 20


@dataclass(frozen=True)
class SignificanceResult:
    """The outcome of one paired test.

    test : the test's key (``t``, ``wilcoxon``, ...)
    statistic : the test statistic (t; min(W+, W-); mean difference; wins)
    p_value : two-sided p-value
    n : number of topic pairs
    method : how the p-value was obtained (``t``, ``exact``, ``permutation``,
        ``normal``, ``monte-carlo``, ``bootstrap``, ``binomial``)
    ci_low, ci_high : confidence interval of the mean difference, when the test gives one
    resamples : random draws used, for the resampling tests
    """

    test: str
    statistic: float
    p_value: float
    n: int
    method: str
    ci_low: float | None = None
    ci_high: float | None = None
    resamples: int | None = None

    def to_dict(self) -> dict:
        return asdict(self)


# ---------------------------------------------------------------- helpers

def differences(baseline: Sequence[float], run: Sequence[float]) -> np.ndarray:
    """``run - baseline`` as float64, after checking the two line up."""
    a = np.asarray(baseline, dtype=np.float64)
    b = np.asarray(run, dtype=np.float64)
    if a.ndim != 1 or b.ndim != 1:
        raise UsageError("per-topic values must be one-dimensional")
    if a.shape != b.shape:
        raise UsageError(f"baseline has {len(a)} topics but the run has {len(b)}; they must be paired")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise UsageError("per-topic values must be finite numbers")
    return b - a


def wins_ties_losses(baseline: Sequence[float], run: Sequence[float]) -> tuple[int, int, int]:
    """Topics where the run scores higher than, the same as, lower than the baseline."""
    d = differences(baseline, run)
    return int(np.count_nonzero(d > 0)), int(np.count_nonzero(d == 0)), int(np.count_nonzero(d < 0))


def _scipy_special():
    try:
        import scipy.special as sp
    except ImportError:
        raise UsageError(
            "the t-test needs scipy, which comes with the 'compare' extra: "
            "pip install 'trec_eval_py[compare]' (or choose --test wilcoxon, randomization, bootstrap or sign)"
        ) from None
    return sp


def _at_least(values: np.ndarray, observed: float) -> int:
    """How many ``values`` are >= ``observed``, up to floating-point noise."""
    return int(np.count_nonzero(values >= observed - abs(observed) * _REL_TOL))


def _rng(seed: int | None) -> np.random.Generator:
    return np.random.default_rng(seed)


def _chunks(total: int, n: int):
    rows = max(1, _CHUNK_CELLS // max(n, 1))
    start = 0
    while start < total:
        stop = min(total, start + rows)
        yield start, stop
        start = stop


# ---------------------------------------------------------------- tests

def paired_t(baseline, run, *, alpha: float = 0.05) -> SignificanceResult:
    """Paired two-sided t-test with a ``1 - alpha`` confidence interval of the mean difference."""
    d = differences(baseline, run)
    n = len(d)
    if n < 2:
        return SignificanceResult("t", math.nan, math.nan, n, "t")
    mean = float(np.mean(d))
    se = math.sqrt(float(np.var(d, ddof=1)) / n)
    if se == 0.0:
        # identical differences: no spread to test against
        if mean == 0.0:
            return SignificanceResult("t", 0.0, 1.0, n, "t", 0.0, 0.0)
        return SignificanceResult("t", math.copysign(math.inf, mean), 0.0, n, "t", mean, mean)
    sp = _scipy_special()
    t = mean / se
    df = n - 1
    p = min(1.0, 2.0 * float(sp.stdtr(df, -abs(t))))
    q = float(sp.stdtrit(df, 1.0 - alpha / 2.0))
    return SignificanceResult("t", t, p, n, "t", mean - q * se, mean + q * se)


def average_ranks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """1-based ranks of ``x`` with ties given their average rank, and the size of each tie group."""
    x = np.asarray(x, dtype=np.float64)
    order = np.argsort(x, kind="stable")
    xs = x[order]
    starts = np.flatnonzero(np.concatenate(([True], xs[1:] != xs[:-1]))) if len(xs) else np.zeros(0, np.int64)
    sizes = np.diff(np.append(starts, len(xs)))
    # average of positions start+1 .. start+size
    group_rank = starts + (sizes + 1) / 2.0
    ranks = np.empty(len(x), dtype=np.float64)
    ranks[order] = np.repeat(group_rank, sizes)
    return ranks, sizes


@lru_cache(maxsize=64)
def signed_rank_counts(n: int) -> tuple[int, ...]:
    """``counts[w]`` = number of subsets of ``{1..n}`` whose sum is ``w``.

    Under the null hypothesis each subset (the ranks with a positive sign) is
    equally likely, so ``counts[w] / 2**n`` is the exact distribution of W+.
    """
    counts = [1]
    for r in range(1, n + 1):
        grown = counts + [0] * r
        for w, c in enumerate(counts):
            grown[w + r] += c
        counts = grown
    return tuple(counts)


def wilcoxon(baseline, run) -> SignificanceResult:
    """Two-sided Wilcoxon signed-rank test (scipy's default options; see the module doc)."""
    d = differences(baseline, run)
    total = len(d)
    nz = d[d != 0]
    n = len(nz)
    if n == 0:
        return SignificanceResult("wilcoxon", 0.0, 1.0, total, "exact")
    ranks, sizes = average_ranks(np.abs(nz))
    w_plus = float(np.sum(ranks[nz > 0]))
    w_minus = float(np.sum(ranks[nz < 0]))
    statistic = min(w_plus, w_minus)
    has_ties = bool(np.any(sizes > 1))
    has_zeros = n < total

    if total <= 50 and not has_ties and not has_zeros:
        counts = signed_rank_counts(n)
        k = int(w_plus)
        upper = sum(counts[k:])
        lower = sum(counts[: k + 1])
        p = min(1.0, float(Fraction(2 * min(upper, lower), 2**n)))
        return SignificanceResult("wilcoxon", statistic, p, total, "exact")

    if total <= 13:
        # every sign assignment of the (tied) ranks; zeros carry no rank
        null = np.zeros(1)
        for r in ranks:
            null = np.concatenate((null + r, null))
        tol = abs(w_plus) * _REL_TOL
        lower = int(np.count_nonzero(null <= w_plus + tol))
        upper = int(np.count_nonzero(null >= w_plus - tol))
        p = min(1.0, 2.0 * min(lower, upper) / len(null))
        return SignificanceResult("wilcoxon", statistic, p, total, "permutation")

    mean = n * (n + 1) / 4.0
    ties = float(np.sum(sizes.astype(np.float64) ** 3 - sizes))
    sd = math.sqrt((n * (n + 1) * (2 * n + 1) - ties / 2.0) / 24.0)
    z = (w_plus - mean) / sd
    p = math.erfc(abs(z) / math.sqrt(2.0))
    return SignificanceResult("wilcoxon", statistic, p, total, "normal")


def randomization(baseline, run, *, permutations: int = 100_000, seed: int | None = 1,
                  exact: bool | None = None) -> SignificanceResult:
    """Paired randomization (sign-flip) test of the mean difference.

    ``exact=None`` enumerates all ``2**n`` sign assignments when ``2**n <=
    permutations`` and draws ``permutations`` random ones otherwise;
    ``exact=True``/``False`` forces one or the other.
    """
    d = differences(baseline, run)
    n = len(d)
    if permutations < 1:
        raise UsageError("the number of permutations must be at least 1")
    if n == 0:
        return SignificanceResult("randomization", 0.0, 1.0, 0, "exact")
    if exact is None:
        exact = n <= MAX_EXACT_TOPICS and 2**n <= permutations
    if exact:
        if n > MAX_EXACT_TOPICS:
            raise UsageError(f"an exact randomization test on {n} topics would need 2**{n} sign assignments")
        # sums of every sign assignment, built one topic at a time; the first
        # entry (all signs +) is the observed sum, added in the same order
        sums = np.zeros(1)
        for x in d:
            sums = np.concatenate((sums + x, sums - x))
        observed = abs(float(sums[0]))
        p = _at_least(np.abs(sums), observed) / len(sums)
        return SignificanceResult("randomization", float(sums[0]) / n, p, n, "exact")
    rng = _rng(seed)
    observed = abs(float(np.sum(d)))
    hits = 0
    for lo, hi in _chunks(permutations, n):
        signs = rng.integers(0, 2, size=(hi - lo, n), dtype=np.int8) * 2 - 1
        hits += _at_least(np.abs((signs * d).sum(axis=1)), observed)
    p = (hits + 1) / (permutations + 1)
    return SignificanceResult("randomization", float(np.mean(d)), p, n, "monte-carlo", resamples=permutations)


def bootstrap(baseline, run, *, resamples: int = 100_000, seed: int | None = 1,
              alpha: float = 0.05) -> SignificanceResult:
    """Paired bootstrap of the mean difference: percentile interval and shifted-null p-value."""
    d = differences(baseline, run)
    n = len(d)
    if resamples < 1:
        raise UsageError("the number of bootstrap resamples must be at least 1")
    if n == 0:
        return SignificanceResult("bootstrap", 0.0, 1.0, 0, "bootstrap")
    rng = _rng(seed)
    means = np.empty(resamples, dtype=np.float64)
    for lo, hi in _chunks(resamples, n):
        idx = rng.integers(0, n, size=(hi - lo, n))
        means[lo:hi] = d[idx].mean(axis=1)
    mean = float(np.mean(d))
    low, high = np.quantile(means, [alpha / 2.0, 1.0 - alpha / 2.0])
    hits = _at_least(np.abs(means - mean), abs(mean))
    p = (hits + 1) / (resamples + 1)
    return SignificanceResult("bootstrap", mean, p, n, "bootstrap", float(low), float(high), resamples)


def sign_test(baseline, run) -> SignificanceResult:
    """Two-sided sign test: wins against losses as fair coin flips, ties dropped."""
    d = differences(baseline, run)
    wins = int(np.count_nonzero(d > 0))
    losses = int(np.count_nonzero(d < 0))
    m = wins + losses
    if m == 0:
        return SignificanceResult("sign", 0.0, 1.0, len(d), "binomial")
    k = min(wins, losses)
    tail = sum(math.comb(m, i) for i in range(k + 1))
    p = min(1.0, float(Fraction(2 * tail, 2**m)))
    return SignificanceResult("sign", float(wins), p, len(d), "binomial")


def run_test(test: str, baseline, run, *, alpha: float = 0.05, permutations: int = 100_000,
             seed: int | None = 1) -> SignificanceResult:
    """Run the test named ``test`` (one of :data:`TESTS`)."""
    if test == "t":
        return paired_t(baseline, run, alpha=alpha)
    if test == "wilcoxon":
        return wilcoxon(baseline, run)
    if test == "randomization":
        return randomization(baseline, run, permutations=permutations, seed=seed)
    if test == "bootstrap":
        return bootstrap(baseline, run, resamples=permutations, seed=seed, alpha=alpha)
    if test == "sign":
        return sign_test(baseline, run)
    raise UsageError(f"unknown test {test!r}; choose one of {', '.join(TESTS)} or all")


def correct(p_values: Sequence[float], method: str = "holm") -> np.ndarray:
    """Adjust a family of p-values for multiple comparisons.

    ``bonferroni``: ``min(1, m p)``. ``holm``: Holm's step-down adjustment,
    ``max over j <= i of min(1, (m - j + 1) p_(j))`` for the i-th smallest.
    ``none``: unchanged. nan values stay nan and are not counted in ``m``.
    """
    p = np.asarray(p_values, dtype=np.float64)
    if method not in CORRECTIONS:
        raise UsageError(f"unknown correction {method!r}; choose one of {', '.join(CORRECTIONS)}")
    out = p.copy()
    ok = ~np.isnan(p)
    m = int(np.count_nonzero(ok))
    if method == "none" or m == 0:
        return out
    q = p[ok]
    if method == "bonferroni":
        out[ok] = np.minimum(1.0, q * m)
        return out
    order = np.argsort(q, kind="stable")
    scaled = np.minimum(1.0, q[order] * (m - np.arange(m)))
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    out[ok] = adjusted
    return out
