"""P_avgjg: precision at cutoffs per judgment group, averaged over the groups."""
from __future__ import annotations

from support.prefs_cases import compare_jg_with_reference, eval_jg

QRELS = [("1", "a", "d1", 1), ("1", "a", "d2", 0), ("1", "a", "d3", 1),
         ("1", "b", "d1", 0), ("1", "b", "d2", 1)]
RUN = [("1", "d1", 3), ("1", "d2", 2), ("1", "d3", 1)]


def test_cutoffs():
    v = eval_jg(QRELS, RUN, ["P_avgjg.1,2,5"])["1"]
    assert v["P_avgjg_1"] == (1 / 1 + 0 / 1) / 2
    assert v["P_avgjg_2"] == (1 / 2 + 1 / 2) / 2
    # beyond the 3 retrieved documents the missing ranks count as not relevant
    assert v["P_avgjg_5"] == (2 / 5 + 1 / 5) / 2


def test_default_cutoffs():
    v = eval_jg(QRELS, RUN, ["P_avgjg"])["1"]
    assert list(v) == [f"P_avgjg_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]


def test_relevance_level():
    q = [("1", "a", "d1", 2), ("1", "a", "d2", 1)]
    assert eval_jg(q, RUN, ["P_avgjg.2"], relevance_level=2)["1"]["P_avgjg_2"] == 0.5


def test_against_reference():
    assert compare_jg_with_reference(["P_avgjg.1,5,10"]) > 100
