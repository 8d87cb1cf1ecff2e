"""The paired tests of trec_eval_py.tools.compare.significance against independent computations:
scipy's ttest_rel / wilcoxon / binomtest, brute-force enumerations, and
published textbook values."""
from __future__ import annotations

import itertools
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from trec_eval_py.errors import UsageError
from trec_eval_py.tools.compare import significance as sig

# Student's sleep data (Cushny and Peebles; "Student", Biometrika 1908): extra
# hours of sleep with two drugs, ten patients.
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def _pairs(seed, n, kind):
    """Per-topic value pairs like IR measures give: continuous, coarse (ties), or sparse (zeros)."""
    rng = np.random.default_rng(seed)
    a = rng.random(n)
    if kind == "continuous":
        b = np.clip(a + rng.normal(0.03, 0.1, n), 0, 1)
    elif kind == "coarse":  # P@10-like values: many ties and zero differences
        a = np.round(a, 1)
        b = np.clip(np.round(a + rng.normal(0.0, 0.15, n), 1), 0, 1)
    else:  # half the topics unchanged
        b = a.copy()
        m = rng.random(n) < 0.5
        b[m] = rng.random(int(m.sum()))
    return a, b


# ---------------------------------------------------------------- t-test

@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("kind", ["continuous", "coarse", "sparse"])
def test_t_matches_scipy(seed, kind):
    n = 2 + seed * 3
    a, b = _pairs(seed, n, kind)
    if np.all(a == b):
        pytest.skip("identical runs (scipy gives nan)")
    ours = sig.paired_t(a, b, alpha=0.05)
    ref = stats.ttest_rel(b, a)
    assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-12, abs=1e-300)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    ci = ref.confidence_interval(0.95)
    assert ours.ci_low == pytest.approx(ci.low, rel=1e-10, abs=1e-15)
    assert ours.ci_high == pytest.approx(ci.high, rel=1e-10, abs=1e-15)
    # the p-value does not depend on which run is called the baseline
    assert sig.paired_t(b, a).p_value == pytest.approx(ours.p_value, rel=1e-12)


def test_t_textbook_sleep_data():
    # t = 4.0621, df = 9, p-value = 0.002833; 95% CI of the mean difference 0.7001 .. 2.4599
    r = sig.paired_t(SLEEP_1, SLEEP_2)
    assert round(r.statistic, 4) == 4.0621
    assert round(r.p_value, 6) == 0.002833
    assert (round(r.ci_low, 4), round(r.ci_high, 4)) == (0.7001, 2.4599)
    assert r.n == 10 and r.method == "t"


def test_t_degenerate():
    assert sig.paired_t([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]).p_value == 1.0
    same_shift = sig.paired_t([0.0, 0.25, 0.5], [0.5, 0.75, 1.0])
    assert same_shift.p_value == 0.0 and same_shift.statistic == math.inf
    assert math.isnan(sig.paired_t([0.1], [0.2]).p_value)


# ---------------------------------------------------------------- Wilcoxon

WILCOXON_CASES = [(seed, n, kind) for seed, (n, kind) in enumerate(
    [(n, k) for n in (1, 2, 3, 5, 8, 12, 13, 14, 20, 30, 50, 51, 80, 200)
     for k in ("continuous", "coarse", "sparse")])]


@pytest.mark.parametrize("seed,n,kind", WILCOXON_CASES)
def test_wilcoxon_matches_scipy(seed, n, kind):
    a, b = _pairs(seed + 1000, n, kind)
    if np.all(a == b):
        pytest.skip("identical runs (scipy gives nan)")
    ours = sig.wilcoxon(a, b)
    ref = stats.wilcoxon(b, a)
    assert ours.statistic == ref.statistic
    assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-12)


