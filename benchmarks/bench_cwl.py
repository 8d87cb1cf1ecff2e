#!/usr/bin/env python3
"""The C/W/L measures: trec_eval_py against cwl_eval on the same input.

usage: python benchmarks/bench_cwl.py [--data DIR] [--gen GEN_SYNTH] [--repeat 3]
                                      [--size QUERIES DOCS JUDGED]

Inputs are built in --data (default benchmarks/data/cwl, not in git) with
gen_synth.py (default ../shared/tools/gen_synth.py beside the checkout;
default size 300 queries x 200 documents, 100 judged). cwl_eval reads the
judgments as gains, so it gets a gain file with the levels made binary at 1
(trec_eval_py's default -l).

Each case times two whole processes, alternating (A B, then B A, ...) so a
load change on a shared machine hits both alike, and reports the median of
--repeat runs and the ratio. Both evaluate the run in file order
(``--order file``: cwl_eval does not sort), and the per-topic values they
print are compared (cwl_eval prints 4 decimals) on the topics both report.

Cases:
  inst     -m cwl_inst.T=2,all  against cwl_eval with INSTCWLMetric(2.0)
  default  the 17 cwl_* measures against cwl_eval's default set of 16 metrics
           (P@1..10, RBP, SDCG, RR, AP, INST): the same kind of work, not the
           same list, so only the times are compared
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


def _timed(cmd, cwd) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=True)
    return time.perf_counter() - t0, done.stdout


def _inputs(data, gen, size) -> tuple[str, str, str]:
    os.makedirs(data, exist_ok=True)
    qrels, run, gains = (os.path.join(data, n) for n in ("qrels", "run", "gains"))
    if not os.path.exists(run):
        subprocess.run([sys.executable, gen, data, *map(str, size), "1"], check=True)
    if not os.path.exists(gains):
        with open(qrels) as f, open(gains, "w") as out:
            for line in f:
                q, it, d, rel = line.split()
                out.write(f"{q} {it} {d} {1 if int(rel) >= 1 else 0}\n")
    return qrels, run, gains


def _ours(text) -> dict:
    """{(topic, output): value} from trec_eval_py -q text (EU as the plain name)."""
    out = {}
    for line in text.splitlines():
        name, topic, value = line.split("\t")
        if topic != "all":
            out[(topic, name.strip())] = float(value)
    return out


def _theirs(text) -> dict:
    out = {}
    for line in text.splitlines():
        topic, metric, *vals = line.split("\t")
        if topic == "Topic":
            continue
        for col, v in zip(("EU", "ETU", "EC", "ETC", "ED"), vals):
            out[(topic, metric.strip(), col)] = float(v)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(HERE, "data", "cwl"))
    ap.add_argument("--gen", default=os.path.join(ROOT, "..", "shared", "tools", "gen_synth.py"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--size", type=int, nargs=3, default=(300, 200, 100))
    args = ap.parse_args()
    cwl = shutil.which("cwl-eval")
    if cwl is None:
        sys.exit("cwl-eval is not installed (pip install cwl-eval)")
    qrels, run, gains = _inputs(os.path.abspath(args.data), args.gen, args.size)
    work = tempfile.mkdtemp()  # cwl_eval writes cwl.log where it runs
    metrics = os.path.join(work, "inst.txt")
    with open(metrics, "w") as f:
        f.write("INSTCWLMetric(2.0)\n")
    ours_py = [sys.executable, "-m", "trec_eval_py", "--order", "file", "-q"]
    env_root = {"PYTHONPATH": ROOT}
    cases = {
        "inst": (ours_py + ["-m", "cwl_inst.T=2,all", qrels, run], [cwl, gains, run, "-m", metrics]),
        "default": (ours_py + ["-m", "cwl", qrels, run], [cwl, gains, run]),
    }
    os.environ.update(env_root)
    with open(run) as f:
        lines = sum(1 for _ in f)
    print(f"input: {args.size[0]} queries x {args.size[1]} docs ({lines} lines)")
    for name, (a, b) in cases.items():
        ta, tb = [], []
        for i in range(args.repeat):
            first, second = (a, b) if i % 2 == 0 else (b, a)
            t1, o1 = _timed(first, work)
            t2, o2 = _timed(second, work)
            (ta if first is a else tb).append(t1)
            (tb if first is a else ta).append(t2)
            out_a, out_b = (o1, o2) if first is a else (o2, o1)
        if name == "inst":
            ours, theirs = _ours(out_a), _theirs(out_b)
            worst, n = 0.0, 0
            for (topic, _metric, col), v in theirs.items():
                key = (topic, "cwl_inst_T=2" + ("" if col == "EU" else f"_{col}"))
                if key in ours:
                    worst = max(worst, abs(ours[key] - v))
                    n += 1
            print(f"  inst: {n} per-topic values compared, largest difference {worst:.4f} (4 decimals printed)")
        ma, mb = statistics.median(ta), statistics.median(tb)
        print(f"{name:8s} trec_eval_py {ma:7.2f} s   cwl_eval {mb:7.2f} s   ratio {mb / ma:6.1f}x")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
