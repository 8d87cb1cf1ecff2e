"""The pytrec_eval drop-in: same constructor, names and results as pytrec_eval.

The main test draws random judgments and runs (ties, graded and -1 levels,
topics on one side only, qids and docnos whose byte order differs from their
numeric order) and compares our ``RelevanceEvaluator.evaluate`` with
pytrec-eval-terrier's, dict for dict: same topics in the same order, same
keys in the same order, same values exactly. Every measure pytrec_eval
supports is checked on its own (each must be registered). Not compared: ``runid`` (pytrec_eval returns uninitialised
memory there) and run topics without documents (pytrec_eval's result depends
on topic order and can crash; see test_empty_topic_is_an_empty_ranking). The
gain-based ``G``, ``ndcg`` and ``ndcg_rel`` are unreliable in pytrec_eval
after many evaluators have been built in one process (it sometimes loops
forever or crashes, never on the same input in a fresh process), so their
expected values come from a fresh process per case.
"""
from __future__ import annotations

import json
import math
import random
import subprocess
import sys

import pytest
from support.dict_pieces import dict_pieces

pytrec_eval = pytest.importorskip("pytrec_eval")

import trec_eval_py  # noqa: E402
from trec_eval_py.compat import pytrec_eval as compat_pytrec  # noqa: E402
from trec_eval_py.compat.pytrec_eval import RelevanceEvaluator  # noqa: E402
from trec_eval_py.engine.measures import registry  # noqa: E402

COMPARED = sorted(m for m in pytrec_eval.supported_measures if m != "runid")
# parameter spellings pytrec_eval accepts, for the families that take cutoffs
PARAM_SPECS = [
    ["P_3"], ["P.1,2,7"], ["P_2", "P_12"], ["recall.2,7"], ["ndcg_cut.3"], ["ndcg_cut_1", "ndcg_cut_4"],
    ["map_cut.2,4"], ["success.1,3"], ["relative_P.3"], ["iprec_at_recall.0.25,0.5"],
    ["Rprec_mult_0.5", "Rprec_mult.1.5"], ["set_F.0.5"], ["11pt_avg"], ["official"], ["set"],
]

QIDS = ["1", "2", "9", "10", "010", "a", "B"]
DOCS = ["d1", "d2", "d9", "d10", "9", "10", "100", "09", "A", "Z", "a", "b", "doc-x", "d3", "d4", "d5"]
SCORES = [0.0, 1.0, 1.0, 2.5, -1.0, 1e-3, 3.0, 3.0]


def random_case(rng: random.Random):
    q_topics = rng.sample(QIDS, rng.randint(1, 5))
    r_topics = rng.sample(QIDS, rng.randint(1, 5))
    qrels = {}
    for q in q_topics:
        docs = rng.sample(DOCS, rng.randint(0, 10))  # an empty dict is dropped by pytrec_eval
        qrels[q] = {d: rng.choice([-1, 0, 0, 1, 1, 2, 3]) for d in docs}
    run = {}
    for q in r_topics:
        docs = rng.sample(DOCS, rng.randint(1, 14))
        run[q] = {d: (rng.choice(SCORES) if rng.random() < 0.6 else round(rng.uniform(-5, 5), 3)) for d in docs}
    return qrels, run, rng.choice([1, 1, 2]), rng.random() < 0.3


def same(a, b) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def mismatches(theirs: dict, ours: dict) -> list[str]:
    out = []
    if list(theirs) != list(ours):
        return [f"topics: pytrec_eval {list(theirs)}, ours {list(ours)}"]
    for q in theirs:
        t = {k: v for k, v in theirs[q].items() if k != "runid"}
        o = {k: v for k, v in ours[q].items() if k != "runid"}
        if list(t) != list(o):
            out.append(f"topic {q} keys: pytrec_eval {list(t)}, ours {list(o)}")
            continue
        out += [f"topic {q} {k}: pytrec_eval {t[k]!r}, ours {o[k]!r}" for k in t if not same(t[k], o[k])]
        out += [f"topic {q} {k}: not a float ({o[k]!r})" for k in o if type(o[k]) is not float]
    return out


