"""utility: contingency-table arithmetic, parameters and names (-c: see tests/engine/join/test_complete.py)."""
import pytest
from support.judged_topics import random_topics

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.join.batch import TopicBatch
from trec_eval_py.engine.measures import registry
from trec_eval_py.errors import MeasureError


def utility(rels, judged, text=None, **ctx):
    m = registry()["utility"]
    b = TopicBatch.from_lists(rels, judged, EvalContext(**ctx))
    return m.compute(b, m.params.parse("utility", text))[:, 0].tolist()


def reference(codes, judged, p, N, level=1):
    a = sum(1 for c in codes if c >= max(level, 0))
    R = sum(1 for j in judged if j >= max(level, 0))
    b = len(codes) - a
    c = R - a
    d = N - a - b - c
    return p[0] * a + p[1] * b + p[2] * c + p[3] * d


def test_default_is_rel_ret_minus_nonrel_ret():
    # 2 relevant and 2 other documents retrieved
    assert utility([[1, 0, -1, 1]], [[1, 0, 1, 1, 0]]) == [0.0]
    assert utility([[1, 1, 1, -1]], [[1, 1, 1]]) == [2.0]


def test_all_four_coefficients():
    # a=2, b=2, c=1, d=100-5=95
    got = utility([[1, 0, -1, 1]], [[1, 0, 1, 1, 0]], "2,-1,-0.5,0.01", num_docs_in_coll=100)
    assert got == [2 * 2.0 - 2.0 - 0.5 + 0.01 * 95]


def test_parameter_count_and_names():
    m = registry()["utility"]
    with pytest.raises(MeasureError):
        m.params.parse("utility", "1,2,3")
    with pytest.raises(MeasureError):
        m.params.parse("utility", "1,x,3,4")
    assert m.output_names(m.params.parse("utility", None)) == ["utility"]
    assert m.output_names(m.params.parse("utility", "2,-1,0,0")) == ["utility_2,-1,0,0"]


def test_empty_ranking():
    # an empty ranking: a = b = 0, c = R, d = N - R (how 9.0.8's API view of a -c topic reads)
    rels, judged = [[]], [[1, 1, 0]]
    assert utility(rels, judged, "1,-1,-2,0.5", num_docs_in_coll=10) == [-2 * 2 + 0.5 * (10 - 2)]


@pytest.mark.parametrize("text,p,N", [(None, (1, -1, 0, 0), 0), ("3,-2,-1,0.25", (3, -2, -1, 0.25), 1000)])
def test_matches_reference(text, p, N):
    rels, judged = random_topics(11, 200)
    rels = [r or [-1] for r in rels]  # keep every topic evaluated
    got = utility(rels, judged, text, num_docs_in_coll=N)
    assert got == [reference(c, j, p, N) for c, j in zip(rels, judged)]
