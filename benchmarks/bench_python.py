#!/usr/bin/env python3
"""Runs held in Python, side by side with the libraries people use for them.

usage: python benchmarks/bench_python.py [--data DIR] [--gen GEN_SYNTH] [--repeat 3]
                                         [--only CASE ...] [--baseline CHECKOUT] [--markdown]

Every measurement is one fresh process that builds its inputs and warms its
library up on a tiny input of the same kind (imports, lazily loaded code,
ranx's compiled functions: all untimed), then times the evaluation alone as CPU seconds (user + system of every thread,
``time.process_time``) and reports its peak resident memory (``wait4``). The
two or three programs of a case alternate (A B C, then C B A, ...) so a load
change on a shared machine hits all alike; each figure is the median of
--repeat runs, ratios are trec_eval_py's over the peer's. The measures are
AP, nDCG@10, P@10, R@100 and RR (trec_eval's map, ndcg_cut_10, P_10,
recall_100, recip_rank) in every program.

Cases (``--only`` picks some):
  dict-small   dict of dicts, 1,000 topics x 100 documents (gen_synth 1000 100 50 1):
               evaluate(qrels, run) against pytrec_eval's RelevanceEvaluator(qrels)
               + evaluate(run) on the same dicts
  dict-big     the same, 7,000 x 1,000 (gen_synth 7000 1000 300 1; 6.9M results)
  dropin       the two dict cases through the pytrec_eval drop-in (RelevanceEvaluator)
               against pytrec_eval
  pandas       pandas DataFrames (ir_measures' columns), 7,000 x 1,000: evaluate
               against ir_measures' pytrec_eval provider (calc_aggregate) and
               against ranx (Qrels.from_df + Run.from_df + evaluate, its compiled
               functions warmed up first); a peer not installed is skipped
  parquet      Parquet files, 7,000 x 1,000: evaluate(paths) against the same
               evaluate on the TREC text files
  arrow        pyarrow Tables (read from the Parquet files, untimed) against the
               TREC text files
  file         (with --baseline) the command line on the text files, this checkout
               against another (e.g. main): the file path must not be slower

trec_eval_py is measured as pip installs it: its modules byte-compiled first
(``compileall``, into the checkout's ignored ``__pycache__`` folders), as the
peers' are. ``--no-bytecode`` measures a copy without them, compiled from
source at every start (with PYTHONDONTWRITEBYTECODE): that costs a few MiB of
peak memory, the compiler's, which no installed copy pays.

Inputs are built on first use in --data (default benchmarks/data, not in git)
with gen_synth.py (default: ../shared/tools/gen_synth.py beside the checkout).
"""
from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench import ensure, measure, shared_tool  # noqa: E402

MIB = 1024.0
MEASURES = ["AP", "nDCG@10", "P@10", "R@100", "RR"]
TREC_NAMES = ["map", "ndcg_cut_10", "P_10", "recall_100", "recip_rank"]

# Each program reads its inputs untimed, then prints {"cpu": seconds, "check": number}.
# ``check`` is the mean AP, so every program is seen to compute the same thing.
PRELUDE = r"""
import json, os, pickle, sys, time
sys.path.insert(0, os.environ["BENCH_ROOT"])
data = os.environ["BENCH_DATA"]
def done(t0, check):
    print(json.dumps({"cpu": time.process_time() - t0, "check": float(check)}))
"""

