#!/usr/bin/env python3
"""``trec_eval_py ndeval`` against NIST's ndeval binary on a big diversity run.

usage: python benchmarks/bench_ndeval.py [--data DIR] [--gen GEN_SYNTH] [--ndeval BIN]
                                         [--repeat 3] [--topics 7000] [--docs 1000] [--judged 300]

The run is gen_synth.py's (default 7,000 topics x 1,000 documents, 300 judged
per topic: 6.9M lines, ranks 1..1000, some topics only in the judgments or only
in the run). Its graded qrels become subtopic qrels here: each topic gets 3 to
8 subtopics (seeded), a relevant document (level 1 to 3) is relevant to one
to three of them (more of them the higher its level), a judged non-relevant
document gets one line at level 0.

Cases: ``default`` (ranked by the rank column) and ``traditional`` (by score,
``-traditional``). Every command runs as a whole process; each time is the
median of --repeat runs, the two programs alternating (A B, then B A, ...) so
a load change on a shared machine hits both alike: wall time, CPU time (user +
system, steadier on a busy machine) and peak resident memory. The outputs are
compared byte for byte. Ratios are ndeval's time over ours.

ndeval is built by ../shared/tools/build_ndeval.sh (default /tmp/ndeval/ndeval);
inputs go to --data (default benchmarks/data/ndeval, not in git).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def subtopic_qrels(src: str, dst: str, seed: int = 1) -> None:
    """gen_synth's graded qrels as subtopic qrels (see the module doc)."""
    rng = random.Random(seed)
    subs: dict[str, list[int]] = {}
    with open(src) as f, open(dst, "w") as out:
        for line in f:
            topic, _, doc, rel = line.split()
            if topic not in subs:
                subs[topic] = list(range(1, rng.randint(3, 8) + 1))
            level = int(rel)
            if level <= 0:
                out.write(f"{topic} {rng.choice(subs[topic])} {doc} 0\n")
                continue
            for s in sorted(rng.sample(subs[topic], min(len(subs[topic]), rng.randint(1, level)))):
                out.write(f"{topic} {s} {doc} 1\n")


def timed(argv: list[str], out_path: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds (user + system), peak resident MiB) of one process."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t = time.perf_counter()
    with open(out_path, "wb") as out, open(os.devnull, "wb") as err:
        p = subprocess.Popen(argv, stdout=out, stderr=err, env=env, cwd=ROOT)
        _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - t
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv[0]} failed (exit {os.waitstatus_to_exitcode(status)})")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(HERE, "data", "ndeval"))
    ap.add_argument("--gen", default=os.path.join(ROOT, "..", "shared", "tools", "gen_synth.py"))
    ap.add_argument("--ndeval", default=os.environ.get("NDEVAL", "/tmp/ndeval/ndeval"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--topics", type=int, default=7000)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--judged", type=int, default=300)
    a = ap.parse_args()
    data = os.path.join(a.data, f"{a.topics}x{a.docs}x{a.judged}")
    qrels, run = os.path.join(data, "qrels_diversity"), os.path.join(data, "run")
    if not os.path.exists(qrels):
        gen = a.gen if os.path.exists(a.gen) else "/work/shared/tools/gen_synth.py"
        subprocess.run([sys.executable, gen, data, str(a.topics), str(a.docs), str(a.judged), "1"], check=True)
        subtopic_qrels(os.path.join(data, "qrels"), qrels)
    with open(run, "rb") as f:
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    print(f"run: {lines:,} lines, {a.topics} topics; judgments: {os.path.getsize(qrels) / 2**20:.1f} MiB")
    print(f"{'case':<12} {'ndeval wall':>11} {'ours wall':>9} {'ratio':>6}  {'ndeval CPU':>10} {'ours CPU':>8} "
          f"{'ratio':>6}  {'ndeval MiB':>10} {'ours MiB':>8}  output")
    for case, flags in (("default", []), ("traditional", ["-traditional"])):
        ours_cmd = [sys.executable, "-m", "trec_eval_py", "ndeval"] + flags + [qrels, run]
        c_cmd = [a.ndeval] + flags + [qrels, run]
        c_out, ours_out = os.path.join(data, f"c_{case}.csv"), os.path.join(data, f"ours_{case}.csv")
        times: dict[str, list[tuple[float, float, float]]] = {"c": [], "ours": []}
        for i in range(a.repeat):
            pair = [("c", c_cmd, c_out), ("ours", ours_cmd, ours_out)]
            for name, cmd, out in (pair if i % 2 == 0 else pair[::-1]):
                times[name].append(timed(cmd, out))
        with open(c_out, "rb") as f1, open(ours_out, "rb") as f2:
            same = f1.read() == f2.read()
        c = [statistics.median(t[i] for t in times["c"]) for i in range(3)]
        ours = [statistics.median(t[i] for t in times["ours"]) for i in range(3)]
        print(f"{case:<12} {c[0]:>11.2f} {ours[0]:>9.2f} {c[0] / ours[0]:>5.2f}x  {c[1]:>10.2f} {ours[1]:>8.2f} "
              f"{c[1] / ours[1]:>5.2f}x  {c[2]:>10.0f} {ours[2]:>8.0f}  {'identical' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
