"""prefs_simp / _ret / _imp: fulfilled over possible, all groups pooled."""
from __future__ import annotations

from support.prefs_cases import compare_with_reference, one

SIMP = ["prefs_simp", "prefs_simp_ret", "prefs_simp_imp"]
THREE = [("1", "a", "s", "A", 2), ("1", "a", "s", "B", 1), ("1", "a", "s", "C", 0)]


def test_three_levels():
    # A over B failed (B ranked above A), A over C and B over C fulfilled by implication
    run = [("1", "X", 9), ("1", "B", 5), ("1", "A", 4)]
    assert one(THREE, run, "prefs_simp") == 2 / 3
    assert one(THREE, run, "prefs_simp_ret") == 0.0  # the one retrieved pair is out of order
    assert one(THREE, run, "prefs_simp_imp") == 2 / 3


def test_unretrieved_pairs_count_as_failures_only_in_simp():
    # run retrieves A only: A over B, A over C fulfilled (implied); B over C: neither retrieved
    run = [("1", "A", 1)]
    assert one(THREE, run, "prefs_simp") == 2 / 3
    assert one(THREE, run, "prefs_simp_imp") == 1.0
    assert one(THREE, run, "prefs_simp_ret") == 0.0  # no pair of retrieved documents


def test_groups_are_pooled_by_preference():
    # g1 states 3 preferences, all fulfilled; g2 states 1, failed: 3 / 4
    lines = [("1", "g1", "s", "A", 2), ("1", "g1", "s", "B", 1), ("1", "g1", "s", "C", 0),
             ("1", "g2", "s", "B", 1), ("1", "g2", "s", "A", 0)]
    run = [("1", "A", 3), ("1", "B", 2), ("1", "C", 1)]
    assert one(lines, run, "prefs_simp") == 0.75


def test_no_preference_scores_zero():
    lines = [("1", "a", "s", "A", 1), ("1", "a", "s", "B", 1)]
    for m in SIMP:
        assert one(lines, [("1", "A", 1)], m) == 0.0


def test_equal_scores_rank_by_ascending_docno():
    # A and B tie on score: A (smaller docno) is ranked first, so B over A fails
    lines = [("1", "a", "s", "B", 1), ("1", "a", "s", "A", 0)]
    assert one(lines, [("1", "B", 1.0), ("1", "A", 1.0)], "prefs_simp") == 0.0
    assert one(lines, [("1", "B", 1.5), ("1", "A", 1.0)], "prefs_simp") == 1.0


def test_against_reference():
    assert compare_with_reference(SIMP) > 100
