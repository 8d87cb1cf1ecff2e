"""kill -9 of the server (and its grading processes) during uploads: after a
restart every acknowledged upload is there, with its bytes, and graded; no row
is half written; nothing is there twice."""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
import time

import pytest
from support.serve_class import Server, free_port, make_klass, make_run, needs_serve

needs_serve()


@pytest.mark.slow
def test_kill_9_during_uploads_loses_nothing_acknowledged(tmp_path):
    import httpx

    from trec_eval_py.serve.service import open_class

    qrels, roster, public, state = make_klass(tmp_path)
    store, _ = open_class(str(qrels), str(roster), str(state), public_topics=str(public), tell=lambda t: None)
    tokens = {s["id"]: store.new_api_token(s["id"]) for s in store.students()}
    server = Server(qrels, state, free_port())
    acked: list[tuple[int, int, str]] = []  # (submission id, student, sha256)
    lock = threading.Lock()
    stop = threading.Event()

    def uploader(student: int, seed: int) -> None:
        with httpx.Client(base_url=server.url, timeout=10) as c:
            n = 0
            while not stop.is_set() and n < 200:
                data = make_run(seed * 1000 + n)
                n += 1
                try:
                    r = c.post("/api/submissions?wait=0", headers={"Authorization": f"Bearer {tokens[student]}"},
                               files={"run": ("run.txt", data, "text/plain")})
                except httpx.HTTPError:
                    continue  # the server died under this one: not acknowledged
                if r.status_code == 201:
                    with lock:
                        acked.append((r.json()["id"], student, hashlib.sha256(data).hexdigest()))

    try:
        server.wait_up()
        threads = [threading.Thread(target=uploader, args=(sid, k)) for k, sid in enumerate(tokens, 1)
                   for _ in range(2)]
        for t in threads:
            t.start()
        time.sleep(2.5)
        server.kill()  # mid-upload, mid-grading
        stop.set()
        for t in threads:
            t.join(30)
        assert len(acked) > 5, "too few uploads before the kill to test anything"
        server = Server(qrels, state, free_port())
        server.wait_up()
        end = time.monotonic() + 120
        while store.pending(1) and time.monotonic() < end:
            time.sleep(0.2)
        rows = {r["id"]: r for r in store.submissions()}
        for sid, student, sha in acked:
            r = rows[sid]
            assert r["student_id"] == student and r["sha256"] == sha
            assert r["status"] == "graded" and r["public"] is not None and r["private"] is not None
        for r in rows.values():  # every row, acknowledged or not: whole, its file whole
            assert r["status"] in ("graded", "failed")
            with open(store.run_path(r["sha256"]), "rb") as f:
                assert hashlib.sha256(f.read()).hexdigest() == r["sha256"]
            assert (r["status"] == "graded") == (r["public"] is not None and r["error"] is None)
        assert len({sid for sid, _, _ in acked}) == len(acked)
    finally:
        stop.set()
        server.stop()


@pytest.mark.slow
def test_a_second_server_on_one_state_folder_is_refused(tmp_path):
    from support.paths import ROOT

    from trec_eval_py.serve.service import open_class

    qrels, roster, public, state = make_klass(tmp_path)
    open_class(str(qrels), str(roster), str(state), public_topics=str(public), tell=lambda t: None)
    server = Server(qrels, state, free_port())
    try:
        server.wait_up()
        p = subprocess.run([sys.executable, "-m", "trec_eval_py", "serve", str(qrels), "--state", str(state),
                            "--port", str(free_port())], capture_output=True, text=True, timeout=60,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.returncode == 1 and p.stderr.strip().endswith(": stop it first")
    finally:
        server.stop()
    # the lock went with the server
    again = Server(qrels, state, free_port())
    try:
        again.wait_up()
    finally:
        again.stop()
