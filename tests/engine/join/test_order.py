"""``--order score|rank|file``: evaluation in the submitted order (the rank
column, or the file's line order) instead of trec_eval's score order, with
ties in the rank column falling to the docno order; every reading path."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.golden import run_cli

from trec_eval_py import evaluate
from trec_eval_py.engine import pipeline
from trec_eval_py.errors import InputError, UsageError

QRELS = b"1 0 d1 0\n1 0 d2 1\n1 0 d3 0\n1 0 d4 1\n2 0 e1 1\n2 0 e2 0\n"
# scores, rank column and line order all disagree; d3/d4 share rank 2
RUN = (b"1 Q0 d1 3 0.9 r\n1 Q0 d2 1 0.5 r\n1 Q0 d3 2 0.7 r\n1 Q0 d4 2 0.1 r\n"
       b"2 Q0 e2 1 0.2 r\n2 Q0 e1 2 0.8 r\n")


def relstrings(order, run=RUN, **kw):
    r = evaluate(QRELS, run, ["relstring"], order=order, **kw)
    return [r.values["relstring"][i] for i in range(len(r.topics))]


def test_three_orders():
    # score: d1 .9, d3 .7, d2 .5, d4 .1 | e1 .8, e2 .2
    assert relstrings("score") == ["'0011'", "'10'"]
    # rank: d2 (1), then the tie at rank 2 by docno descending: d4 before d3, then d1 (3) | e2, e1
    assert relstrings("rank") == ["'1100'", "'01'"]
    # file: the lines as written
    assert relstrings("file") == ["'0101'", "'01'"]


def test_measures_follow_the_order():
    r = evaluate(QRELS, RUN, ["recip_rank", "trr", "P.1"], order="rank", complete=True)
    assert list(r.values["P_1"]) == [1.0, 0.0]
    assert np.allclose(r.values["trr"], [1 + 1 / 2, 1 / 2])
    # -M cuts the submitted order, not the score order
    r = evaluate(QRELS, RUN, ["num_rel_ret"], order="file", max_docs=1)
    assert list(r.values["num_rel_ret"]) == [0, 0]


def test_rank_column_must_be_a_number():
    bad = b"1 Q0 d1 3 0.9 r\n1 Q0 d2 first 0.5 r\n"
    with pytest.raises(InputError) as e:
        evaluate(QRELS, bad, ["map"], order="rank")
    assert e.value.line == 2 and "rank" in str(e.value)
    # score order never reads it (trec_eval ignores the column)
    assert evaluate(QRELS, bad, ["map"]).summary["map"] > 0


def test_dict_runs():
    run = {"1": {"d4": 0.1, "d1": 0.9, "d2": 0.5}}
    # file order of a dict: its insertion order
    assert evaluate(QRELS, run, ["relstring"], order="file").values["relstring"][0] == "'101'"
    with pytest.raises(UsageError, match="rank column"):
        evaluate(QRELS, run, ["map"], order="rank")


def test_unknown_order():
    with pytest.raises(UsageError, match="unknown order 'confidence'"):
        evaluate(QRELS, RUN, ["map"], order="confidence")


def _write_run(rows):
    return "".join(f"{q} Q0 {d} {rk} {s!r} run\n" for q, d, rk, s in rows).encode()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_submitted_order_equals_score_order_when_they_agree(seed):
    rng = random.Random(seed)
    rows, qrels = [], []
    for q in range(1, rng.randint(1, 4) + 1):
        n = rng.randint(1, 12)
        scores = rng.sample(range(1000), n)  # distinct: no tie to break differently
        docs = [f"D{q}_{i}" for i in range(n)]
        for d in docs:
            if rng.random() < 0.7:
                qrels.append(f"{q} 0 {d} {rng.randint(0, 2)}\n")
        ranked = sorted(zip(scores, docs), reverse=True)
        rows += [(q, d, k + 1, float(s)) for k, (s, d) in enumerate(ranked)]
    qrels.append("1 0 extra 1\n")
    q = "".join(qrels).encode()
    want = evaluate(q, _write_run(rows), ["all_trec"]).values
    rng.shuffle(rows)  # the rank column still says the score order
    by_rank = evaluate(q, _write_run(rows), ["all_trec"], order="rank").values
    rows.sort(key=lambda r: (r[0], r[2]))  # lines in rank order
    by_file = evaluate(q, _write_run(rows), ["all_trec"], order="file").values
    for got in (by_rank, by_file):
        for k in want:
            if k != "runid":
                assert np.array_equal(np.asarray(got[k]), np.asarray(want[k])), k


def test_streamed_runs_keep_the_file_order(tmp_path, monkeypatch):
    q = tmp_path / "q"
    q.write_bytes(QRELS)
    r = tmp_path / "r"
    r.write_bytes(RUN)
    whole = {o: relstrings(o, str(r)) for o in ("score", "rank", "file")}
    monkeypatch.setattr(pipeline.POLICY, "stream_min_bytes", 0)
    for o in ("score", "rank", "file"):
        assert relstrings(o, str(r)) == whole[o]


def test_cli(tmp_path, capsysbinary):
    q = tmp_path / "q"
    q.write_bytes(QRELS)
    r = tmp_path / "r"
    r.write_bytes(RUN)
    code, out, err = run_cli(["-q", "-m", "relstring", "--order", "rank", q, r], capsysbinary)
    assert code == 0 and "'1100'" in out
    code, out, err = run_cli(["curves", "--order", "file", "--curve", "ac", "--topic", "1", q, r], capsysbinary)
    assert code == 0 and out.splitlines()[2].split("\t")[1] == "0.500000"  # d2 at rank 2 of 4
    code, out, err = run_cli(["--order", "nope", q, r], capsysbinary)
    assert code != 0 and "--order" in err and "Traceback" not in err
    code, out, err = run_cli(["--help"], capsysbinary)
    assert "--order" in out


def test_rank_column_error_after_a_duplicate_is_the_duplicate():
    # the first bad line, as for the other reading errors (the rows before are joined)
    bad = b"1 Q0 d1 3 0.9 r\n1 Q0 d1 4 0.5 r\n1 Q0 d2 first 0.5 r\n"
    with pytest.raises(InputError, match="duplicate docno 'd1'") as e:
        evaluate(QRELS, bad, ["map"], order="rank")
    assert e.value.line == 2
