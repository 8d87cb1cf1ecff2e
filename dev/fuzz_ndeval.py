#!/usr/bin/env python3
"""Differential fuzzer: ``trec_eval_py ndeval`` against NIST's ndeval binary.

For N seeded random cases it writes small subtopic qrels, a run and sometimes
a baseline run, draws an ndeval command line (``-alpha``, ``-beta``,
``-traditional``, ``-M``, ``-c``/``-a``, ``-baseline`` with ``-riskAlpha``) and
compares, byte for byte, what both print.

Verdicts:
  pass   the binary exits 0 and both print the same bytes, ours exiting 0;
         or both exit non-zero (errors are worded differently on purpose)
  fail   anything else (a traceback counts as a failure); saved under --save-dir

The cases stay within what ndeval defines (see docs/guide/diversity.md for the
deliberate differences): numeric topics (runs' sometimes with a prefix such as
``wt09-``), whole-number ranks and judgments, no blank or comment lines, no
(topic, subtopic, docno) judged twice. They do include what ndeval rejects:
a rank twice in a topic, a docno twice within the depth kept.

Usage (from the repository root; the binary from /work/shared/tools/build_ndeval.sh):
    python3 dev/fuzz_ndeval.py --cases 2000 --seed 1            # in-process (fast)
    python3 dev/fuzz_ndeval.py --cases 200 --seed 1 --cli       # one process per case
    python3 dev/fuzz_ndeval.py --replay DIR                     # a saved failure again
The last line printed is 'N passed, M failed'. A development tool: the
project and its tests never need the binary.
"""
from __future__ import annotations

import argparse
import io
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NDEVAL = os.environ.get("NDEVAL", "/tmp/ndeval/ndeval")

ALPHAS = ["0", "0.5", "1", "0.25", "0.75", "0.9", "1e-1", "0.33333", "0.999", ".1"]
BETAS = ["0", "0.5", "1", "0.2", "0.8", "0.95", "0.01", "1e-2"]
RISKS = ["0", "1", "1.0", "5", "0.5", "2.50", "1e0", "10"]
DEPTHS = ["1", "2", "3", "5", "10", "20", "25"]


def _docno(rng: random.Random, k: int) -> str:
    style = rng.random()
    if style < 0.5:
        return f"d{k}"
    if style < 0.8:
        return f"clueweb09-en{k % 7:04d}-{k % 13:02d}-{k:05d}"
    return f"D{k:03d}" + "x" * (k % 3)


