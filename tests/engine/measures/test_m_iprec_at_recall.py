"""iprec_at_recall: interpolated precision at recall levels, 9.0.8 and 10.0."""
import math

import pytest
from support.ranked_reference import interpolation_walk, random_topics, run, same

LEVELS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


def test_hand_worked():
    # R = 4; relevant at ranks 1, 3, 6; precisions there 1, 2/3, 1/2
    out = run("iprec_at_recall", [[1, 0, 1, 0, 0, 1, 0]], [[1, 1, 1, 1, 0, 0, 0]],
              "0,.25,.5,.75,1")[0]
    assert list(out) == [1.0, 1.0, 2 / 3, 0.5, 0.0]


def test_interpolation_takes_later_better_precision():
    # relevant at ranks 3 and 4: precision 1/3 then 1/2; the first level takes 1/2
    out = run("iprec_at_recall", [[0, 0, 1, 1]], [[1, 1]], ".5,1")[0]
    assert list(out) == [0.5, 0.5]


def test_versions_turn_levels_into_counts_differently():
    # R = 6, level .4: 9.0.8 takes int(2.4 + 0.9) = 3 relevant documents, 10.0
    # rounds 2.4 to 2. Relevant at ranks 1, 3, 8, 9.
    rels, judged = [[1, 0, 1, 0, 0, 0, 0, 1, 1]], [[1] * 6]
    assert run("iprec_at_recall", rels, judged, ".4")[0, 0] == 4 / 9  # from rank 8 on
    assert run("iprec_at_recall", rels, judged, ".4", compat="10.0")[0, 0] == 2 / 3  # from rank 3


def test_unreached_levels_are_zero():
    out = run("iprec_at_recall", [[1, 0]], [[1, 1, 1, 1]])[0]
    assert out[0] == 1.0 and out[2] == 1.0 and out[3] == 0.0 and out[10] == 0.0


def test_no_relevant_retrieved():
    out = run("iprec_at_recall", [[0, -1, 0]], [[1, 1, 0]])[0]
    assert list(out) == [0.0] * 11


def test_ranking_emptied_by_J_gives_minus_nan_at_count_zero():
    # 9.0.8: level 0 -> count 0 is the only one reached; 0/0 there
    out = run("iprec_at_recall", [[]], [[1, 1, 1]])[0]
    assert math.isnan(out[0]) and math.copysign(1, out[0]) < 0
    assert list(out[1:]) == [0.0] * 10
    # 10.0 rounds .1 * 3 down to 0, so that level is 0/0 too
    out = run("iprec_at_recall", [[]], [[1, 1, 1]], compat="10.0")[0]
    assert math.isnan(out[1]) and list(out[2:]) == [0.0] * 9


def test_one_unjudged_document_is_zero():
    # (10.0's -c placeholder ranking): nothing relevant, 0 / 1 retrieved
    out = run("iprec_at_recall", [[-1]], [[1, 1, 1]], compat="10.0")[0]
    assert list(out) == [0.0] * 11


def test_names():
    from trec_eval_py.engine.measures import registry
    m = registry()["iprec_at_recall"]
    assert m.output_names(m.params.parse(m.name, None))[:2] == ["iprec_at_recall_0.00", "iprec_at_recall_0.10"]
    assert m.output_names(m.params.parse(m.name, ".75,.25")) == ["iprec_at_recall_0.25", "iprec_at_recall_0.75"]


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
@pytest.mark.parametrize("level", [1, 2, 0, -1, -2])
def test_matches_reference(compat, level):
    rels, judged = random_topics(11, 400)
    got = run("iprec_at_recall", rels, judged, relevance_level=level, compat=compat)
    v10 = compat == "10.0"
    for i, (c, q) in enumerate(zip(rels, judged)):
        want, _ = interpolation_walk(c, q, LEVELS, level, v10)
        assert all(same(float(g), w) for g, w in zip(got[i], want)), (i, c, q, list(got[i]), want)
