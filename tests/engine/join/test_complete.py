"""What -c means in each version (trec_eval_py.engine.join.empty_topics), hand-worked.

9.0.8 never evaluates a judged topic without results: it adds 0 to means and
totals and the 1e-5 floor to geometric means. 10.0 evaluates it on a
one-document placeholder ranking (a docno in no pool), then resets exactly the
outputs printed as num_ret, relstring, rbp_resid, utility and unj*.
"""
import math

import pytest

from trec_eval_py import evaluate
from trec_eval_py.errors import NoTopicsError

# topic 1 retrieves its relevant document; topic 2 is judged but has no results
QRELS = b"1 0 d1 1\n2 0 d1 1\n2 0 d2 0\n"
RUN = b"1 Q0 d1 1 3 r\n"


def run(measures, compat="9.0.8", qrels=QRELS, results=RUN, **opts):
    return evaluate(qrels, results, measures, compat=compat, complete=True, **opts)


def per_topic(ev, name):
    return dict(zip(ev.topics, ev.values[name].tolist()))


def test_908_missing_topic_adds_zero_and_is_not_printed():
    ev = run(["map", "num_ret", "Rndcg", "yaap"], relevance_level=0)
    # the empty ranking of topic 2 would give Rndcg 0/0 and yaap log(1/3): 9.0.8 adds 0 instead
    assert ev.summary["Rndcg"] == 1.0 / 2
    assert ev.summary["yaap"] == math.log((1 + 1.0) / (1 + 1 - 1.0)) / 2
    assert ev.summary["map"] == 0.5
    assert ev.printable.tolist() == [True, False]
    assert "\t2\t" not in ev.to_text(query=True)


def test_908_geometric_mean_adds_the_floor():
    ev = run(["gm_map"])
    assert ev.summary["gm_map"] == pytest.approx(math.exp((math.log(1.0) + math.log(1e-5)) / 2), rel=1e-15)


def test_10_placeholder_is_one_unjudged_document():
    ev = run(["P.1", "num_rel_ret", "ndcg.-1=2", "utility.2,-1,0,0", "relstring.3"], compat="10.0",
             relevance_level=-1)
    # -l -1: the placeholder (code -1) passes the rank-by-rank test, but is not judged
    assert per_topic(ev, "P_1") == {"1": 1.0, "2": 1.0}
    assert per_topic(ev, "num_rel_ret") == {"1": 1, "2": 0}
    # a gain for level -1 is earned by the placeholder
    assert per_topic(ev, "ndcg_-1=2")["2"] == 2.0
    # outputs whose printed names carry parameters keep the placeholder's values
    assert per_topic(ev, "utility_2,-1,0,0")["2"] == -1.0
    assert per_topic(ev, "relstring_3")["2"] == "'-'"


def test_10_resets_exactly_the_named_outputs():
    ev = run(["num_ret", "relstring", "utility", "rbp_resid", "unj.1", "num_nonrel_judged_ret"], compat="10.0")
    t2 = {c.name: v[1] for c, v in zip(ev.columns, ev.column_values)}
    assert t2["num_ret"] == 0 and t2["relstring"] == "''" and t2["utility"] == 0.0
    assert t2["rbp_resid"] == 0.0 and t2["unj_1"] == 0.0
    # num_ret is reset, the counts derived from the placeholder are not: 1 - 1 nonpool - 0 - 0
    assert t2["num_nonrel_judged_ret"] == 0
    # not an exact name: kept (one unjudged document: p^1 + (1 - p) * 1)
    ev = run(["rbp_resid.p=0.5"], compat="10.0")
    assert per_topic(ev, "rbp_resid_p=0.5")["2"] == 1.0


@pytest.mark.parametrize("opts", [{"judged_only": True}, {"max_docs": 0}])
def test_10_placeholder_dropped_by_J_and_M0(opts):
    ev = run(["iprec_at_recall.0", "num_ret"], compat="10.0", **opts)
    v = per_topic(ev, "iprec_at_recall_0.00")["2"]
    assert math.isnan(v) and math.copysign(1.0, v) < 0  # 0/0 on an empty ranking, "-nan"


def test_10_no_overlap_still_evaluates():
    ev = run(["map", "num_q"], compat="10.0", results=b"zz Q0 u1 1 1 runA\n")
    assert ev.topics == ["1", "2"] and ev.summary["num_q"] == 2 and ev.summary["map"] == 0.0
    assert ev.runid == "runA"
    with pytest.raises(NoTopicsError):
        run(["map"], results=b"zz Q0 u1 1 1 runA\n")


def test_10_placeholder_hit_without_relevant_judgments_is_inf():
    # topic 3 has only a negative judgment: with -l -2 the placeholder passes the
    # rank-by-rank test but the relevant count is 0, and trec_eval divides anyway
    ev = run(["map", "gm_map"], compat="10.0", qrels=QRELS + b"3 0 d9 -1\n", relevance_level=-2)
    assert per_topic(ev, "map")["3"] == math.inf
    assert ev.summary["map"] == math.inf and ev.summary["gm_map"] == math.inf


def test_10_placeholder_enters_before_the_join():
    # the placeholder is a line of the run the join ranks: -M 1 keeps it (one
    # document), the kept scores show its 1.0, and a qrels document that trec_eval's
    # own placeholder docno would match stays a different document
    from trec_eval_py.engine.join import EvalContext, build_rankings
    from trec_eval_py.engine.join.empty_topics import PLACEHOLDER_DOCNO
    from trec_eval_py.engine.parse import read_qrels, read_run

    qrels = read_qrels(QRELS + b"2 0 ceci_nest_pas_un_docno 1\n")
    ctx = EvalContext(compat="10.0", complete=True, max_docs=1, keep_scores=True)
    rk = build_rankings(qrels, read_run(RUN), ctx)
    assert rk.qids == ["1", "2"] and rk.filled.tolist() == [False, True]
    assert rk.num_ret.tolist() == [1, 1] and rk.scores.tolist() == [3.0, 1.0]
    assert rk.rel.tolist() == [1, -1]  # not in the pool, whatever the qrels judge
    assert b"\x00" in PLACEHOLDER_DOCNO  # no reader accepts a NUL in a docno
    # 9.0.8 ranks nothing for it
    rk = build_rankings(qrels, read_run(RUN), EvalContext(complete=True))
    assert rk.num_ret.tolist() == [1, 0]