def gen_case(rng: random.Random) -> tuple[str, str, str | None, list[str]]:
    """(qrels text, run text, baseline text or None, ndeval options)."""
    pool = rng.sample(range(0, 40), rng.randint(1, 7))
    qrels_topics = [t for t in pool if rng.random() < 0.85] or pool[:1]
    run_topics = [t for t in pool if rng.random() < 0.85] or pool[-1:]
    if rng.random() < 0.2:
        run_topics.append(rng.randint(40, 50))  # a topic without judgments
    spelling = {t: rng.choice([str(t), str(t), f"0{t}"]) for t in pool}
    judged: dict[int, list[str]] = {}
    lines = []
    for t in qrels_topics:
        n_sub = rng.choice([0, 1, 1, 2, 3, 3, 4, 5, 6, 9, 11])
        subs = rng.sample(range(0, 14), n_sub) if n_sub else []
        big = rng.random() < 0.08  # deep enough for NRBP's ideal to be cut where its terms vanish
        docs = [_docno(rng, k) for k in (rng.sample(range(0, 400), rng.randint(80, 250)) if big
                                         else rng.sample(range(0, 60), rng.randint(1, 18)))]
        judged[t] = docs
        p_rel = rng.choice([0.0, 0.2, 0.4, 0.7, 1.0])
        for d in docs:
            wrote = False
            for s in subs:
                x = rng.random()
                if x < p_rel:
                    lines.append(f"{spelling[t]} {s} {d} {rng.choice([1, 1, 1, 2, 3])}")
                    wrote = True
                elif x < p_rel + 0.3:
                    lines.append(f"{spelling[t]} {s} {d} 0")
                    wrote = True
            if not wrote:
                lines.append(f"{spelling[t]} {rng.choice(subs) if subs else 0} {d} 0")
    rng.shuffle(lines)
    qrels = "".join(_sep(rng, ln) + "\n" for ln in lines)

    options: list[str] = []
    traditional = rng.random() < 0.35
    depth = rng.choice(DEPTHS) if rng.random() < 0.3 else None
    for flag, values, p in (("-alpha", ALPHAS, 0.35), ("-beta", BETAS, 0.3)):
        if rng.random() < p:
            options += [flag, rng.choice(values)]
    if traditional:
        options.append("-traditional")
    if depth:
        options += ["-M", depth]
    if rng.random() < 0.3:
        options.append(rng.choice(["-c", "-c", "-ca", "-a", "-ac"]))
    run = gen_run(rng, run_topics, judged, spelling, "runA", traditional, depth)
    baseline = None
    if rng.random() < 0.35:
        base_topics = [t for t in pool if rng.random() < 0.8] or pool[:1]
        baseline = gen_run(rng, base_topics, judged, spelling, "base", traditional, depth)
        options += ["-baseline", "BASELINE"]
    if rng.random() < (0.6 if baseline else 0.1):
        options += ["-riskAlpha", rng.choice(RISKS)]
    # ndeval reads its options in any order before the files
    pairs, singles, i = [], [], 0
    while i < len(options):
        if options[i] in ("-alpha", "-beta", "-M", "-baseline", "-riskAlpha"):
            pairs.append(options[i:i + 2])
            i += 2
        else:
            singles.append([options[i]])
            i += 1
    groups = pairs + singles
    rng.shuffle(groups)
    return qrels, run, baseline, [x for g in groups for x in g]


def _sep(rng: random.Random, line: str) -> str:
    if rng.random() < 0.1:
        return line.replace(" ", "\t", 1)
    return line


def gen_run(rng, topics, judged, spelling, runid, traditional, depth) -> str:
    lines = []
    for t in topics:
        n = rng.randint(1, 30) if len(judged.get(t, [])) < 80 else rng.randint(50, 300)
        cand = list(judged.get(t, []))
        rng.shuffle(cand)
        docs: list[str] = []
        while len(docs) < n:
            d = cand.pop() if cand and rng.random() < 0.6 else _docno(rng, rng.randrange(400, 900))
            if d not in docs:
                docs.append(d)
        if rng.random() < 0.015:  # a docno twice: an error unless -M cuts it off
            docs.append(rng.choice(docs))
        n = len(docs)
        if rng.random() < 0.5:
            ranks = list(range(1, n + 1))
        else:
            ranks = sorted(rng.sample(range(0, 3 * n + 2), n))
        if rng.random() < 0.015 and n > 1:  # a rank twice: an error unless -traditional
            ranks[-1] = ranks[-2]
        score_kind = rng.random()
        scores = []
        s = 50.0
        for _ in range(n):
            if score_kind < 0.3:
                scores.append(rng.choice(["1", "2", "3", "2.5"]))
            else:
                if rng.random() > 0.2:
                    s -= rng.choice([0.5, 1.0, 0.125, 3.0])
                scores.append(f"{s:g}")
        if traditional and rng.random() < 0.5:
            rng.shuffle(scores)
        tname = spelling.get(t, str(t))
        if rng.random() < 0.3:
            tname = rng.choice(["wt09-", "wt2010-", "x-"]) + str(t)
        rows = list(zip(docs, ranks, scores))
        if rng.random() < 0.3:
            rng.shuffle(rows)
        for d, r, sc in rows:
            rid = runid if rng.random() < 0.95 else runid + "x"
            lines.append(_sep(rng, f"{tname} Q0 {d} {r} {sc} {rid}"))
    if rng.random() < 0.2:
        rng.shuffle(lines)
    return "".join(ln + "\n" for ln in lines)


