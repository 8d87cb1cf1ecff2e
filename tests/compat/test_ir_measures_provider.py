"""trec_eval_py as an ir_measures provider (trec_eval_py.compat.ir_measures_provider).

* ir_measures' own tests of its pytrec_eval provider (fixtures/ir_measures_tests,
  copied unchanged from its source distribution) pass with our provider in
  its place;
* on random judgments and runs our provider gives what ir_measures' pytrec_eval
  provider gives, topic by topic and exactly, topics the run lacks included
  (ir_measures' default, 0), and the same means;
* the edge cases of ir_measures' own provider test (no run, no judgments,
  partial ones) behave as its pytrec_eval provider does;
* PyTerrier's ``pt.Experiment`` over result frames computes through it.
"""
from __future__ import annotations

import importlib
import math
import random
import sys
import unittest

import pytest
from support.dict_pieces import dict_pieces
from support.paths import ROOT

ir_measures = pytest.importorskip("ir_measures")
pytest.importorskip("pytrec_eval")

from ir_measures import AP, RR, Metric, P, nDCG  # noqa: E402

import trec_eval_py as te  # noqa: E402
from trec_eval_py.compat import ir_measures_provider as ours  # noqa: E402

QRELS_TEXT = """
0 0 D0 0
0 0 D1 1
0 0 D2 1
0 0 D3 2
0 0 D4 0
1 0 D0 1
1 0 D3 2
1 0 D5 2
"""
RUN_TEXT = """
0 0 D0 1 0.8 run
0 0 D2 2 0.7 run
0 0 D1 3 0.3 run
0 0 D3 4 0.4 run
0 0 D4 5 0.1 run
1 0 D1 1 0.8 run
1 0 D3 2 0.7 run
1 0 D4 3 0.3 run
1 0 D2 4 0.4 run
"""


def test_registered_under_its_name():
    assert ir_measures.providers.registry["trec_eval_py"] is ours.provider
    assert ours.provider.is_available()


def test_ir_measures_own_pytrec_eval_tests_pass_on_this_provider(monkeypatch):
    sys.path.insert(0, str(ROOT / "fixtures"))
    try:
        module = importlib.import_module("ir_measures_tests.test_pytrec_eval")
    finally:
        sys.path.remove(str(ROOT / "fixtures"))
    # the cases build ir_measures.providers.PytrecEvalProvider() or use ir_measures.pytrec_eval
    monkeypatch.setattr(ir_measures.providers, "PytrecEvalProvider", ours.TrecEvalPyProvider)
    monkeypatch.setattr(ir_measures, "pytrec_eval", ours.provider)
    made = []
    real_iter_calc = ours.TrecEvalPyEvaluator._iter_calc

    def counting(self, run):
        made.append(1)
        return real_iter_calc(self, run)

    monkeypatch.setattr(ours.TrecEvalPyEvaluator, "_iter_calc", counting)
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(module.TestPytrecEval)
    result = unittest.TestResult()
    suite.run(result)
    problems = [f"{t}: {e}" for t, e in result.failures + result.errors]
    assert not problems, "\n".join(problems)
    assert result.testsRun == 13 and len(made) > 100  # every case ran, through our evaluator


def _qrels(text):
    return list(ir_measures.read_trec_qrels(text))


def _run(text):
    return list(ir_measures.read_trec_run(text))


@pytest.mark.parametrize("case", ["qrels, no run", "qrels, partial run", "run, no qrels", "partial qrels, run",
                                  "neither"])
def test_missing_sides_as_ir_measures_gives_them(case):
    qrels, run = _qrels(QRELS_TEXT), _run(RUN_TEXT)
    partial_q = [q for q in qrels if q.query_id == "0"]
    partial_r = [r for r in run if r.query_id == "0"]
    q, r = {"qrels, no run": (qrels, []), "qrels, partial run": (qrels, partial_r),
            "run, no qrels": ([], run), "partial qrels, run": (partial_q, run), "neither": ([], [])}[case]
    measures = [P@5, AP, nDCG@10]
    theirs = ir_measures.pytrec_eval
    assert set(ours.provider.iter_calc(measures, q, r)) == set(theirs.iter_calc(measures, q, r))
    a, b = ours.provider.calc_aggregate(measures, q, r), theirs.calc_aggregate(measures, q, r)
    assert a.keys() == b.keys()
    for m in a:
        assert a[m] == b[m] or (math.isnan(a[m]) and math.isnan(b[m])), (m, a[m], b[m])


