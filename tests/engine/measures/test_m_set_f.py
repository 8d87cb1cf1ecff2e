"""set_F: weighted harmonic mean of set precision and set recall."""
import pytest
from support.judged_topics import random_topics
from support.set_reference import compute, counts

from trec_eval_py.engine.measures import registry


def test_hand_worked_f1():
    # P = 2/5, R = 2/3 -> F1 = 2PR/(P+R) = 1/2
    got = compute("set_F", [[1, 0, -1, 2, -2]], [[1, 0, 2, -1, 1]])
    assert got[0] == pytest.approx(0.5, rel=1e-15)


def test_beta_weights_recall():
    rels, judged = [[1, 0, -1, 2, -2]], [[1, 0, 2, -1, 1]]
    f2 = compute("set_F", rels, judged, "2")[0]
    f05 = compute("set_F", rels, judged, "0.5")[0]
    assert f05 < compute("set_F", rels, judged)[0] < f2  # recall (2/3) is above precision (2/5)


def test_nothing_relevant_retrieved():
    assert compute("set_F", [[], [0, -1], [0]], [[1], [0], [0, 1]]) == [0.0, 0.0, 0.0]


def test_names():
    m = registry()["set_F"]
    assert m.output_names(m.params.parse("set_F", None)) == ["set_F"]
    assert m.output_names(m.params.parse("set_F", "0.5")) == ["set_F_0.5"]


@pytest.mark.parametrize("text,x", [(None, 1.0), ("0.25", 0.25), ("3", 3.0)])
def test_matches_reference(text, x):
    rels, judged = random_topics(8, 300)
    want = []
    for c, j in zip(rels, judged):
        ret, R, rr = counts(c, j)
        if rr:
            P, Rc = rr / ret, rr / R
            want.append((x + 1.0) * P * Rc / (x * P + Rc))
        else:
            want.append(0.0)
    assert compute("set_F", rels, judged, text) == want
