"""Precision/recall break-even point on the interpolated curve (``bep``).

Walk the interpolated precision/recall points (one per retrieved relevant
document: recall i/R, interpolated precision ip_i = the best precision at that
or any later relevant document) in rank order; at the first point whose recall
exceeds its interpolated precision, ``bep = ip_i``. The interpolated curve is
flat at ip_i over that point's recall interval, so when the interval reaches
down to recall ip_i this is exactly where the curve meets recall = precision;
otherwise (the curve drops past the diagonal between two points) it is the
level of the step after the drop, as LingPipe computes it. If recall never
exceeds interpolated precision the curve is taken never to cross the diagonal
and the value is 0 (as in LingPipe), as it is for topics without relevant
documents. Never above ``max_F_1``: the precision ip_i is reached at a point
whose recall is at least as high.

Source: LingPipe ``ScoredPrecisionRecallEvaluation.prBreakevenPoint``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._ranked_curves import interpolated_precision


def breakeven(b) -> np.ndarray:
    ip = interpolated_precision(b)
    rec = safe_div(b.cum_rel, b.num_rel[:, None])
    cross = b.is_rel & (rec > ip)
    first = np.argmax(cross, axis=1)
    hit = cross[np.arange(b.n), first]
    return np.where(hit, ip[np.arange(b.n), first], 0.0)


bep = Measure(
    name="bep",
    help=(
        "Precision/recall break-even point of the interpolated precision/recall curve "
        "(LingPipe prBreakevenPoint): the interpolated precision at the first retrieved "
        "relevant document whose recall exceeds it; 0 if that never happens or the topic "
        "has no relevant documents."
    ),
    kernel=lambda b, p: breakeven(b),
    order=104,
    nicknames=frozenset({"extra"}),
    since="extra",
)