def test_wilcoxon_covers_each_branch():
    exact = sig.wilcoxon(*_pairs(1, 20, "continuous"))
    perm = sig.wilcoxon(*_pairs(2, 12, "coarse"))
    normal_ties = sig.wilcoxon(*_pairs(3, 30, "coarse"))
    normal_large = sig.wilcoxon(*_pairs(4, 60, "continuous"))
    assert (exact.method, perm.method, normal_ties.method, normal_large.method) == (
        "exact", "permutation", "normal", "normal")


@pytest.mark.parametrize("n", range(13))
def test_signed_rank_counts_by_enumeration(n):
    counts = sig.signed_rank_counts(n)
    brute = [0] * (n * (n + 1) // 2 + 1)
    for signs in itertools.product((0, 1), repeat=n):
        brute[sum(r for r, s in zip(range(1, n + 1), signs) if s)] += 1
    assert list(counts) == brute
    assert sum(counts) == 2**n


def test_wilcoxon_textbook_values():
    # n = 5, all differences positive: the smallest attainable p, 2 / 2^5
    assert sig.wilcoxon([0] * 5, [0.1, 0.2, 0.3, 0.4, 0.5]).p_value == 0.0625
    # critical-value table, n = 10, two-sided 0.05: T <= 8 (P(T <= 8) = 0.0244, P(T <= 9) = 0.0322)
    counts = sig.signed_rank_counts(10)
    assert round(sum(counts[:9]) / 1024, 4) == 0.0244
    assert round(sum(counts[:10]) / 1024, 4) == 0.0322
    # so W- = 8 is significant at 0.05 (p = 2 * 25/1024) and W- = 9 is not
    base = [0.0] * 10
    run8 = [i / 10 for i in range(1, 11)]
    run8[7] = -0.8  # rank 8 negative: W- = 8
    run9 = [i / 10 for i in range(1, 11)]
    run9[8] = -0.9
    assert sig.wilcoxon(base, run8).p_value == 50 / 1024
    assert sig.wilcoxon(base, run9).p_value == 66 / 1024


def test_wilcoxon_average_ranks():
    ranks, sizes = sig.average_ranks(np.array([0.3, 0.1, 0.3, 0.2, 0.3]))
    assert ranks.tolist() == [4.0, 1.0, 4.0, 2.0, 4.0]
    assert sorted(sizes.tolist()) == [1, 1, 3]


# ---------------------------------------------------------------- randomization

def _randomization_by_enumeration(a, b):
    d = [float(y) - float(x) for x, y in zip(a, b)]
    observed = abs(sum(d)) / len(d)
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(d)):
        if abs(sum(s * x for s, x in zip(signs, d))) / len(d) >= observed - 1e-12:
            hits += 1
    return Fraction(hits, 2 ** len(d))


@pytest.mark.parametrize("seed", range(25))
def test_randomization_exact_matches_enumeration(seed):
    n = 1 + seed % 11
    a, b = _pairs(seed + 500, n, ["continuous", "coarse", "sparse"][seed % 3])
    r = sig.randomization(a, b, permutations=100_000)
    assert r.method == "exact"
    assert Fraction(r.p_value) == _randomization_by_enumeration(a, b)
    assert r.statistic == pytest.approx(float(np.mean(b - a)), rel=1e-12, abs=1e-15)


def test_randomization_exact_hand_worked():
    # differences 1, 2, 3: sums of +-1 +-2 +-3 are 6,0,2,-4,4,-2,0,-6; |sum| >= 6 twice
    assert sig.randomization([0, 0, 0], [1, 2, 3]).p_value == 2 / 8
    # differences 1, 1, 1, -1: |sum| >= 2 in 10 of 16 assignments
    assert sig.randomization([0, 0, 0, 1], [1, 1, 1, 0]).p_value == 10 / 16


def test_randomization_switches_to_monte_carlo():
    a, b = _pairs(7, 17, "continuous")
    assert sig.randomization(a, b, permutations=2**17).method == "exact"
    mc = sig.randomization(a, b, permutations=2**17 - 1)
    assert mc.method == "monte-carlo" and mc.resamples == 2**17 - 1


