"""prefs_num_prefs_poss / _ful / _ful_ret: counts of preferences."""
from __future__ import annotations

from support.prefs_cases import compare_with_reference, eval_prefs

COUNTS = ["prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret"]


def counts(lines, run, **opts):
    (v,) = eval_prefs(lines, run, COUNTS, **opts).values()
    return [v[m] for m in COUNTS]


def test_three_levels_one_retrieved_above():
    # A > B > C (levels 2, 1, 0) gives 3 preferences. Ranking: X (unjudged), B, A; C not retrieved.
    # A over B: both retrieved, B above A -> not fulfilled. A over C, B over C: C not retrieved ->
    # fulfilled (implied). None fulfilled with both retrieved.
    lines = [("1", "a", "s", "A", 2), ("1", "a", "s", "B", 1), ("1", "a", "s", "C", 0)]
    run = [("1", "X", 9), ("1", "B", 5), ("1", "A", 4)]
    assert counts(lines, run) == [3, 2, 0]


def test_both_unretrieved_is_possible_but_never_fulfilled():
    lines = [("1", "a", "s", "A", 1), ("1", "a", "s", "B", 0)]
    assert counts(lines, [("1", "other", 1)]) == [1, 0, 0]


def test_equal_levels_express_no_preference():
    lines = [("1", "a", "s", "A", 1), ("1", "a", "s", "B", 1), ("1", "a", "s", "C", 1)]
    assert counts(lines, [("1", "A", 1)]) == [0, 0, 0]


def test_groups_add_up_and_a_repeated_line_counts_twice():
    # group a: A > B; group b: A > B and (A listed twice) A > B again
    lines = [("1", "a", "s", "A", 1), ("1", "a", "s", "B", 0),
             ("1", "b", "s", "A", 1), ("1", "b", "s", "A", 1), ("1", "b", "s", "B", 0)]
    assert counts(lines, [("1", "A", 2), ("1", "B", 1)]) == [3, 3, 3]


def test_sub_groups_add_implied_preferences():
    # sub-group s1: A > B, sub-group s2: B > C  =>  A > C is implied: 3 preferences
    lines = [("1", "g", "s1", "A", 2), ("1", "g", "s1", "B", 1),
             ("1", "g", "s2", "B", 3), ("1", "g", "s2", "C", 1)]
    run = [("1", "C", 3), ("1", "A", 2), ("1", "B", 1)]  # only A over B is in rank order
    assert counts(lines, run) == [3, 1, 1]


def test_max_docs_drops_documents_before_counting():
    lines = [("1", "a", "s", "A", 1), ("1", "a", "s", "B", 0)]
    run = [("1", "B", 3), ("1", "A", 2)]
    assert counts(lines, run) == [1, 0, 0]
    # -M 1 keeps only B: A is now unretrieved, B retrieved -> still not fulfilled
    assert counts(lines, run, max_docs=1) == [1, 0, 0]
    run2 = [("1", "A", 3), ("1", "B", 2)]
    assert counts(lines, run2, max_docs=1) == [1, 1, 0]  # A retrieved, B not: implied


def test_summary_is_a_total():
    from support.prefs_cases import prefs_bytes, run_bytes

    from trec_eval_py.engine.pipeline import evaluate

    lines = [("1", "a", "s", "A", 1), ("1", "a", "s", "B", 0),
             ("2", "a", "s", "A", 2), ("2", "a", "s", "B", 1), ("2", "a", "s", "C", 0)]
    run = [("1", "A", 1), ("2", "A", 1)]
    ev = evaluate(prefs_bytes(lines), run_bytes(run), COUNTS, rel_format="prefs")
    assert ev.summary["prefs_num_prefs_poss"] == 4
    assert ev.summary["prefs_num_prefs_ful"] == 3


def test_against_reference():
    assert compare_with_reference(COUNTS) > 100
