"""bedroc and rie: bounds, the CROC paper's three motivating cases, and
agreement with Truchon and Bayly's formulas on an explicit ranked list."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from extra_reference import batches, close, one, ranks_to_codes, ref_bedroc, ref_rie, run_measure
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