#: measures pytrec_eval only computes reliably in a fresh process
ISOLATED = {"G", "ndcg", "ndcg_rel"}
_CHILD = """
import json, sys, pytrec_eval
q, m, r, level, j = json.loads(sys.stdin.read())
print(json.dumps(pytrec_eval.RelevanceEvaluator(q, set(m), relevance_level=level,
                                                 judged_docs_only_flag=j).evaluate(r)))
"""


def pytrec_isolated(measures, qrels, run, level, judged_only) -> dict:
    payload = json.dumps([qrels, list(measures), run, level, judged_only])
    done = subprocess.run([sys.executable, "-c", _CHILD], input=payload, capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout)


def compare(measures, qrels, run, level, judged_only):
    if ISOLATED & set(measures):
        theirs = pytrec_isolated(measures, qrels, run, level, judged_only)
    else:
        theirs = pytrec_eval.RelevanceEvaluator(qrels, set(measures), relevance_level=level,
                                                judged_docs_only_flag=judged_only).evaluate(run)
    ours = RelevanceEvaluator(qrels, set(measures), relevance_level=level,
                              judged_docs_only_flag=judged_only).evaluate(run)
    return mismatches(theirs, ours)


@pytest.mark.parametrize("measure", COMPARED)
def test_each_measure_matches_pytrec_eval(measure):
    rng = random.Random(f"drop-in {measure}")
    for _ in range(15 if measure in ISOLATED else 40):
        qrels, run, level, judged_only = random_case(rng)
        problems = compare([measure], qrels, run, level, judged_only)
        assert not problems, f"-l {level} -J {judged_only}\nqrels={qrels}\nrun={run}\n" + "\n".join(problems)


@pytest.mark.parametrize("specs", PARAM_SPECS, ids=lambda s: "+".join(s))
def test_parameters_and_nicknames_match_pytrec_eval(specs):
    for s in specs:
        if s not in pytrec_eval.supported_nicknames:
            assert compat_pytrec._measure_specs([s])[0].partition(".")[0] in registry(), s
    if any(s in pytrec_eval.supported_nicknames for s in specs):
        nicknames = pytrec_eval.supported_nicknames
        members = set().union(*(nicknames[s] for s in specs if s in nicknames))
        assert members <= set(m.name for m in registry()), members - set(m.name for m in registry())
    rng = random.Random("params " + "+".join(specs))
    for _ in range(25):
        qrels, run, level, judged_only = random_case(rng)
        problems = compare(specs, qrels, run, level, judged_only)
        assert not problems, f"qrels={qrels}\nrun={run}\n" + "\n".join(problems)


def test_all_measures_together():
    rng = random.Random("together")
    for _ in range(8):
        qrels, run, level, judged_only = random_case(rng)
        assert not compare(COMPARED, qrels, run, level, judged_only)


def test_import_from_package_and_supported_names():
    assert trec_eval_py.RelevanceEvaluator is RelevanceEvaluator
    assert set(compat_pytrec.supported_measures) == set(pytrec_eval.supported_measures)
    assert set(compat_pytrec.supported_nicknames) == set(pytrec_eval.supported_nicknames)
    for nick, members in compat_pytrec.supported_nicknames.items():
        assert members == set(pytrec_eval.supported_nicknames[nick])
    with pytest.raises(AttributeError):
        trec_eval_py.NoSuchThing  # noqa: B018


def test_hand_example():
    qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d1": 1}, "q3": {}}
    run = {"q2": {"d1": 1.0, "d7": 2.0}, "q1": {"d3": 0.5, "d2": 0.5, "d4": 0.1}, "q3": {"x": 1.0}, "q9": {"d1": 1}}
    res = RelevanceEvaluator(qrels, {"map", "P_2", "num_rel_ret", "num_q"}).evaluate(run)
    # run order, judged topics only; bare names for plain measures, output names for cutoffs
    assert list(res) == ["q2", "q1"]
    assert res["q2"] == {"num_q": 1.0, "num_rel_ret": 1.0, "map": 0.5, "P_2": 0.5}
    # ties: docno descending puts d3 (relevant) first
    assert res["q1"]["map"] == pytest.approx((1 / 1) / 2)
    assert type(res["q1"]["num_rel_ret"]) is float


