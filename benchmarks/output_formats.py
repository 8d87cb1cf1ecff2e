#!/usr/bin/env python3
"""Writing big tables: one checkout's output against another's.

usage: python benchmarks/output_formats.py REFERENCE_CHECKOUT [--data DIR] [--gen GEN_SYNTH] [--repeat 3]

Times the outputs that write the most rows, each as a whole process run from
an empty folder with ``PYTHONPATH`` pointing at a checkout: this one (B) and
REFERENCE_CHECKOUT (A, e.g. a worktree of the commit before a change):

  main-csv      -q -m map -m P.5 -m ndcg_cut.10 --format csv (one row per value)
  curves-table  curves --curve table --format tsv (one row per retrieved document)
  curves-text   the same, --format text (aligned columns)
  batch-csv     batch --per-topic --format csv over four runs

The two checkouts alternate (A B, then B A, ...) so a change of load on a
shared machine hits both alike; each figure is the median of --repeat runs
and the ratio is B / A. Outputs are compared byte for byte and a difference
is reported (expected only where the output was changed on purpose).

Inputs: gen_synth.py (default ../shared/tools/gen_synth.py beside the
checkout) builds a run of 2000 topics x 1000 documents in --data (default
benchmarks/data/output, not in git).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def build(data: str, gen: str) -> tuple[str, str]:
    qrels, run = os.path.join(data, "qrels"), os.path.join(data, "run")
    if not os.path.exists(run):
        subprocess.run([sys.executable, gen, data, "2000", "1000", "200", "3"], check=True)
    return qrels, run


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(checkout: str, args: list[str]) -> tuple[float, float, bytes]:
    """Wall and CPU (user + system) seconds of one run, and its output."""
    env = dict(os.environ, PYTHONPATH=checkout)
    with tempfile.TemporaryDirectory() as empty:
        c, t = _cpu(), time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "trec_eval_py", *args], cwd=empty, env=env,
                           capture_output=True)
        wall, cpu = time.perf_counter() - t, _cpu() - c
    if p.returncode not in (0, 1, 4):  # (batch before the exit-code table: 1 for a failed run)
        raise SystemExit(f"{checkout}: {' '.join(args)} failed: {p.stderr.decode()[-500:]}")
    return wall, cpu, p.stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("reference")
    ap.add_argument("--data", default=os.path.join(HERE, "data", "output"))
    ap.add_argument("--gen", default=os.path.join(ROOT, "..", "shared", "tools", "gen_synth.py"))
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    qrels, run = build(a.data, a.gen)
    runs = []
    for k in range(4):  # the run, with its scores shifted: four runs for batch
        p = os.path.join(a.data, f"run{k}")
        if not os.path.exists(p):
            with open(run) as f, open(p, "w") as out:
                for line in f:
                    q, z, d, r, s, rid = line.split()
                    out.write(f"{q} {z} {d} {r} {float(s) + (hash((d, k)) % 7) / 10} r{k}\n")
        runs.append(p)
    cases = {
        "main-csv": ["-q", "-m", "map", "-m", "P.5", "-m", "ndcg_cut.10", "--format", "csv", qrels, run],
        "curves-table": ["curves", "--curve", "table", "--format", "tsv", qrels, run],
        "curves-text": ["curves", "--curve", "table", "--format", "text", qrels, run],
        "batch-csv": ["batch", "-j", "1", "--no-validate", "--per-topic", "--format", "csv", "-m", "map",
                      "-m", "P.10", qrels, *runs],
    }
    print(f"A = {os.path.abspath(a.reference)}\nB = {ROOT}\n")
    print("median of", a.repeat, "runs; CPU = user + system seconds (steadier than wall time on a busy machine)")
    print(f"{'case':<14}{'A wall':>8}{'B wall':>8}{'B/A':>6}{'A cpu':>8}{'B cpu':>8}{'B/A':>6}  output", flush=True)
    for name, args in cases.items():
        times: dict = {"A": [], "B": []}
        outs = {}
        for i in range(a.repeat):
            order = [("A", a.reference), ("B", ROOT)] if i % 2 == 0 else [("B", ROOT), ("A", a.reference)]
            for side, checkout in order:
                wall, cpu, out = timed(checkout, args)
                times[side].append((wall, cpu))
                outs[side] = out
        wa, wb = (statistics.median(w for w, _ in times[s]) for s in "AB")
        ca, cb = (statistics.median(c for _, c in times[s]) for s in "AB")
        same = "same" if outs["A"] == outs["B"] else "differs"
        print(f"{name:<14}{wa:8.2f}{wb:8.2f}{wb / wa:6.2f}{ca:8.2f}{cb:8.2f}{cb / ca:6.2f}  {same}", flush=True)


if __name__ == "__main__":
    main()
