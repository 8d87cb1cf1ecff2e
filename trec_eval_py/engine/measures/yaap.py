"""Yet another average precision (trec_eval ``yaap``).

Robertson's smoothed variant of average precision:
``log((1 + S) / (1 + R - S))`` where S is the sum, over the relevant documents
retrieved, of the precision at each one's rank, and R the number of relevant
documents in the qrels. It grows with AP on one topic but stays finite and
symmetric at the extremes, so it averages better across topics. An empty
ranking scores ``log(1 / (1 + R))`` (0 without relevant documents). The
summary is the arithmetic mean.

Source: trec_eval ``m_yaap.c``; Robertson, "On Smoothing Average Precision",
ECIR 2012.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, c_log
from ._set_counts import num_rel


def _yaap(b, p) -> np.ndarray:
    s = b.seq_sum(np.where(b.is_rel, b.prec_at_rank, 0.0))
    rel = num_rel(b).astype(np.float64)
    ratio = (1.0 + s) / (1.0 + rel - s)
    # the C library's log, as trec_eval uses, with C's results at 0 and below
    return np.array([c_log(r) for r in ratio.tolist()], dtype=np.float64)


yaap = Measure(
    name="yaap",
    formula=(
        r"\mathrm{yaap} = \ln \frac{1 + S}{1 + R - S}, \qquad S = \sum_{i=1}^{n} \mathrm{rel}_i \, "
        r"\frac{\mathrm{rel}(i)}{i}"
    ),
    help=(
        "Yet another average precision (Robertson, ECIR 2012): log((1+S)/(1+R-S)), S the sum of "
        "precision at each relevant document retrieved, R the relevant documents judged. "
        "Monotonic with AP on one topic, better behaved when averaged. Not in any nickname."
    ),
    kernel=_yaap,
)
