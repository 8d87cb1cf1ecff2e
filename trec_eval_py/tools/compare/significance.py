"""Significance tests for comparing runs topic by topic.

Paired tests
------------
Every paired test takes two equal-length sequences of per-topic values, the
baseline's and the run's (same topics, same order), and looks at the
differences ``d = run - baseline``. ``alternative`` says what is tested
against "no difference": ``two-sided`` (the run differs), ``greater`` (the
run scores higher) or ``less`` (it scores lower), with the meaning of scipy's
``alternative=`` for ``scipy.stats.ttest_rel(run, baseline)``.

``t``
    Paired Student t-test on the differences (``n - 1`` degrees of freedom);
    the p-value equals :func:`scipy.stats.ttest_rel`'s. Confidence interval:
    mean difference +/- t quantile x standard error (one-sided alternatives
    give a one-sided interval, as scipy's ``confidence_interval`` does).
``wilcoxon``
    Wilcoxon signed-rank test with zero differences dropped and no continuity
    correction; the p-value equals :func:`scipy.stats.wilcoxon`'s with its
    default options: the exact null distribution when there are no zeros or
    ties and at most 50 topics, an enumeration of all sign assignments of the
    signed ranks when there are zeros or ties and at most 13 topics, the
    normal approximation (with tie correction) otherwise. The statistic is
    min(W+, W-) for the two-sided test and W+ for one-sided ones (scipy's).
``randomization``
    Paired randomization (sign-flip) test of the mean difference (Fisher;
    Smucker, Allan and Carterette, CIKM 2007). Under the null hypothesis each
    difference is as likely to have the other sign, so the p-value is the
    share of sign assignments whose mean is at least as extreme as the
    observed one (in absolute value for ``two-sided``). All ``2**n``
    assignments are enumerated when that is no more than the number of
    permutations asked for; otherwise that many are drawn at random (seeded)
    and ``p = (hits + 1) / (draws + 1)``, which counts the observed
    assignment and never gives 0.
``bootstrap``
    Paired bootstrap of the mean difference (Efron and Tibshirani, ch. 16):
    topics are resampled with replacement. The confidence interval is the
    percentile interval of the resampled means (one-sided for one-sided
    alternatives); the p-value is the share of resampled means, shifted to the
    null (minus the observed mean), at least as extreme as the observed mean,
    again as ``(hits + 1) / (resamples + 1)``.
``sign``
    Sign test: wins and losses (ties dropped) against a fair coin, exact
    binomial tail (doubled, at most 1, for ``two-sided``).

"At least as extreme" allows for rounding: resampled statistics within
``100 eps x sum(|d|)`` of the observed one count as equal, a tolerance
relative to the size of the differences and not to the observed statistic,
so that differences whose mean is zero in exact arithmetic (observed sum
~1e-16) give p = 1, and all-zero differences always do.

Degenerate inputs: when every difference is zero every test returns p = 1
(scipy returns nan there); a t-test on fewer than two topics returns nan.

Effect sizes (:func:`effect_sizes`): paired Cohen's d (d_z: mean difference
over the standard deviation of the differences) and Hedges' g (d times the
small-sample correction J(n - 1)).

Tests over all runs at once
---------------------------
``tukey``
    Randomised Tukey HSD (Carterette, TOIS 2012; Sakai, "Statistical Reform
    in Information Retrieval?", 2014): topics are blocks; under the null
    hypothesis that no run differs, the runs' values on a topic are
    exchangeable, so each topic's values are permuted among the runs; the
    p-value of a pair is the share of permuted tables whose largest minus
    smallest run mean is at least the pair's observed absolute difference.
    One family-wise test: no further correction is needed.
``tukey-classic``
    Tukey's HSD from a two-way ANOVA without interaction (runs x topics,
    topics as blocks): studentized range of the mean difference over
    sqrt(MSE / n) with ``(k - 1)(n - 1)`` degrees of freedom. Without blocks
    (:func:`tukey_hsd_classic` with ``blocks=False``) it is the one-way form
    of :func:`scipy.stats.tukey_hsd`. Needs scipy.

Random draws use :func:`numpy.random.default_rng` with the given seed, in a
fixed order, so the same inputs and seed always give the same p-value.

scipy (the ``compare`` extra) supplies Student's t and the studentized range
distributions and is imported only when a test needs it.

The building blocks (:func:`tail_count`, :func:`p_from_tail`,
:func:`t_p_value`, :func:`normal_p_value`, :func:`binomial_p_value`) take an
``alternative`` too, so that tests over other samples (unpaired ones, say)
are written with the same rules.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..._record import as_dict, record
from ...errors import OptionError, OptionTypeError, UsageError

TESTS = ("t", "wilcoxon", "randomization", "bootstrap", "sign")
FAMILY_TESTS = ("tukey", "tukey-classic")
ALL_TESTS = TESTS + FAMILY_TESTS
TEST_NAMES = {
    "t": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "randomization": "paired randomization test",
    "bootstrap": "paired bootstrap test",
    "sign": "sign test",
    "tukey": "randomised Tukey HSD",
    "tukey-classic": "Tukey HSD (two-way ANOVA, topics as blocks)",
}
CORRECTIONS = ("holm", "bonferroni", "bh", "by", "none")
ALTERNATIVES = ("two-sided", "greater", "less")

#: relative tolerance when comparing resampled statistics with the observed
#: one (scaled by the size of the data, see the module doc)
_REL_TOL = 100 * np.finfo(np.float64).eps

#: above this many topics an exact enumeration (2**n values) is refused
MAX_EXACT_TOPICS = 26

#: bound on the number of random numbers held at once by the resampling tests
_CHUNK_CELLS = 1 << 20


@record
class SignificanceResult:
    """The outcome of one test.

    test : the test's key (``t``, ``wilcoxon``, ...)
    statistic : the test statistic (t; W; mean difference; wins)
    p_value : p-value for ``alternative``
    n : number of topic pairs
    method : how the p-value was obtained (``t``, ``exact``, ``permutation``,
    ``normal``, ``monte-carlo``, ``bootstrap``, ``binomial``)
    ci_low, ci_high : confidence interval of the mean difference, when the test
    gives one (infinite on the open side of a one-sided interval)
    resamples : random draws used, for the resampling tests
    alternative : ``two-sided``, ``greater`` or ``less``
    """

    test: str
    statistic: float
    p_value: float
    n: int
    method: str
    ci_low: float | None = None
    ci_high: float | None = None
    resamples: int | None = None
    alternative: str = "two-sided"

    def to_dict(self) -> dict:
        return as_dict(self)


# ---------------------------------------------------------------- helpers

#: most resamples (random sign flips, bootstrap resamples, random tables) one test draws:
#: the bootstrap keeps every resampled mean (8 bytes each)
MAX_RESAMPLES = 10_000_000


def check_resamples(n, param: str = "permutations") -> int:
    """``n`` as a number of resamples (the parameter ``param``): a whole number from 1 to
    :data:`MAX_RESAMPLES` (an :class:`~trec_eval_py.errors.OptionTypeError` for another type)."""
    import numbers

    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise OptionTypeError("{@" + param + "} must be a whole number, not {value}", value=repr(n))
    n = int(n)
    if n < 1:
        raise OptionError("{@" + param + "} must be at least 1, not {value}", value=n)
    if n > MAX_RESAMPLES:
        raise OptionError("{@" + param + "} must be at most {most} (not {value}): a p-value's standard error "
                          "is then at most 0.0002", most=f"{MAX_RESAMPLES:,}", value=f"{n:,}")
    return n


def check_alternative(alternative: str) -> str:
    if alternative not in ALTERNATIVES:
        raise UsageError(f"unknown alternative {alternative!r}; choose one of {', '.join(ALTERNATIVES)}")
    return alternative


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


def _scipy(module: str, what: str):
    try:
        import importlib

        return importlib.import_module(f"scipy.{module}")
    except ImportError:
        raise UsageError(
            f"{what} needs scipy, which comes with the 'compare' extra: "
            "pip install 'trec_eval_py[compare]' (or choose --test wilcoxon, randomization, bootstrap, sign or tukey)"
        ) from None


def _scipy_special():
    return _scipy("special", "the t-test")


def tail_count(values: np.ndarray, observed: float, alternative: str, scale: float) -> int:
    """How many ``values`` are at least as extreme as ``observed``.

    ``greater``: ``>= observed``; ``less``: ``<= observed``; ``two-sided``:
    ``|value| >= |observed|`` (for null distributions symmetric about 0).
    Values within ``100 eps x scale`` of the bound count: ``scale`` is the
    size of the data the statistic is made of (e.g. sum(abs(d)) for a sum of
    signed differences), so that rounding noise never decides.
    """
    tol = scale * _REL_TOL
    if alternative == "greater":
        return int(np.count_nonzero(values >= observed - tol))
    if alternative == "less":
        return int(np.count_nonzero(values <= observed + tol))
    return int(np.count_nonzero(np.abs(values) >= abs(observed) - tol))


def p_from_tail(hits: int, total: int, exact: bool) -> float:
    """``hits / total`` for a full enumeration; ``(hits + 1) / (total + 1)`` for
    random draws (the observed arrangement counts, so p is never 0)."""
    return hits / total if exact else (hits + 1) / (total + 1)


def t_p_value(t: float, df: float, alternative: str) -> float:
    """p-value of Student's t statistic ``t`` with ``df`` degrees of freedom."""
    sp = _scipy_special()
    if alternative == "greater":
        return float(sp.stdtr(df, -t))
    if alternative == "less":
        return float(sp.stdtr(df, t))
    return min(1.0, 2.0 * float(sp.stdtr(df, -abs(t))))


