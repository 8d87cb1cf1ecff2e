"""The paired tests of trec_eval_py.tools.significance against independent computations:
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

from trec_eval_py.tools import significance as sig
from trec_eval_py.errors import UsageError

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
        "from trec_eval_py.tools import significance as s, comparison\n"
        "s.wilcoxon([0, 1], [1, 3]); s.randomization([0, 1], [1, 3]); s.sign_test([0], [1])\n"
        "s.bootstrap([0, 1], [1, 3], resamples=10)\n"
        "assert 'scipy' not in sys.modules, 'scipy was imported'\n"
        "s.paired_t([0, 1, 2], [1, 3, 3])\n"
        "assert 'scipy' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
