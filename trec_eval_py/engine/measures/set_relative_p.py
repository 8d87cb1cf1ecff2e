"""Relative set precision (trec_eval ``set_relative_P``).

Relevant documents retrieved divided by the most that could have been
retrieved in a set of this size, ``min(retrieved, R)``. 0 when nothing is
retrieved or the topic has no relevant documents. The summary is the
arithmetic mean.

Source: trec_eval ``m_set_rel_P.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._set_counts import num_rel, num_rel_ret

set_relative_P = Measure(
    name="set_relative_P",
    formula=(
        r"\mathrm{set\_relative\_P} = \frac{\mathrm{rel}(n)}{\min(n,\ R)}\quad (0 \text{ if } n = 0 "
        r"\text{ or } R = 0)"
    ),
    help=(
        "Relative set precision: relevant retrieved / min(retrieved, relevant), i.e. precision "
        "relative to the best possible for a set of that size. 0 if either is 0."
    ),
    kernel=lambda b, p: safe_div(num_rel_ret(b), np.minimum(b.num_ret, num_rel(b))),
    nicknames=frozenset({"all_trec", "set"}),
)
