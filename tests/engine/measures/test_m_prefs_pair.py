"""prefs_pair / _ret / _imp: mean over document pairs of the share of preferences fulfilled."""
from __future__ import annotations

from support.prefs_cases import compare_with_reference, one

PAIR = ["prefs_pair", "prefs_pair_ret", "prefs_pair_imp"]


def test_pairs_not_preferences_are_averaged():
    # g1: A > B > C, all in rank order; g2: B > A, against it.
    # Pairs: (A,B) 1 of 2 groups satisfied -> 0.5; (A,C) -> 1; (B,C) -> 1. Mean 2.5 / 3,
    # where prefs_simp (per preference) would be 3 / 4.
    lines = [("1", "g1", "s", "A", 2), ("1", "g1", "s", "B", 1), ("1", "g1", "s", "C", 0),
             ("1", "g2", "s", "B", 1), ("1", "g2", "s", "A", 0)]
    run = [("1", "A", 3), ("1", "B", 2), ("1", "C", 1)]
    assert one(lines, run, "prefs_pair") == (0.5 + 1.0 + 1.0) / 3
    assert one(lines, run, "prefs_pair_ret") == (0.5 + 1.0 + 1.0) / 3


def test_categories_of_pairs():
    # A > B > C > D (one group). Run: B, A; C and D unretrieved.
    # retrieved pair (A,B): B first -> 0. retrieved vs not: (A,C),(A,D),(B,C),(B,D) -> 1 each.
    # unretrieved pair (C,D): counts, scores 0.
    lines = [("1", "a", "s", d, lev) for d, lev in (("A", 3), ("B", 2), ("C", 1), ("D", 0))]
    run = [("1", "B", 2), ("1", "A", 1)]
    assert one(lines, run, "prefs_pair") == 4 / 6
    assert one(lines, run, "prefs_pair_ret") == 0 / 1
    assert one(lines, run, "prefs_pair_imp") == 4 / 5


def test_no_pairs_scores_zero():
    lines = [("1", "a", "s", "A", 1)]
    for m in PAIR:
        assert one(lines, [("1", "A", 1)], m) == 0.0


def test_against_reference():
    assert compare_with_reference(PAIR) > 100