def t_interval(mean: float, se: float, df: float, alpha: float, alternative: str) -> tuple[float, float]:
    """``1 - alpha`` confidence interval ``mean +/- q se`` (one-sided for one-sided alternatives)."""
    sp = _scipy_special()
    if alternative == "two-sided":
        q = float(sp.stdtrit(df, 1.0 - alpha / 2.0))
        return mean - q * se, mean + q * se
    q = float(sp.stdtrit(df, 1.0 - alpha))
    if alternative == "greater":
        return mean - q * se, math.inf
    return -math.inf, mean + q * se


def normal_p_value(z: float, alternative: str) -> float:
    """p-value of a standard normal statistic ``z``."""
    if alternative == "greater":
        return 0.5 * math.erfc(z / math.sqrt(2.0))
    if alternative == "less":
        return 0.5 * math.erfc(-z / math.sqrt(2.0))
    return math.erfc(abs(z) / math.sqrt(2.0))


def binomial_p_value(k: int, m: int, alternative: str) -> float:
    """Exact p-value of ``k`` successes in ``m`` fair coin flips (``greater``:
    P(X >= k); ``less``: P(X <= k); ``two-sided``: the smaller tail doubled)."""
    if m == 0:
        return 1.0
    upper = sum(math.comb(m, i) for i in range(k, m + 1))
    lower = sum(math.comb(m, i) for i in range(0, k + 1))
    if alternative == "greater":
        return float(Fraction(upper, 2**m))
    if alternative == "less":
        return float(Fraction(lower, 2**m))
    return min(1.0, float(Fraction(2 * min(upper, lower), 2**m)))


