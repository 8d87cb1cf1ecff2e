"""croc_exp / croc_pow / croc_log: the CROC paper's example and random-classifier
closed form, magnification defaults, and reference agreement."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.extra_reference import MAG, batches, close, one, ranks_to_codes, ref_croc, run_measure

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.measures import registry
from trec_eval_py.engine.measures.croc import DEFAULT_ALPHA, random_area
from trec_eval_py.errors import MeasureError

PAPER_RANKS = {1, 2, 4, 5, 7}  # Swamidass et al. 2010, section 2.5: 5 positives of 10
PAPER_FPRS = [0, 0, 0.2, 0.2, 0.4]


@pytest.mark.parametrize("kind", ["exp", "pow", "log"])
@pytest.mark.parametrize("alpha", [7.0, 14.0, 80.0])
def test_paper_example(kind, alpha):
    codes = ranks_to_codes(10, PAPER_RANKS)
    expected = sum(1 - MAG[kind](x, alpha) for x in PAPER_FPRS) / 5
    assert close(one(f"croc_{kind}", codes, codes, None, f"{alpha:g}"), expected)
    # the ten instances are the whole data set: -N 10 changes nothing
    ctx = EvalContext(num_docs_in_coll=10)
    assert close(one(f"croc_{kind}", codes, codes, ctx, f"{alpha:g}"), expected)


def test_paper_example_rates_through_the_identity():
    codes = ranks_to_codes(10, PAPER_RANKS)
    assert close(one("auc_roc", codes, codes), sum(1 - x for x in PAPER_FPRS) / 5)


def test_random_classifier_closed_form_matches_table_1():
    # Table 1, RANDOM row: 0.142, 0.071, 0.013 (the last is 0.0125, rounded up)
    for alpha, printed in [(7, 0.142), (14, 0.071), (80, 0.013)]:
        assert abs(random_area("exp", alpha) - printed) <= 0.0005 + 1e-12
    assert close(random_area("exp", 80), 1 / 80 - math.exp(-80) / (1 - math.exp(-80)))


@pytest.mark.parametrize("kind", ["exp", "pow", "log"])
@pytest.mark.parametrize("alpha", [0.5, 7.0, 14.0, 80.0])
def test_random_classifier_is_the_mean_over_placements(kind, alpha):
    # One relevant document after every j negatives, j = 0..n: their mean
    # score is the expected score of a randomly placed relevant document.
    n = 20000
    codes = [1]
    for _ in range(n):
        codes += [0, 1]
    v = one(f"croc_{kind}", codes, [1] * (n + 1) + [0] * n, None, f"{alpha:g}")
    assert abs(v - random_area(kind, alpha)) < 1.0 / n


def test_defaults_put_a_tenth_at_the_middle():
    # the paper's Figure 1 chooses alpha so that f(0.1) = 0.5
    for kind, alpha in DEFAULT_ALPHA.items():
        assert abs(MAG[kind](0.1, alpha) - 0.5) < 0.005
    names = [registry()[f"croc_{k}"].output_names(registry()[f"croc_{k}"].params.parse("x", None))
             for k in ("exp", "pow", "log")]
    assert names == [["croc_exp_7"], ["croc_pow_2.32"], ["croc_log_80"]]


def test_parameters():
    m = registry()["croc_exp"]
    p = m.params.parse("croc_exp", "80,7,14")
    assert m.output_names(p) == ["croc_exp_7", "croc_exp_14", "croc_exp_80"]
    codes = ranks_to_codes(10, PAPER_RANKS)
    v = run_measure("croc_exp", [(codes, codes)], None, "80,7,14")[0]
    assert v[0] > v[1] > v[2]  # more magnification, smaller area
    for bad in ("0", "-3", "x", "7,7"):
        with pytest.raises(MeasureError):
            m.params.parse("croc_exp", bad)


def test_edges():
    for kind in ("exp", "pow", "log"):
        assert one(f"croc_{kind}", [], [1]) == 0.0
        assert one(f"croc_{kind}", [0], [0]) == 0.0
        assert one(f"croc_{kind}", [1, 0], [1]) == 1.0
        assert one(f"croc_{kind}", [0, 1], [1]) == 0.0


@settings(max_examples=200, deadline=None)
@given(batches(), st.sampled_from(["exp", "pow", "log"]), st.sampled_from([0.3, 1.0, 2.32, 7.0, 14.0, 80.0]))
def test_matches_reference(case, kind, alpha):
    tops, ctx = case
    v = run_measure(f"croc_{kind}", tops, ctx, repr(alpha))
    for i, (codes, judged) in enumerate(tops):
        assert close(v[i, 0], ref_croc(codes, judged, ctx, kind, alpha))
