"""Rprec_mult_avgjg: precision at multiples of each group's R, averaged over the groups."""
from __future__ import annotations

from support.prefs_cases import compare_jg_with_reference, eval_jg

QRELS = [("1", "a", "d1", 1), ("1", "a", "d2", 0), ("1", "a", "d3", 1),
         ("1", "b", "d1", 0), ("1", "b", "d2", 1)]
RUN = [("1", "d1", 3), ("1", "d2", 2), ("1", "d3", 1)]


def test_multiples():
    v = eval_jg(QRELS, RUN, ["Rprec_mult_avgjg.0.5,1,2"])["1"]
    # group a: R = 2; group b: R = 1. Cutoff = trunc(m * R + 0.9).
    # m = 0.5: a cutoff 1 -> P@1 = 1; b cutoff trunc(1.4) = 1 -> P@1 = 0
    assert v["Rprec_mult_avgjg_0.50"] == (1.0 + 0.0) / 2
    # m = 1: a cutoff 2 -> 1/2; b cutoff 1 -> 0
    assert v["Rprec_mult_avgjg_1.00"] == (0.5 + 0.0) / 2
    # m = 2: a cutoff 4 (> 3 retrieved) -> 2/4; b cutoff 2 -> 1/2
    assert v["Rprec_mult_avgjg_2.00"] == (0.5 + 0.5) / 2


def test_no_relevant_document_scores_zero():
    q = [("1", "a", "d1", 0)]
    v = eval_jg(q, RUN, ["Rprec_mult_avgjg.1"])["1"]
    assert v["Rprec_mult_avgjg_1.00"] == 0.0


def test_against_reference():
    assert compare_jg_with_reference(["Rprec_mult_avgjg.0.2,1,1.5,2"]) > 100