def test_randomization_monte_carlo_agrees_with_exact():
    a, b = _pairs(11, 14, "continuous")
    exact = sig.randomization(a, b, exact=True).p_value
    b_draws = 40_000
    mc = sig.randomization(a, b, permutations=b_draws, seed=3, exact=False).p_value
    se = math.sqrt(exact * (1 - exact) / b_draws)
    assert abs(mc - exact) < 5 * se + 1 / b_draws


def test_randomization_seeded_repeats():
    a, b = _pairs(5, 40, "continuous")
    r1 = sig.randomization(a, b, permutations=5000, seed=42)
    r2 = sig.randomization(a, b, permutations=5000, seed=42)
    assert r1 == r2
    others = {sig.randomization(a, b, permutations=5000, seed=s).p_value for s in range(5)}
    assert len(others) > 1  # the seed matters
    assert r1.p_value >= 1 / 5001


# ---------------------------------------------------------------- bootstrap

def _bootstrap_by_enumeration(d):
    """Exact bootstrap distribution of the mean: every one of the n^n resamples."""
    n = len(d)
    means = np.array([sum(d[i] for i in idx) / n for idx in itertools.product(range(n), repeat=n)])
    return means


def test_bootstrap_agrees_with_exact_enumeration():
    d = [0.05, -0.02, 0.11, 0.04, 0.0]
    a = np.zeros(5)
    exact = _bootstrap_by_enumeration(d)
    m = float(np.mean(d))
    p_exact = float(np.mean(np.abs(exact - m) >= abs(m) - 1e-12))
    draws = 100_000
    r = sig.bootstrap(a, np.array(d), resamples=draws, seed=9, alpha=0.1)
    se = math.sqrt(p_exact * (1 - p_exact) / draws)
    assert abs(r.p_value - p_exact) < 5 * se + 1 / draws
    assert np.quantile(exact, 0.04) <= r.ci_low <= np.quantile(exact, 0.06)
    assert np.quantile(exact, 0.94) <= r.ci_high <= np.quantile(exact, 0.96)
    assert r.statistic == pytest.approx(m)


def test_bootstrap_seeded_repeats_and_ci_contains_mean():
    a, b = _pairs(8, 30, "continuous")
    r1 = sig.bootstrap(a, b, resamples=3000, seed=1)
    assert r1 == sig.bootstrap(a, b, resamples=3000, seed=1)
    assert r1 != sig.bootstrap(a, b, resamples=3000, seed=2)
    assert r1.ci_low < r1.statistic < r1.ci_high


# ---------------------------------------------------------------- sign test

def test_sign_textbook_and_scipy():
    # 9 wins in 10: p = 2 * (1 + 10) / 1024
    r = sig.sign_test([0] * 10, [1] * 9 + [-1])
    assert r.p_value == 0.021484375 and r.statistic == 9
    for seed in range(30):
        a, b = _pairs(seed + 200, 3 + seed, "coarse")
        w, _, l_ = sig.wins_ties_losses(a, b)
        ours = sig.sign_test(a, b).p_value
        ref = 1.0 if w + l_ == 0 else stats.binomtest(w, w + l_).pvalue
        assert ours == pytest.approx(ref, rel=1e-12)


def test_sign_ignores_ties():
    assert sig.sign_test([0, 0, 0, 0], [1, 1, 0, 0]).p_value == 0.5
    assert sig.wins_ties_losses([0, 0, 0, 0], [1, 1, 0, -2]) == (2, 1, 1)


# ---------------------------------------------------------------- corrections

def test_corrections_hand_worked():
    p = [0.01, 0.04, 0.03, 0.005]
    assert sig.correct(p, "bonferroni").tolist() == pytest.approx([0.04, 0.16, 0.12, 0.02])
    assert sig.correct(p, "holm").tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert sig.correct(p, "none").tolist() == p
    assert sig.correct([0.5, 0.6], "bonferroni").tolist() == [1.0, 1.0]