PROGRAMS = {
    "trec_eval_py-dict": r"""
q, r = pickle.load(open(os.path.join(data, "dicts.pkl"), "rb"))
import trec_eval_py as te
te.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 0.5}}, MEASURES)
t0 = time.process_time()
ev = te.evaluate(q, r, MEASURES)
done(t0, ev.summary["AP"])
""",
    "trec_eval_py-dropin": r"""
q, r = pickle.load(open(os.path.join(data, "dicts.pkl"), "rb"))
from trec_eval_py import RelevanceEvaluator
RelevanceEvaluator({"q": {"a": 1}}, set(TREC_NAMES)).evaluate({"q": {"a": 1.0, "b": 0.5}})
t0 = time.process_time()
res = RelevanceEvaluator(q, set(TREC_NAMES)).evaluate(r)
done(t0, sum(v["map"] for v in res.values()) / len(res))
""",
    "pytrec_eval-dict": r"""
q, r = pickle.load(open(os.path.join(data, "dicts.pkl"), "rb"))
import pytrec_eval
pytrec_eval.RelevanceEvaluator({"q": {"a": 1}}, set(TREC_NAMES)).evaluate({"q": {"a": 1.0, "b": 0.5}})
t0 = time.process_time()
res = pytrec_eval.RelevanceEvaluator(q, set(TREC_NAMES)).evaluate(r)
done(t0, sum(v["map"] for v in res.values()) / len(res))
""",
    "trec_eval_py-pandas": r"""
import pandas as pd
qdf = pd.read_parquet(os.path.join(data, "qrels.parquet")); rdf = pd.read_parquet(os.path.join(data, "run.parquet"))
import trec_eval_py as te
te.evaluate(qdf.head(3), rdf.head(3), MEASURES)
t0 = time.process_time()
ev = te.evaluate(qdf, rdf, MEASURES)
done(t0, ev.summary["AP"])
""",
    "ir_measures-pandas": r"""
import pandas as pd
qdf = pd.read_parquet(os.path.join(data, "qrels.parquet")); rdf = pd.read_parquet(os.path.join(data, "run.parquet"))
import ir_measures
from ir_measures import AP, nDCG, P, R, RR
ir_measures.pytrec_eval.calc_aggregate([AP, nDCG@10, P@10, R@100, RR], qdf.head(3), rdf.head(3))
t0 = time.process_time()
agg = ir_measures.pytrec_eval.calc_aggregate([AP, nDCG@10, P@10, R@100, RR], qdf, rdf)
# ir_measures averages over every judged topic (-c); the check is trec_eval's mean over evaluated ones
done(t0, 0.0)
""",
    "ranx-pandas": r"""
import pandas as pd
qdf = pd.read_parquet(os.path.join(data, "qrels.parquet")); rdf = pd.read_parquet(os.path.join(data, "run.parquet"))
# ranx takes object (Python str) id columns only
qdf = qdf.astype({"query_id": object, "doc_id": object}); rdf = rdf.astype({"query_id": object, "doc_id": object})
from ranx import Qrels, Run, evaluate
# warm: ranx compiles its functions on first use
evaluate(Qrels({"q": {"a": 1}}), Run({"q": {"a": 1.0, "b": 0.5}}),
         ["map", "ndcg@10", "precision@10", "recall@100", "mrr"])
t0 = time.process_time()
qr = Qrels.from_df(qdf, q_id_col="query_id", doc_id_col="doc_id", score_col="relevance")
ru = Run.from_df(rdf, q_id_col="query_id", doc_id_col="doc_id", score_col="score")
res = evaluate(qr, ru, ["map", "ndcg@10", "precision@10", "recall@100", "mrr"], make_comparable=True)
done(t0, 0.0)
""",
    "trec_eval_py-parquet": r"""
import trec_eval_py as te
import pyarrow as pa, pyarrow.parquet as pq, io
tiny = io.BytesIO(); pq.write_table(pa.table({"query_id": ["q"], "doc_id": ["a"], "relevance": [1]}), tiny)
te.evaluate(tiny.getvalue(), {"q": {"a": 1.0}}, MEASURES)
t0 = time.process_time()
ev = te.evaluate(os.path.join(data, "qrels.parquet"), os.path.join(data, "run.parquet"), MEASURES)
done(t0, ev.summary["AP"])
""",
    "trec_eval_py-arrow": r"""
import pyarrow.parquet as pq
qt = pq.read_table(os.path.join(data, "qrels.parquet")); rt = pq.read_table(os.path.join(data, "run.parquet"))
import trec_eval_py as te
te.evaluate(qt.slice(0, 3), rt.slice(0, 3), MEASURES)
t0 = time.process_time()
ev = te.evaluate(qt, rt, MEASURES)
done(t0, ev.summary["AP"])
""",
    "trec_eval_py-text": r"""
import trec_eval_py as te
te.evaluate(b"q 0 a 1\n", b"q Q0 a 1 1.0 r\n", MEASURES)
t0 = time.process_time()
ev = te.evaluate(os.path.join(data, "qrels"), os.path.join(data, "run"), MEASURES)
done(t0, ev.summary["AP"])
""",
}


def program(key: str) -> str:
    return (PRELUDE + f"MEASURES = {MEASURES!r}\nTREC_NAMES = {TREC_NAMES!r}\n" + PROGRAMS[key])


