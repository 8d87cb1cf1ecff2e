#!/usr/bin/env python3
"""What validation costs when grading a class: batch with and without it, and validate.

usage: python benchmarks/bench_grading.py [--data DIR] [--gen GEN_SYNTH] [--runs 30] [--repeat 3]
                                          [--jobs 1] [--package DIR] [--markdown]

A class of --runs runs of 50,000 lines each (gen_synth.py: 50 topics of 1,000
documents, 200 judged per topic; seeds 1..N, each with its own run id) is
graded three ways, each timed as a whole process:

  plain      batch -j J --no-validate (the evaluation alone)
  checked    batch -j J (every run validated first, as validate does it)
  validate   validate --qrels (the check alone)

The three alternate (plain, checked, validate, then in reverse order, ...) so
that a change of load on the shared machine hits all alike; each cell is the
median of --repeat runs. The ratio checked / plain is what validation adds to
a grading: the goal is at most 2 (validation costs no more than the evaluation
itself). ``--package DIR`` times another checkout (one from before a change)
with the same data.

Inputs are made on first use in --data (default benchmarks/data/grading, not
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

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def shared_tool(name: str) -> str:
    for up in ("..", os.path.join("..", "..")):
        p = os.path.normpath(os.path.join(ROOT, up, "shared", "tools", name))
        if os.path.exists(p):
            return p
    return os.path.normpath(os.path.join(ROOT, "..", "shared", "tools", name))


def make_data(data: str, gen: str, runs: int) -> str:
    """``data/qrels`` and ``data/class-N/student<k>/run.txt``; returns the class folder."""
    folder = os.path.join(data, f"class-{runs}")
    if os.path.isdir(folder) and len(os.listdir(folder)) == runs:
        return folder
    os.makedirs(data, exist_ok=True)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for seed in range(1, runs + 1):
        out = os.path.join(data, "synth", str(seed))
        if not os.path.exists(os.path.join(out, "run")):
            subprocess.run([sys.executable, gen, out, "50", "1000", "200", str(seed)], check=True)
        if seed == 1:
            shutil.copy(os.path.join(out, "qrels"), os.path.join(data, "qrels"))
        with open(os.path.join(out, "run"), "rb") as f:
            lines = f.read().splitlines()
        os.makedirs(os.path.join(folder, f"student{seed:03d}"))
        with open(os.path.join(folder, f"student{seed:03d}", "run.txt"), "wb") as f:
            f.write(b"".join(b" ".join(ln.split()[:5] + [b"student%d" % seed]) + b"\n" for ln in lines))
    return folder


def command(case: str, data: str, folder: str, out: str, jobs: int) -> list[str]:
    qrels = os.path.join(data, "qrels")
    if case == "validate":
        return [sys.executable, "-m", "trec_eval_py", "validate", folder, "--qrels", qrels, "-q"]
    argv = [sys.executable, "-m", "trec_eval_py", "batch", qrels, folder, "-j", str(jobs),
            "-o", os.path.join(out, "board.txt")]
    return argv + (["--no-validate"] if case == "plain" else [])


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
    ap.add_argument("--data", default=os.path.join(HERE, "data", "grading"))
    ap.add_argument("--gen", default=shared_tool("gen_synth.py"))
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--package", default=ROOT, help="the checkout of trec_eval_py to time")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    folder = make_data(a.data, a.gen, a.runs)
    cases = ["plain", "checked", "validate"]
    times: dict[str, list[float]] = {c: [] for c in cases}
    work = tempfile.mkdtemp(prefix="bench_grading-")
    try:
        for r in range(a.repeat):
            for case in (cases if r % 2 == 0 else cases[::-1]):
                out = os.path.join(work, f"{case}-{r}")
                os.makedirs(out)
                times[case].append(timed(command(case, a.data, folder, out, a.jobs), work, a.package))
                shutil.rmtree(out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    med = {c: statistics.median(t) for c, t in times.items()}
    for c in cases:
        print(f"{c:<9} {med[c]:7.2f} s   ({', '.join(f'{t:.2f}' for t in times[c])})")
    print(f"checked / plain: {med['checked'] / med['plain']:.2f}")
    if a.markdown:
        print(f"\n| {a.runs} runs of 50,000 lines, -j {a.jobs} | seconds | / plain |\n|---|---:|---:|")
        for c in cases:
            print(f"| {c} | {med[c]:.2f} | {med[c] / med['plain']:.2f} |")
        print(f"\nmedian of {a.repeat}, cases alternating; package: {os.path.abspath(a.package)}")


if __name__ == "__main__":
    main()
