#!/usr/bin/env python3
"""Pooling and fusion of many runs: time and peak memory, against ranx's fusion.

usage: bench_fuse_pool.py [--runs 100] [--topics 7000] [--docs 1000] [--repeat 3]
                          [--ranx-topics N] [--data DIR] [--keep]

Writes ``--runs`` TREC runs of ``--topics`` topics x ``--docs`` documents
(a cheap numpy generator: each topic has a candidate set three times the
list length, shared by all runs, so runs overlap as real ones do; scores
with ties), then measures, each in a process of its own:

* ``trec_eval_py pool RUN... -k 100 --format qrels`` (depth-100 pool)
* ``trec_eval_py fuse RUN... --method combsum --norm minmax`` and ``--method rrf``
* the same CombSUM (min-max) and RRF with ranx (``Run.from_file`` of every run,
  ``ranx.fuse``, ``Run.save`` as TREC), on the first ``--ranx-topics`` topics
  of each run (ranx holds every run in memory as dictionaries: give the
  largest size it can hold), and trec_eval_py on exactly those files too.

A/B runs alternate; each row is the median wall time of ``--repeat`` runs and
the largest peak RSS. Data go to ``benchmarks/data/fuse_pool`` (not
committed) and are removed afterwards unless ``--keep``.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1024.0  # ru_maxrss is in KiB on Linux

RANX_SCRIPT = r"""
import sys
from ranx import Run, fuse
method, out, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
runs = [Run.from_file(p, kind="trec") for p in paths]
norm = None if method == "rrf" else "min-max"
fused = fuse(runs, norm=norm, method=method)
fused.save(out, kind="trec")
"""


def generate(folder: str, n_runs: int, n_topics: int, n_docs: int, seed: int = 0) -> list[str]:
    """``n_runs`` runs, topics in byte order of their ids (as runs are usually written)."""
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(seed)
    cand = 3 * n_docs
    qids = np.array([str(1000 + q) for q in range(n_topics)])
    paths = []
    for r in range(n_runs):
        path = os.path.join(folder, f"run{r:03d}")
        paths.append(path)
        if os.path.exists(path):
            continue
        with open(path + ".tmp", "w") as f:
            for lo in range(0, n_topics, 500):
                hi = min(n_topics, lo + 500)
                n = hi - lo
                # each topic: n_docs distinct candidates, by a random key per candidate
                keys = rng.random((n, cand))
                docs = np.argpartition(keys, n_docs, axis=1)[:, :n_docs]
                scores = np.round(rng.gamma(2.0, 2.0, (n, n_docs)), 2)  # rounded: some ties
                order = np.argsort(-scores, axis=1, kind="stable")
                docs = np.take_along_axis(docs, order, 1)
                scores = np.take_along_axis(scores, order, 1)
                q = np.repeat(qids[lo:hi], n_docs)
                d = (docs + 10_000 * np.arange(lo, hi)[:, None]).ravel()
                rank = np.tile(np.arange(1, n_docs + 1), n)
                text = "\n".join(f"{a} Q0 D{b} {c} {s} r{r}" for a, b, c, s in
                                 zip(q.tolist(), d.tolist(), rank.tolist(), scores.ravel().tolist()))
                f.write(text + "\n")
        os.replace(path + ".tmp", path)
    return paths


def head_topics(paths: list[str], n_topics: int, folder: str) -> list[str]:
    """The first ``n_topics`` topics of each run, as files of their own."""
    os.makedirs(folder, exist_ok=True)
    out = []
    last = str(1000 + n_topics - 1)
    for p in paths:
        dst = os.path.join(folder, os.path.basename(p))
        out.append(dst)
        if os.path.exists(dst):
            continue
        with open(p) as src, open(dst, "w") as f:
            for line in src:
                if line.split(" ", 1)[0] > last:
                    break
                f.write(line)
    return out


def measure(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one run of ``argv``."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(argv[:6])}...\n{err}")
    return wall, usage.ru_maxrss / MIB


def ab(cmds: list[list[str]], repeat: int) -> list[tuple[float, float]]:
    """Median wall and max peak of each command, the commands run in turn
    (order rotated each round)."""
    res: list[list] = [[] for _ in cmds]
    for i in range(repeat):
        for j in [(i + k) % len(cmds) for k in range(len(cmds))]:
            res[j].append(measure(cmds[j]))
    return [(statistics.median(w for w, _ in r), max(m for _, m in r)) for r in res]


def ours(*args: str) -> list[str]:
    return [sys.executable, "-m", "trec_eval_py", *args]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--topics", type=int, default=7000)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ranx-topics", type=int, default=100)
    ap.add_argument("--data", default=os.path.join(ROOT, "benchmarks", "data", "fuse_pool"))
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--skip-full", action="store_true", help="only the ranx comparison")
    a = ap.parse_args()
    os.chdir(ROOT)  # python -m trec_eval_py: this checkout
    folder = os.path.join(a.data, f"{a.runs}x{a.topics}x{a.docs}")
    t0 = time.perf_counter()
    paths = generate(folder, a.runs, a.topics, a.docs)
    size = sum(os.path.getsize(p) for p in paths)
    print(f"# {a.runs} runs x {a.topics} topics x {a.docs} docs = {a.runs * a.topics * a.docs:,} lines, "
          f"{size / 2**30:.1f} GiB (generated in {time.perf_counter() - t0:.0f} s)")
    out = os.path.join(a.data, "out")
    print("| case | tool | wall s (median) | peak MiB |")
    print("| --- | --- | ---: | ---: |")
    try:
        if not a.skip_full:
            cases = [
                ("pool depth 100", ours("pool", *paths, "-k", "100", "--format", "qrels", "-o", out)),
                ("fuse combsum minmax", ours("fuse", *paths, "--method", "combsum", "--norm", "minmax", "-o", out)),
                ("fuse rrf", ours("fuse", *paths, "--method", "rrf", "-o", out)),
            ]
            for (name, cmd), (wall, peak) in zip(cases, ab([c for _, c in cases], a.repeat)):
                print(f"| {name}, {a.runs} runs x {a.topics} topics | trec_eval_py | {wall:.1f} | {peak:.0f} |")
        small = head_topics(paths, a.ranx_topics, os.path.join(a.data, f"head{a.ranx_topics}"))
        script = os.path.join(a.data, "ranx_fuse.py")
        with open(script, "w") as f:
            f.write(RANX_SCRIPT)
        # ranx compiles its numba kernels on first use and caches them: warm the cache
        subprocess.run([sys.executable, script, "sum", out, *small[:2]], check=True, capture_output=True)
        for method, ranx_method in (("combsum", "sum"), ("rrf", "rrf")):
            norm = [] if method == "rrf" else ["--norm", "minmax"]
            cmd_ours = ours("fuse", *small, "--method", method, *norm, "--depth", "0", "-o", out)
            cmd_ranx = [sys.executable, script, ranx_method, out, *small]
            (w1, m1), (w2, m2) = ab([cmd_ours, cmd_ranx], a.repeat)
            label = f"fuse {method}, {a.runs} runs x {a.ranx_topics} topics"
            print(f"| {label} | trec_eval_py | {w1:.1f} | {m1:.0f} |")
            print(f"| {label} | ranx | {w2:.1f} | {m2:.0f} |")
            print(f"| {label} | ratio trec_eval_py / ranx | {w1 / w2:.2f} | {m1 / m2:.2f} |")
    finally:
        if not a.keep:
            shutil.rmtree(a.data, ignore_errors=True)


if __name__ == "__main__":
    main()
