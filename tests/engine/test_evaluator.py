"""The reusable evaluator (engine/pipeline.py's Evaluator): judgments parsed and
measures resolved once, then any number of runs, each evaluation exactly the
one ``evaluate()`` gives; it pickles for a process pool or a cluster."""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from support.paths import GOLDEN, ROOT

from trec_eval_py.engine import pipeline
from trec_eval_py.engine.inputs import judgment_format
from trec_eval_py.engine.pipeline import Evaluator, evaluate
from trec_eval_py.errors import InputError, MeasureError

IN = GOLDEN / "inputs"
QRELS, RUNS = ROOT / "examples" / "qrels.txt", [ROOT / "examples" / "run_a.txt", ROOT / "examples" / "run_b.txt"]
OPTION_SETS = [{}, {"complete": True}, {"compat": "10.0", "complete": True}, {"relevance_level": 2},
               {"judged_only": True, "max_docs": 50}]


def _same(a, b) -> None:
    assert a.to_text(query=True) == b.to_text(query=True)
    assert [c.name for c in a.columns] == [c.name for c in b.columns]
    for x, y in zip(a.column_values, b.column_values):
        assert np.array_equal(x, y, equal_nan=True) if x.dtype != object else list(x) == list(y)
    assert a.runid == b.runid and a.topics == b.topics


@pytest.mark.parametrize("options", OPTION_SETS)
def test_one_evaluator_gives_what_evaluate_gives_for_each_run(options):
    ev = Evaluator(QRELS, ["all_trec", "P@5", "AP(rel=2)"], **options)
    for run in RUNS + RUNS[::-1]:  # nothing of one run stays for the next
        _same(ev.evaluate(run), evaluate(QRELS, run, ["all_trec", "P@5", "AP(rel=2)"], **options))


def test_summary_only_and_per_topic_from_one_evaluator():
    ev = Evaluator(IN / "mid" / "qrels", ["map", "ndcg_cut.10", "num_ret"])
    run = IN / "mid" / "run"
    whole = ev.evaluate(run)
    summary = ev.evaluate(run, per_topic=False)
    assert summary.topics == [] and summary.to_text() == whole.to_text()


def test_the_judgments_are_parsed_once(monkeypatch):
    fmt = judgment_format("qrels")
    calls = []
    real = fmt.read_judgments

    def counting(source):
        calls.append(source)
        return real(source)

    monkeypatch.setattr(type(fmt), "read_judgments", property(lambda self: counting), raising=False)
    ev = Evaluator(QRELS, ["map"])
    for run in RUNS * 3:
        ev.evaluate(run)
    assert len(calls) == 1


def test_a_pickled_evaluator_evaluates_alike():
    ev = Evaluator(QRELS, ["map", "P.10", "ndcg_cut.5"], complete=True)
    copy = pickle.loads(pickle.dumps(ev))
    assert copy.options == ev.options and [c.name for c in copy.columns] == [c.name for c in ev.columns]
    for run in RUNS:
        _same(copy.evaluate(run), ev.evaluate(run))


def test_bad_measures_and_judgments_are_reported_before_any_run(tmp_path):
    with pytest.raises(MeasureError):
        Evaluator(QRELS, ["no_such_measure"])
    bad = tmp_path / "qrels"
    bad.write_text("301 0 d1 1\n301 0 d2 x\n")
    with pytest.raises(InputError) as e:
        Evaluator(bad, ["map"])
    assert e.value.line == 2


def test_the_evaluation_of_some_asked_measures_is_their_own_evaluation():
    both = evaluate(QRELS, RUNS[0], ["map", "iprec_at_recall", "P.10"], complete=True)
    for positions, specs in (([0, 2], ["map", "P.10"]), ([1], ["iprec_at_recall"])):
        _same(both.of_asked(positions), evaluate(QRELS, RUNS[0], specs, complete=True))


def test_a_big_file_summary_with_few_topics_streams_without_spilling(tmp_path, monkeypatch):
    """The summary of a big run over judgments of few topics is the streamed pass's
    (no range of topics spilled to temporary files); with many topics it goes range by range."""
    from trec_eval_py.engine.join import stream

    spilled = []
    real = stream.spill_ranges

    def spy(*a, **k):
        spilled.append(1)
        return real(*a, **k)

    monkeypatch.setattr(stream, "spill_ranges", spy)
    monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 0)
    qrels, run = IN / "mid" / "qrels", IN / "mid" / "run"
    expected = evaluate(qrels, run.read_bytes(), ["all_trec"]).to_text()
    assert evaluate(qrels, run, ["all_trec"], per_topic=False).to_text() == expected
    assert spilled == []
    monkeypatch.setattr(pipeline.POLICY, "range_min_topics", 1)
    assert evaluate(qrels, run, ["all_trec"], per_topic=False).to_text() == expected
    assert spilled == [1]


def test_evaluations_of_one_evaluator_do_not_share_their_columns():
    ev = Evaluator(QRELS, ["map", "P.10"])
    a = ev.evaluate(RUNS[0])
    a.columns.reverse()
    assert [c.name for c in ev.evaluate(RUNS[1]).columns] == ["map", "P_10"]
    assert [c.name for c in ev.columns] == ["map", "P_10"]


@pytest.mark.parametrize("options", OPTION_SETS + [{"compat": "10.0"}, {"max_docs": 7}])
def test_a_run_joined_by_the_evaluator_is_measured_as_the_run(options):
    # Evaluator.join: the one join a caller that looks at the ranked lines (batch's
    # validator) shares with the evaluation; measured, it gives the run's evaluation
    from trec_eval_py.engine.parse import read_run

    ev = Evaluator(QRELS, ["all_trec", "P@5"], **options)
    for path in RUNS:
        run = read_run(path)
        joined = ev.join(run)
        assert joined is not None and joined.rows is not None
        assert set(joined.rows.tolist()) <= set(range(len(run) + len(joined.qids)))  # (10.0 -c: placeholders)
        _same(ev.evaluate(joined), ev.evaluate(path))


def test_a_joined_run_is_measured_only_by_its_evaluator_and_whole():
    from trec_eval_py.errors import UsageError

    ev = Evaluator(QRELS, ["map"], complete=True)
    joined = ev.join(RUNS[0])
    with pytest.raises(UsageError, match="Evaluator that joined it"):
        Evaluator(QRELS, ["map"]).evaluate(joined)  # (another -c: another join)
    with pytest.raises(UsageError, match="whole"):
        ev.evaluate(joined, shards=2)
    # measures with their own options need joins of their own: no single join to share
    assert Evaluator(QRELS, ["map", "AP(rel=2)"]).join(RUNS[0]) is None