def test_gm_map_per_topic_is_the_floored_log():
    qrels = {"1": {"a": 1, "b": 1}, "2": {"z": 1}}
    res = RelevanceEvaluator(qrels, {"gm_map", "map"}).evaluate({"1": {"a": 2.0, "c": 1.0}, "2": {"y": 1.0}})
    assert res["1"]["gm_map"] == math.log(res["1"]["map"])
    assert res["2"]["gm_map"] == math.log(0.00001)


def test_empty_topic_is_an_empty_ranking():
    qrels = {"1": {"a": 1, "b": 1, "c": 0}, "2": {"x": 1}}
    res = RelevanceEvaluator(qrels, {"num_rel", "num_ret", "map", "P_5"}).evaluate({"1": {}, "2": {"x": 1.0}})
    assert list(res) == ["1", "2"]
    assert res["1"] == {"num_ret": 0.0, "num_rel": 2.0, "map": 0.0, "P_5": 0.0}
    assert res["2"]["map"] == 1.0
    # only empty topics
    assert RelevanceEvaluator(qrels, {"num_rel"}).evaluate({"2": {}}) == {"2": {"num_rel": 1.0}}


def test_nothing_to_evaluate_gives_an_empty_dict():
    ev = RelevanceEvaluator({"1": {"a": 1}}, {"map"})
    assert ev.evaluate({}) == {}
    assert ev.evaluate({"7": {"a": 1.0}}) == {}
    assert RelevanceEvaluator({}, {"map"}).evaluate({"1": {"a": 1.0}}) == {}
    assert RelevanceEvaluator({"1": {}}, {"map"}).evaluate({"1": {"a": 1.0}}) == {}


def test_a_big_run_dict_is_read_in_pieces_with_the_same_results(monkeypatch):
    """The drop-in hands the run dict to the engine, which reads a big one a piece
    of topics at a time (bounded memory): the results are the whole dict's, empty
    topics (read as empty rankings) included; a bad value is still reported."""
    from trec_eval_py.engine import pipeline

    rng = random.Random("pieces")
    measures = {"map", "P_5", "ndcg_cut_3", "num_ret", "recip_rank", "bpref"}
    for _ in range(20):
        qrels, run, level, judged_only = random_case(rng)
        run[rng.choice(QIDS)] = {}  # a topic without documents, now and then a judged one
        monkeypatch.setattr(pipeline.POLICY, "dict_stream_min_rows", 10 ** 9)
        whole = RelevanceEvaluator(qrels, measures, relevance_level=level,
                                   judged_docs_only_flag=judged_only).evaluate(run)
        with dict_pieces(3) as seen:
            pieces = RelevanceEvaluator(qrels, measures, relevance_level=level,
                                        judged_docs_only_flag=judged_only).evaluate(run)
            assert pieces == whole
            if whole and any(run.values()):  # read in pieces, not whole
                assert seen and max(seen) < 3 + max(map(len, run.values()))
                assert sum(seen) % sum(map(len, run.values())) == 0
            run["1"] = {"a": float("nan")}
            with pytest.raises(trec_eval_py.InputError, match="1/a is NaN"):
                RelevanceEvaluator({"2": {"a": 1}}, {"map"}).evaluate(run)


def test_evaluator_is_reusable():
    ev = RelevanceEvaluator({"1": {"a": 1, "b": 0}}, {"P_1"})
    assert ev.evaluate({"1": {"a": 1.0, "b": 0.0}}) == {"1": {"P_1": 1.0}}
    assert ev.evaluate({"1": {"a": 0.0, "b": 1.0}}) == {"1": {"P_1": 0.0}}


