"""Python API inputs: one rule for dicts, our own errors naming topic and document."""
from __future__ import annotations

import math

import numpy as np
import pytest

from trec_eval_py import InputError, RelevanceEvaluator, evaluate, read_qrels, read_run
from trec_eval_py.engine.parse.levels import MAX_LEVEL
from trec_eval_py.errors import InputTypeError

QRELS = {"q1": {"d1": 1, "d2": 0}}
RUN = {"q1": {"d1": 2.0, "d2": 1.0}}


@pytest.mark.parametrize("rel,kind", [
    (math.nan, TypeError), (math.inf, TypeError), (None, TypeError), (0.5, TypeError), ("1", TypeError),
    (True, TypeError), (2 ** 70, InputError), (MAX_LEVEL + 1, InputError), (-(2 ** 64), InputError),
])
@pytest.mark.parametrize("entry", ["read_qrels", "evaluate", "RelevanceEvaluator"])
def test_bad_relevance_values(rel, kind, entry):
    qrels = {"q1": {"d1": 1, "bad doc": rel}}
    with pytest.raises(kind) as e:
        if entry == "read_qrels":
            read_qrels(qrels)
        elif entry == "evaluate":
            evaluate(qrels, RUN, ["map"])
        else:
            RelevanceEvaluator(qrels, {"map"})
    assert isinstance(e.value, InputError)  # ours, ValueError and (for types) TypeError
    assert "q1/bad doc" in str(e.value)


def test_integral_floats_and_numpy_integers_are_levels():
    q = read_qrels({"q1": {"a": 2.0, "b": np.int32(1), "c": MAX_LEVEL}})
    assert sorted(q.rel.tolist()) == [1, 2, MAX_LEVEL]


@pytest.mark.parametrize("entry", ["evaluate", "read"])
@pytest.mark.parametrize("which", ["qrels", "run"])
def test_none_and_wrong_sources_are_type_errors(entry, which):
    args = {"qrels": QRELS, "run": RUN}
    args[which] = None
    with pytest.raises(TypeError, match="not NoneType") as e:
        if entry == "evaluate":
            evaluate(args["qrels"], args["run"], ["map"])
        else:
            (read_qrels if which == "qrels" else read_run)(None)
    assert isinstance(e.value, InputError)


@pytest.mark.parametrize("score", [math.nan, float("-nan"), np.float32("nan")])
def test_nan_scores_one_rule(score):
    run = {"q1": {"d1": score, "d2": 1.0}}
    with pytest.raises(InputError, match="q1/d1 is NaN"):
        evaluate(QRELS, run, ["map"])
    with pytest.raises(InputError, match="q1/d1 is NaN"):
        RelevanceEvaluator(QRELS, {"map"}).evaluate(run)


@pytest.mark.parametrize("score,kind", [(None, TypeError), ("high", TypeError), (10 ** 400, InputError)])
def test_bad_scores(score, kind):
    run = {"q1": {"d1": score}}
    for f in (lambda: evaluate(QRELS, run, ["map"]), lambda: RelevanceEvaluator(QRELS, {"map"}).evaluate(run)):
        with pytest.raises(kind, match="q1/d1"):
            f()


def test_infinite_scores_rank_as_in_run_files():
    r = RelevanceEvaluator(QRELS, {"map"}).evaluate({"q1": {"d1": math.inf, "d2": -math.inf}})
    assert r["q1"]["map"] == 1.0


@pytest.mark.parametrize("where", ["qrels docno", "run docno", "qrels topic", "run topic"])
def test_nul_characters_in_keys_are_errors_not_stripped(where):
    qrels = {"q1": {"d1": 1}}
    run = {"q1": {"d1": 1.0}}
    if where == "qrels docno":
        qrels = {"q1": {"d1\0": 1}}
    elif where == "run docno":
        run = {"q1": {"d1\0": 1.0}}
    elif where == "qrels topic":
        qrels = {"q1\0": {"d1": 1}}
    else:
        run = {"q1\0": {"d1": 1.0}}
    with pytest.raises(InputError, match="NUL"):
        evaluate(qrels, run, ["map"])
    with pytest.raises(InputError, match="NUL"):
        RelevanceEvaluator(qrels, {"map"}).evaluate(run)


def test_non_string_keys_are_type_errors():
    with pytest.raises(InputTypeError):
        read_qrels({1: {"d": 1}})
    with pytest.raises(InputTypeError):
        read_run({"1": {2: 1.0}})
    with pytest.raises(InputTypeError):
        read_run({"1": [("d", 1.0)]})
