"""rbp and rbp_resid: hand-worked cases and the rank-by-rank reference."""
import pytest

import gain_reference as ref
from gain_helpers import column
from judged_topics import random_topics
from trec_eval_py.engine.measures import registry

AFTER_NONREL = ("num_nonrel_judged_ret", "rbp")


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


def test_after_num_nonrel_judged_ret_the_maximum_starts_at_num_rel_ret():
    # three relevant documents retrieved: gains are divided by 3, not by 1
    codes, judged = [1, 1, 0, 1], [1, 1, 1, 0]
    plain = (1 - 0.9) * (1 + 0.9 + 0.9 ** 3)
    assert column("rbp", [codes], [judged]) == [plain]
    seeded = (1 - 0.9) * (1 / 3 + 1 / 3 * 0.9 + 1 / 3 * (0.9 * 0.9 * 0.9))
    assert column("rbp", [codes], [judged], measures=AFTER_NONREL) == [seeded]
    # a measure computed in between breaks the link
    between = ("num_nonrel_judged_ret", "yaap", "rbp")
    if "yaap" in registry():
        assert column("rbp", [codes], [judged], measures=between) == [plain]


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
@pytest.mark.parametrize("seeded", [False, True])
def test_matches_reference(params, p, seeded):
    rels, judged = random_topics(81, 300)
    prs = [] if params is None else [(int(k), float(v)) for k, v in (x.split("=") for x in params.split(",")) if k != "p"]
    ctx = {"measures": AFTER_NONREL} if seeded else {}
    got = column("rbp", rels, judged, params, **ctx)
    want = [ref.rbp(c, j, p, prs, max_seed=(sum(1 for x in c if x >= 1) if seeded else None))
            for c, j in zip(rels, judged)]
    assert got == want
    got = column("rbp_resid", rels, judged, params)
    assert got == [ref.rbp_resid(c, p) for c in rels]