def run_binary(argv: list[str]) -> tuple[int, bytes, bytes]:
    p = subprocess.run(argv, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def run_inproc(argv: list[str]) -> tuple[int, bytes, bytes]:
    from trec_eval_py.cli import main as cli_main

    out, err = io.BytesIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = err
    rc = 0
    try:
        cli_main(argv)
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Exception as e:  # noqa: BLE001 - a traceback is a failure
        rc = 98
        err.write(f"TRACEBACK {type(e).__name__}: {e}")
    finally:
        try:
            sys.stdout.flush()
            sys.stdout.detach()
        except Exception:  # noqa: BLE001
            pass
        sys.stdout, sys.stderr = old
    return rc, out.getvalue(), err.getvalue().encode()


def compare(d: str, options: list[str], cli: bool) -> tuple[bool, str, tuple, tuple]:
    opts = [os.path.join(d, "baseline") if o == "BASELINE" else o for o in options]
    files = [os.path.join(d, "qrels"), os.path.join(d, "run")]
    c = run_binary([NDEVAL] + opts + files)
    if cli:
        p = run_binary([sys.executable, "-m", "trec_eval_py", "ndeval"] + opts + files)
    else:
        p = run_inproc(["ndeval"] + opts + files)
    if c[0] < 0:
        return True, "skip-crash", c, p
    if c[0] != 0:
        return p[0] != 0 and b"TRACEBACK" not in p[2], "both-fail" if p[0] else "c-fails-only", c, p
    ok = p[0] == 0 and p[1] == c[1]
    return ok, "same" if ok else "differs", c, p


def write_case(d: str, qrels: str, run: str, baseline: str | None, options: list[str]) -> None:
    os.makedirs(d, exist_ok=True)
    for name, text in (("qrels", qrels), ("run", run), ("baseline", baseline)):
        if text is not None:
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
    with open(os.path.join(d, "args"), "w") as f:
        f.write(shlex.join(options) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cli", action="store_true", help="run 'python -m trec_eval_py ndeval' per case")
    ap.add_argument("--save-dir", default="/tmp/fuzz_ndeval")
    ap.add_argument("--replay", help="a saved case directory")
    ap.add_argument("--progress", type=int, default=0)
    a = ap.parse_args()
    if not os.path.exists(NDEVAL):
        sys.exit(f"no ndeval binary at {NDEVAL} (build it with /work/shared/tools/build_ndeval.sh)")
    sys.path.insert(0, ROOT)
    os.chdir(ROOT)
    if a.replay:
        with open(os.path.join(a.replay, "args")) as f:
            options = shlex.split(f.read())
        ok, verdict, c, p = compare(a.replay, options, a.cli)
        print(verdict, "C exit", c[0], "ours exit", p[0])
        sys.stdout.write((p[2] or b"").decode(errors="replace"))
        if not ok and c[0] == 0:
            import difflib

            sys.stdout.writelines(difflib.unified_diff(c[1].decode().splitlines(True), p[1].decode().splitlines(True),
                                                       "ndeval", "trec_eval_py"))
        return 0 if ok else 1
    rng = random.Random(a.seed)
    passed = failed = 0
    verdicts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(a.cases):
            qrels, run, baseline, options = gen_case(rng)
            d = os.path.join(tmp, "case")
            shutil.rmtree(d, ignore_errors=True)
            write_case(d, qrels, run, baseline, options)
            ok, verdict, c, p = compare(d, options, a.cli)
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
            if ok:
                passed += 1
            else:
                failed += 1
                keep = os.path.join(a.save_dir, f"seed{a.seed}_case{n}")
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(d, keep)
                with open(os.path.join(keep, "expected"), "wb") as f:
                    f.write(c[1] + b"\n--- stderr ---\n" + c[2])
                with open(os.path.join(keep, "got"), "wb") as f:
                    f.write(p[1] + b"\n--- stderr ---\n" + p[2])
                print(f"FAIL case {n} ({verdict}): {keep}")
            if a.progress and (n + 1) % a.progress == 0:
                print(f"{n + 1} cases: {passed} passed, {failed} failed", flush=True)
    print("verdicts:", ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
