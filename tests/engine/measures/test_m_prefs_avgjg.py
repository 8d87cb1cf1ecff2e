"""prefs_avgjg / _ret / _imp: the fulfilled share per judgment group, averaged over groups."""
from __future__ import annotations

from support.prefs_cases import compare_with_reference, one

AVGJG = ["prefs_avgjg", "prefs_avgjg_ret", "prefs_avgjg_imp"]


def test_each_group_weighs_the_same():
    # g1: 3 preferences all fulfilled (1.0); g2: 1 preference, failed (0.0): mean 0.5
    # (prefs_simp, pooling preferences, gives 0.75)
    lines = [("1", "g1", "s", "A", 2), ("1", "g1", "s", "B", 1), ("1", "g1", "s", "C", 0),
             ("1", "g2", "s", "B", 1), ("1", "g2", "s", "A", 0)]
    run = [("1", "A", 3), ("1", "B", 2), ("1", "C", 1)]
    assert one(lines, run, "prefs_avgjg") == 0.5


def test_group_without_preferences_counts_in_the_mean():
    # g1: A > B fulfilled; g2: only equal levels (no preference) adds 0 but is a group
    lines = [("1", "g1", "s", "A", 1), ("1", "g1", "s", "B", 0),
             ("1", "g2", "s", "A", 1), ("1", "g2", "s", "B", 1)]
    run = [("1", "A", 2), ("1", "B", 1)]
    assert one(lines, run, "prefs_avgjg") == 0.5


def test_categories():
    # one group, A > B > C; run: B, A (C unretrieved)
    lines = [("1", "a", "s", "A", 2), ("1", "a", "s", "B", 1), ("1", "a", "s", "C", 0)]
    run = [("1", "B", 2), ("1", "A", 1)]
    assert one(lines, run, "prefs_avgjg") == 2 / 3
    assert one(lines, run, "prefs_avgjg_ret") == 0.0
    assert one(lines, run, "prefs_avgjg_imp") == 2 / 3
    # only C retrieved: both preferences involving C fail, A over B is between unretrieved docs
    run2 = [("1", "C", 1)]
    assert one(lines, run2, "prefs_avgjg") == 0.0
    assert one(lines, run2, "prefs_avgjg_imp") == 0.0


def test_against_reference():
    assert compare_with_reference(AVGJG) > 100
