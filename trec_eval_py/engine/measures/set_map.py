"""Unranked set average precision (trec_eval ``set_map``).

Treats the retrieved set as unordered: every relevant document retrieved gets
the set precision, every relevant document missed gets 0, so the value is
``rel_ret**2 / (retrieved * R)`` (set precision times set recall). 0 when
nothing is retrieved or the topic has no relevant documents. The summary is
the arithmetic mean.

Source: trec_eval ``m_set_map.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._set_counts import num_rel, num_rel_ret


def _set_map(b, p) -> np.ndarray:
    rr = num_rel_ret(b).astype(np.float64)
    ret = b.num_ret.astype(np.float64)
    rel = num_rel(b).astype(np.float64)
    den = ret * rel  # zero exactly when either count is zero
    return safe_div(rr * rr, den)


set_map = Measure(
    name="set_map",
    formula=r"\mathrm{set\_map} = \frac{\mathrm{rel}(n)^2}{n R}\quad (0 \text{ if } n = 0 \text{ or } R = 0)",
    help=(
        "Unranked average precision of the retrieved set: relevant retrieved squared / "
        "(retrieved x relevant), i.e. set precision times set recall. 0 if either count is 0."
    ),
    kernel=_set_map,
    nicknames=frozenset({"all_trec", "set"}),
)
