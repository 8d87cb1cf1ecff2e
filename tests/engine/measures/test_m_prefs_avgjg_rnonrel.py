"""prefs_avgjg_Rnonrel / _ret: per-group ratio with the non-relevant documents cut or padded to R."""
from __future__ import annotations

import math

from support.prefs_cases import compare_with_reference, one

RNONREL = ["prefs_avgjg_Rnonrel", "prefs_avgjg_Rnonrel_ret"]


def test_fewer_nonrelevant_than_relevant_are_padded():
    # A(2) > B(1) > C(0); run X, B, A. R = 2 relevant, N = 1 non-relevant.
    # Counts: 3 possible, 2 fulfilled (A over C, B over C). Padding R - N = 1 non-relevant doc:
    # + num_rel_ret * 1 = 2 fulfilled, + num_rel * 1 = 2 possible -> 4 / 5.
    lines = [("1", "a", "s", "A", 2), ("1", "a", "s", "B", 1), ("1", "a", "s", "C", 0)]
    run = [("1", "X", 9), ("1", "B", 5), ("1", "A", 4)]
    assert one(lines, run, "prefs_avgjg_Rnonrel") == 4 / 5
    # retrieved only: R = 2, N = 0; 1 possible, 0 fulfilled; + 2 * 2 fulfilled, + 2 * 2 possible
    assert one(lines, run, "prefs_avgjg_Rnonrel_ret") == 4 / 5


def test_surplus_nonrelevant_are_cut_to_the_first_r():
    # A relevant, N1 N2 N3 not. Run: A, N1, N2 (N3 unretrieved). R = 1 < N = 3, so only N1 is kept.
    # As trec_eval counts it, every line of every class is paired with the kept N1:
    # A over N1 fulfilled; N1, N2, N3 "over" N1 are failures (N1 with itself included): 1 / 4.
    lines = [("1", "a", "s", "A", 1)] + [("1", "a", "s", f"N{i}", 0) for i in (1, 2, 3)]
    run = [("1", "A", 3), ("1", "N1", 2), ("1", "N2", 1)]
    assert one(lines, run, "prefs_avgjg_Rnonrel") == 1 / 4
    # retrieved only: classes {A}, {N1, N2}; keep R_ret = 1 -> N1; pairs A-N1 (ok), N1-N1, N2-N1
    assert one(lines, run, "prefs_avgjg_Rnonrel_ret") == 1 / 3
    # plain prefs_avgjg, for contrast: A over all three non-relevant is fulfilled
    assert one(lines, run, "prefs_avgjg") == 1.0


def test_preference_array_keeps_first_nonrelevant_in_rank_order():
    # Two sub-groups (preference array): s1: A(1) > N1(0), N2(0); s2: B(1) > N2(0), N3(0).
    # R = 2 (A, B), N = 3. Run: N1, A, B, N2, N3 -> ids N1 0, A 1, B 2, N2 3, N3 4.
    # Keep the first 2 non-relevant in id order (N1, N2); N3 is dropped.
    # Remaining preferences: A>N1 (1 vs 0, fails), A>N2 (ok), B>N2 (ok) -> 2 / 3.
    lines = [("1", "g", "s1", "A", 1), ("1", "g", "s1", "N1", 0), ("1", "g", "s1", "N2", 0),
             ("1", "g", "s2", "B", 1), ("1", "g", "s2", "N2", 0), ("1", "g", "s2", "N3", 0)]
    run = [("1", d, s) for d, s in (("N1", 5), ("A", 4), ("B", 3), ("N2", 2), ("N3", 1))]
    assert one(lines, run, "prefs_avgjg_Rnonrel") == 2 / 3


def test_a_group_with_nothing_to_count_zeroes_the_topic():
    # g1 is fine (1.0) but g2 has only non-relevant documents: R = 0 < N, nothing is kept,
    # 0 / 0 -> NaN, and the topic's value is 0 (as in trec_eval)
    lines = [("1", "g1", "s", "A", 1), ("1", "g1", "s", "B", 0), ("1", "g2", "s", "B", 0)]
    run = [("1", "A", 2), ("1", "B", 1)]
    assert one(lines, run, "prefs_avgjg") == 0.5
    assert one(lines, run, "prefs_avgjg_Rnonrel") == 0.0


def test_group_ratio_nan_rule():
    import numpy as np

    from trec_eval_py.engine.join.prefs import JudgmentGroup, TopicPrefs
    from trec_eval_py.engine.measures.prefs_avgjg_rnonrel import _group_ratio

    g = JudgmentGroup(0, 0, 0, 0, 0, num_rel=0, num_rel_ret=0, num_nonrel=1, num_nonrel_ret=0,
                      ecs=[np.array([0])])
    assert math.isnan(_group_ratio(g, TopicPrefs("1", 1, 0, [g]), False))


def test_against_reference():
    assert compare_with_reference(RNONREL) > 100