def run_child(argv: list[str], env: dict) -> tuple[float, float, float, float]:
    """(CPU seconds it reports, peak RSS MiB, check value, CPU seconds of the
    whole process) of one child process, measured through bench.py's launcher."""
    with tempfile.NamedTemporaryFile(prefix="bench-out-") as out:
        _, cpu, peak = measure(argv, out.name, launch=True, env=env)
        line = out.read().decode().strip().splitlines()[-1]
    doc = json.loads(line)
    return doc["cpu"], peak, doc["check"], cpu


def timed(argv_for: dict, env_for: dict, repeat: int) -> dict:
    """``{name: (median cpu, max peak MiB, check)}``, the programs run in alternating order."""
    names = list(argv_for)
    got = {n: [] for n in names}
    for i in range(repeat):
        for n in (names if i % 2 == 0 else names[::-1]):
            got[n].append(run_child(argv_for[n], env_for[n]))
    return {n: (statistics.median(r[0] for r in rs), max(r[1] for r in rs), rs[0][2]) for n, rs in got.items()}


def available(module: str) -> bool:
    return subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True).returncode == 0


def prepare(data: str, gen: str) -> dict:
    """The data folders (built once): text files, the dicts pickled, Parquet files."""
    small = ensure(data, "synth_1000x100", ["1000", "100", "50", "1"], gen)
    big = ensure(data, "synth_7000x1000", ["7000", "1000", "300", "1"], gen)
    for d in (small, big):
        if not os.path.exists(os.path.join(d, "dicts.pkl")):
            print(f"building {d}/dicts.pkl ...", file=sys.stderr)
            subprocess.run([sys.executable, "-c", PICKLE, d], check=True)
    if not os.path.exists(os.path.join(big, "run.parquet")) and available("pyarrow"):
        print(f"building {big}/*.parquet ...", file=sys.stderr)
        subprocess.run([sys.executable, "-c", PARQUET, big], check=True)
    return {"small": small, "big": big}


# the usual way to hold TREC files in Python: split each line into dicts
PICKLE = r"""
import os, pickle, sys
d = sys.argv[1]
def read(path, col, conv):
    out = {}
    with open(path) as f:
        for line in f:
            a = line.split()
            out.setdefault(a[0], {})[a[2]] = conv(a[col])
    return out
q = read(os.path.join(d, "qrels"), 3, int)
r = read(os.path.join(d, "run"), 4, float)
with open(os.path.join(d, "dicts.pkl"), "wb") as f:
    pickle.dump((q, r), f, protocol=5)
"""

