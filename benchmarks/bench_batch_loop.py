#!/usr/bin/env python3
"""A class of TREC-sized runs: ``batch`` against a shell loop of trec_eval.

usage: python benchmarks/bench_batch_loop.py --trec-eval PATH [--data DIR] [--gen GEN_SYNTH]
                                             [--runs 100] [--repeat 3] [--jobs 1] [--markdown]

``--runs`` runs of 43 topics x 1000 documents (42k lines each, the size of a
TREC DL 2019 run; ``gen_synth.py DIR 43 1000 200 SEED``, seeds 1..N, judged
by seed 1's qrels) are evaluated four ways, alternating, median of
``--repeat`` rounds, wall and CPU time (children included):

  c-loop      ``for f in runs/*; do trec_eval -m all_trec qrels $f; done``
              (one process per run: what a shell loop over a class costs)
  batch       ``trec_eval_py batch qrels runs/ -m all_trec --no-validate -j J``
  validated   the same batch with the validator's checks (the default)
  validate    ``trec_eval_py validate --qrels qrels runs/`` (the checks alone)

and the ratios batch / c-loop, validated / batch and validate / batch are printed.
Inputs are made on first use in --data (default benchmarks/data/batch_loop, not in git).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench import shared_tool  # noqa: E402  (the benchmarks' one way to find ../shared/tools)


def make_data(data: str, gen: str, n: int) -> None:
    runs = os.path.join(data, "runs")
    os.makedirs(runs, exist_ok=True)
    for seed in range(1, n + 1):
        dest = os.path.join(runs, f"s{seed:03d}.run")
        if os.path.exists(dest) and (seed != 1 or os.path.exists(os.path.join(data, "qrels"))):
            continue
        tmp = tempfile.mkdtemp(dir=data)
        subprocess.run([sys.executable, gen, tmp, "43", "1000", "200", str(seed)], check=True)
        if seed == 1:
            shutil.copy(os.path.join(tmp, "qrels"), os.path.join(data, "qrels"))
        os.replace(os.path.join(tmp, "run"), dest)
        shutil.rmtree(tmp)


def cpu_of_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(fn) -> tuple[float, float]:
    c0, t0 = cpu_of_children(), time.perf_counter()
    fn()
    return time.perf_counter() - t0, cpu_of_children() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trec-eval", required=True, help="trec_eval 9.0.8's binary")
    ap.add_argument("--data", default=os.path.join(HERE, "data", "batch_loop"))
    ap.add_argument("--gen", default=shared_tool("gen_synth.py"))
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    make_data(a.data, a.gen, a.runs)
    qrels = os.path.join(a.data, "qrels")
    folder = os.path.join(a.data, "runs")
    runs = sorted(os.path.join(folder, f) for f in os.listdir(folder))[: a.runs]
    work = tempfile.mkdtemp(prefix="bench_batch_loop-")
    env = dict(os.environ, PYTHONPATH=ROOT, TREC_EVAL_PY_PROGRESS="0")
    py = [sys.executable, "-m", "trec_eval_py"]
    sel = os.path.join(work, "class")
    os.makedirs(sel)
    for r in runs:
        shutil.copy(r, sel)

    def c_loop():
        with open(os.devnull, "wb") as null:
            for r in runs:
                subprocess.run([a.trec_eval, "-m", "all_trec", qrels, r], stdout=null, check=True)

    def batch(validated: bool):
        def go():
            argv = py + ["batch", qrels, sel, "-m", "all_trec", "-j", str(a.jobs), "-o", os.path.join(work, "b.tsv")]
            if not validated:
                argv.append("--no-validate")
            p = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if p.returncode not in (0, 1):
                raise SystemExit(f"batch failed ({p.returncode}): {p.stderr.decode()[-400:]}")
        return go

    def validate():
        p = subprocess.run(py + ["validate", "--qrels", qrels, sel], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        if p.returncode not in (0, 1):
            raise SystemExit(f"validate failed ({p.returncode}): {p.stderr.decode()[-400:]}")

    cases = {"c-loop": c_loop, "batch": batch(False), "validated": batch(True), "validate": validate}
    got: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    try:
        for r in range(a.repeat):
            for name in (list(cases) if r % 2 == 0 else list(reversed(cases))):
                got[name].append(timed(cases[name]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in got.items()}
    for k, (w, c) in med.items():
        print(f"{k:<10} wall {w:7.2f} s   cpu {c:7.2f} s")
    ratios = [("batch / c-loop", "batch", "c-loop"), ("validated / batch", "validated", "batch"),
              ("validate / batch", "validate", "batch")]
    for label, x, y in ratios:
        print(f"{label:<18} wall {med[x][0] / med[y][0]:5.2f}x   cpu {med[x][1] / med[y][1]:5.2f}x")
    if a.markdown:
        print("\n| route | wall (s) | CPU (s) |\n|---|---:|---:|")
        for k, (w, c) in med.items():
            print(f"| {k} | {w:.2f} | {c:.2f} |")
        print("\n| ratio | wall | CPU |\n|---|---:|---:|")
        for label, x, y in ratios:
            print(f"| {label} | {med[x][0] / med[y][0]:.2f}x | {med[x][1] / med[y][1]:.2f}x |")
        load = os.getloadavg()[0]
        print(f"\n{len(runs)} runs, median of {a.repeat}, -j {a.jobs}, load average {load:.2f} at the end")


if __name__ == "__main__":
    main()
