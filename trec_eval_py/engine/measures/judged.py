"""Share of the top of the ranking that is judged (``judged``).

    judged@k = (documents among the top k with a judgment) / min(k, num_ret)

A document is judged when the qrels give it a level of 0 or more; those
missing from the qrels, and those listed with a negative level (pooled but
not judged), are not. A ranking shorter than k is measured over what it has;
an empty ranking scores 0. Useful to tell how far a run's scores can be
trusted when its documents were not in the pool. Default cutoff 10.

Source: "Judged@k" of ir_measures (S. MacAvaney, C. Macdonald, I. Ounis,
"Streamlining evaluation with ir-measures", ECIR 2022), after OpenNIR.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._params import IntCutoffs


def _judged(b, p) -> np.ndarray:
    cum = np.cumsum(b.is_judged & b.valid, axis=1)
    cols = []
    for k in p.values:
        cols.append(safe_div(cum[:, min(k, b.width) - 1], np.minimum(b.num_ret, k)))
    return np.stack(cols, axis=1)


judged = Measure(
    name="judged",
    formula=(
        r"\mathrm{judged}_k = \frac{\bigl|\{\, i \le \min(k, n) : \ell_i \ge 0 "
        r"\,\}\bigr|}{\min(k,\ n)}\quad (0 \text{ if } n = 0)"
    ),
    help=(
        "Share of the top k documents that have a judgment (level 0 or more) in the qrels, "
        "out of min(k, documents retrieved); an empty ranking scores 0. "
        "Cutoffs: -m judged.10,100 (default 10)."
    ),
    kernel=_judged,
    params=IntCutoffs((10,)),
    nicknames=frozenset({"extra"}),
    since="extra",
)
