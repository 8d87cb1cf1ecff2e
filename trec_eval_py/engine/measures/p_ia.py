"""Intent-aware precision at cutoffs (``P_IA``), as NIST's ndeval computes it
for the TREC Web track's diversity task.

Precision at ``k`` for each subtopic (intent) that has a relevant document,
averaged over those ``A`` subtopics with equal weights, i.e. the number of
(document in the top ``k``, subtopic it is relevant to) pairs over ``k A``::

    P-IA@k = 1/A sum_s |{i <= k: d_i relevant to s}| / k

A ranking shorter than ``k`` is still divided by ``k``. Parameters: cutoffs
(default 5, 10, 20, ndeval's): ``-m P_IA.5,10``.

Edge cases: a topic without any relevant document (no subtopic), an empty
ranking and a ranking without relevant documents score 0.

Sources: R. Agrawal, S. Gollapudi, A. Halverson, S. Ieong, "Diversifying
search results", WSDM 2009; ndeval 4.5 (TREC Web track 2009-2014).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._params import IntCutoffs
from .err_ia import CUTOFFS, DIVERSITY


def _p_ia(b, p):
    a = b.num_subtopics
    out = np.zeros((b.n, len(p.values)), dtype=np.float64)
    has = a > 0
    for j, k in enumerate(p.values):
        count = np.bincount(b.hit_row[b.hit_rank < k], minlength=b.n)
        # k * A is a C int product there; exact here for any cutoff a topic can have
        out[has, j] = count[has] / (float(k) * a[has])
    return out


P_IA = Measure(
    name="P_IA",
    formula=r"\mathrm{P\_IA}_k = \frac{1}{A} \sum_{s} \frac{|\{\, i \le k : d_i \in \mathcal{R}_s \,\}|}{k}",
    help=(
        "Intent-aware precision at cutoff k (ndeval's P-IA): precision at k for each subtopic "
        "with a relevant document, averaged over those subtopics. Needs -R qrels_diversity. "
        "-m P_IA.5,10 (default 5, 10, 20)."
    ),
    kernel=_p_ia,
    params=IntCutoffs(CUTOFFS),
    nicknames=frozenset({"ndeval"}),
    since="extra",
    rel_formats=DIVERSITY,
)
