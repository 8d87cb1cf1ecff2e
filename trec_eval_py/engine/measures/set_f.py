"""Set F measure (trec_eval ``set_F``).

Weighted harmonic mean of set precision P and set recall R:
``(x + 1) * P * R / (x * P + R)``, where ``x`` (``-m set_F.x``, default 1)
weighs recall against precision. 0 when no relevant document is retrieved.
With a parameter the printed name carries it as typed (``set_F_0.5``).
Only the first parameter is used. The summary is the arithmetic mean.

Source: trec_eval ``m_set_F.c`` (a variant of van Rijsbergen's E measure).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._params import FloatParams
from ._set_counts import num_rel, num_rel_ret


def _set_f(b, p) -> np.ndarray:
    x = p.values[0]
    rr = num_rel_ret(b)
    hit = rr > 0
    # rr > 0 implies retrieved > 0 and R > 0, so the masked divisions are safe
    ret = np.where(hit, b.num_ret, 1).astype(np.float64)
    rel = np.where(hit, num_rel(b), 1).astype(np.float64)
    P = rr / ret
    R = rr / rel
    f = (x + 1.0) * P * R / (x * P + R)
    return np.where(hit, f, 0.0)


set_F = Measure(
    name="set_F",
    formula=(
        r"\mathrm{set\_F}_x = \frac{(x + 1)\, P\, \rho}{x P + \rho}, \qquad P = "
        r"\frac{\mathrm{rel}(n)}{n},\quad \rho = \frac{\mathrm{rel}(n)}{R}\quad (0 \text{ if } "
        r"\mathrm{rel}(n) = 0)"
    ),
    help=(
        "Set F: weighted harmonic mean (x+1)PR/(xP+R) of set precision P and set recall R; "
        "x (default 1) is the weight of recall relative to precision: -m set_F.0.5. "
        "0 when nothing relevant is retrieved."
    ),
    kernel=_set_f,
    params=FloatParams((1.0,)),
    nicknames=frozenset({"all_trec", "set"}),
)