@pytest.mark.slow
def test_random_cases_match_the_pytrec_eval_provider():
    """Per topic exactly; means as ir_measures takes them (every judged topic, 0 for a missing one)."""
    from support.ir_measures_cases import PYTREC_NAMES, ir_measures_values, random_case

    rng = random.Random("provider")
    cases = [(*random_case(rng), PYTREC_NAMES, "pytrec_eval") for _ in range(12)]
    theirs = ir_measures_values(cases)  # ir_measures in child processes (pytrec_eval's state)
    checked = 0
    for (qrels, run, names, _), want in zip(cases, theirs):
        measures = [ir_measures.parse_measure(n) for n in names]
        got: dict = {}
        for metric in ours.provider.iter_calc(measures, qrels, run):
            got.setdefault(str(metric.measure), {})[metric.query_id] = metric.value
        for name in names:
            if name not in want:
                continue  # pytrec_eval failed on it (see test_ir_measures_names)
            key = str(ir_measures.parse_measure(name))
            assert got[key].keys() == want[name].keys(), (name, qrels, run)
            for t, v in want[name].items():
                assert got[key][t] == v or (math.isnan(v) and math.isnan(got[key][t])), (name, t, qrels, run)
            checked += 1
        # the means: ir_measures' aggregation of these values, every judged topic counted
        agg = ours.provider.calc_aggregate(measures, qrels, run)
        for m in measures:
            vals = list(got[str(m)].values())
            if type(m.aggregator()).__name__ == "SumAgg":
                assert agg[m] == sum(vals)
            else:
                want_mean = sum(vals) / len(vals)
                assert agg[m] == pytest.approx(want_mean, rel=1e-15, abs=0) or (math.isnan(agg[m]) and
                                                                                math.isnan(want_mean))
    assert checked > len(cases) * len(PYTREC_NAMES) // 2


def test_averaging_counts_every_judged_topic_unlike_evaluate():
    """ir_measures (and so this provider) scores a judged topic the run lacks as 0: the
    mean is trec_eval's -c; trec_eval_py's evaluate leaves it out unless complete=True."""
    qrels = {"1": {"a": 1, "b": 0}, "2": {"c": 1}, "3": {"d": 1}}
    run = {"1": {"a": 2.0, "b": 1.0}, "2": {"x": 1.0, "c": 0.5}}
    agg = ours.provider.calc_aggregate([AP], qrels, run)[AP]
    assert agg == (1.0 + 0.5 + 0.0) / 3
    assert te.evaluate(qrels, run, [AP]).summary["AP"] == (1.0 + 0.5) / 2
    assert te.evaluate(qrels, run, [AP], complete=True).summary["AP"] == agg


def test_unsupported_measures_are_left_to_other_providers():
    from ir_measures import SDCG, Judged

    assert not ours.provider.supports(Judged@5)  # -1 counts as judged in ir_measures, not in trec_eval
    assert not ours.provider.supports(SDCG@5)
    assert ours.provider.supports(nDCG(gains={0: 0, 1: 1, 2: 5})@10) and ours.provider.supports(RR(rel=2))
    with pytest.raises(ValueError, match="unsupported measure"):
        ours.provider.evaluator([SDCG@5], {"1": {"a": 1}})


