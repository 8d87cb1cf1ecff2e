"""map_avgjg: average precision per judgment group, averaged over the groups."""
from __future__ import annotations

from support.prefs_cases import compare_jg_with_reference, eval_jg

QRELS = [("1", "a", "d1", 1), ("1", "a", "d2", 0), ("1", "a", "d3", 1),
         ("1", "b", "d1", 0), ("1", "b", "d2", 1)]
RUN = [("1", "d1", 3), ("1", "d2", 2), ("1", "d3", 1)]


def test_mean_over_groups():
    # group a: relevant d1 (rank 1), d3 (rank 3): AP = (1/1 + 2/3) / 2
    # group b: relevant d2 (rank 2): AP = (1/2) / 1
    v = eval_jg(QRELS, RUN, ["map_avgjg"])["1"]["map_avgjg"]
    assert v == ((1.0 + 2 / 3) / 2 + 0.5) / 2


def test_one_group_is_map():
    from support.prefs_cases import run_bytes

    from trec_eval_py.engine.pipeline import evaluate

    q = [x for x in QRELS if x[1] == "a"]
    v = eval_jg(q, RUN, ["map_avgjg"])["1"]["map_avgjg"]
    qrels = "".join(f"{t} 0 {d} {r}\n" for t, _, d, r in q).encode()
    assert v == evaluate(qrels, run_bytes(RUN), ["map"]).per_topic()["1"]["map"]


def test_group_without_relevant_retrieved_adds_zero():
    q = QRELS + [("1", "c", "d9", 1)]
    v = eval_jg(q, RUN, ["map_avgjg"])["1"]["map_avgjg"]
    assert v == ((1.0 + 2 / 3) / 2 + 0.5) / 3


def test_against_reference():
    assert compare_jg_with_reference(["map_avgjg"]) > 100
