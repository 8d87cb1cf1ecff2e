"""Precision/recall break-even point on the interpolated curve (``bep``).

The interpolated precision/recall curve of a topic (LingPipe's
``prCurve(true)``) is a non-increasing step function: over the recall
interval (rec_{i-1}, rec_i] of the i-th retrieved relevant document (recall
i/R, rec_0 = 0) its height is ip_i, the best precision at that or any later
relevant document; drawn as a curve, consecutive steps are joined by vertical
drops. The break-even point is where this curve meets the diagonal
precision = recall, the definition of LingPipe's documentation:

* if a step's flat part crosses the diagonal (rec_{i-1} <= ip_i <= rec_i),
  ``bep = ip_i``: LingPipe's worked example, flat at 0.6 up to recall 0.75,
  gives 0.6;
* if the curve drops past the diagonal between two steps (ip_{i-1} >
  rec_{i-1} > ip_i), the vertical drop crosses it at recall rec_{i-1}, so
  ``bep = rec_{i-1}``;

which is ``max(ip_i, rec_{i-1})`` at the first relevant document with
ip_i <= rec_i. A perfect ranking touches the diagonal at (1, 1): bep = 1.
If the curve ends above the diagonal (the last point has precision above its
recall, as when relevant documents were missed) it never meets it and the
value is 0, as LingPipe documents; so it is for topics without relevant
documents. Never above ``max_F_1``: both ip_i and rec_{i-1} are reached at
an actual cut-off whose precision and recall are both at least as high.

LingPipe's code (``prBreakevenPoint``) returns the precision of the first
point whose recall is strictly above its precision, which differs from its
own definition in two cases: a curve that meets the diagonal exactly at a
point (a perfect ranking scored 0) and a drop past the diagonal (it reports
the lower step's height, a point below the diagonal). We follow the
definition.

Source: LingPipe 3.9 ``ScoredPrecisionRecallEvaluation.prBreakevenPoint``
(documentation).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from .ranked_curves import interpolated_precision_at_relevant


def breakeven(b) -> np.ndarray:
    ip = interpolated_precision_at_relevant(b)
    rec = safe_div(b.cum_rel, b.num_rel[:, None])
    # recall of the previous relevant document (0 before the first)
    prev = safe_div(b.cum_rel - b.is_rel, b.num_rel[:, None])
    cross = b.is_rel & (ip <= rec)
    first = np.argmax(cross, axis=1)
    rows = np.arange(b.n)
    hit = cross[rows, first]
    return np.where(hit, np.maximum(ip[rows, first], prev[rows, first]), 0.0)


bep = Measure(
    name="bep",
    formula=(
        r"\mathrm{bep} = \max\Bigl(\mathrm{ip}_{t^*},\ \frac{t^* - 1}{R}\Bigr), \qquad t^* = "
        r"\min\Bigl\{\, t : \mathrm{ip}_t \le \frac{t}{R} \,\Bigr\},\ \mathrm{ip}_t = \max_{u \ge t} "
        r"\frac{u}{\rho_u}\quad (0 \text{ if there is no such } t)"
    ),
    help=(
        "Precision/recall break-even point: where the interpolated precision/recall "
        "step curve meets precision = recall (LingPipe's definition). At the first retrieved "
        "relevant document whose recall is at least its interpolated precision ip, the value "
        "is max(ip, recall of the previous relevant document): the flat step or the vertical "
        "drop that crosses the diagonal. A perfect ranking scores 1; 0 if the curve ends "
        "above the diagonal or the topic has no relevant documents."
    ),
    kernel=lambda b, p: breakeven(b),
    nicknames=frozenset({"extra"}),
    since="extra",
)