# the same rows as Parquet, with ir_measures' column names (pyarrow's defaults)
PARQUET = r"""
import os, sys
import pyarrow as pa, pyarrow.parquet as pq
d = sys.argv[1]
def rows(path, cols):
    with open(path) as f:
        for line in f:
            a = line.split()
            yield [a[c] for c in cols]
q = list(zip(*rows(os.path.join(d, "qrels"), (0, 2, 3))))
pq.write_table(pa.table({"query_id": list(q[0]), "doc_id": list(q[1]), "relevance": [int(x) for x in q[2]]}),
               os.path.join(d, "qrels.parquet"))
del q
r = list(zip(*rows(os.path.join(d, "run"), (0, 2, 4, 5))))
pq.write_table(pa.table({"query_id": list(r[0]), "doc_id": list(r[1]), "score": [float(x) for x in r[2]],
                         "run_id": list(r[3])}), os.path.join(d, "run.parquet"))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    ap.add_argument("--gen", default=shared_tool("gen_synth.py"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--baseline", default=None, help="another checkout, for the 'file' case")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--no-bytecode", action="store_true", help="compile trec_eval_py from source in every run")
    a = ap.parse_args()
    data = prepare(os.path.abspath(a.data), os.path.abspath(a.gen))
    want = set(a.only) if a.only else {"dict-small", "dict-big", "dropin", "pandas", "parquet", "arrow", "file"}
    roots = {ROOT: ROOT}
    if a.baseline:
        roots[os.path.abspath(a.baseline)] = os.path.abspath(a.baseline)
    for root in list(roots):
        if a.no_bytecode:  # a copy of the package without compiled modules
            roots[root] = tempfile.mkdtemp(prefix="bench-source-")
            atexit.register(shutil.rmtree, roots[root], True)
            shutil.copytree(os.path.join(root, "trec_eval_py"), os.path.join(roots[root], "trec_eval_py"),
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:  # as an installed copy: compiled once, not at every start
            subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(root, "trec_eval_py")],
                           check=True, stdout=subprocess.DEVNULL)

    def env(folder: str, root: str = ROOT) -> dict:
        return {**os.environ, "BENCH_ROOT": roots[root], "BENCH_DATA": folder, "PYTHONPATH": roots[root],
                "PYTHONDONTWRITEBYTECODE": "1"}

    rows = []

    def case(label: str, folder: str, ours: str, peers: list[str], note: str = ""):
        peers = [p for p in peers if available(PEER_MODULE.get(p, "trec_eval_py"))]
        keys = [ours, *peers]
        got = timed({k: [sys.executable, "-c", program(k)] for k in keys}, {k: env(folder) for k in keys}, a.repeat)
        for p in peers:
            cpu_a, mem_a, chk_a = got[ours]
            cpu_b, mem_b, chk_b = got[p]
            if chk_b and abs(chk_a - chk_b) > 1e-9:
                raise SystemExit(f"{label}: {ours} and {p} disagree (mean AP {chk_a} vs {chk_b})")
            rows.append((label, ours, p, cpu_a, cpu_b, mem_a, mem_b, note))
        print_row(rows[-len(peers):] if peers else [], a.markdown)

    if "dict-small" in want:
        case("dict 1,000x100", data["small"], "trec_eval_py-dict", ["pytrec_eval-dict"])
    if "dict-big" in want:
        case("dict 7,000x1,000", data["big"], "trec_eval_py-dict", ["pytrec_eval-dict"])
    if "dropin" in want:
        case("drop-in 1,000x100", data["small"], "trec_eval_py-dropin", ["pytrec_eval-dict"])
        case("drop-in 7,000x1,000", data["big"], "trec_eval_py-dropin", ["pytrec_eval-dict"])
    if "pandas" in want:
        case("pandas 7,000x1,000", data["big"], "trec_eval_py-pandas", ["ir_measures-pandas", "ranx-pandas"],
             "warm ranx")
    if "parquet" in want:
        case("Parquet 7,000x1,000", data["big"], "trec_eval_py-parquet", ["trec_eval_py-text"])
    if "arrow" in want:
        case("Arrow 7,000x1,000", data["big"], "trec_eval_py-arrow", ["trec_eval_py-text"])
    if "file" in want and a.baseline:
        base = os.path.abspath(a.baseline)
        argv = [sys.executable, "-c", program("trec_eval_py-text")]
        got = timed({"this": argv, "baseline": argv},
                    {"this": env(data["big"]), "baseline": env(data["big"], base)}, a.repeat)
        rows.append(("text files 7,000x1,000", "this checkout", f"baseline ({base})", got["this"][0],
                     got["baseline"][0], got["this"][1], got["baseline"][1], ""))
        print_row(rows[-1:], a.markdown)
    if a.markdown:
        print("\n| case | trec_eval_py | peer | CPU s (ours / peer) | ratio | peak MiB (ours / peer) |")
        print("|---|---|---|---|---|---|")
        for label, ours, p, ca, cb, ma, mb, note in rows:
            print(f"| {label} | {ours} | {p}{' (' + note + ')' if note else ''} | {ca:.2f} / {cb:.2f} | "
                  f"{ca / cb:.2f}x | {ma:.0f} / {mb:.0f} |")


PEER_MODULE = {"pytrec_eval-dict": "pytrec_eval", "ir_measures-pandas": "ir_measures", "ranx-pandas": "ranx",
               "trec_eval_py-arrow": "pyarrow", "trec_eval_py-parquet": "pyarrow"}


def print_row(rows, markdown: bool) -> None:
    out = sys.stderr if markdown else sys.stdout  # (the table comes at the end)
    for label, ours, p, ca, cb, ma, mb, _note in rows:
        print(f"{label:24} {ours:22} vs {p:22} CPU {ca:6.2f}s / {cb:6.2f}s = {ca / cb:5.2f}x   "
              f"peak {ma:6.0f} / {mb:6.0f} MiB", file=out, flush=True)


if __name__ == "__main__":
    t = time.time()
    main()
    print(f"({time.time() - t:.0f} s)", file=sys.stderr)
