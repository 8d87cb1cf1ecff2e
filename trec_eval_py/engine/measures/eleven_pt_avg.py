"""Average interpolated precision over recall levels (trec_eval ``11pt_avg``).

The mean of the interpolated precisions (see :mod:`.iprec_at_recall`) at the
given recall levels, by default the eleven levels 0.0, 0.1, ..., 1.0. An old
summary of the recall-precision curve, kept for comparing with old runs.

The levels are parameters, not cutoffs: they keep the order typed, may repeat,
and the printed name carries them as typed (``11pt_avg_.25,.5,.75``). trec_eval
walks the levels from the last one typed to the first while it walks the
ranking upwards; a level it cannot match in that walk (levels out of order)
takes the value of the whole walk, the best precision from the first relevant
document on. We replay that walk so any order gives trec_eval's number. The
values are added from the last level to the first, then divided by the number
of levels. Source: trec_eval ``m_11pt_avg.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._interp import interpolated_precision_at_counts, recall_counts
from ._params import FloatParams

DEFAULT_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def level_values(b, levels) -> np.ndarray:
    """float64 (n, k): the interpolated precision trec_eval's walk gives each level."""
    counts = recall_counts(b, levels)
    nrr = b.num_rel_ret
    k = counts.shape[1]
    # Replay the walk: the levels beyond what was retrieved at the end are
    # skipped (0); then each level matches if it is a positive count no larger
    # than the previous match; the first that does not match, and every level
    # before it, gets the walk's final value (that of a count of 0).
    effective = np.zeros_like(counts)
    skipping = np.ones(b.n, dtype=bool)
    stuck = np.zeros(b.n, dtype=bool)
    floor = nrr.copy()
    for j in range(k - 1, -1, -1):
        c = counts[:, j]
        skipping &= c > nrr
        matches = ~skipping & ~stuck & (c >= 1) & (c <= floor)
        stuck |= ~skipping & ~matches
        effective[:, j] = np.where(skipping, c, np.where(matches, c, 0))
        floor = np.where(matches, c, floor)
    return interpolated_precision_at_counts(b, effective)


def _eleven_pt(b, p):
    vals = level_values(b, p.values)
    # added last level first, as trec_eval does
    return b.seq_sum(vals[:, ::-1]) / float(len(p.values))


eleven_pt_avg = Measure(
    name="11pt_avg",
    formula=(
        r"\mathrm{11pt\_avg} = \frac{1}{L} \sum_{l=1}^{L} \mathrm{iprec\_at\_recall}_{x_l}, \qquad x = "
        r"(0, 0.1, \ldots, 1) \text{ by default}"
    ),
    help=(
        "Interpolated precision averaged over recall levels, by default the 11 levels "
        "0, 0.1, ..., 1 (see iprec_at_recall). Obsolete; map estimates the same area. "
        "Levels: -m 11pt_avg.0.2,0.5,0.8 (the printed name then carries them)."
    ),
    kernel=_eleven_pt,
    params=FloatParams(DEFAULT_LEVELS),
    nicknames=frozenset({"all_trec"}),
)
