"""A topic whose judgments are all negative reads the level table of the topic
evaluated before it, as trec_eval's gain measures do.

trec_eval keeps its per-level document counts in a buffer reused from topic
to topic and writes it only for levels 0 and up: for a topic judged only with
negative levels, ndcg, ndcg_cut, ndcg_rel, G, Rndcg, rbp and dcg see the
previous evaluated topic's ideal ranking (its relevant count stays 0). So
``-m ndcg.-1=9`` on such a topic, which earns a gain of 9 from a document in
no pool, is not 0. The expected outputs under ``fixtures/negative_levels``
are trec_eval 9.0.8's and 10.0's (with ``-c``, 10.0 evaluates the judged
topics without results on its placeholder ranking, so they are in the chain;
9.0.8 never evaluates them, so they are not).
"""
from __future__ import annotations

import numpy as np
import pytest
from support.golden import run_cli
from support.paths import FIXTURES

HERE = FIXTURES / "negative_levels"
CASES = [line.split("\t") for line in (HERE / "cases.tsv").read_text().splitlines() if line.strip()]


@pytest.fixture(params=["fast", "small_batches", "streaming"])
def code_path(request, monkeypatch):
    """The whole-file path; batches of one topic (the earlier topic lies in another
    batch); the big-file path (the run read in pieces)."""
    if request.param == "small_batches":
        from trec_eval_py.engine.join import batch

        monkeypatch.setattr(batch, "DEFAULT_MAX_CELLS", 1)
    if request.param == "streaming":
        from trec_eval_py.engine import pipeline
        from trec_eval_py.engine.parse import run

        monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 0)
        monkeypatch.setattr(run, "CHUNK_BYTES", 20)
    return request.param


@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
@pytest.mark.parametrize("name,args", CASES, ids=[c[0] for c in CASES])
def test_trec_eval_output(name, args, version, code_path, monkeypatch, capsysbinary):
    argv = args.split() if version == "9.0.8" else ["--compat", version, *args.split()]
    code, out, err = run_cli(argv, capsysbinary, monkeypatch, cwd=HERE, binary=True)
    assert code == 0, err
    assert out == (HERE / "expected" / version / f"{name}.out").read_bytes()


def test_the_gain_comes_from_the_earlier_topics_levels():
    """Hand-worked: topic 2 (only judgment: dA at -1) ranks dA then dB (in no pool,
    gain 9). Topic 1 before it has one document at level 1 (dA), so the gain
    table is -1: 9, 0: 0, 1: 1 with one document at level 1; the ideal ranking
    is that one document (dcg 1), the run's dcg is 9 / log2(3)."""
    from trec_eval_py import evaluate

    qrels = {"1": {"dA": 1}, "2": {"dA": -1}}
    run = {"1": {"dA": 1.0}, "2": {"dA": 1.0, "dB": 0.5}}
    res = evaluate(qrels, run, ["ndcg.-1=9", "ndcg_cut.2"])
    topic = res.per_topic()["2"]
    assert topic["ndcg_-1=9"] == pytest.approx(9 / np.log2(3))
    assert topic["ndcg_cut_2"] == 0.0  # the run's documents gain nothing there
    # a first topic has no earlier one: its own (empty) levels, no ideal ranking
    alone = evaluate({"2": {"dA": -1}}, {"2": {"dA": 1.0, "dB": 0.5}}, ["ndcg.-1=9"])
    assert alone.per_topic()["2"]["ndcg_-1=9"] == 0.0


def test_level_sources_chain_skips_topics_trec_eval_never_evaluates():
    from trec_eval_py.engine.join import EvalContext
    from trec_eval_py.engine.join.qrels import level_sources

    top = np.array([-1, 3, -1, 2, -2, -1])
    filled = np.array([False, False, False, True, False, False])
    v9 = level_sources(top, filled, EvalContext(complete=True))
    v10 = level_sources(top, filled, EvalContext(complete=True, compat="10.0"))
    assert v9.tolist() == [0, 1, 1, 3, 1, 1]
    assert v10.tolist() == [0, 1, 1, 3, 3, 3]
    assert level_sources(np.array([0, 1]), np.zeros(2, bool), EvalContext()) is None


def test_a_topic_judged_at_minus_two_or_below_follows_the_same_chain():
    """trec_eval crashes on a topic whose highest judged level is -2 or lower
    (``form_res_rels.c`` clears its level buffer with a negative length); our
    defined meaning is the -1 case's: the previous topic's level table.
    Hand-worked: topic 1 judges dA at 1 and dC at 3 (ideal dcg 3 + 1/log2(3));
    topic 2's only judgment is dA at -2 (or -3: any negative judgment reads as
    "in the pool, unjudged", code -2), ranked first with gain 9, dB (in no
    pool) second with gain 0."""
    from trec_eval_py import evaluate

    ideal = 3 + 1 / np.log2(3)
    run = {"1": {"dA": 2.0, "dB": 1.0}, "2": {"dA": 2.0, "dB": 1.0}}
    for level in (-2, -3):
        res = evaluate({"1": {"dA": 1, "dC": 3}, "2": {"dA": level}}, run,
                       ["ndcg.-2=9", "map", "num_rel"])
        topic = res.per_topic()["2"]
        assert topic["ndcg_-2=9"] == pytest.approx(9 / ideal)
        assert topic["map"] == 0.0
        assert topic["num_rel"] == 0
