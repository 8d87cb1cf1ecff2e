"""Helpers for the preference / judgment-group tests: evaluate small in-memory
cases through the real pipeline, and generate random consistent inputs."""
from __future__ import annotations

import numpy as np

from trec_eval_py.engine.pipeline import evaluate


def prefs_bytes(lines) -> bytes:
    """[(qid, jg, jsg, docno, level)] as a -R prefs file."""
    return "".join(f"{q} {g} {s} {d} {lev}\n" for q, g, s, d, lev in lines).encode()


def run_bytes(run) -> bytes:
    """[(qid, docno, score)] as a run file."""
    return "".join(f"{q} Q0 {d} 0 {s!r} r\n" for q, d, s in run).encode()


def qrels_jg_bytes(qrels) -> bytes:
    return "".join(f"{q} {g} {d} {r}\n" for q, g, d, r in qrels).encode()


def eval_prefs(lines, run, measures=("all_prefs",), **opts) -> dict:
    """{qid: {measure: value}} from the pipeline, -R prefs."""
    ev = evaluate(prefs_bytes(lines), run_bytes(run), list(measures), rel_format="prefs", **opts)
    return ev.per_topic()


def eval_jg(qrels, run, measures=("qrels_jg",), **opts) -> dict:
    ev = evaluate(qrels_jg_bytes(qrels), run_bytes(run), list(measures), rel_format="qrels_jg", **opts)
    return ev.per_topic()


def one(lines, run, measure, **opts):
    """The value of ``measure`` for the single topic of a case."""
    res = eval_prefs(lines, run, [measure], **opts)
    (vals,) = res.values()
    return vals[measure]


def random_prefs_case(rng: np.random.Generator):
    """Random but consistent preference judgments and a run with ties.

    Class-list groups get random levels (0 included, sometimes a repeated
    line); groups with several sub-groups derive every sub-group's levels
    from one hidden order, so their combined preferences never contradict.
    """
    lines, run = [], []
    for t in range(int(rng.integers(1, 4))):
        q = f"q{t}"
        docs = [f"d{i}" for i in range(int(rng.integers(2, 10)))]
        for g in range(int(rng.integers(1, 4))):
            jg = f"g{g}"
            members = list(rng.choice(docs, size=int(rng.integers(1, len(docs) + 1)), replace=False))
            if rng.random() < 0.5:
                for d in members:
                    lev = float(rng.choice([0.0, 0.0, 1.0, 2.0, 3.0, 0.5]))
                    lines.append((q, jg, "s", d, lev))
                    if rng.random() < 0.1:
                        lines.append((q, jg, "s", d, lev))
            else:
                hidden = {d: float(rng.random()) for d in members}
                nonrel = {d for d in members if rng.random() < 0.3}
                for s in range(int(rng.integers(2, 4))):
                    sub = rng.choice(members, size=int(rng.integers(1, len(members) + 1)), replace=False)
                    for d in sub:
                        lev = 0.0 if d in nonrel else 1.0 + float(np.floor(hidden[d] * 3))
                        lines.append((q, jg, f"s{s}", d, lev))
        if rng.random() < 0.85:
            pool = docs + [f"x{i}" for i in range(3)]
            for d in rng.choice(pool, size=int(rng.integers(0, len(pool) + 1)), replace=False):
                run.append((q, str(d), float(rng.integers(0, 4))))
    if not run:
        run.append(("q0", "x0", 1.0))
    order = rng.permutation(len(lines))
    return [lines[i] for i in order], run


def random_jg_case(rng: np.random.Generator):
    """Random qrels_jg judgments (graded, some negative) and a run with ties."""
    qrels, run = [], []
    for t in range(int(rng.integers(1, 4))):
        q = f"t{t}"
        docs = [f"d{i}" for i in range(int(rng.integers(1, 15)))]
        for g in range(int(rng.integers(1, 4))):
            for d in rng.choice(docs, size=int(rng.integers(1, len(docs) + 1)), replace=False):
                qrels.append((q, f"j{g}", str(d), int(rng.choice([-1, 0, 0, 1, 1, 2]))))
        if rng.random() < 0.85:
            pool = docs + ["u0", "u1"]
            for d in rng.choice(pool, size=int(rng.integers(0, len(pool) + 1)), replace=False):
                run.append((q, str(d), float(rng.integers(0, 5))))
    if not run:
        run.append(("t0", "u0", 1.0))
    return qrels, run


def random_prefs_options(rng: np.random.Generator) -> dict:
    opts = {}
    if rng.random() < 0.3:
        opts["max_docs"] = int(rng.integers(1, 5))
    if rng.random() < 0.3:
        opts["complete"] = True
    return opts


def compare_with_reference(measures, seeds=range(150)):
    """Check the pipeline against tests/support/prefs_reference.py on random cases; return cases checked."""
    from support.prefs_reference import prefs_reference

    checked = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        lines, run = random_prefs_case(rng)
        opts = random_prefs_options(rng)
        ref = prefs_reference(lines, run, opts.get("max_docs"), opts.get("complete", False))
        if not ref:
            continue
        got = eval_prefs(lines, run, measures, **opts)
        assert set(got) == set(ref), seed
        for q in ref:
            for m in measures:
                assert got[q][m] == ref[q][m], (seed, q, m, got[q][m], ref[q][m])
        checked += 1
    return checked


def compare_jg_with_reference(measures, seeds=range(150)):
    """Same for the judgment-group measures; ``measures`` as -m specs."""
    from support.prefs_reference import jg_reference

    checked = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        qrels, run = random_jg_case(rng)
        opts = random_prefs_options(rng)
        if rng.random() < 0.3:
            opts["judged_only"] = True
        if rng.random() < 0.3:
            opts["relevance_level"] = 2
        ref = jg_reference(qrels, run, cutoffs=(1, 5, 10), mults=(0.2, 1.0, 1.5, 2.0),
                           level=opts.get("relevance_level", 1), max_docs=opts.get("max_docs"),
                           judged_only=opts.get("judged_only", False), complete=opts.get("complete", False))
        if not ref:
            continue
        got = eval_jg(qrels, run, measures, **opts)
        assert set(got) == set(ref), seed
        for q in ref:
            for name, value in got[q].items():
                assert value == ref[q][name], (seed, q, name, value, ref[q][name])
        checked += 1
    return checked
