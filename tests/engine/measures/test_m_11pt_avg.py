"""11pt_avg: interpolated precision averaged over recall levels."""
import math
import random

import pytest
from support.ranked_reference import interpolation_walk, random_topics, run, same

ELEVEN = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


def reference(codes, qrels, levels, level=1, v10=False):
    values, added = interpolation_walk(codes, qrels, levels, level, v10)
    total = 0.0
    for j in added:
        total += values[j]
    return total / len(levels)


def test_hand_worked():
    # R = 2, relevant at ranks 1 and 4: levels 0 .. .5 -> 1, .6 .. 1 -> 1/2
    out = run("11pt_avg", [[1, 0, 0, 1]], [[1, 1]])[0, 0]
    assert out == (0.5 * 5 + 1.0 * 6) / 11


def test_three_point_params_and_name():
    from trec_eval_py.engine.measures import registry
    m = registry()["11pt_avg"]
    p = m.params.parse(m.name, ".25,.5,.75")
    assert m.output_names(p) == ["11pt_avg_.25,.5,.75"]
    assert m.output_names(m.params.parse(m.name, None)) == ["11pt_avg"]
    out = run("11pt_avg", [[1, 0, 0, 1]], [[1, 1, 1, 1]], ".25,.5,.75")[0, 0]
    assert out == (0.5 + 1.0) / 3


def test_levels_out_of_order_take_the_final_value():
    # R = 4, relevant at ranks 2 and 3. Typed order 1,.5: .5 is matched first
    # (count 2, rank 3: 2/3); 1 (count 4) is then never matched and takes the
    # walk's final value, the best precision from the first relevant on (2/3).
    out = run("11pt_avg", [[0, 1, 1, 0]], [[1, 1, 1, 1]], "1,.5")[0, 0]
    assert out == (2 / 3 + 2 / 3) / 2
    # sorted, the count 4 is beyond what was retrieved and scores 0
    assert run("11pt_avg", [[0, 1, 1, 0]], [[1, 1, 1, 1]], ".5,1")[0, 0] == (2 / 3) / 2


def test_empty_is_minus_nan_one_unjudged_is_zero():
    out = run("11pt_avg", [[]], [[1]])[0, 0]
    assert math.isnan(out) and math.copysign(1, out) < 0
    # 10.0's -c placeholder ranking: one document in no pool
    assert run("11pt_avg", [[-1]], [[1]], compat="10.0")[0, 0] == 0.0


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
@pytest.mark.parametrize("level", [1, -1, -2])
def test_matches_reference_default(compat, level):
    rels, judged = random_topics(5, 400)
    got = run("11pt_avg", rels, judged, compat=compat, relevance_level=level)[:, 0]
    for i, (c, q) in enumerate(zip(rels, judged)):
        assert same(float(got[i]), reference(c, q, ELEVEN, level, v10=compat == "10.0")), (i, c, q)


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
def test_matches_reference_any_order(compat):
    rng = random.Random(8)
    rels, judged = random_topics(9, 300)
    for _trial in range(20):
        levels = [rng.choice([-0.2, 0.0, 0.1, 0.25, 0.3, 0.5, 0.7, 1.0, 1.3]) for _ in range(rng.randint(1, 6))]
        text = ",".join(repr(x) for x in levels)
        got = run("11pt_avg", rels, judged, text, compat=compat)[:, 0]
        for i, (c, q) in enumerate(zip(rels, judged)):
            want = reference(c, q, levels, v10=compat == "10.0")
            assert same(float(got[i]), want), (levels, i, c, q, got[i], want)