def test_default_pipeline_and_dataframes():
    pd = pytest.importorskip("pandas")
    qrels = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "relevance": [1, 0, 2]})
    run = pd.DataFrame({"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "z"], "score": [1.0, 2.0, 1.0]})
    try:
        ours.use_by_default()
        assert ir_measures.DefaultPipeline.providers[0] is ours.provider
        got = ir_measures.calc_aggregate([AP, P@1], qrels, run)
    finally:
        ours.stop_using_by_default()
    assert ours.provider not in ir_measures.DefaultPipeline.providers
    assert got == {AP: 0.25, P@1: 0.0}


def _experiment_inputs():
    pd = pytest.importorskip("pandas")
    rng = random.Random("experiment")
    topics = [str(t) for t in range(1, 9)]
    qrels = pd.DataFrame([(t, f"d{d}", rng.choice([0, 0, 1, 2])) for t in topics for d in range(12)],
                         columns=["qid", "docno", "label"])
    runs = []
    for k in range(2):
        rows = [(t, f"d{d}", round(rng.uniform(0, 3), 1)) for t in topics[k:] for d in rng.sample(range(15), 10)]
        runs.append(pd.DataFrame(rows, columns=["qid", "docno", "score"]))
    return pd.DataFrame({"qid": topics, "query": ["q"] * len(topics)}), qrels, runs


def test_pyterrier_experiment_computes_through_the_provider():
    pt = pytest.importorskip("pyterrier")
    topics, qrels, runs = _experiment_inputs()
    measures = [AP, nDCG@10, P(rel=2)@5, RR]
    try:
        ours.use_by_default()
        calls = []
        real = ours.TrecEvalPyEvaluator._iter_calc
        ours.TrecEvalPyEvaluator._iter_calc = lambda self, run: calls.append(1) or real(self, run)
        table = pt.Experiment(runs, topics, qrels, eval_metrics=measures, names=["a", "b"])
    finally:
        ours.TrecEvalPyEvaluator._iter_calc = real
        ours.stop_using_by_default()
    assert len(calls) == 2
    reference = pt.Experiment(runs, topics, qrels, eval_metrics=measures, names=["a", "b"])  # pytrec_eval
    for name, run in zip(["a", "b"], runs):
        row = table[table["name"] == name].iloc[0]
        ref = reference[reference["name"] == name].iloc[0]
        # ir_measures' mean over every judged topic: trec_eval's -c, value for value
        ev = te.evaluate(qrels, run, measures, complete=True)
        for m in measures:
            assert row[str(m)] == ev.summary[str(m)], (name, m)
            assert row[str(m)] == pytest.approx(ref[str(m)], rel=1e-13, abs=0)


def test_experiment_call_path_without_pyterrier():
    """What pt.Experiment does with result frames (ir_measures.iter_calc through the
    default pipeline, one aggregator per measure over the per-topic metrics), spelled out."""
    topics, qrels, runs = _experiment_inputs()
    measures = [AP, nDCG@10, P(rel=2)@5, RR]
    q = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"})
    try:
        ours.use_by_default()
        for run in runs:
            r = run.rename(columns={"qid": "query_id", "docno": "doc_id"})
            aggs = {m: m.aggregator() for m in measures}
            for metric in ir_measures.iter_calc(measures, q, r):
                assert isinstance(metric, Metric)
                aggs[metric.measure].add(metric.value)
            ev = te.evaluate(qrels, run, measures, complete=True)
            for m in measures:
                assert aggs[m].result() == ev.summary[str(m)]
    finally:
        ours.stop_using_by_default()


def test_a_run_dict_reaches_the_engine_as_it_is():
    """A run dict is handed to the engine, which reads a big one in pieces of topics:
    the provider's values are those of the dict read whole."""
    rng = random.Random("provider pieces")
    qrels = {str(t): {f"d{d}": rng.choice([0, 1, 2]) for d in rng.sample(range(30), 8)} for t in range(12)}
    run = {str(t): {f"d{d}": float(rng.randint(0, 5)) for d in rng.sample(range(30), 10)} for t in range(14)}
    measures = [P@5, AP, nDCG@10, RR]
    whole = set(ours.provider.iter_calc(measures, qrels, run))
    with dict_pieces(25) as seen:
        assert set(ours.provider.iter_calc(measures, qrels, run)) == whole and len(whole) == 4 * 12
    assert len(seen) >= 140 // 30 and max(seen) <= 30
