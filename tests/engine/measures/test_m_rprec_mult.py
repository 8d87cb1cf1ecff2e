"""Rprec_mult: precision at multiples of R."""
import pytest
from support.ranked_reference import num_rel, num_rel_ret, random_topics, run

MULTS = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0]


def reference(codes, qrels, mults, level=1):
    """trec_eval's loop: cutoffs past the ranking get relevant-retrieved / cutoff;
    the others the walk's count at that rank (from the bottom, starting at the
    judged relevant count, one less at each document passing the -l test)."""
    r = num_rel(qrels, level)
    nrr = num_rel_ret(codes, level)
    out = [0.0] * len(mults)
    for j, m in enumerate(mults):
        k = int(m * r + 0.9)  # truncated in both versions
        if k > len(codes):
            out[j] = nrr / k
    seen = nrr
    for rank in range(len(codes), 0, -1):
        if seen <= 0:
            break
        for j, m in enumerate(mults):
            if int(m * r + 0.9) == rank:
                out[j] = seen / rank
        if codes[rank - 1] >= level:
            seen -= 1
    return out


def test_hand_worked():
    # R = 2: multiples .5, 1, 2 -> cutoffs int(1.9) = 1, int(2.9) = 2, int(4.9) = 4
    out = run("Rprec_mult", [[0, 1, 1]], [[1, 1]], ".5,1,2")[0]
    assert list(out) == [0.0, 0.5, 2 / 4]


def test_same_in_both_versions():
    # R = 2, multiple .2: int(0.4 + 0.9) = 1 in both (rounding would give 0)
    for compat in ("9.0.8", "10.0"):
        assert run("Rprec_mult", [[1]], [[1, 1]], ".2", compat=compat)[0, 0] == 1.0


def test_no_relevant_is_zero():
    assert list(run("Rprec_mult", [[0, 0], []], [[0], [0]])[0]) == [0.0] * 10


def test_names():
    from trec_eval_py.engine.measures import registry
    m = registry()["Rprec_mult"]
    assert m.output_names(m.params.parse(m.name, "5.0,0.2,0.35")) == [
        "Rprec_mult_0.20", "Rprec_mult_0.35", "Rprec_mult_5.00"]


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
@pytest.mark.parametrize("level", [1, 2, 0, -1, -2])
def test_matches_reference(compat, level):
    rels, judged = random_topics(21, 400)
    got = run("Rprec_mult", rels, judged, relevance_level=level, compat=compat)
    for i, (c, q) in enumerate(zip(rels, judged)):
        assert list(got[i]) == reference(c, q, MULTS, level), (i, c, q)