def _holm_rejects(p, alpha):
    """Holm's step-down procedure as published: reject while p_(k) <= alpha / (m - k + 1)."""
    m = len(p)
    rejected = set()
    for k, i in enumerate(sorted(range(m), key=lambda j: p[j])):
        if p[i] <= alpha / (m - k):
            rejected.add(i)
        else:
            break
    return rejected


@pytest.mark.parametrize("seed", range(20))
def test_holm_adjusted_values_reproduce_the_procedure(seed):
    rng = np.random.default_rng(seed)
    p = (rng.random(1 + seed) ** 3).tolist()
    adj = sig.correct(p, "holm")
    for alpha in (0.001, 0.01, 0.05, 0.1, 0.3):
        assert {i for i, q in enumerate(adj) if q <= alpha} == _holm_rejects(p, alpha)
        assert {i for i, q in enumerate(sig.correct(p, "bonferroni")) if q <= alpha} == {
            i for i, q in enumerate(p) if q * len(p) <= alpha}


def test_correction_keeps_nan_out_of_the_family():
    out = sig.correct([0.01, math.nan, 0.02], "bonferroni")
    assert out[0] == 0.02 and math.isnan(out[1]) and out[2] == 0.04


# ---------------------------------------------------------------- edge cases, inputs

@pytest.mark.parametrize("test", sig.TESTS)
def test_identical_runs_give_p_one(test):
    a = [0.1, 0.5, 0.3, 0.0]
    assert sig.run_test(test, a, a, permutations=100).p_value == 1.0


def test_bad_inputs_are_our_errors():
    with pytest.raises(UsageError, match="paired"):
        sig.paired_t([1, 2, 3], [1, 2])
    with pytest.raises(UsageError, match="finite"):
        sig.wilcoxon([1, float("nan")], [1, 2])
    with pytest.raises(UsageError, match="unknown test"):
        sig.run_test("z", [1, 2], [2, 3])
    with pytest.raises(UsageError, match="unknown correction"):
        sig.correct([0.1], "fdr")


def test_missing_scipy_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.special", None)
    with pytest.raises(UsageError, match=r"'compare' extra.*pip install 'trec_eval_py\[compare\]'"):
        sig.paired_t([0.1, 0.2, 0.4], [0.2, 0.2, 0.3])
    # the other tests do without scipy
    assert sig.wilcoxon([0.1, 0.2, 0.4], [0.2, 0.3, 0.5]).p_value == 0.25


def test_scipy_is_not_imported_by_evaluation(golden_dir):
    code = (
        "import sys, trec_eval_py\n"
        f"trec_eval_py.evaluate({str(golden_dir / 'inputs' / 'qrels.test')!r}, "
        f"{str(golden_dir / 'inputs' / 'results.test')!r}, ['official'])\n"
        "from trec_eval_py.tools.compare import significance as s, comparison\n"
        "s.wilcoxon([0, 1], [1, 3]); s.randomization([0, 1], [1, 3]); s.sign_test([0], [1])\n"
        "s.bootstrap([0, 1], [1, 3], resamples=10)\n"
        "assert 'scipy' not in sys.modules, 'scipy was imported'\n"
        "s.paired_t([0, 1, 2], [1, 3, 3])\n"
        "assert 'scipy' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------- one-sided alternatives

ALTS = ("two-sided", "greater", "less")


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("alternative", ALTS)
def test_t_alternatives_match_scipy(seed, alternative):
    a, b = _pairs(seed + 3000, 2 + seed * 2, ["continuous", "coarse", "sparse"][seed % 3])
    if np.all(a == b) or np.var(b - a) == 0:
        pytest.skip("no spread (scipy gives nan)")
    ours = sig.paired_t(a, b, alpha=0.1, alternative=alternative)
    ref = stats.ttest_rel(b, a, alternative=alternative)
    assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-11, abs=1e-300)
    ci = ref.confidence_interval(0.9)
    for got, want in ((ours.ci_low, ci.low), (ours.ci_high, ci.high)):
        if math.isinf(want):
            assert got == want
        else:
            assert got == pytest.approx(want, rel=1e-10, abs=1e-15)


