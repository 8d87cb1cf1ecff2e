"""G: hand-worked cases and the rank-by-rank reference."""
import math

import pytest
from support import gain_reference as ref
from support.gain_helpers import column
from support.judged_topics import random_topics


def test_hand_worked():
    # qrels: one level-2, one level-1 document; ranking: level 1, level 0, level 2
    codes, judged = [1, 0, 2], [2, 1, 0]
    # ideal gains 2, 1, then 0; cost per rank max(ideal, 1): 2, 1, 1
    # rank 1: g=1, gained 1, cost 2 -> 1/log2(2+2-1)
    # rank 3: g=2, gained 3, cost 4 -> 2/log2(2+4-3)
    want = (1 / math.log2(3) + 2 / math.log2(3)) / 3
    assert column("G", [codes], [judged]) == [want]


def test_gain_overrides():
    codes, judged = [2, 1], [2, 1]
    # gains: level 1 -> 3, level 2 -> 1; ideal 3 (level 1) then 1 (level 2)
    # rank 1: g=1, gained 1, cost 3 -> 1/log2(4); rank 2: g=3, gained 4, cost 4 -> 3/log2(2)
    want = (1 / math.log2(4) + 3 / math.log2(2)) / 4
    assert column("G", [codes], [judged], "1=3,2=1") == [want]


def test_no_positive_gain_and_empty():
    assert column("G", [[0], []], [[0], [1]]) == [0.0, 0.0]


@pytest.mark.parametrize("params", [None, "1=3,2=1", "0=2,3=0", "2=-1"])
def test_matches_reference(params):
    rels, judged = random_topics(31, 300)
    prs = [] if params is None else [(int(k), float(v)) for k, v in (x.split("=") for x in params.split(","))]
    got = column("G", rels, judged, params)
    assert got == [ref.g_measure(c, j, prs) for c, j in zip(rels, judged)]


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
def test_gain_of_unjudged_documents_outrunning_the_ideal_is_quiet(compat, tmp_path):
    # -1=2: the unjudged first document gains 2 where the ideal costs 1, so the
    # rank-1 logarithm is log2(2 + 1 - 2) = 0 and its term 2/0 = inf; later ranks
    # take the log of a negative number: the topic is -nan, as trec_eval prints
    # (checked against 9.0.8 and 10.0), with nothing on stderr
    import subprocess
    import sys

    q = tmp_path / "q"
    q.write_text("1 0 a 1\n1 0 b 0\n")
    r = tmp_path / "r"
    r.write_text("1 Q0 x 1 9 r\n1 Q0 y 2 8 r\n1 Q0 z 3 7 r\n1 Q0 a 4 6 r\n")
    # a process of its own: what a user sees on stderr, not what pytest captures
    p = subprocess.run([sys.executable, "-m", "trec_eval_py", "--compat", compat, "-q", "-m", "G.-1=2",
                        str(q), str(r)], capture_output=True)
    out, err = p.stdout, p.stderr
    assert p.returncode == 0
    assert out == b"G_-1=2                \t1\t  -nan\nG_-1=2                \tall\t  -nan\n"
    assert err == b""
