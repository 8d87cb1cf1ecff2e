"""The shared gain table: parameter names, trec_eval's gain sort, discounts."""
import math
import random

import numpy as np

from trec_eval_py.engine.measures import _gains
from trec_eval_py.engine.measures._params import PairParams


def pairs(text, strict):
    return _gains.gain_pairs(PairParams().parse("ndcg", text), strict)


def test_default_table_is_the_levels():
    t = _gains.gain_table((), 3)
    assert t.levels == (0, 1, 2) and t.gains == (0.0, 1.0, 2.0)
    assert t.count_level == (0, 1, 2)
    # codes -2, -1 (unjudged, not in qrels) gain 0
    assert t.lookup.tolist() == [0.0, 0.0, 0.0, 1.0, 2.0]


def test_overrides_keep_unlisted_levels_and_sort_by_gain():
    t = _gains.gain_table(((1, 3.0), (2, 9.0), (4, 4.5)), 4)
    # level 3 keeps gain 3; level 4 has no documents (count from no level)
    assert list(zip(t.levels, t.gains)) == [(0, 0.0), (1, 3.0), (3, 3.0), (4, 4.5), (2, 9.0)]
    assert t.count_level == (0, 1, 3, -1, 2)
    assert t.lookup[1 + 2] == 3.0 and t.lookup[2 + 2] == 9.0 and t.lookup[3 + 2] == 3.0


def test_duplicate_level_counts_once_and_lookup_takes_the_lowest_gain():
    t = _gains.gain_table(((1, 5.0), (1, 3.0)), 2)
    # the first pair typed carries the documents; sorted first match gives the gain
    assert list(zip(t.levels, t.gains, t.count_level)) == [(0, 0.0, 0), (1, 3.0, -1), (1, 5.0, 1)]
    assert t.lookup[1 + 2] == 3.0


def test_negative_levels_name_unjudged_codes():
    t = _gains.gain_table(((-1, 2.0), (-2, 0.5)), 1)
    assert t.lookup[0] == 0.5 and t.lookup[1] == 2.0


def test_param_names_908_vs_10():
    assert pairs("1=3,x=2,+2=4,-1=1", strict=True) == ((1, 3.0), (2, 4.0), (-1, 1.0))
    # 9.0.8 reads names with atol: "x" is level 0, " 7a" is 7
    assert pairs("1=3,x=2", strict=False) == ((1, 3.0), (0, 2.0))
    assert _gains.c_atol(" 7a") == 7 and _gains.c_atol("-3") == -3 and _gains.c_atol("p") == 0
    assert _gains.param_level("1.5", True) is None and _gains.param_level("1.5", False) == 1


def test_comparator_truncates_like_c():
    assert _gains._c_int_diff(3.5, 3.0) == 0
    assert _gains._c_int_diff(3.0, 4.5) == -1
    assert _gains._c_int_diff(-0.9, 0.0) == 0
    assert _gains._c_int_diff(1e12, 0.0) == -(1 << 31)  # out of int range
    assert _gains._c_int_diff(math.nan, 0.0) == -(1 << 31)


def test_merge_sort_splits_and_merges_like_glibc():
    # Worked by hand with the truncating comparator: [0.2, 0.0, 1.0]
    # halves [0.2] | [0.0, 1.0] -> right stays [0.0, 1.0];
    # merge: 0.2 vs 0.0 -> (int)0.2 = 0, take left -> [0.2, 0.0, 1.0]
    def cmp(a, b):
        return _gains._c_int_diff(a, b)

    assert _gains.glibc_msort([0.2, 0.0, 1.0], cmp) == [0.2, 0.0, 1.0]
    # [1.0, 0.3, 0.0]: halves [1.0] | [0.3, 0.0]; right merge: 0.3 vs 0.0 -> 0 -> [0.3, 0.0]
    # merge: 1.0 vs 0.3 -> (int)0.7 = 0 -> take 1.0, then 0.3, 0.0
    assert _gains.glibc_msort([1.0, 0.3, 0.0], cmp) == [1.0, 0.3, 0.0]
    # Table [1:3.5, 0:0, 2:2, 3:3]: left [3.5, 0] -> [0, 3.5]; right [2, 3];
    # merge: 0 vs 2 -> 0; 3.5 vs 2 -> (int)1.5 = 1 -> 2; 3.5 vs 3 -> (int)0.5 = 0 -> 3.5
    # so level 3 (gain 3) ends up on top of the ideal order, above 3.5
    t = _gains.gain_table(((1, 3.5),), 4)
    assert list(zip(t.levels, t.gains)) == [(0, 0.0), (2, 2.0), (1, 3.5), (3, 3.0)]


def test_merge_sort_is_a_stable_sort_for_true_orders():
    rng = random.Random(5)
    for _ in range(200):
        xs = [(rng.randint(-3, 3), i) for i in range(rng.randint(0, 17))]
        got = _gains.glibc_msort(xs, lambda a, b: a[0] - b[0])
        assert got == sorted(xs, key=lambda x: x[0])


def test_log2_tables_use_c_log2():
    w = 3000
    assert _gains.log2_rank1(w).tolist() == [math.log2(j + 2) for j in range(w)]
    x = np.array([[2.0, 3.5], [1e-3, 7.0]])
    assert _gains.c_log2(x).tolist() == [[1.0, math.log2(3.5)], [math.log2(1e-3), math.log2(7.0)]]
    assert _gains.c_log2(np.array([0.0, -1.0]))[0] == -math.inf
    assert math.isnan(_gains.c_log2(np.array([0.0, -1.0]))[1])