def make_rng(seed: int | None) -> np.random.Generator:
    return np.random.default_rng(seed)


def _chunks(total: int, n: int):
    rows = max(1, _CHUNK_CELLS // max(n, 1))
    start = 0
    while start < total:
        stop = min(total, start + rows)
        yield start, stop
        start = stop


#: a callable ``progress(done, total)`` the resampling loops report to, or None
Progress = Callable[[int, int], None] | None


# ---------------------------------------------------------------- effect sizes

def hedges_correction(df: int) -> float:
    """Hedges' exact small-sample correction J(df) = Gamma(df/2) / (sqrt(df/2) Gamma((df-1)/2))
    (about 1 - 3 / (4 df - 1)); 0 for df = 1, nan below."""
    if df < 1:
        return math.nan
    if df == 1:
        return 0.0
    return math.exp(math.lgamma(df / 2.0) - math.lgamma((df - 1) / 2.0)) / math.sqrt(df / 2.0)


def effect_sizes(baseline, run) -> tuple[float, float]:
    """``(cohens_d, hedges_g)`` of the paired differences ``run - baseline``.

    Cohen's d for paired samples (d_z): mean difference divided by the
    standard deviation of the differences (n - 1 in the denominator). Hedges'
    g: d x J(n - 1), removing d's upward bias on few topics. nan on fewer than
    two topics; 0 when every difference is 0; +/-inf when the differences are
    all equal and not 0 (no spread to measure them against).
    """
    d = differences(baseline, run)
    n = len(d)
    if n < 2:
        return math.nan, math.nan
    mean = float(np.mean(d))
    sd = math.sqrt(float(np.var(d, ddof=1)))
    if sd == 0.0:
        v = 0.0 if mean == 0.0 else math.copysign(math.inf, mean)
        return v, v
    cd = mean / sd
    return cd, cd * hedges_correction(n - 1)


# ---------------------------------------------------------------- paired tests

def paired_t(baseline, run, *, alpha: float = 0.05, alternative: str = "two-sided") -> SignificanceResult:
    """Paired t-test with a ``1 - alpha`` confidence interval of the mean difference."""
    check_alternative(alternative)
    d = differences(baseline, run)
    n = len(d)
    if n < 2:
        return SignificanceResult("t", math.nan, math.nan, n, "t", alternative=alternative)
    mean = float(np.mean(d))
    se = math.sqrt(float(np.var(d, ddof=1)) / n)
    if se == 0.0:
        # identical differences: no spread to test against
        if mean == 0.0:
            return SignificanceResult("t", 0.0, 1.0, n, "t", 0.0, 0.0, alternative=alternative)
        t = math.copysign(math.inf, mean)
        p = 0.0 if alternative == "two-sided" or (alternative == "greater") == (mean > 0) else 1.0
        return SignificanceResult("t", t, p, n, "t", mean, mean, alternative=alternative)
    t = mean / se
    df = n - 1
    p = t_p_value(t, df, alternative)
    low, high = t_interval(mean, se, df, alpha, alternative)
    return SignificanceResult("t", t, p, n, "t", low, high, alternative=alternative)


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


def wilcoxon(baseline, run, *, alternative: str = "two-sided") -> SignificanceResult:
    """Wilcoxon signed-rank test (scipy's default options; see the module doc)."""
    check_alternative(alternative)
    d = differences(baseline, run)
    total = len(d)
    nz = d[d != 0]
    n = len(nz)
    if n == 0:
        return SignificanceResult("wilcoxon", 0.0, 1.0, total, "exact", alternative=alternative)
    ranks, sizes = average_ranks(np.abs(nz))
    w_plus = float(np.sum(ranks[nz > 0]))
    w_minus = float(np.sum(ranks[nz < 0]))
    statistic = min(w_plus, w_minus) if alternative == "two-sided" else w_plus
    has_ties = bool(np.any(sizes > 1))
    has_zeros = n < total

    def result(p, method):
        return SignificanceResult("wilcoxon", statistic, p, total, method, alternative=alternative)

    if total <= 50 and not has_ties and not has_zeros:
        counts = signed_rank_counts(n)
        k = int(w_plus)
        upper = sum(counts[k:])
        lower = sum(counts[: k + 1])
        hits = {"greater": upper, "less": lower}.get(alternative, 2 * min(upper, lower))
        return result(min(1.0, float(Fraction(hits, 2**n))), "exact")

    if total <= 13:
        # every sign assignment of the (tied) ranks; zeros carry no rank
        null = np.zeros(1)
        for r in ranks:
            null = np.concatenate((null + r, null))
        scale = float(np.sum(ranks))
        lower = tail_count(null, w_plus, "less", scale)
        upper = tail_count(null, w_plus, "greater", scale)
        hits = {"greater": upper, "less": lower}.get(alternative, 2 * min(lower, upper))
        return result(min(1.0, hits / len(null)), "permutation")

    mean = n * (n + 1) / 4.0
    ties = float(np.sum(sizes.astype(np.float64) ** 3 - sizes))
    sd = math.sqrt((n * (n + 1) * (2 * n + 1) - ties / 2.0) / 24.0)
    z = (w_plus - mean) / sd
    return result(normal_p_value(z, alternative), "normal")


def sign_flip_sums(d: np.ndarray) -> np.ndarray:
    """The sum of ``d`` under every one of the ``2**n`` sign assignments; the
    first entry (all signs +) is the observed sum, added in the same order."""
    sums = np.zeros(1)
    for x in d:
        sums = np.concatenate((sums + x, sums - x))
    return sums


def randomization(baseline, run, *, permutations: int = 100_000, seed: int | None = 1,
                  exact: bool | None = None, alternative: str = "two-sided",
                  progress: Progress = None) -> SignificanceResult:
    """Paired randomization (sign-flip) test of the mean difference.

    ``exact=None`` enumerates all ``2**n`` sign assignments when ``2**n <=
    permutations`` and draws ``permutations`` random ones otherwise;
    ``exact=True``/``False`` forces one or the other.
    """
    check_alternative(alternative)
    d = differences(baseline, run)
    n = len(d)
    permutations = check_resamples(permutations)
    if n == 0:
        return SignificanceResult("randomization", 0.0, 1.0, 0, "exact", alternative=alternative)
    scale = float(np.sum(np.abs(d)))
    if exact is None:
        exact = n <= MAX_EXACT_TOPICS and 2**n <= permutations
    if exact:
        if n > MAX_EXACT_TOPICS:
            raise UsageError(f"an exact randomization test on {n} topics would need 2**{n} sign assignments")
        sums = sign_flip_sums(d)
        observed = float(sums[0])
        p = p_from_tail(tail_count(sums, observed, alternative, scale), len(sums), True)
        return SignificanceResult("randomization", observed / n, p, n, "exact", alternative=alternative)
    rng = make_rng(seed)
    observed = float(np.sum(d))
    hits = 0
    for lo, hi in _chunks(permutations, n):
        signs = rng.integers(0, 2, size=(hi - lo, n), dtype=np.int8) * 2 - 1
        hits += tail_count((signs * d).sum(axis=1), observed, alternative, scale)
        if progress is not None:
            progress(hi, permutations)
    p = p_from_tail(hits, permutations, False)
    return SignificanceResult("randomization", float(np.mean(d)), p, n, "monte-carlo", resamples=permutations,
                              alternative=alternative)


def bootstrap_means(d: np.ndarray, resamples: int, seed: int | None, progress: Progress = None) -> np.ndarray:
    """Means of ``resamples`` resamples of ``d`` with replacement (seeded)."""
    n = len(d)
    rng = make_rng(seed)
    means = np.empty(resamples, dtype=np.float64)
    for lo, hi in _chunks(resamples, n):
        idx = rng.integers(0, n, size=(hi - lo, n))
        means[lo:hi] = d[idx].mean(axis=1)
        if progress is not None:
            progress(hi, resamples)
    return means


def percentile_interval(values: np.ndarray, alpha: float, alternative: str) -> tuple[float, float]:
    """``1 - alpha`` percentile interval of ``values`` (one-sided for one-sided alternatives)."""
    if alternative == "greater":
        return float(np.quantile(values, alpha)), math.inf
    if alternative == "less":
        return -math.inf, float(np.quantile(values, 1.0 - alpha))
    low, high = np.quantile(values, [alpha / 2.0, 1.0 - alpha / 2.0])
    return float(low), float(high)


def bootstrap(baseline, run, *, resamples: int = 100_000, seed: int | None = 1,
              alpha: float = 0.05, alternative: str = "two-sided", progress: Progress = None) -> SignificanceResult:
    """Paired bootstrap of the mean difference: percentile interval and shifted-null p-value."""
    check_alternative(alternative)
    d = differences(baseline, run)
    n = len(d)
    resamples = check_resamples(resamples, "resamples")
    if n == 0:
        return SignificanceResult("bootstrap", 0.0, 1.0, 0, "bootstrap", alternative=alternative)
    means = bootstrap_means(d, resamples, seed, progress)
    mean = float(np.mean(d))
    low, high = percentile_interval(means, alpha, alternative)
    hits = tail_count(means - mean, mean, alternative, float(np.mean(np.abs(d))))
    p = p_from_tail(hits, resamples, False)
    return SignificanceResult("bootstrap", mean, p, n, "bootstrap", low, high, resamples, alternative)


def sign_test(baseline, run, *, alternative: str = "two-sided") -> SignificanceResult:
    """Sign test: wins against losses as fair coin flips, ties dropped."""
    check_alternative(alternative)
    d = differences(baseline, run)
    wins = int(np.count_nonzero(d > 0))
    losses = int(np.count_nonzero(d < 0))
    p = binomial_p_value(wins, wins + losses, alternative)
    return SignificanceResult("sign", float(wins), p, len(d), "binomial", alternative=alternative)


def run_test(test: str, baseline, run, *, alpha: float = 0.05, permutations: int = 100_000,
             seed: int | None = 1, alternative: str = "two-sided", progress: Progress = None) -> SignificanceResult:
    """Run the paired test named ``test`` (one of :data:`TESTS`)."""
    if test == "t":
        return paired_t(baseline, run, alpha=alpha, alternative=alternative)
    if test == "wilcoxon":
        return wilcoxon(baseline, run, alternative=alternative)
    if test == "randomization":
        return randomization(baseline, run, permutations=permutations, seed=seed, alternative=alternative,
                             progress=progress)
    if test == "bootstrap":
        return bootstrap(baseline, run, resamples=permutations, seed=seed, alpha=alpha, alternative=alternative,
                         progress=progress)
    if test == "sign":
        return sign_test(baseline, run, alternative=alternative)
    raise UsageError(f"unknown test {test!r}; choose one of {', '.join(ALL_TESTS)} or all")


# ---------------------------------------------------------------- Tukey HSD

@record
class FamilyResult:
    """A test over all runs at once: ``p_values[i, j]`` for every pair of runs
    (symmetric, 1 on the diagonal), the run means, and how it was obtained."""

    test: str
    means: np.ndarray
    p_values: np.ndarray
    n: int
    method: str
    resamples: int | None = None
    df: float | None = None


def _table(values) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 2:
        raise UsageError("a test over all runs needs a table of values: topics x runs")
    if x.shape[1] < 2:
        raise UsageError("a test over all runs needs at least two runs")
    if not np.all(np.isfinite(x)):
        raise UsageError("per-topic values must be finite numbers")
    return x


def _pair_p(observed: np.ndarray, ranges: np.ndarray, tol: float, exact: bool) -> np.ndarray:
    """p-values of the observed absolute differences against the null ranges."""
    ranges = np.sort(ranges)
    hits = len(ranges) - np.searchsorted(ranges, observed - tol, side="left")
    p = hits / len(ranges) if exact else (hits + 1) / (len(ranges) + 1)
    np.fill_diagonal(p, 1.0)
    return p


#: the most tables an exact Tukey HSD enumerates
MAX_EXACT_TABLES = 2_000_000


def randomised_tukey_hsd(values, *, permutations: int = 100_000, seed: int | None = 1,
                         exact: bool | None = None, progress: Progress = None) -> FamilyResult:
    """Randomised Tukey HSD over the columns (runs) of ``values`` (topics x runs).

    For each of ``permutations`` random tables, every topic's row is shuffled
    among the runs and the range (largest minus smallest run mean) is
    recorded; a pair's p-value is the share of ranges at least its observed
    absolute mean difference, ``(hits + 1) / (draws + 1)``. When ``(k!)**n``
    (every arrangement) is at most ``permutations``, all are enumerated and
    ``p = hits / (k!)**n`` (``exact`` forces either way). Ranges within
    ``100 eps`` times the mean over topics of sum_j abs(x_tj) of the observed
    difference count as equal (rounding; see the module doc).
    """
    x = _table(values)
    n, k = x.shape
    permutations = check_resamples(permutations)
    if n == 0:
        return FamilyResult("tukey", np.zeros(k), np.ones((k, k)), 0, "exact")
    means = x.mean(axis=0)
    observed = np.abs(means[:, None] - means[None, :])
    tol = float(np.abs(x).sum(axis=1).mean()) * _REL_TOL
    total_tables = math.factorial(k) ** n
    if exact is None:
        exact = total_tables <= permutations
    if exact:
        if total_tables > MAX_EXACT_TABLES:
            raise UsageError(f"an exact Tukey HSD on {n} topics and {k} runs would need {total_tables} tables")
        perms = np.array(list(itertools.permutations(range(k))))
        # column sums of every arrangement, built topic by topic in topic order
        sums = np.zeros((1, k))
        for row in x:
            sums = (sums[:, None, :] + row[perms][None, :, :]).reshape(-1, k)
        ranges = (sums.max(axis=1) - sums.min(axis=1)) / n
        return FamilyResult("tukey", means, _pair_p(observed, ranges, tol, True), n, "exact")
    rng = make_rng(seed)
    ranges = np.empty(permutations)
    for lo, hi in _chunks(permutations, n * k):
        order = np.argsort(rng.random((hi - lo, n, k)), axis=2)
        shuffled = np.take_along_axis(np.broadcast_to(x, (hi - lo, n, k)), order, axis=2)
        m = shuffled.mean(axis=1)
        ranges[lo:hi] = m.max(axis=1) - m.min(axis=1)
        if progress is not None:
            progress(hi, permutations)
    return FamilyResult("tukey", means, _pair_p(observed, ranges, tol, False), n, "monte-carlo",
                        resamples=permutations)


def tukey_hsd_classic(values, *, blocks: bool = True) -> FamilyResult:
    """Tukey's HSD from an ANOVA over the columns (runs) of ``values`` (topics x runs).

    ``blocks=True``: two-way ANOVA without interaction, topics as blocks; the
    error mean square is that of the residuals x_tj - topic mean - run mean +
    grand mean, with (k - 1)(n - 1) degrees of freedom. ``blocks=False``:
    one-way ANOVA (runs as independent groups of n values, k(n - 1) degrees
    of freedom), the form of :func:`scipy.stats.tukey_hsd`. The p-value of a
    pair is the studentized range's upper tail at abs(mean_i - mean_j) / sqrt(MSE / n).
    """
    x = _table(values)
    n, k = x.shape
    means = x.mean(axis=0)
    if blocks:
        resid = x - x.mean(axis=1, keepdims=True) - means[None, :] + x.mean()
        df = (k - 1) * (n - 1)
    else:
        resid = x - means[None, :]
        df = k * (n - 1)
    if df < 1:
        raise UsageError("Tukey's HSD needs at least two topics")
    mse = float(np.sum(resid**2)) / df
    diff = np.abs(means[:, None] - means[None, :])
    if mse == 0.0:
        p = np.where(diff > 0, 0.0, 1.0)
    else:
        stats = _scipy("stats", "Tukey's HSD (classic form)")
        q = diff / math.sqrt(mse / n)
        p = np.clip(stats.studentized_range.sf(q, k, df), 0.0, 1.0)
    np.fill_diagonal(p, 1.0)
    return FamilyResult("tukey-classic", means, p, n, "studentized range", df=float(df))


def family_test(test: str, values, *, permutations: int = 100_000, seed: int | None = 1,
                progress: Progress = None) -> FamilyResult:
    """Run the test over all runs named ``test`` (one of :data:`FAMILY_TESTS`)."""
    if test == "tukey":
        return randomised_tukey_hsd(values, permutations=permutations, seed=seed, progress=progress)
    if test == "tukey-classic":
        return tukey_hsd_classic(values)
    raise UsageError(f"unknown test {test!r}; choose one of {', '.join(ALL_TESTS)} or all")


# ---------------------------------------------------------------- corrections

def correct(p_values: Sequence[float], method: str = "holm") -> np.ndarray:
    """Adjust a family of p-values for multiple comparisons.

    ``bonferroni``: ``min(1, m p)``. ``holm``: Holm's step-down adjustment,
    ``max over j <= i of min(1, (m - j + 1) p_(j))`` for the i-th smallest.
    ``bh``: Benjamini-Hochberg (false discovery rate), ``min over j >= i of
    min(1, m p_(j) / j)``. ``by``: Benjamini-Yekutieli, BH times
    ``c(m) = 1 + 1/2 + ... + 1/m`` (valid under any dependence). ``none``:
    unchanged. nan values stay nan and are not counted in ``m``.
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
    adjusted = np.empty(m)
    if method == "holm":
        scaled = np.minimum(1.0, q[order] * (m - np.arange(m)))
        adjusted[order] = np.maximum.accumulate(scaled)
    else:
        c = float(np.sum(1.0 / np.arange(1, m + 1))) if method == "by" else 1.0
        scaled = q[order] * m * c / np.arange(1, m + 1)
        adjusted[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    out[ok] = adjusted
    return out
