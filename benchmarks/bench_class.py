#!/usr/bin/env python3
"""Grading a big class: is ``batch`` linear in the number of submissions?

usage: python benchmarks/bench_class.py [--data DIR] [--gen GEN_SYNTH] [--sizes 1000 4000]
                                        [--repeat 3] [--only CASE ...] [--package DIR] [--markdown]

A class of N small runs (gen_synth.py: 10 topics of 20 documents each,
seeds 1..20 dealt round-robin with their own run ids) is graded with
``batch -j 1 -m map`` in three ways:

  zip      the N runs as members of one .zip archive (each archive is opened
           once per process, not once per member)
  folder   the N runs as files in one folder (the reference: no archive)
  report   the folder again, with ``--report`` (class medians computed once,
           not once per page)

Each command is timed as a whole process; the sizes alternate (1000, 4000,
then 4000, 1000, ...) so a load change on the shared machine hits both alike,
and each cell is the median of --repeat runs. Linear work shows as a ratio
t(4000) / t(1000) near 4 (a little less: start-up is paid once); quadratic work
as a ratio near 16. ``--package DIR`` times another checkout of trec_eval_py
(for instance one from before the change) with the same data.

Inputs are made on first use in --data (default benchmarks/data/class, not
in git) with gen_synth.py (default: ../shared/tools/gen_synth.py beside the
checkout).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SEEDS = 20


def shared_tool(name: str) -> str:
    for up in ("..", os.path.join("..", "..")):
        p = os.path.normpath(os.path.join(ROOT, up, "shared", "tools", name))
        if os.path.exists(p):
            return p
    return os.path.normpath(os.path.join(ROOT, "..", "shared", "tools", name))


def make_data(data: str, gen: str, sizes: list[int]) -> None:
    """``data/qrels``, ``data/folder-N/`` and ``data/class-N.zip`` for each size N."""
    os.makedirs(data, exist_ok=True)
    runs = []
    for seed in range(SEEDS):
        out = os.path.join(data, "synth", str(seed))
        if not os.path.exists(os.path.join(out, "run")):
            subprocess.run([sys.executable, gen, out, "10", "20", "40", str(seed)], check=True)
        with open(os.path.join(out, "run"), "rb") as f:
            runs.append(f.read().splitlines())
        if seed == 0:
            shutil.copy(os.path.join(out, "qrels"), os.path.join(data, "qrels"))
    for n in sizes:
        folder = os.path.join(data, f"folder-{n}")
        archive = os.path.join(data, f"class-{n}.zip")
        if os.path.exists(archive) and len(os.listdir(folder)) == n:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        with zipfile.ZipFile(archive + ".part", "w", zipfile.ZIP_DEFLATED) as z:
            for k in range(n):
                lines = runs[k % SEEDS]
                text = b"".join(b" ".join(ln.split()[:5] + [b"student%d" % k]) + b"\n" for ln in lines)
                name = f"student{k:05d}/run.txt"
                z.writestr(name, text)
                os.makedirs(os.path.join(folder, f"student{k:05d}"))
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(text)
        os.replace(archive + ".part", archive)


def command(case: str, n: int, data: str, out: str) -> list[str]:
    qrels = os.path.join(data, "qrels")
    target = os.path.join(data, f"class-{n}.zip") if case == "zip" else os.path.join(data, f"folder-{n}")
    argv = [sys.executable, "-m", "trec_eval_py", "batch", qrels, target, "-j", "1", "-m", "map",
            "-o", os.path.join(out, "board.txt")]
    if case == "report":
        argv += ["--report", os.path.join(out, "report")]
    return argv


def timed(argv: list[str], cwd: str, package: str) -> float:
    env = dict(os.environ, PYTHONPATH=package, TREC_EVAL_PY_PROGRESS="0")
    t0 = time.perf_counter()
    p = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({p.returncode}): {p.stderr.decode()[-500:]}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(HERE, "data", "class"))
    ap.add_argument("--gen", default=shared_tool("gen_synth.py"))
    ap.add_argument("--sizes", type=int, nargs=2, default=[1000, 4000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*", choices=["zip", "folder", "report"])
    ap.add_argument("--package", default=ROOT, help="the checkout of trec_eval_py to time")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    small, big = a.sizes
    make_data(a.data, a.gen, [small, big])
    cases = a.only or ["zip", "folder", "report"]
    work = tempfile.mkdtemp(prefix="bench_class-")
    rows = []
    try:
        for case in cases:
            times: dict[int, list[float]] = {small: [], big: []}
            for r in range(a.repeat):
                order = (small, big) if r % 2 == 0 else (big, small)
                for n in order:
                    out = os.path.join(work, f"{case}-{n}-{r}")
                    os.makedirs(out)
                    times[n].append(timed(command(case, n, a.data, out), work, a.package))
                    shutil.rmtree(out)
            ts, tb = statistics.median(times[small]), statistics.median(times[big])
            rows.append((case, ts, tb, tb / ts))
            print(f"{case:<8} {small}: {ts:7.2f} s   {big}: {tb:7.2f} s   ratio {tb / ts:5.2f}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if a.markdown:
        print(f"\n| case | {small} runs (s) | {big} runs (s) | ratio |\n|---|---:|---:|---:|")
        for case, ts, tb, ratio in rows:
            print(f"| {case} | {ts:.2f} | {tb:.2f} | {ratio:.2f} |")
        print(f"\nmedian of {a.repeat}, sizes alternating; package: {os.path.abspath(a.package)}")


if __name__ == "__main__":
    main()
