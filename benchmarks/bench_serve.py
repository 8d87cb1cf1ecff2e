#!/usr/bin/env python3
"""Load test of ``trec_eval_py serve`` on the loopback address.

    python3 benchmarks/bench_serve.py [--students 200] [--per-student 5] [--concurrency 20] [--workers 2]

Makes a class (``gen_synth.py DIR 43 1000 200 1``: 43 topics, a 42,000-line run;
five variants of the run, each leaving out other topics), starts the real
server (uvicorn, ``--workers`` grading processes) in a process of its own, and
uploads ``students x per-student`` runs through the API with ``concurrency``
uploads in flight at once, each waiting for its scores (``?wait=60``). Then it
checks the state: every acknowledged upload is there once (0 lost, 0
duplicated), graded, and its public and private scores are those the main
command prints for its variant (``trec_eval_py -c -m map -m P.10`` on each
part's judgments). It prints the time from an upload's start to its scores
(median, p95, max), the throughput, and the machine's load average before and
after, and exits non-zero if a check fails. Every request goes to 127.0.0.1.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GEN = Path(os.environ.get("GEN_SYNTH", "/work/shared/tools/gen_synth.py"))
VARIANTS = 5


def variants(run: bytes) -> list[bytes]:
    """The run, and versions of it leaving out every fifth topic (a different fifth each)."""
    lines = run.splitlines(keepends=True)
    topics = sorted({ln.split()[0] for ln in lines if ln.strip()})
    out = [run]
    for k in range(1, VARIANTS):
        drop = {t for i, t in enumerate(topics) if i % VARIANTS == k}
        out.append(b"".join(ln for ln in lines if ln.split() and ln.split()[0] not in drop))
    return out


def main_command(qrels: Path, run: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "trec_eval_py", "-c", "-m", "map", "-m", "P.10", str(qrels), str(run)],
                         capture_output=True, text=True, env=env, check=True).stdout
    return {line.split()[0]: line.split()[2] for line in out.splitlines()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=200)
    ap.add_argument("--per-student", type=int, default=5)
    ap.add_argument("--concurrency", type=int, default=20)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    import httpx

    from trec_eval_py.serve.service import open_class

    tmp = Path(tempfile.mkdtemp(prefix="bench_serve_"))
    subprocess.run([sys.executable, str(GEN), str(tmp / "syn"), "43", "1000", "200", "1"], check=True)
    qrels, run = tmp / "syn" / "qrels", (tmp / "syn" / "run").read_bytes()
    runs = variants(run)
    roster = tmp / "roster.csv"
    roster.write_text("id,name\n" + "".join(f"s{i:03d},Student {i}\n" for i in range(args.students)))
    state = tmp / "state"
    store, grading = open_class(str(qrels), str(roster), str(state), tell=lambda t: None)
    tokens = {s["id"]: store.new_api_token(s["id"]) for s in store.students()}
    # what the main command prints for each variant on each part
    parts = {}
    for part, topics in (("public", set(grading.public)), ("private", set(grading.private))):
        p = tmp / f"qrels.{part}"
        with open(qrels) as f, open(p, "w") as o:
            o.writelines(line for line in f if line.split()[0] in topics)
        parts[part] = p
    expected = []
    for k, data in enumerate(runs):
        (tmp / f"run{k}").write_bytes(data)
        expected.append({part: main_command(parts[part], tmp / f"run{k}") for part in parts})
    port = args.port
    if not port:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "trec_eval_py", "serve", str(qrels), "--state", str(state),
                               "--port", str(port), "--daily-limit", "0", "--workers", str(args.workers)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 60
        while True:
            try:
                httpx.get(url + "/signin", timeout=2)
                break
            except httpx.HTTPError:
                if time.monotonic() > end or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        jobs: queue.Queue = queue.Queue()
        for k in range(args.per_student):
            for sid in tokens:
                jobs.put((sid, k % VARIANTS))
        results: list[dict] = []
        lock = threading.Lock()

        def client() -> None:
            with httpx.Client(base_url=url, timeout=120) as c:
                while True:
                    try:
                        sid, k = jobs.get_nowait()
                    except queue.Empty:
                        return
                    t0 = time.monotonic()
                    r = c.post("/api/submissions?wait=60", headers={"Authorization": f"Bearer {tokens[sid]}"},
                               files={"run": (f"run{k}.txt", runs[k], "text/plain")})
                    took = time.monotonic() - t0
                    body = r.json() if r.headers.get("content-type", "").startswith("application/json") else {}
                    with lock:
                        results.append({"student": sid, "variant": k, "code": r.status_code, "seconds": took,
                                        "id": body.get("id"), "status": body.get("status"),
                                        "public": body.get("public")})

        load_before = os.getloadavg()
        t0 = time.monotonic()
        threads = [threading.Thread(target=client) for _ in range(args.concurrency)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.monotonic() - t0
        load_after = os.getloadavg()
    finally:
        import signal

        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        server.stderr.close()

    # the checks, on the state folder
    acked = [r for r in results if r["code"] == 201]
    rows = {r["id"]: r for r in store.submissions()}
    problems = []
    if len(acked) != len(results):
        problems.append(f"{len(results) - len(acked)} uploads not acknowledged")
    lost = [r for r in acked if r["id"] not in rows]
    duplicated = len(rows) - len({r["id"] for r in acked})
    wrong = 0
    for r in acked:
        row = rows.get(r["id"])
        if row is None:
            continue
        if row["student_id"] != r["student"] or row["sha256"] != hashlib.sha256(runs[r["variant"]]).hexdigest():
            wrong += 1
            continue
        for part in ("public", "private"):
            got = json.loads(row[part]) if row[part] else None
            want = expected[r["variant"]][part]
            if got is None or f"{got['map']:.4f}" != want["map"] or f"{got['P_10']:.4f}" != want["P_10"]:
                wrong += 1
    not_in_time = sum(r["status"] != "graded" for r in acked)
    if lost:
        problems.append(f"{len(lost)} lost")
    if duplicated:
        problems.append(f"{duplicated} duplicated")
    if wrong:
        problems.append(f"{wrong} scores or rows not the main command's")
    secs = sorted(r["seconds"] for r in acked if r["status"] == "graded")
    p95 = secs[max(0, int(round(0.95 * len(secs))) - 1)] if secs else float("nan")
    summary = {
        "uploads": len(results), "acknowledged": len(acked), "lost": len(lost), "duplicated": duplicated,
        "wrong_scores": wrong, "not_graded_within_wait": not_in_time,
        "median_s": statistics.median(secs) if secs else None, "p95_s": p95, "max_s": secs[-1] if secs else None,
        "wall_s": wall, "per_second": len(acked) / wall if wall else None,
        "run_lines": run.count(b"\n"), "run_bytes": len(run), "students": args.students,
        "per_student": args.per_student, "concurrency": args.concurrency, "workers": args.workers,
        "cpus": os.cpu_count(), "load_before": load_before, "load_after": load_after,
    }
    print(json.dumps(summary, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    if problems:
        print("FAILED: " + "; ".join(problems), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
