"""Gain tables whose cost follows the number of distinct levels, and the level bound."""
from __future__ import annotations

import random

import numpy as np
import pytest
from support.gain_helpers import compute

from trec_eval_py import InputError, MeasureError, evaluate, read_qrels
from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.join.batch import TopicBatch
from trec_eval_py.engine.measures import _gains
from trec_eval_py.engine.measures import rbp as rbp_module
from trec_eval_py.engine.parse.levels import MAX_LEVEL

GAIN_MEASURES = ["ndcg", "ndcg_cut.5,10", "G", "Rndcg", "ndcg_rel", "rbp", "binG", "ideal_dcg"]


def random_topics(rng, top):
    rels, judged = [], []
    for _ in range(rng.randint(1, 6)):
        levels = [rng.choice([-1, 0, 0, 1, 2, rng.randint(0, top)]) for _ in range(rng.randint(1, 12))]
        judged.append(levels)
        docs = list(range(len(levels))) + [None] * rng.randint(0, 4)
        rng.shuffle(docs)
        rels.append([levels[d] if d is not None else -1 for d in docs] or [-1])
    return rels, judged


@pytest.mark.parametrize("seed", range(40))
def test_sparse_tables_give_the_dense_tables_results(seed, monkeypatch):
    rng = random.Random(seed)
    rels, judged = random_topics(rng, rng.choice([5, 40]))
    npairs = rng.randint(0, 3)
    integral = rng.random() < 0.6
    pairs = ",".join(
        f"{rng.randint(-1, 8)}={rng.randint(-3, 9) if integral else round(rng.uniform(-2, 9), 2)}"
        for _ in range(npairs))
    for name in ("ndcg", "rbp", "G", "Rndcg", "ndcg_rel"):
        params = (pairs or None) if name != "rbp" else (pairs + ",p=0.8" if pairs else None)
        try:
            sparse = compute(name, rels, judged, params, compat="10.0")
        except Exception as e:  # a measure refusing these params must refuse them both ways
            sparse = type(e)
        _gains._BATCH_CACHE.clear()
        with monkeypatch.context() as m:
            dense_table = lambda b, rows, p, levels: _gains.gain_table(p, levels)  # noqa: E731
            m.setattr(_gains, "group_table", dense_table)
            m.setattr(rbp_module, "group_table", dense_table)
            try:
                dense = compute(name, rels, judged, params, compat="10.0")
            except Exception as e:
                dense = type(e)
        _gains._BATCH_CACHE.clear()
        if isinstance(sparse, np.ndarray):
            np.testing.assert_array_equal(sparse, dense)
        else:
            assert sparse is dense


def test_huge_distinct_levels_are_cheap():
    # dense, levels up to 10**8 would need 10**8 entries (trec_eval: a counter per level)
    top = 10 ** 8
    rels = [[top, 1, -1, 3], [2, top - 7]]
    judged = [[top, 1, 3, 0], [2, top - 7, 5]]
    v = compute("ndcg", rels, judged)[:, 0]
    # by hand: topic 1 ranks the ideal first two of [top, 3, 1]; topic 2 exactly the ideal order
    ln = np.log2
    dcg1 = top / ln(2) + 1 / ln(3) + 3 / ln(5)
    idcg1 = top / ln(2) + 3 / ln(3) + 1 / ln(4)
    np.testing.assert_allclose(v, [dcg1 / idcg1,
                                   (2 / ln(2) + (top - 7) / ln(3)) / ((top - 7) / ln(2) + 5 / ln(3) + 2 / ln(4))])
    assert _gains.gain_table((), top + 1, (0, 1, 3, top)).levels == (0, 1, 3, top)


def test_fractional_gains_with_too_many_levels_are_refused():
    b = TopicBatch.from_lists([[1]], [[_gains.DENSE_MAX_LEVELS, 1]], EvalContext())
    with pytest.raises(MeasureError, match="too high for gains that are not small integers"):
        _gains.batch_gains(b, ((1, 0.5),))
    b = TopicBatch.from_lists([[1]], [[_gains.DENSE_MAX_LEVELS - 1, 1]], EvalContext())
    assert _gains.batch_gains(b, ((1, 0.5),)).ideal_len.tolist() == [2]


@pytest.mark.parametrize("level", [MAX_LEVEL + 1, 2 ** 32, 2 ** 63 - 1])
def test_levels_above_the_bound_are_input_errors_naming_the_line(tmp_path, level):
    q = tmp_path / "q"
    q.write_text(f"1 0 a 1\n1 0 b 0\n1 0 c {level}\n")
    with pytest.raises(InputError, match=f"relevance {level} is above the highest supported level") as e:
        read_qrels(q)
    assert e.value.line == 3


@pytest.mark.parametrize("measure", GAIN_MEASURES)
def test_highest_supported_level_evaluates(tmp_path, measure):
    q = tmp_path / "q"
    q.write_text(f"1 0 a 1\n1 0 b {MAX_LEVEL}\n2 0 c 7\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 a 1 2 x\n1 Q0 b 2 1 x\n2 Q0 c 1 1 x\n")
    ev = evaluate(str(q), str(r), [measure], compat="10.0")
    assert all(np.isfinite(v).all() for v in ev.values.values())


def test_int64_minimum_level_is_an_input_error(tmp_path):
    # a negative level means "pooled, unjudged"; int64's minimum cannot be negated
    q = tmp_path / "q"
    q.write_text("1 0 a 1\n1 0 b -9223372036854775808\n")
    with pytest.raises(InputError, match="below the lowest supported level") as e:
        read_qrels(q)
    assert e.value.line == 2
    q.write_text("1 0 a 1\n1 0 b -9223372036854775807\n")
    assert read_qrels(q).rel.min() == -(2 ** 63) + 1
