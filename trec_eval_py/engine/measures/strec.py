"""Subtopic recall at cutoffs (``strec``), as NIST's ndeval computes it for
the TREC Web track's diversity task.

The share of the topic's subtopics (those ``A`` with a relevant document)
that at least one of the top ``k`` documents is relevant to::

    strec@k = |{s: some d_i, i <= k, is relevant to s}| / A

Parameters: cutoffs (default 5, 10, 20, ndeval's): ``-m strec.5,10``.

Edge cases: a topic without any relevant document (no subtopic), an empty
ranking and a ranking without relevant documents score 0.

Source: C. Zhai, W. W. Cohen, J. Lafferty, "Beyond independent relevance:
methods and evaluation metrics for subtopic retrieval", SIGIR 2003 (S-recall);
ndeval 4.5 (TREC Web track 2009-2014).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._diversity import first_hits
from ._params import IntCutoffs
from .err_ia import CUTOFFS, DIVERSITY


def _strec(b, p):
    a = b.num_subtopics
    out = np.zeros((b.n, len(p.values)), dtype=np.float64)
    row, _, rank, group = first_hits(b)
    sizes = np.bincount(group) if len(group) else np.zeros(0, dtype=np.int64)
    first = np.cumsum(sizes) - sizes
    has = a > 0
    for j, k in enumerate(p.values):
        covered = np.bincount(row[first][rank[first] < k], minlength=b.n)
        out[has, j] = covered[has] / a[has].astype(np.float64)
    return out


strec = Measure(
    name="strec",
    formula=r"\mathrm{strec}_k = \frac{|\{\, s : \exists\, i \le k,\ d_i \in \mathcal{R}_s \,\}|}{A}",
    help=(
        "Subtopic recall at cutoff k (ndeval's strec): the share of the subtopics with a relevant "
        "document that the top k cover. Needs -R qrels_diversity. -m strec.5,10 (default 5, 10, 20)."
    ),
    kernel=_strec,
    params=IntCutoffs(CUTOFFS),
    nicknames=frozenset({"ndeval"}),
    since="extra",
    rel_formats=DIVERSITY,
)