@pytest.mark.parametrize("seed,n,kind", WILCOXON_CASES[::2])
@pytest.mark.parametrize("alternative", ("greater", "less"))
def test_wilcoxon_alternatives_match_scipy(seed, n, kind, alternative):
    a, b = _pairs(seed + 1000, n, kind)
    if np.all(a == b):
        pytest.skip("identical runs (scipy gives nan)")
    ours = sig.wilcoxon(a, b, alternative=alternative)
    ref = stats.wilcoxon(b, a, alternative=alternative)
    assert ours.statistic == ref.statistic
    assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("alternative", ALTS)
def test_sign_alternatives_match_scipy(alternative):
    for seed in range(30):
        a, b = _pairs(seed + 200, 3 + seed, "coarse")
        w, _, l_ = sig.wins_ties_losses(a, b)
        ours = sig.sign_test(a, b, alternative=alternative).p_value
        ref = 1.0 if w + l_ == 0 else stats.binomtest(w, w + l_, alternative=alternative).pvalue
        assert ours == pytest.approx(ref, rel=1e-12)


def _scipy_paired_permutation(a, b, alternative):
    res = stats.permutation_test((b, a), lambda x, y: np.mean(x - y), permutation_type="samples",
                                 n_resamples=np.inf, alternative=alternative, vectorized=False)
    return res.pvalue


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("alternative", ALTS)
def test_randomization_exact_matches_scipy_permutation_test(seed, alternative):
    n = 2 + seed % 9
    a, b = _pairs(seed + 4000, n, ["continuous", "coarse", "sparse"][seed % 3])
    ours = sig.randomization(a, b, alternative=alternative)
    assert ours.method == "exact"
    assert ours.p_value == pytest.approx(_scipy_paired_permutation(a, b, alternative), rel=1e-12)


def _randomization_one_sided_by_enumeration(d, alternative):
    obs = sum(d)
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(d)):
        s = sum(x * y for x, y in zip(signs, d))
        if (s >= obs - 1e-12) if alternative == "greater" else (s <= obs + 1e-12):
            hits += 1
    return Fraction(hits, 2 ** len(d))


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("alternative", ("greater", "less"))
def test_randomization_one_sided_matches_enumeration(seed, alternative):
    a, b = _pairs(seed + 5000, 1 + seed, "coarse")
    ours = sig.randomization(a, b, alternative=alternative)
    assert Fraction(ours.p_value) == _randomization_one_sided_by_enumeration((b - a).tolist(), alternative)
    # Monte-Carlo agrees within its error
    mc = sig.randomization(a, b, alternative=alternative, exact=False, permutations=20_000, seed=seed)
    se = math.sqrt(ours.p_value * (1 - ours.p_value) / 20_000)
    assert abs(mc.p_value - ours.p_value) < 5 * se + 2 / 20_000


# a zero mean difference that floating point does not add up to exactly zero:
# 0.1 + 0.2 - 0.3 = 5.6e-17
ZERO_MEAN = ([0.0, 0.0, 0.3], [0.1, 0.2, 0.0])


