"""Interpolated precision at recall levels (trec_eval ``iprec_at_recall``).

For a recall level ``r`` the topic's relevant count ``r * R`` is turned into a
whole number ``c`` of relevant documents (9.0.8 truncates ``r * R + 0.9``, 10.0
rounds; see :mod:`._interp`). The value is the best precision reached at or
after the rank where the ``c``-th relevant document was retrieved: the usual
interpolated recall-precision curve, sampled at fixed recall levels so topics
with different R can be averaged.

Edge cases, as trec_eval has them: a level whose count exceeds the relevant
documents retrieved scores 0; a count of 0 (level 0, or a small level with
few relevant documents) takes the best precision anywhere in the ranking; a
topic whose ranking is empty after -J gives 0/0 there, printed ``-nan``.
Default levels 0.0, 0.1, ..., 1.0. Source: trec_eval ``m_iprec_at_recall.c``.
"""
from __future__ import annotations

from ._base import Measure
from ._interp import interpolated_precision_at_counts, recall_counts
from ._params import FloatCutoffs

DEFAULT_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _iprec(b, p):
    counts = recall_counts(b, p.values)
    return interpolated_precision_at_counts(b, counts)


iprec_at_recall = Measure(
    name="iprec_at_recall",
    formula=(
        r"\mathrm{iprec\_at\_recall}_x = \max_{j \ge \rho_c} \frac{\mathrm{rel}(j)}{j}, \qquad c = "
        r"\begin{cases} \lfloor x R + 0.9 \rfloor & \text{9.0.8} \\ \operatorname{round}(x R) & "
        r"\text{10.0} \end{cases}\qquad (\rho_c \text{ the rank of the } c\text{-th relevant document}, "
        r"\rho_0 = 1;\ 0 \text{ if } c > \mathrm{rel}(n))"
    ),
    help=(
        "Interpolated precision at recall levels: for each level, the highest precision "
        "reached at or below the rank where that fraction of the relevant documents had "
        "been retrieved (0 if never reached). These are the points of the standard "
        "recall-precision graph. Levels: -m iprec_at_recall.0,.5,1"
    ),
    kernel=_iprec,
    params=FloatCutoffs(DEFAULT_LEVELS),
    nicknames=frozenset({"official", "all_trec"}),
)
