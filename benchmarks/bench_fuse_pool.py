#!/usr/bin/env python3
"""Pooling and fusion of many runs: time and peak memory, against ranx's fusion.

usage: bench_fuse_pool.py [--runs 100] [--topics 7000] [--docs 1000] [--repeat 3]
                          [--ranx-topics N] [--data DIR] [--keep] [--gen gen_synth.py]
                          [--skip-full | --skip-ranx] [--full-repeat N] [--full-cases pool,combsum,rrf]

Writes ``--runs`` TREC runs of ``--topics`` topics x ``--docs`` documents:
one ``gen_synth.py DIR TOPICS DOCS 300 1`` run, and the others derived from
it by a fast numpy pass (scores moved by seeded normal noise, 30% of each
run's documents swapped for ones only it retrieves), so runs overlap as real
ones do; then measures, each in a process of its own:

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
import sys, time
from ranx import Run, fuse
method, out, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
norm = None if method == "rrf" else "min-max"
# numba compiles ranx's kernels in every process: compile them on two tiny runs first
fuse([Run({"q": {"a": 1.0, "b": 0.5}}), Run({"q": {"a": 0.2}})], norm=norm, method=method)
t0 = time.perf_counter()
runs = [Run.from_file(p, kind="trec") for p in paths]
fused = fuse(runs, norm=norm, method=method)
fused.save(out, kind="trec")
print(f"warm {time.perf_counter() - t0}", file=sys.stderr)
"""


def shared_tool(name: str) -> str:
    for up in ("..", os.path.join("..", "..")):
        p = os.path.normpath(os.path.join(ROOT, up, "shared", "tools", name))
        if os.path.exists(p):
            return p
    return os.path.normpath(os.path.join(ROOT, "..", "shared", "tools", name))


def read_base(path: str):
    """A gen_synth run as arrays: topic (int), docno (int), rank, score."""
    q, d, k, s = [], [], [], []
    with open(path) as f:
        for line in f:
            a, _, doc, rank, score, _ = line.split()
            q.append(int(a))
            d.append(int(doc[1:]))
            k.append(int(rank))
            s.append(float(score))
    return np.array(q), np.array(d), np.array(k), np.array(s)