def test_zero_mean_difference_gives_p_one():
    a, b = ZERO_MEAN
    assert sum(np.subtract(b, a)) != 0.0  # the rounding noise is there
    exact = sig.randomization(a, b)
    assert exact.method == "exact" and exact.p_value == 1.0
    assert sig.randomization(a, b, exact=False, permutations=2000).p_value == 1.0
    assert sig.bootstrap(a, b, resamples=2000).p_value == 1.0
    # one-sided: sums of +-0.1 +-0.2 +-0.3 are 0.6, 0, 0.2, -0.4, 0.4, -0.2, 0, -0.6;
    # five of eight are >= 0 and five <= 0 (both zeros count)
    assert sig.randomization(a, b, alternative="greater").p_value == 5 / 8
    assert sig.randomization(a, b, alternative="less").p_value == 5 / 8


@pytest.mark.parametrize("alternative", ALTS)
def test_all_zero_differences_give_p_one(alternative):
    z = [0.25, 0.5, 0.125, 0.0]
    for test in sig.TESTS:
        assert sig.run_test(test, z, z, permutations=64, alternative=alternative).p_value == 1.0
    assert sig.randomization(z, z, exact=False, permutations=500, alternative=alternative).p_value == 1.0
    assert sig.randomised_tukey_hsd(np.column_stack([z, z, z])).p_values.tolist() == [[1.0] * 3] * 3


def test_zero_mean_by_full_enumeration():
    # four topics whose differences cancel: every one of the 2^4 assignments
    # has |sum| >= 0 in exact arithmetic, so p = 1 (it was 0.9375)
    d = [0.1, 0.2, -0.3, 0.0]
    a = [0.3, 0.3, 0.6, 0.5]
    b = [x + y for x, y in zip(a, d)]
    assert Fraction(sig.randomization(a, b).p_value) == Fraction(1)
    assert _randomization_by_enumeration(a, b) == Fraction(1)


@pytest.mark.parametrize("alternative", ("greater", "less"))
def test_bootstrap_one_sided_agrees_with_exact_enumeration(alternative):
    d = [0.05, -0.02, 0.11, 0.04, 0.0]
    a = np.zeros(5)
    exact = _bootstrap_by_enumeration(d)
    m = float(np.mean(d))
    shifted = exact - m
    p_exact = float(np.mean(shifted >= m - 1e-12)) if alternative == "greater" else float(np.mean(shifted <= m + 1e-12))
    draws = 60_000
    r = sig.bootstrap(a, np.array(d), resamples=draws, seed=4, alpha=0.1, alternative=alternative)
    se = math.sqrt(p_exact * (1 - p_exact) / draws)
    assert abs(r.p_value - p_exact) < 5 * se + 2 / draws
    if alternative == "greater":
        assert r.ci_high == math.inf and np.quantile(exact, 0.09) <= r.ci_low <= np.quantile(exact, 0.11)
    else:
        assert r.ci_low == -math.inf and np.quantile(exact, 0.89) <= r.ci_high <= np.quantile(exact, 0.91)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("alternative", ALTS)
def test_bootstrap_interval_matches_scipy(seed, alternative):
    a, b = _pairs(seed + 6000, 15 + 5 * seed, "continuous")
    d = b - a
    ours = sig.bootstrap(a, b, resamples=20_000, seed=seed, alpha=0.05, alternative=alternative)
    ref = stats.bootstrap((d,), np.mean, n_resamples=20_000, method="percentile", confidence_level=0.95,
                          alternative=alternative, random_state=np.random.default_rng(seed + 99)).confidence_interval
    spread = np.std(d, ddof=1) / math.sqrt(len(d))  # bootstrap standard error, roughly
    for got, want in ((ours.ci_low, ref.low), (ours.ci_high, ref.high)):
        if math.isinf(want):
            assert got == want
        else:
            assert abs(got - want) < 0.15 * spread


# ---------------------------------------------------------------- effect sizes

