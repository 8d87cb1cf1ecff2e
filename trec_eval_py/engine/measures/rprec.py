"""R-precision (trec_eval ``Rprec``).

Precision after R documents, R being the number of relevant documents of the
topic: relevant documents in the top R divided by R. At that cutoff precision
equals recall. A ranking shorter than R is counted up to its end (still
divided by R). Topics without relevant documents, or with nothing retrieved,
score 0. Source: trec_eval ``m_Rprec.c``; Buckley and Voorhees, "Retrieval
System Evaluation", in TREC: Experiment and Evaluation in IR (2005).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div


def _rprec(b, p):
    look = np.minimum(b.num_ret, b.num_rel)
    cols = np.clip(look, 1, b.width)[:, None] - 1
    rel = np.take_along_axis(b.cum_rel, cols, axis=1)[:, 0]
    return np.where(look > 0, safe_div(rel, b.num_rel), 0.0)


Rprec = Measure(
    name="Rprec",
    formula=(
        r"\mathrm{Rprec} = \frac{\mathrm{rel}(\min(R,\ n))}{R}\quad (0 \text{ if } R = 0 \text{ or } n = "
        r"0)"
    ),
    help=(
        "R-precision: relevant documents among the top R divided by R, where R is the "
        "topic's number of relevant documents (the point where precision equals recall). "
        "0 when the topic has no relevant documents or nothing was retrieved."
    ),
    kernel=_rprec,
    nicknames=frozenset({"official", "all_trec"}),
)