def _digits(out: np.ndarray, col: int, values: np.ndarray, width: int) -> None:
    """``values`` (non-negative ints) as ``width`` zero-padded digits at ``out[:, col:]``."""
    for j in range(width):
        out[:, col + width - 1 - j] = 48 + (values // 10 ** j) % 10


def derive(base, path: str, r: int, replace: float = 0.3, noise: float = 5.0) -> None:
    """Run ``r`` from the base run: each score moved by normal noise (sd ``noise``),
    a ``replace`` share of the documents swapped for ones only this run finds
    (ids above the base's), seeded by ``r``; run 0 is the base itself. Lines of
    fixed width (zero-padded docnos, rank and score), topics grouped in the
    base's order (ascending ids), each topic's documents in rank order."""
    q, d, k, s = base
    rng = np.random.default_rng(r)
    if r:
        s = s + rng.normal(0.0, noise, len(s))
        d = np.where(rng.random(len(d)) < replace, d + 5_000_000 * r, d)
        # written in rank order, as runs are: score descending within each topic
        order = np.lexsort((-s, q))
        q, d, s = q[order], d[order], s[order]
        first = np.flatnonzero(np.diff(q, prepend=-1))  # each topic's first row
        counts = np.diff(np.append(first, len(q)))
        k = 1 + np.arange(len(q)) - np.repeat(first, counts)
    v = np.rint(np.abs(s) * 10_000).astype(np.int64)  # score to 4 decimals
    with open(path + ".tmp", "wb") as f:
        for lo in range(0, len(q), 1 << 20):
            hi = min(len(q), lo + (1 << 20))
            n = hi - lo
            # "QQQQ Q0 DXXXXXXXXX RRRR +SSSSS.SSSS rNNN\n"
            out = np.full((n, 41), ord(" "), dtype=np.uint8)
            _digits(out, 0, q[lo:hi], 4)
            out[:, 5:7] = np.frombuffer(b"Q0", np.uint8)
            out[:, 8] = ord("D")
            _digits(out, 9, d[lo:hi], 9)
            _digits(out, 19, k[lo:hi], 4)
            out[:, 24] = np.where(s[lo:hi] < 0, ord("-"), ord("+"))
            _digits(out, 25, v[lo:hi] // 10_000, 5)
            out[:, 30] = ord(".")
            _digits(out, 31, v[lo:hi] % 10_000, 4)
            out[:, 36] = ord("r")
            _digits(out, 37, np.full(n, r), 3)
            out[:, 40] = ord("\n")
            f.write(out.tobytes())
    os.replace(path + ".tmp", path)


def generate(folder: str, n_runs: int, n_topics: int, n_docs: int, gen: str) -> list[str]:
    """``n_runs`` runs derived from one ``gen_synth.py DIR n_topics n_docs 300 1`` run
    (see :func:`derive`)."""
    os.makedirs(folder, exist_ok=True)
    paths = [os.path.join(folder, f"run{r:03d}") for r in range(n_runs)]
    if all(os.path.exists(p) for p in paths):
        return paths
    synth = os.path.join(folder, "synth")
    if not os.path.exists(os.path.join(synth, "run")):
        subprocess.run([sys.executable, gen, synth, str(n_topics), str(n_docs), "300", "1"], check=True)
    base = read_base(os.path.join(synth, "run"))
    for r, p in enumerate(paths):
        if not os.path.exists(p):
            derive(base, p, r)
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


# Linux keeps the peak resident set of a process across exec: a command started
# straight from this process (which holds the generated runs' arrays) would report
# this process's peak as its own. A small launcher starts it instead and reports
# the command's own peak on its last line of standard error.
LAUNCHER = ("import os, subprocess, sys\n"
            "p = subprocess.Popen(sys.argv[1:])\n"
            "_, status, usage = os.wait4(p.pid, 0)\n"
            "sys.stderr.write(f'\\npeak-kib {usage.ru_maxrss}\\n')\n"
            "sys.exit(os.waitstatus_to_exitcode(status))\n")


def measure(argv: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of one run of ``argv``."""
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", LAUNCHER, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)  # (the launcher's usage includes the command's CPU)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(argv[:6])}...\n{err}")
    peak = [int(line.split()[1]) for line in err.splitlines() if line.startswith("peak-kib ")][-1]
    warm = [float(line.split()[1]) for line in err.splitlines() if line.startswith("warm ")]
    if warm:
        WARM.setdefault(tuple(argv), []).append(warm[0])
    return wall, usage.ru_utime + usage.ru_stime, peak / MIB


#: the ranx script's own time after its kernels are compiled, per command
WARM: dict = {}


def ab(cmds: list[list[str]], repeat: int) -> list[tuple[float, float, float]]:
    """Median wall, median CPU and max peak of each command, the commands run
    in turn (order rotated each round)."""
    res: list[list] = [[] for _ in cmds]
    for i in range(repeat):
        for j in [(i + k) % len(cmds) for k in range(len(cmds))]:
            res[j].append(measure(cmds[j]))
    return [(statistics.median(w for w, _, _ in r), statistics.median(c for _, c, _ in r), max(m for _, _, m in r))
            for r in res]


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
    ap.add_argument("--gen", default=shared_tool("gen_synth.py"), help="gen_synth.py (a development tool)")
    ap.add_argument("--skip-full", action="store_true", help="only the ranx comparison")
    ap.add_argument("--skip-ranx", action="store_true", help="only the full-size cases")
    ap.add_argument("--full-repeat", type=int, help="repeats at full size (default --repeat)")
    ap.add_argument("--full-cases", default="pool,combsum,rrf", help="which full-size cases to run")
    a = ap.parse_args()
    os.chdir(ROOT)  # python -m trec_eval_py: this checkout
    folder = os.path.join(a.data, f"{a.runs}x{a.topics}x{a.docs}")
    t0 = time.perf_counter()
    paths = generate(folder, a.runs, a.topics, a.docs, a.gen)
    size = sum(os.path.getsize(p) for p in paths)
    print(f"# {a.runs} runs x {a.topics} topics x {a.docs} docs = {a.runs * a.topics * a.docs:,} lines, "
          f"{size / 2**30:.1f} GiB (generated in {time.perf_counter() - t0:.0f} s)")
    out = os.path.join(a.data, "out")
    print("| case | tool | wall s (median) | CPU s (median) | peak MiB |")
    print("| --- | --- | ---: | ---: | ---: |")
    try:
        if not a.skip_full:
            cases = {
                "pool": ("pool depth 100", ours("pool", *paths, "-k", "100", "--format", "qrels", "-o", out)),
                "combsum": ("fuse combsum minmax",
                            ours("fuse", *paths, "--method", "combsum", "--norm", "minmax", "-o", out)),
                "rrf": ("fuse rrf", ours("fuse", *paths, "--method", "rrf", "-o", out)),
            }
            chosen = [cases[c] for c in a.full_cases.split(",")]
            reps = a.repeat if a.full_repeat is None else a.full_repeat
            for (name, _cmd), (wall, cpu, peak) in zip(chosen, ab([c for _, c in chosen], reps)):
                print(f"| {name}, {a.runs} runs x {a.topics} topics (x{reps}) | trec_eval_py | {wall:.1f} | "
                      f"{cpu:.1f} | {peak:.0f} |", flush=True)
        if a.skip_ranx:
            return
        small = head_topics(paths, a.ranx_topics, os.path.join(a.data, f"head{a.ranx_topics}"))
        script = os.path.join(a.data, "ranx_fuse.py")
        with open(script, "w") as f:
            f.write(RANX_SCRIPT)
        # ranx compiles its numba kernels on first use and caches some: warm the cache
        for m in ("sum", "rrf"):
            subprocess.run([sys.executable, script, m, out, *small[:2]], check=True, capture_output=True)
        for method, ranx_method in (("combsum", "sum"), ("rrf", "rrf")):
            norm = [] if method == "rrf" else ["--norm", "minmax"]
            cmd_ours = ours("fuse", *small, "--method", method, *norm, "--depth", "0", "-o", out)
            cmd_ranx = [sys.executable, script, ranx_method, out, *small]
            (w1, c1, m1), (w2, c2, m2) = ab([cmd_ours, cmd_ranx], a.repeat)
            label = f"fuse {method}, {a.runs} runs x {a.ranx_topics} topics (x{a.repeat})"
            print(f"| {label} | trec_eval_py | {w1:.1f} | {c1:.1f} | {m1:.0f} |")
            print(f"| {label} | ranx | {w2:.1f} | {c2:.1f} | {m2:.0f} |")
            warm = statistics.median(WARM[tuple(cmd_ranx)])
            print(f"| {label} | ranx without compiling (reading, fusing, writing) | {warm:.1f} | | |")
            print(f"| {label} | ratio trec_eval_py / ranx | {w1 / w2:.2f} | {c1 / c2:.2f} | {m1 / m2:.2f} |")
            print(f"| {label} | ratio trec_eval_py / ranx without compiling | {w1 / warm:.2f} | | |", flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(a.data, ignore_errors=True)


if __name__ == "__main__":
    main()