@pytest.mark.parametrize("seed", range(20))
def test_effect_sizes_match_scipy(seed):
    from scipy import special

    a, b = _pairs(seed + 7000, 3 + seed, "continuous")
    d, g = sig.effect_sizes(a, b)
    n = len(a)
    t = stats.ttest_rel(b, a).statistic
    assert d == pytest.approx(t / math.sqrt(n), rel=1e-12)  # d_z = t / sqrt(n)
    df = n - 1
    j = special.gamma(df / 2) / (math.sqrt(df / 2) * special.gamma((df - 1) / 2))
    assert g == pytest.approx(d * j, rel=1e-12)
    if df >= 4:
        assert j == pytest.approx(1 - 3 / (4 * df - 1), abs=3e-3)


def test_effect_sizes_textbook_and_edges():
    # sleep data: mean difference 1.58, sd of the differences 1.2300 -> d_z = 1.2846
    # (= t / sqrt(10) = 4.0621 / 3.1623); J(9) = Gamma(4.5) / (sqrt(4.5) Gamma(4)) = 0.9139
    d, g = sig.effect_sizes(SLEEP_1, SLEEP_2)
    assert round(d, 4) == 1.2846 and round(g / d, 4) == 0.9139
    assert sig.effect_sizes([0.1, 0.2], [0.1, 0.2]) == (0.0, 0.0)
    assert sig.effect_sizes([0.0, 0.5], [0.5, 1.0]) == (math.inf, math.inf)
    assert all(math.isnan(x) for x in sig.effect_sizes([0.1], [0.3]))


# ---------------------------------------------------------------- Tukey HSD

@pytest.mark.parametrize("seed", range(10))
def test_tukey_classic_one_way_matches_scipy(seed):
    rng = np.random.default_rng(seed + 8000)
    n, k = 5 + seed, 2 + seed % 4
    x = rng.random((n, k)) + rng.normal(0, 0.1, k)
    ours = sig.tukey_hsd_classic(x, blocks=False)
    ref = stats.tukey_hsd(*[x[:, j] for j in range(k)])
    assert ours.p_values == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_tukey_classic_blocked_by_least_squares(seed):
    # two-way ANOVA residuals from an explicit design matrix (runs + topics)
    rng = np.random.default_rng(seed + 8100)
    n, k = 6 + seed, 3 + seed % 3
    x = rng.random((n, 1)) + rng.random((n, k)) * 0.3 + np.linspace(0, 0.1, k)
    y = x.reshape(-1)
    rows = []
    for t in range(n):
        for r in range(k):
            rows.append([1.0] + [float(r == j) for j in range(1, k)] + [float(t == j) for j in range(1, n)])
    design = np.array(rows)
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    resid = y - design @ coef
    df = (k - 1) * (n - 1)
    mse = float(resid @ resid) / df
    means = x.mean(axis=0)
    q = np.abs(means[:, None] - means[None, :]) / math.sqrt(mse / n)
    want = stats.studentized_range.sf(q, k, df)
    np.fill_diagonal(want, 1.0)
    assert sig.tukey_hsd_classic(x).p_values == pytest.approx(want, rel=1e-9, abs=1e-12)


def _tukey_brute_force(x):
    n, k = x.shape
    means = x.mean(axis=0)
    obs = np.abs(means[:, None] - means[None, :])
    hits = np.zeros((k, k), dtype=int)
    total = 0
    for arrangement in itertools.product(list(itertools.permutations(range(k))), repeat=n):
        m = [sum(x[t][arrangement[t][j]] for t in range(n)) / n for j in range(k)]
        rng_ = max(m) - min(m)
        hits += rng_ >= obs - 1e-12
        total += 1
    p = hits / total
    np.fill_diagonal(p, 1.0)
    return p


@pytest.mark.parametrize("seed", range(4))
def test_randomised_tukey_exact_matches_brute_force(seed):
    rng = np.random.default_rng(seed + 8200)
    n, k = (4, 3) if seed % 2 else (3, 3)
    x = np.round(rng.random((n, k)), 2)
    ours = sig.randomised_tukey_hsd(x, permutations=10**6)
    assert ours.method == "exact"
    assert ours.p_values == pytest.approx(_tukey_brute_force(x), abs=0)
    mc = sig.randomised_tukey_hsd(x, permutations=20_000, seed=seed, exact=False)
    assert mc.method == "monte-carlo"
    sd = np.sqrt(ours.p_values * (1 - ours.p_values) / 20_000)
    assert np.all(np.abs(mc.p_values - ours.p_values) < 5 * sd + 3e-4)


