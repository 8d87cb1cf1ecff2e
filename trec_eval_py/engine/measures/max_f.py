"""Best F-measure over the actual operating points (``max_F``).

At the i-th retrieved relevant document (rank r_i) precision is P = i/r_i and
recall R = i/num_rel; there

    F_beta = (1 + beta^2) P R / (beta^2 P + R)

``max_F`` is the largest such value (0 when no relevant document was
retrieved or none exists). Cutting the ranking anywhere else never does
better: a non-relevant document lowers precision and leaves recall alone.
This is a post-hoc optimal threshold, not an interpolation. Parameters:
``max_F.beta[,beta...]``, default beta 1; outputs ``max_F_1``, ``max_F_0.5``...

Source: LingPipe ``ScoredPrecisionRecallEvaluation.maximumFMeasure(beta)``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from .ranked_curves import PositiveFloats


def _max_f(b, p) -> np.ndarray:
    prec = b.prec_at_rank
    rec = safe_div(b.cum_rel, b.num_rel[:, None])
    cols = []
    for beta in p.values:
        b2 = beta * beta
        f = safe_div((1.0 + b2) * prec * rec, b2 * prec + rec)
        cols.append(np.max(np.where(b.is_rel, f, 0.0), axis=1))
    return np.stack(cols, axis=1)


max_F = Measure(
    name="max_F",
    formula=(
        r"\mathrm{max\_F}_\beta = \max_{1 \le t \le \mathrm{rel}(n)} \frac{(1 + \beta^2)\, P_t "
        r"\rho_t}{\beta^2 P_t + \rho_t}, \qquad P_t = \frac{t}{\rho'_t},\ \rho_t = \frac{t}{R}\quad "
        r"(\rho'_t \text{ the rank of the } t\text{-th relevant document retrieved; } 0 \text{ if none})"
    ),
    help=(
        "Best F_beta over the ranking's actual operating points (LingPipe "
        "maximumFMeasure): max over the retrieved relevant documents of "
        "(1+beta^2)PR/(beta^2 P+R), with P and R the precision and recall at its rank. "
        "0 when nothing relevant was retrieved. Parameters: -m max_F.0.5,1,2 (default 1)."
    ),
    kernel=_max_f,
    params=PositiveFloats((1.0,), "beta", allow_zero=True),
    nicknames=frozenset({"extra"}),
    since="extra",
)
