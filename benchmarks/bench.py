#!/usr/bin/env python3
"""Side-by-side benchmark: trec_eval_py against the usual Python route
(pytrec_eval) and, when one is on PATH, trec_eval's own binary.

usage: python benchmarks/bench.py [--data DIR] [--gen GEN_SYNTH] [--repeat 3]
                                  [--scale] [--skip-pytrec]

Cases (each command is timed as a whole process, median of --repeat runs;
peak memory is the child's maximum resident set size):
  small  trec_eval's own results.test, -q -m all_trec
  big    the 6.9M-line synthetic run (gen_synth.py DIR 7000 1000 300 1), -m all_trec
  10x    with --scale: a 69M-line run (70,000 topics), -m all_trec
Data is generated on first use with the generator named by --gen (default:
the shared gen_synth.py next to this checkout). Ratios are to the pytrec_eval
route measured in the same run.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_GEN = os.path.join(ROOT, "..", "shared", "tools", "gen_synth.py")
PYTREC_ROUTE = os.path.join(ROOT, "..", "shared", "tools", "pytrec_route.py")
SMALL = os.path.join(ROOT, "fixtures", "golden", "inputs")


def measure(argv: list[str], stdout_path: str | None = None) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one run of ``argv``."""
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if stdout_path:
        out.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(argv)}\n{err}")
    return wall, usage.ru_maxrss / 1024.0


def lines_in(path: str) -> int:
    with open(path, "rb") as f:
        return sum(block.count(b"\n") for block in iter(lambda: f.read(1 << 24), b""))


def ensure(data: str, name: str, args: list[str], gen: str) -> str:
    d = os.path.join(data, name)
    if not (os.path.exists(os.path.join(d, "qrels")) and os.path.exists(os.path.join(d, "run"))):
        print(f"generating {d} ({' '.join(args)}) ...", file=sys.stderr)
        subprocess.run([sys.executable, gen, d, *args], check=True)
    return d


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    ap.add_argument("--gen", default=DEFAULT_GEN)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scale", action="store_true", help="also run the 69M-line case (slow, ~7 GB of disk)")
    ap.add_argument("--skip-pytrec", action="store_true")
    a = ap.parse_args()

    te_py = [sys.executable, "-m", "trec_eval_py"]
    te_c = shutil.which("trec_eval")
    cases = [("small", SMALL + "/qrels.test", SMALL + "/results.test", ["-q", "-m", "all_trec"])]
    big = ensure(a.data, "big", ["7000", "1000", "300", "1"], a.gen)
    cases.append(("big", big + "/qrels", big + "/run", ["-m", "all_trec"]))
    if a.scale:
        huge = ensure(a.data, "scale10", ["70000", "1000", "300", "1"], a.gen)
        cases.append(("10x", huge + "/qrels", huge + "/run", ["-m", "all_trec"]))

    rows = []
    for name, qrels, run, flags in cases:
        n = lines_in(run)
        tools = [("trec_eval_py", te_py + flags + [qrels, run])]
        if not a.skip_pytrec and name != "10x":
            tools.append(("pytrec_eval route", [sys.executable, PYTREC_ROUTE, qrels, run]))
        if te_c:
            tools.append(("trec_eval (C)", [te_c] + flags + [qrels, run]))
        results = {}
        for tool, argv in tools:
            runs = [measure(argv) for _ in range(a.repeat)]
            results[tool] = (statistics.median(w for w, _ in runs), max(m for _, m in runs))
        base = results.get("pytrec_eval route", (None,))[0]
        for tool, (wall, rss) in results.items():
            ratio = f"{wall / base:.2f}x" if base else "-"
            rows.append((name, f"{n:,}", tool, f"{wall:.2f}", ratio, f"{rss:.0f}", f"{n / wall / 1e6:.2f}"))
        if te_c:  # outputs must be identical
            mine, theirs = os.path.join(a.data, "mine.out"), os.path.join(a.data, "theirs.out")
            measure(te_py + flags + [qrels, run], mine)
            measure([te_c] + flags + [qrels, run], theirs)
            same = open(mine, "rb").read() == open(theirs, "rb").read()
            print(f"{name}: output {'identical to' if same else 'DIFFERENT from'} trec_eval's", file=sys.stderr)

    head = ("case", "run lines", "tool", "wall s (median)", "vs pytrec_eval", "peak RSS MiB", "M lines/s")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |")


if __name__ == "__main__":
    main()