def test_randomised_tukey_identical_runs_and_seeding():
    x = np.array([[0.2, 0.2, 0.2], [0.5, 0.5, 0.5], [0.1, 0.1, 0.1]])
    assert np.all(sig.randomised_tukey_hsd(x).p_values == 1.0)
    assert np.all(sig.randomised_tukey_hsd(x, exact=False, permutations=300).p_values == 1.0)
    rng = np.random.default_rng(3)
    y = rng.random((30, 4))
    r1 = sig.randomised_tukey_hsd(y, permutations=3000, seed=7)
    assert np.array_equal(r1.p_values, sig.randomised_tukey_hsd(y, permutations=3000, seed=7).p_values)
    assert np.all(r1.p_values >= 1 / 3001) and np.allclose(r1.p_values, r1.p_values.T)
    # family-wise: a pair's p is never below the unadjusted two-run randomization p
    two = sig.randomization(y[:, 0], y[:, 1], permutations=3000, seed=7).p_value
    assert r1.p_values[0, 1] >= two - 0.05


# ---------------------------------------------------------------- BH and BY

# Benjamini and Hochberg (1995), section 4: fifteen p-values from a
# multiple-endpoint trial; at q = 0.05 the step-up procedure rejects the
# four smallest, Bonferroni only the three below 0.05/15.
BH_1995 = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
           0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000]


def _step_up_rejects(p, q, c=1.0):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    k = 0
    for rank, i in enumerate(order, start=1):
        if p[i] <= rank * q / (m * c):
            k = rank
    return set(order[:k])


def test_bh_textbook_example():
    adj = sig.correct(BH_1995, "bh")
    assert {i for i, v in enumerate(adj) if v <= 0.05} == {0, 1, 2, 3}
    assert {i for i, v in enumerate(sig.correct(BH_1995, "bonferroni")) if v <= 0.05} == {0, 1, 2}
    # adjusted value of the fourth: min over j >= 4 of 15 p_(j) / j = 15 * 0.0095 / 4
    assert adj[3] == pytest.approx(15 * 0.0095 / 4)
    # the fifth: 15 p_(j) / j for j = 5..9 is 0.0603, 0.0695, 0.0639, 0.0645, 0.0765: 0.0603 > 0.05
    assert adj[4] == pytest.approx(15 * 0.0201 / 5)
    # R's p.adjust(c(.01,.02,.03,.04,.05), "BH") is 0.05 for all; "BY" is 0.05 * (1 + 1/2 + ... + 1/5)
    assert sig.correct([0.01, 0.02, 0.03, 0.04, 0.05], "bh").tolist() == pytest.approx([0.05] * 5)
    assert sig.correct([0.01, 0.02, 0.03, 0.04, 0.05], "by").tolist() == pytest.approx([0.05 * 137 / 60] * 5)


@pytest.mark.parametrize("seed", range(15))
def test_bh_by_reproduce_the_step_up_procedure_and_scipy(seed):
    rng = np.random.default_rng(seed)
    p = (rng.random(1 + seed * 2) ** 3).tolist()
    m = len(p)
    cm = sum(1 / i for i in range(1, m + 1))
    for method, c in (("bh", 1.0), ("by", cm)):
        adj = sig.correct(p, method)
        assert adj.tolist() == pytest.approx(stats.false_discovery_control(p, method=method).tolist(), rel=1e-12)
        for q in (0.01, 0.05, 0.1, 0.3):
            assert {i for i, v in enumerate(adj) if v <= q} == _step_up_rejects(p, q, c)
