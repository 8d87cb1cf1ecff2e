"""Writes the example collection of docs/guide/agreement.md (deterministic).

A small test collection: 25 topics, 300 documents judged per topic by a
primary assessor (levels 0, 1, 2), a second assessor who re-judged 20 of the
topics (stricter on the middle level, and missing a few documents), a third
who judged 8 of those topics, and 12 runs of varying quality. Run with
``python3 make_example.py`` in this folder.
"""
from __future__ import annotations

import os

import numpy as np

TOPICS = [str(t) for t in range(401, 426)]
DOCS = 300
RUNS = 12
DEPTH = 50


def main() -> None:
    rng = np.random.default_rng(2024)
    here = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(os.path.join(here, "runs"), exist_ok=True)
    truth = {}
    for t in TOPICS:
        # a latent grade per document: most are not relevant
        truth[t] = rng.choice([0, 1, 2], size=DOCS, p=[0.78, 0.15, 0.07])
    primary, secondary, jg = [], [], []
    for k, t in enumerate(TOPICS):
        g = truth[t]
        a = np.where(rng.random(DOCS) < 0.08, rng.integers(0, 3, DOCS), g)  # assessor A: a little noise
        # assessor B: stricter (a 1 is often a 0), noisier on the top level
        b = np.where((g == 1) & (rng.random(DOCS) < 0.35), 0, g)
        b = np.where((g == 2) & (rng.random(DOCS) < 0.25), 1, b)
        b = np.where(rng.random(DOCS) < 0.06, rng.integers(0, 3, DOCS), b)
        c = np.where(rng.random(DOCS) < 0.12, rng.integers(0, 3, DOCS), g)  # assessor C
        for d in range(DOCS):
            doc = f"DOC-{t}-{d:03d}"
            primary.append(f"{t} 0 {doc} {a[d]}\n")
            jg.append(f"{t} primary {doc} {a[d]}\n")
            # the second assessor re-judged topics 401-420 and skipped a few documents
            if k < 20 and rng.random() > 0.02:
                secondary.append(f"{t} 0 {doc} {b[d]}\n")
                jg.append(f"{t} secondary {doc} {b[d]}\n")
            if k < 8:
                jg.append(f"{t} third {doc} {c[d]}\n")
    with open(os.path.join(here, "qrels.primary"), "w") as f:
        f.writelines(primary)
    with open(os.path.join(here, "qrels.secondary"), "w") as f:
        f.writelines(secondary)
    with open(os.path.join(here, "qrels.assessors"), "w") as f:
        f.writelines(sorted(jg, key=lambda s: (s.split()[0], s.split()[1], s.split()[2])))
    for r in range(RUNS):
        skill = 0.5 + 0.06 * r + rng.normal(0, 0.06)
        name = f"run{r + 1:02d}"
        lines = []
        for t in TOPICS:
            score = skill * truth[t] + rng.normal(0, 1.0, DOCS)
            order = np.argsort(-score, kind="stable")[:DEPTH]
            for rank, d in enumerate(order.tolist(), 1):
                lines.append(f"{t} Q0 DOC-{t}-{d:03d} {rank} {score[d]:.4f} {name}\n")
        with open(os.path.join(here, "runs", f"{name}.run"), "w") as f:
            f.writelines(lines)


if __name__ == "__main__":
    main()
