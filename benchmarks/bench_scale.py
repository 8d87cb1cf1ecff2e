"""Scale benchmarks: the summary fold on one machine, a sharded dataset and
many runs on a dask LocalCluster of 1 and 2 workers, validate against the
evaluation (on the run; on the run with a header line, whose piece with the
header is read line by line; on the run with every topic in two places, which
validate regroups through temporary files). A/B alternating, median of 3, ratios;
every number with the load average it was taken under (the machine is shared).

usage: bench_scale.py DATA [--base PATH] [--gen gen_synth.py] [--topics N] [--docs N] [--judged N]
                           [--runs N] [--repeat 3] [--only NAME]

NAME: one, validate, validate-header, validate-interleaved, dataset,
text-dask, dataset-local, dataset-dask, batch, batch-jobs.

DATA holds the generated inputs (made with gen_synth.py when missing):
``t{topics}/`` (the big run), ``b7k/`` and ``runs{N}/`` (the batch sweep:
7,000 topics x 100 documents). ``--base`` is a checkout of the code to
compare with for the one-process case (default: none, that case then runs
this tree alone). Peak memory is the largest resident set of the command
and its waited-for children (ru_maxrss: for a cluster, the largest single
process, i.e. per worker).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run(cmd, cwd) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the process tree, peak RSS in MB)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{cmd} failed ({p.returncode}): {err[-500:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss // 1024


def load() -> str:
    return "%.1f" % os.getloadavg()[0]


def ab(name: str, a: tuple, b: tuple, repeat: int) -> None:
    """``a`` and ``b`` are (label, cmd, cwd); alternated, median of ``repeat``."""
    res = {a[0]: [], b[0]: []}
    loads = []
    for _ in range(repeat):
        for label, cmd, cwd in (a, b):
            loads.append(load())
            res[label].append(run(cmd, cwd))
    med = {k: tuple(statistics.median(x[i] for x in v) for i in range(3)) for k, v in res.items()}
    (la, ma), (lb, mb) = med.items()
    print(f"| {name} | {la}: {ma[0]:.1f} s, {ma[1]:.1f} s CPU, {ma[2]:.0f} MB | {lb}: {mb[0]:.1f} s, "
          f"{mb[1]:.1f} s CPU, {mb[2]:.0f} MB | time {mb[0] / ma[0]:.2f}x, CPU {mb[1] / ma[1]:.2f}x, "
          f"memory {mb[2] / ma[2]:.2f}x | load {' '.join(loads)} |", flush=True)


def gen(gen_py: str, out: Path, topics: int, docs: int, judged: int, seed: int = 0) -> None:
    if not (out / "run").exists():
        subprocess.run([sys.executable, gen_py, str(out), str(topics), str(docs), str(judged), str(seed)], check=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("--base", type=Path, default=None)
    ap.add_argument("--gen", default=str(HERE.parent.parent / "shared" / "tools" / "gen_synth.py"))
    ap.add_argument("--topics", type=int, default=5_000_000)
    ap.add_argument("--docs", type=int, default=10)
    ap.add_argument("--judged", type=int, default=2)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default=None)
    a = ap.parse_args()
    py = [sys.executable, "-m", "trec_eval_py"]
    big = a.data / f"t{a.topics}x{a.docs}"
    gen(a.gen, big, a.topics, a.docs, a.judged)
    qrels, runf = str(big / "qrels"), str(big / "run")
    print("| case | A | B | B/A | load averages |\n|---|---|---|---|---|", flush=True)

    if a.only in (None, "one"):  # the summary in one process: before (base) and after (this tree)
        cmd = py + ["-m", "all_trec", qrels, runf]
        if a.base is not None:
            ab(f"{a.topics} topics x {a.docs}, one process, -m all_trec", ("before", cmd, a.base),
               ("after", cmd, HERE), a.repeat)
    if a.only in (None, "validate"):  # validate against the evaluation on the same run
        ab(f"validate vs evaluate, {a.topics * a.docs} lines", ("evaluate", py + ["-m", "all_trec", qrels, runf], HERE),
           ("validate", py + ["validate", runf, "--qrels", qrels], HERE), a.repeat)
    if a.only in (None, "validate-header"):  # a line problem: the pieces holding one are read line by line
        headed = big / "run.header"
        if not headed.exists():
            with open(headed, "wb") as out, open(runf, "rb") as src:
                out.write(b"qid iter docno rank score runid\n")
                shutil.copyfileobj(src, out, 16 << 20)
        ab(f"validate of the run with a header line vs evaluate, {a.topics * a.docs} lines",
           ("evaluate", py + ["-m", "all_trec", qrels, runf], HERE),
           ("validate", py + ["validate", str(headed), "--qrels", qrels, "--skip-header"], HERE), a.repeat)
    if a.only in (None, "validate-interleaved"):  # every topic comes back: regrouped through temporary files
        mixed = big / "run.interleaved"
        if not mixed.exists():  # the odd lines, then the even ones: each topic in two places
            part = mixed.with_suffix(".part")
            with open(part, "wb") as out:
                for half in (0, 1):
                    with open(runf, "rb") as src:
                        out.writelines(line for i, line in enumerate(src) if i % 2 == half)
            part.rename(mixed)
        ab(f"validate of the run with every topic in two places vs evaluate, {a.topics * a.docs} lines",
           ("evaluate", py + ["-m", "all_trec", qrels, str(mixed)], HERE),
           ("validate", py + ["validate", str(mixed), "--qrels", qrels], HERE), a.repeat)
    if a.only in (None, "dataset"):  # the run as a sharded dataset on 1 and 2 workers
        ds = a.data / f"t{a.topics}x{a.docs}.shards"
        if not (ds / "manifest.json").exists():
            subprocess.run(py + ["shard", runf, "-o", str(ds), "--shards", "32"], cwd=HERE, check=True)
        ab(f"{a.topics} topics as 32 shards, dask LocalCluster",
           ("1 worker", py + ["--engine", "dask", "--workers", "1", "-m", "all_trec", qrels, str(ds)], HERE),
           ("2 workers", py + ["--engine", "dask", "--workers", "2", "-m", "all_trec", qrels, str(ds)], HERE),
           a.repeat)
    if a.only in (None, "text-dask"):  # the plain run file: one process, or a local cluster of 2 workers
        ab(f"{a.topics} topics x {a.docs}, the run file, -m all_trec",
           ("one process", py + ["-m", "all_trec", qrels, runf], HERE),
           ("dask, 2 workers", py + ["--engine", "dask", "--workers", "2", "-m", "all_trec", qrels, runf], HERE),
           a.repeat)
    if a.only in (None, "dataset-local"):  # the run file or its dataset, both in one process
        ds = a.data / f"t{a.topics}x{a.docs}.shards"
        if not (ds / "manifest.json").exists():
            subprocess.run(py + ["shard", runf, "-o", str(ds), "--shards", "32"], cwd=HERE, check=True)
        ab(f"{a.topics} topics x {a.docs}, one process, -m all_trec",
           ("the run file", py + ["-m", "all_trec", qrels, runf], HERE),
           ("its dataset (32 shards)", py + ["-m", "all_trec", qrels, str(ds)], HERE), a.repeat)
    if a.only in (None, "dataset-dask"):  # where dask may pay: the dataset on 2 workers against one process
        ds = a.data / f"t{a.topics}x{a.docs}.shards"
        if not (ds / "manifest.json").exists():
            subprocess.run(py + ["shard", runf, "-o", str(ds), "--shards", "32"], cwd=HERE, check=True)
        ab(f"{a.topics} topics x {a.docs}, -m all_trec",
           ("the run file, one process", py + ["-m", "all_trec", qrels, runf], HERE),
           ("its dataset, dask 2 workers", py + ["--engine", "dask", "--workers", "2", "-m", "all_trec", qrels,
                                                 str(ds)], HERE), a.repeat)
    if a.only in (None, "batch", "batch-jobs"):  # many runs of 7,000 topics x 100 documents
        b = a.data / "b7k"
        gen(a.gen, b, 7000, 100, 50)
        runs = a.data / f"runs{a.runs}"
        if not runs.exists():
            runs.mkdir()
            for i in range(a.runs):
                shutil.copyfile(b / "run", runs / f"r{i:03d}")
        bq = str(b / "qrels")
        base = py + ["batch", "--no-validate", "-m", "all_trec", "--engine", "dask"]
        if a.only in (None, "batch"):
            ab(f"batch of {a.runs} runs of 7,000 x 100",
               ("1 worker", base + ["--workers", "1", bq, str(runs)], HERE),
               ("2 workers", base + ["--workers", "2", bq, str(runs)], HERE), a.repeat)
        if a.only in (None, "batch-jobs"):  # the same sweep: 2 processes of batch's own pool, or dask
            ab(f"batch of {a.runs} runs of 7,000 x 100, 2 processes",
               ("--jobs 2", py + ["batch", "--no-validate", "-m", "all_trec", "--jobs", "2", bq, str(runs)], HERE),
               ("dask, 2 workers", base + ["--workers", "2", bq, str(runs)], HERE), a.repeat)


if __name__ == "__main__":
    main()
