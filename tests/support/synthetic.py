"""Synthetic collections for the tools' tests."""
from __future__ import annotations

import numpy as np


def write_collection(tmp_path, n_topics=30, n_runs=3, seed=0, drop=()):
    """A synthetic qrels and runs; run k is a little better than run 0 as k grows.
    ``drop`` lists (run index, topic index) pairs left out of a run."""
    rng = np.random.default_rng(seed)
    qrels = []
    rel = {}
    for t in range(n_topics):
        for d in range(40):
            level = int(rng.random() < 0.25) + int(rng.random() < 0.1)
            rel[t, d] = level
            qrels.append(f"T{t} 0 D{d} {level}\n")
    (tmp_path / "qrels").write_text("".join(qrels))
    paths = []
    for k in range(n_runs):
        lines = []
        for t in range(n_topics):
            if (k, t) in drop:
                continue
            for d in range(40):
                score = rng.normal() + (0.4 * k) * (rel[t, d] > 0)
                lines.append(f"T{t} Q0 D{d} 0 {score:.6f} sys{k}\n")
        p = tmp_path / f"run{k}"
        p.write_text("".join(lines))
        paths.append(str(p))
    return str(tmp_path / "qrels"), paths
