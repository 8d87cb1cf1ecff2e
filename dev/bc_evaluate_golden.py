#!/usr/bin/env python3
"""Write the golden cases of the BioCreative II.5 formats under
fixtures/bc_evaluate/ from the official evaluation library, bc-evaluate 2.3.1.

Each case is a folder holding ``gold`` and ``run`` (the campaign's
tab-separated files), ``args`` (the task, ``INT``, ``IPT`` or ``ACT``, and
``all`` when bc-evaluate was given ``--all``) and ``expected``: what
``bc-evaluate -t`` printed (its tabular line). Hand-made cases cover the page's
example, articles without hits, hits for articles outside the gold standard,
swapped pairs and rankings of different lengths; ``random_*`` cases come from
a generator with fixed seeds. tests/engine/inputs/test_bc_evaluate_golden.py compares our
values with ``expected`` without the library.

bc-evaluate 2.3.1 runs on Python 2 (its first commit on GitHub, fnl/bceval,
is that release). Usage:

    BC_EVALUATE=/path/to/bc_evaluation-2.3.1 PYTHON2=python2.7 python3 dev/bc_evaluate_golden.py
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fixtures", "bc_evaluate")
TOOL = os.environ.get("BC_EVALUATE", "/tmp/bc231")
PYTHON2 = os.environ.get("PYTHON2", "python2.7").split()
TASK_FLAG = {"INT": "-n", "IPT": "-p", "ACT": "-a"}


def lines(rows) -> str:
    return "".join("\t".join(str(c) for c in r) + "\n" for r in rows)


def ranked(hits):
    """INT/IPT results: ``{doi: [item, ...]}`` in rank order -> rows with rank and
    a falling confidence."""
    rows = []
    for doi, items in hits.items():
        for k, item in enumerate(items, 1):
            item = item if isinstance(item, tuple) else (item,)
            rows.append((doi, *item, k, f"{1.0 - k / (len(items) + 1):.4f}"))
    return rows


def act_ranked(pos, neg):
    """ACT results: positives and negatives each in their own rank order."""
    rows = [(d, 1, k, f"{1.0 - k / (len(pos) + 1):.4f}") for k, d in enumerate(pos, 1)]
    rows += [(d, 0, k, f"{1.0 - k / (len(neg) + 1):.4f}") for k, d in enumerate(neg, 1)]
    return rows


CASES = {}

# the page's example (section 4.5): four correct answers, system A hits ranks 1
# and 10, system B ranks 2 and 3; a second article B misses entirely
_gold = [("10.1/a", f"P{i}") for i in range(1, 5)] + [("10.1/b", "Q1"), ("10.1/b", "Q2")]
CASES["page_example_a"] = ("INT", _gold, ranked({"10.1/a": ["P1"] + [f"X{i}" for i in range(8)] + ["P2"]}))
CASES["page_example_b"] = ("INT", _gold, ranked({"10.1/a": ["X0", "P3", "P1"] + [f"X{i}" for i in range(1, 8)]}))
# an article without hits, one outside the gold standard, one whose hits are all wrong
CASES["int_mixed"] = ("INT",
                      [("d1", "P1"), ("d1", "P2"), ("d1", "P3"), ("d2", "Q1"), ("d2", "Q2"), ("d3", "R1"),
                       ("d4", "S1")],
                      ranked({"d1": ["P2", "X", "P1"], "d2": ["Y", "Q2"], "d9": ["Z"], "d4": ["W1", "W2"]}))
# rankings of very different lengths: the micro walk runs out of short ones
CASES["int_lengths"] = ("INT",
                        [("a", f"G{i}") for i in range(6)] + [("b", "H1")] + [("c", "K1"), ("c", "K2")],
                        ranked({"a": ["N1", "G0", "N2", "N3", "G4", "N4", "N5", "G2", "N6", "G5"],
                                "b": ["H1"], "c": ["N1", "N2", "N3", "K2"]}))
# pairs given in either order, in the gold standard and in the results
CASES["ipt_swapped"] = ("IPT",
                        [("d1", "P1", "P2"), ("d1", "P3", "P1"), ("d2", "Q1", "Q2"), ("d3", "R1", "R2")],
                        ranked({"d1": [("P2", "P1"), ("P1", "P4"), ("P1", "P3")], "d2": [("Q3", "Q1")]}))
CASES["act_simple"] = ("ACT",
                       [("a1", 1), ("a2", 0), ("a3", 1), ("a4", 0), ("a5", 1), ("a6", 0), ("a7", 0)],
                       act_ranked(["a3", "a2", "a5"], ["a6", "a1", "a4", "a7"]))
# articles outside the gold standard: bc-evaluate leaves them out of the ranking
CASES["act_outside_gold"] = ("ACT", [("a1", 1), ("a2", 0), ("a3", 1), ("a4", 0)],
                             act_ranked(["x1", "a1", "x2", "a4"], ["a2", "x3", "a3"]))


def random_protein_case(rng: random.Random, task: str):
    n_art = rng.randint(1, 6)
    gold, hits = [], {}
    for a in range(n_art):
        doi = f"10.{rng.randint(1000, 9999)}/art{a}"
        pool = [f"P{k:02d}" for k in range(rng.randint(3, 12))]
        if task == "IPT":
            pairs = sorted({tuple(rng.sample(pool, 2)) for _ in range(rng.randint(1, 8))})
            uniq = []
            for p in pairs:  # one pair, whatever its order
                if (p[1], p[0]) not in uniq and p not in uniq:
                    uniq.append(p)
            truth = uniq[: rng.randint(1, len(uniq))]
            others = [p for p in uniq if p not in truth]
            gold += [(doi, *(p if rng.random() < 0.5 else p[::-1])) for p in truth]
            candidates = truth + others + [(f"N{k}", f"M{k}") for k in range(rng.randint(0, 6))]
        else:
            truth = rng.sample(pool, rng.randint(1, min(5, len(pool))))
            gold += [(doi, t) for t in truth]
            candidates = pool + [f"N{k}" for k in range(rng.randint(0, 6))]
        if rng.random() < 0.8:  # some articles get no hits
            got = rng.sample(candidates, rng.randint(1, len(candidates)))
            if task == "IPT":
                got = [p if rng.random() < 0.5 else p[::-1] for p in got]
            hits[doi] = got
    if rng.random() < 0.4:  # hits for an article outside the gold standard
        hits["10.0/outside"] = ["P01", "P02"] if task == "INT" else [("P01", "P02")]
    if not any(d in {g[0] for g in gold} for d in hits):  # bc-evaluate needs one evaluated article
        doi = gold[0][0]
        hits[doi] = [tuple(gold[0][1:])] if task == "IPT" else [gold[0][1]]
    rng.shuffle(gold)
    return task, gold, ranked(hits)


def random_act_case(rng: random.Random):
    arts = [f"10.5/{k}" for k in range(rng.randint(2, 25))]
    gold = [(a, rng.randint(0, 1)) for a in arts]
    if not any(c for _, c in gold):
        gold[0] = (gold[0][0], 1)
    said = {a: rng.randint(0, 1) for a in arts}
    pos = [a for a in arts if said[a]]
    neg = [a for a in arts if not said[a]]
    rng.shuffle(pos)
    rng.shuffle(neg)
    return "ACT", gold, act_ranked(pos, neg)


for i in range(1, 13):
    CASES[f"random_int_{i:02d}"] = random_protein_case(random.Random(100 + i), "INT")
for i in range(1, 9):
    CASES[f"random_ipt_{i:02d}"] = random_protein_case(random.Random(200 + i), "IPT")
for i in range(1, 7):
    CASES[f"random_act_{i:02d}"] = random_act_case(random.Random(300 + i))


def bc_evaluate(task: str, every: bool, gold_path: str, run_path: str) -> str:
    cmd = [*PYTHON2, os.path.join(TOOL, "bc-evaluate"), TASK_FLAG[task], "-t"]
    if every:
        cmd.append("--all")
    env = dict(os.environ, PYTHONPATH=TOOL)
    done = subprocess.run(cmd + [run_path, gold_path], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        sys.exit(f"bc-evaluate failed on {run_path}: {done.stderr}")
    return done.stdout


def main() -> None:
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    for name, (task, gold, run) in CASES.items():
        modes = (False,) if task == "ACT" else (False, True)  # bc-evaluate forces --all on ACT
        for every in modes:
            case = os.path.join(OUT, name + ("_all" if every else ""))
            os.makedirs(case)
            with open(os.path.join(case, "gold"), "w") as f:
                f.write(lines(gold))
            with open(os.path.join(case, "run"), "w") as f:
                f.write(lines(run))
            with open(os.path.join(case, "args"), "w") as f:
                f.write(task + (" all" if every else "") + "\n")
            out = bc_evaluate(task, every, os.path.join(case, "gold"), os.path.join(case, "run"))
            with open(os.path.join(case, "expected"), "w") as f:
                f.write(out)
    print(f"wrote {len(os.listdir(OUT))} cases under {OUT}")


if __name__ == "__main__":
    main()
