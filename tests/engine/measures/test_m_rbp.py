"""rbp and rbp_resid: hand-worked cases and the rank-by-rank reference."""
import pytest
from support import gain_reference as ref
from support.gain_helpers import column
from support.judged_topics import random_topics

from trec_eval_py.engine.measures import registry


def test_hand_worked_binary():
    codes, judged = [1, 0, -1, 1], [1, 0, 1]
    assert column("rbp", [codes], [judged]) == [(1 - 0.9) * (1 + 0.9 * 0.9 * 0.9)]
    assert column("rbp", [codes], [judged], "p=0.5") == [(1 - 0.5) * (1 + 0.5 * 0.5 * 0.5)]


def test_graded_gains_are_rescaled_into_unit_range():
    # levels 0..2: gains 0, 0.5, 1
    codes, judged = [1, 2], [2, 1, 0]
    assert column("rbp", [codes], [judged]) == [(1 - 0.9) * (0.5 + 1.0 * 0.9)]
    # a negative gain stretches the range: (g + 1) / 3, unjudged docs stay at 0
    codes, judged = [0, -1, 2], [2, 0]
    want = (1 - 0.9) * ((0 + 1) / 3 + (2 + 1) / 3 * 0.9 * 0.9)
    assert column("rbp", [codes], [judged], "0=0,1=-1,p=0.9") == [want]


def test_rescaling_range_is_the_gain_table_alone():
    # three relevant documents retrieved, binary gains 0 and 1: nothing to rescale
    codes, judged = [1, 1, 0, 1], [1, 1, 1, 0]
    assert column("rbp", [codes], [judged]) == [(1 - 0.9) * (1 + 0.9 + 0.9 ** 3)]
    # gains 0 and 4 (from 1=4): rescaled by the table's range [0, 4]
    want = (1 - 0.9) * (1.0 + 0.9 + 0.9 ** 3)
    assert column("rbp", [codes], [judged], "1=4") == [want]


def test_single_gain_outside_unit_range_is_nan():
    # the table holds one gain (5 for level 0): its range is empty, 0/0 as in C
    got = column("rbp", [[0, -1]], [[0, 0]], "0=5")[0]
    assert got != got


def test_rbp_does_not_depend_on_other_selected_measures(tmp_path):
    from trec_eval_py import evaluate

    qrels = tmp_path / "q"
    run = tmp_path / "r"
    qrels.write_text("1 0 a 1\n1 0 b 1\n1 0 c 1\n1 0 d 0\n")
    run.write_text("1 Q0 a 1 4 r\n1 Q0 b 2 3 r\n1 Q0 d 3 2 r\n1 Q0 c 4 1 r\n")
    alone = evaluate(str(qrels), str(run), ["rbp"], compat="10.0").summary
    paired = evaluate(str(qrels), str(run), ["num_nonrel_judged_ret", "rbp"], compat="10.0").summary
    every = evaluate(str(qrels), str(run), ["all_trec"], compat="10.0").summary
    assert alone["rbp"] == paired["rbp"] == every["rbp"] == (1 - 0.9) * (1 + 0.9 + 0.9 ** 3)


def test_rbp_resid():
    codes = [1, -1, -2]
    w3 = 0.9 * 0.9 * 0.9
    assert column("rbp_resid", [codes], [[1]]) == [w3 + (1 - 0.9) * (0.9 + 0.9 * 0.9)]
    # no unjudged document: 0, as is an empty ranking
    assert column("rbp_resid", [[1, 0], []], [[1, 0], [1]]) == [0.0, 0.0]


def test_names_and_versions():
    reg = registry()
    m = reg["rbp"]
    assert m.output_names(m.params.parse("rbp", "p=0.95")) == ["rbp_p=0.95"]
    for name in ("rbp", "rbp_resid"):
        assert reg[name].since == "10.0"
        assert reg[name].in_nickname("all_trec", "10.0") and not reg[name].in_nickname("all_trec", "9.0.8")


@pytest.mark.parametrize("params,p", [(None, 0.9), ("p=0.5", 0.5), ("p=0.8,1=3,2=-1", 0.8)])
def test_matches_reference(params, p):
    rels, judged = random_topics(81, 300)
    prs = [] if params is None else [(int(k), float(v)) for k, v in (x.split("=") for x in params.split(","))
                                     if k != "p"]
    got = column("rbp", rels, judged, params)
    want = [ref.rbp(c, j, p, prs) for c, j in zip(rels, judged)]
    assert got == want
    got = column("rbp_resid", rels, judged, params)
    assert got == [ref.rbp_resid(c, p) for c in rels]


def test_rbp_bin_hand_worked():
    # levels 2, 0, unjudged, 1, 3: at -l 2 only ranks 1 and 5 gain 1
    codes, judged = [2, 0, -1, 1, 3], [3, 2, 1, 0]
    assert column("rbp_bin", [codes], [judged], "p=0.5", relevance_level=2) == [(1 - 0.5) * (1 + 0.5 ** 4)]
    assert column("rbp_bin", [codes], [judged], "p=0.5", relevance_level=1) == [
        (1 - 0.5) * (1 + 0.5 ** 3 + 0.5 ** 4)]
    # default persistence 0.9, as rbp's; nothing relevant retrieved: 0
    assert column("rbp_bin", [codes], [judged], relevance_level=3) == [(1 - 0.9) * (0.9 * 0.9 * 0.9 * 0.9)]
    assert column("rbp_bin", [[0, -1], []], [[1], [1]]) == [0.0, 0.0]


def test_rbp_bin_negative_levels_are_unjudged():
    # -2: judged with a negative level; -1: not in the qrels. Neither gains, even at -l -5
    got = column("rbp_bin", [[-2, -1, 0]], [[0]], "p=0.5", relevance_level=-5)
    assert got == [(1 - 0.5) * 0.5 ** 2]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_rbp_bin_is_rbp_on_binary_judgments(level):
    """rbp_bin at -l N is trec_eval's rbp on judgments reduced to 1 (level >= N) and 0."""
    rels, judged = random_topics(82 + level, 200)
    bin_rels = [[(1 if c >= level else 0) if c >= 0 else c for c in r] for r in rels]
    bin_judged = [[1 if j >= level else 0 for j in js] for js in judged]
    for params in (None, "p=0.8", "p=0.5"):
        assert column("rbp_bin", rels, judged, params, relevance_level=level) == \
            column("rbp", bin_rels, bin_judged, params)


def test_rbp_bin_refuses_gain_pairs():
    from trec_eval_py.errors import MeasureError

    m = registry()["rbp_bin"]
    with pytest.raises(MeasureError, match="only parameter is p"):
        m.params.parse("rbp_bin", "p=0.8,1=3")
    assert m.output_names(m.params.parse("rbp_bin", "p=0.8")) == ["rbp_bin_p=0.8"]
    assert m.since == "extra"
