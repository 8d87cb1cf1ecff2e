"""The grading pool: real worker processes grade what is pending (what a crash
left too), and a run that kills its worker fails alone."""
from __future__ import annotations

import json
import time

import pytest
from support.serve_class import crashing_grade, make_klass, make_run, needs_serve

needs_serve()


def _open(tmp_path):
    from trec_eval_py.serve.service import open_class

    qrels, roster, public, state = make_klass(tmp_path)
    return open_class(str(qrels), str(roster), str(state), public_topics=str(public), tell=lambda t: None)


def _wait(store, ids, seconds=60.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        rows = [store.submission(i) for i in ids]
        if all(r["status"] != "pending" for r in rows):
            return rows
        time.sleep(0.05)
    raise AssertionError("still pending")


def test_a_new_pool_grades_what_was_left_pending(tmp_path):
    from trec_eval_py.serve.worker import GradingPool

    store, grading = _open(tmp_path)
    a = store.students()[0]["id"]
    # stored and acknowledged, then the server died before grading them
    ids = [store.add_submission(a, f"r{i}.txt", make_run(i), daily_limit=0, deadline=None) for i in range(5)]
    assert len(store.pending()) == 5
    pool = GradingPool(store, grading, workers=2)
    pool.start()
    try:
        pool.wake()
        rows = _wait(store, ids)
    finally:
        pool.stop()
    for i, r in zip(range(5), rows):
        assert r["status"] == "graded"
        assert json.loads(r["public"]) == grading.grade(store.run_path(r["sha256"]), f"r{i}.txt")["public"]


@pytest.mark.slow
def test_a_run_that_kills_its_worker_fails_alone_and_the_others_are_graded(tmp_path):
    from trec_eval_py.serve.worker import ATTEMPTS, GradingPool

    store, grading = _open(tmp_path)
    a = store.students()[0]["id"]
    names = ["r0.txt", "crash.txt", "r1.txt", "r2.txt", "r3.txt"]
    ids = [store.add_submission(a, n, make_run(i), daily_limit=0, deadline=None) for i, n in enumerate(names)]
    pool = GradingPool(store, grading, workers=2, task=crashing_grade)
    pool.start()
    try:
        pool.wake()
        rows = _wait(store, ids, 180)
    finally:
        pool.stop()
    by_name = {r["filename"]: r for r in rows}
    crash = by_name.pop("crash.txt")
    assert crash["status"] == "failed" and "stopped its worker" in crash["error"]
    assert crash["attempts"] == ATTEMPTS
    # the runs that shared a broken pool with it were graded again, alone, and nothing counted against them
    assert all(r["status"] == "graded" and r["attempts"] == 0 for r in by_name.values())


@pytest.mark.slow
def test_a_run_past_the_memory_bound_fails_alone(tmp_path):
    from trec_eval_py.serve.worker import GradingPool

    store, grading = _open(tmp_path)
    a = store.students()[0]["id"]
    good = store.add_submission(a, "good.txt", make_run(1), daily_limit=0, deadline=None)
    # 60 MB of one topic's lines: more than a 300 MiB address space holds once parsed
    big = b"".join(b"401 Q0 D%d %d 1.0 r\n" % (i, i) for i in range(3_000_000))
    bad = store.add_submission(a, "big.txt", big, daily_limit=0, deadline=None)
    pool = GradingPool(store, grading, workers=1, max_memory=600 << 20)
    pool.start()
    try:
        pool.wake()
        rows = _wait(store, [good, bad], 240)
    finally:
        pool.stop()
    assert rows[0]["status"] == "graded"
    assert rows[1]["status"] == "failed" and "memory" in rows[1]["error"]


def test_a_run_past_the_time_bound_is_an_error_row(tmp_path):
    from trec_eval_py.engine.parse.source import ReadLimits
    from trec_eval_py.serve.worker import GradingPool

    store, grading = _open(tmp_path)
    a = store.students()[0]["id"]
    sid = store.add_submission(a, "slow.txt", make_run(1), daily_limit=0, deadline=None)
    # batch's --max-seconds, in force in each grading process: here far less than a grading takes
    pool = GradingPool(store, grading, workers=1, limits=ReadLimits(max_seconds=0.001))
    pool.start()
    try:
        pool.wake()
        (row,) = _wait(store, [sid])
    finally:
        pool.stop()
    assert row["status"] == "failed" and "took longer than 0.001 s" in row["error"]
