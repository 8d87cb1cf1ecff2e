"""unj: hand-worked cases and a direct count."""
import pytest
from support import gain_reference as ref
from support.gain_helpers import compute
from support.judged_topics import random_topics

from trec_eval_py.engine.measures import registry


def test_hand_worked():
    codes = [-1, 1, -2, 0, 0, -1]
    got = compute("unj", [codes], [[1, 0, 0, -1]], "2,5,10")[0].tolist()
    assert got == [1 / 2, 2 / 5, 3 / 10]


def test_defaults_and_empty():
    out = compute("unj", [[], [-1]], [[1], [0]])
    assert registry()["unj"].output_names(registry()["unj"].params.parse("unj", None)) == ["unj_5", "unj_10", "unj_20"]
    assert out.tolist() == [[0.0, 0.0, 0.0], [1 / 5, 1 / 10, 1 / 20]]


def test_version_and_nickname():
    m = registry()["unj"]
    assert m.since == "10.0"
    assert m.in_nickname("all_trec", "10.0") and not m.in_nickname("all_trec", "9.0.8")


@pytest.mark.parametrize("cuts", ["5,10,20", "1,3,50"])
def test_matches_reference(cuts):
    rels, judged = random_topics(71, 300)
    ks = [int(x) for x in cuts.split(",")]
    got = compute("unj", rels, judged, cuts).tolist()
    assert got == [[ref.unj(c, k) for k in ks] for c in rels]
