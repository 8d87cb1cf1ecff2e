"""bedroc and rie: bounds, the CROC paper's three motivating cases, and
agreement with Truchon and Bayly's formulas on an explicit ranked list."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from support.extra_reference import batches, close, one, ranks_to_codes, ref_bedroc, ref_rie, run_measure

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.measures import registry


def test_best_and_worst_rankings():
    best = ranks_to_codes(50, range(1, 6))
    worst = ranks_to_codes(50, range(46, 51))
    judged = [1] * 5 + [0] * 45
    assert close(one("bedroc", best, judged), 1.0)
    assert close(one("bedroc", worst, judged), 0.0)
    ra, a = 5 / 50, 20.0
    assert close(one("rie", best, judged), (1 - math.exp(-a * ra)) / (ra * (1 - math.exp(-a))))


def test_truchon_bayly_three_cases():
    # Swamidass et al. 2010, introduction (after Truchon and Bayly): half the
    # positives at the top and half at the bottom, positives spread uniformly,
    # and all positives in the middle all have ROC area 0.5, but early
    # recognition should rank them in that order.
    n = 100
    top_bottom = ranks_to_codes(n, [1, 2, 3, 4, 5, 96, 97, 98, 99, 100])
    uniform = ranks_to_codes(n, [5, 15, 25, 35, 45, 56, 66, 76, 86, 96])
    middle = ranks_to_codes(n, range(46, 56))
    judged = [1] * 10 + [0] * 90
    for codes in (top_bottom, uniform, middle):
        assert close(one("auc_roc", codes, judged), 0.5)
    for name in ("bedroc", "rie", "croc_exp"):
        a, b, c = (one(name, codes, judged) for codes in (top_bottom, uniform, middle))
        assert a > b > c, name


def test_random_rie_is_about_one():
    # mean RIE of one relevant document over all N placements is exactly 1
    big_n = 40
    judged = [1] + [0] * (big_n - 1)
    rows = [(ranks_to_codes(big_n, [k]), judged) for k in range(1, big_n + 1)]
    v = run_measure("rie", rows, None, "20")[:, 0]
    assert close(sum(v) / big_n, 1.0)


def test_everyone_relevant_and_edges():
    assert one("bedroc", [1, 1, 1], [1, 1, 1]) == 1.0
    assert close(one("rie", [1, 1, 1], [1, 1, 1]), 1.0)
    # no negatives: the share of relevant documents retrieved
    assert one("bedroc", [], [1]) == 0.0
    assert one("rie", [], [1, 1]) == 0.0
    assert one("bedroc", [1], [1, 1]) == 0.5
    assert one("rie", [1, 1], [1, 1, 1, 1]) == 0.5
    assert one("bedroc", [0, 0], [0]) == 0.0
    assert one("rie", [0, 0], [0]) == 0.0


def test_collection_size_and_misses():
    codes, judged = [1, 0, 0], [1, 1, 0]
    ctx = EvalContext(num_docs_in_coll=20)
    # list of 20: relevant at rank 1, the miss at rank 20
    ra, a = 2 / 20, 20.0
    total = math.exp(-a * 1 / 20) + math.exp(-a * 20 / 20)
    assert close(one("rie", codes, judged, ctx), total / (ra * (1 - math.exp(-a)) / (math.exp(a / 20) - 1)))


def test_outputs():
    m = registry()["bedroc"]
    assert m.output_names(m.params.parse("bedroc", None)) == ["bedroc_20"]
    assert m.output_names(m.params.parse("bedroc", "80,20")) == ["bedroc_20", "bedroc_80"]


@settings(max_examples=300, deadline=None)
@given(batches(), st.sampled_from([0.5, 1.0, 20.0, 80.0]))
def test_matches_reference(case, alpha):
    tops, ctx = case
    rie = run_measure("rie", tops, ctx, repr(alpha))
    bed = run_measure("bedroc", tops, ctx, repr(alpha))
    for i, (codes, judged) in enumerate(tops):
        assert math.isclose(rie[i, 0], ref_rie(codes, judged, ctx, alpha), rel_tol=1e-12, abs_tol=1e-12)
        # the closed form subtracts two close hyperbolic cosines when alpha * R_a
        # is small, which costs it three or four digits
        assert math.isclose(bed[i, 0], ref_bedroc(codes, judged, ctx, alpha), rel_tol=1e-11, abs_tol=1e-11)
        assert -1e-12 <= bed[i, 0] <= 1 + 1e-12


def _mp_rie_bedroc(ranks, big_n, alpha):
    """The textbook formulas at 60 digits: no overflow, no rounding."""
    import mpmath

    with mpmath.workdps(60):
        a, n = mpmath.mpf(alpha), len(ranks)
        ra = mpmath.mpf(n) / big_n
        total = mpmath.fsum(mpmath.exp(-a * r / big_n) for r in ranks)
        rie = total / (ra * (1 - mpmath.exp(-a)) / (mpmath.exp(a / big_n) - 1))
        rie_max = (1 - mpmath.exp(-a * ra)) / (ra * (1 - mpmath.exp(-a)))
        rie_min = rie_max * mpmath.exp(-a * (1 - ra))
        return float(rie), float((rie - rie_min) / (rie_max - rie_min))


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 12), st.data(), st.sampled_from([0.5, 1.0, 20.0, 500.0, 1500.0, 5000.0, 1e5]))
def test_stable_for_large_alpha_over_n(big_n, data, alpha):
    # alpha / N well beyond 709, where e^(alpha/N) - 1 overflows
    ranks = sorted(data.draw(st.sets(st.integers(1, big_n), min_size=1, max_size=big_n - 1)))
    codes = ranks_to_codes(big_n, ranks)
    judged = [1] * len(ranks) + [0] * (big_n - len(ranks))
    rie, bed = _mp_rie_bedroc(ranks, big_n, alpha)
    got_rie = one("rie", codes, judged, None, repr(alpha))
    got_bed = one("bedroc", codes, judged, None, repr(alpha))
    assert math.isclose(got_rie, rie, rel_tol=1e-11, abs_tol=1e-300), (got_rie, rie)
    assert math.isclose(got_bed, bed, rel_tol=1e-11, abs_tol=1e-12), (got_bed, bed)


def test_large_alpha_best_ranking_is_not_zero():
    # alpha/N = 1000: the textbook form overflowed to 0 here
    codes, judged = [1, 0], [1, 0]
    assert one("bedroc", codes, judged, None, "2000") == 1.0
    assert math.isclose(one("rie", codes, judged, None, "2000"), 2.0, rel_tol=1e-15)


def test_bedroc_clipped_to_the_unit_interval():
    # worst and best rankings over many sizes and alphas: exactly 0 and at most 1,
    # never -0.0 (prints -0.0000) nor 1.000000000000002 (JSON)
    worst, best = [], []
    for big_n in range(2, 40):
        for k in range(1, big_n):
            judged = [1] * k + [0] * (big_n - k)
            worst.append((ranks_to_codes(big_n, range(big_n - k + 1, big_n + 1)), judged))
            best.append((ranks_to_codes(big_n, range(1, k + 1)), judged))
    for alpha in ("0.1", "1", "7", "20", "80", "321.5"):
        for v in run_measure("bedroc", worst, None, alpha)[:, 0]:
            assert 0.0 <= v < 1e-12 and math.copysign(1.0, v) == 1.0
        for v in run_measure("bedroc", best, None, alpha)[:, 0]:
            assert 0.0 <= v <= 1.0 and close(v, 1.0)