@pytest.mark.parametrize(
    "qrels,measures,run,exc",
    [
        ({"1": {"a": 1}}, {"no_such_measure"}, None, ValueError),
        ({"1": {"a": 1}}, {"P_x"}, None, ValueError),
        ({"1": {"a": 0.5}}, {"map"}, None, TypeError),
        ({1: {"a": 1}}, {"map"}, None, TypeError),
        ({"1": {2: 1}}, {"map"}, None, TypeError),
        ({"1": [("a", 1)]}, {"map"}, None, TypeError),
        ([("1", {"a": 1})], {"map"}, None, TypeError),
        ({"1": {"a": 1}}, {"map"}, {"1": {"a": "high"}}, TypeError),
        ({"1": {"a": 1}}, {"map"}, {1: {"a": 1.0}}, TypeError),
        ({"1": {"a": 1}}, {"map"}, {"1": {3: 1.0}}, TypeError),
        ({"1": {"a": 1}}, {"map"}, [("1", {"a": 1.0})], TypeError),
    ],
)
def test_bad_input_raises_like_pytrec_eval(qrels, measures, run, exc):
    # pytrec_eval calls .items() on the judgments first, so a list gives AttributeError there
    with pytest.raises((exc, AttributeError)):
        pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run or {"1": {"a": 1.0}})
    with pytest.raises(exc):
        RelevanceEvaluator(qrels, measures).evaluate(run or {"1": {"a": 1.0}})


def test_parse_helpers_and_aggregation():
    qrels = compat_pytrec.parse_qrel(["1 0 a 1\n", "1 0 b 0\n", "2 0 a 2\n"])
    run = compat_pytrec.parse_run(["1 Q0 a 1 2.5 r\n", "1 Q0 b 2 1 r\n"])
    assert qrels == pytrec_eval.parse_qrel(["1 0 a 1\n", "1 0 b 0\n", "2 0 a 2\n"])
    assert run == pytrec_eval.parse_run(["1 Q0 a 1 2.5 r\n", "1 Q0 b 2 1 r\n"])
    with pytest.raises(ValueError):
        compat_pytrec.parse_run(["1 Q0 a 1 2.5 r\n", "1 Q0 a 2 1 r\n"])
    for name, values in [("map", [0.5, 0.25]), ("num_ret", [3.0, 4.0]), ("gm_map", [-1.0, -2.0])]:
        assert (compat_pytrec.compute_aggregated_measure(name, values)
                == pytrec_eval.compute_aggregated_measure(name, values))


def test_version_numpy_levels_and_defaultdicts_like_pytrec_eval():
    import collections

    import numpy as np

    assert compat_pytrec.__version__ == trec_eval_py.__version__
    qrels = {"1": {"a": 1, "b": 2}}
    run = {"1": {"a": 2.0, "b": 1.0}}
    for level in (np.int64(2), np.int32(2), np.uint8(2)):
        ours = RelevanceEvaluator(qrels, {"P_1"}, relevance_level=level)
        assert ours.relevance_level == 2 and type(ours.relevance_level) is int
        assert ours.evaluate(run) == pytrec_eval.RelevanceEvaluator(qrels, {"P_1"}, relevance_level=2).evaluate(run)
    for bad in (True, 2.0, np.float64(2), "2"):
        with pytest.raises(TypeError):
            RelevanceEvaluator(qrels, {"P_1"}, relevance_level=bad)
    q = compat_pytrec.parse_qrel(["1 0 a 1\n"])
    r = compat_pytrec.parse_run(["1 Q0 a 1 2.5 r\n"])
    for ours, theirs in [(q, pytrec_eval.parse_qrel(["1 0 a 1\n"])), (r, pytrec_eval.parse_run(["1 Q0 a 1 2.5 r\n"]))]:
        assert type(ours) is type(theirs) is collections.defaultdict
        assert ours.default_factory is theirs.default_factory is dict
        assert ours["unseen"] == {}  # a missing topic reads as no judgments, as in pytrec_eval
