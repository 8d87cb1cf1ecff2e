"""Precision at multiples of R (trec_eval ``Rprec_mult``).

For a multiple ``m`` the cutoff is ``m * R`` documents, made whole by
truncating ``m * R + 0.9`` (R = relevant documents of the topic), and the
value is precision at that cutoff: relevant in the top ``k`` divided by ``k``,
ranks past the end of the ranking counting as non-relevant. Comparing low and
high multiples shows whether a run is precision or recall oriented. A cutoff
of 0 (no relevant documents) scores 0. Default multiples 0.2, 0.4, ..., 2.0.
Source: trec_eval ``m_Rprec_mult.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._interp import fraction_to_count
from ._params import FloatCutoffs

DEFAULT_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


def _rprec_mult(b, p):
    mult = np.asarray(p.values, dtype=np.float64)
    # both 9.0.8 and 10.0 truncate here (10.0 only changed the recall levels)
    cut = fraction_to_count(mult, b.num_rel, v10=False)
    cols = np.clip(cut, 1, b.width) - 1
    rel = np.take_along_axis(b.rel_so_far, cols, axis=1)
    out = np.zeros(cut.shape, dtype=np.float64)
    np.divide(rel, cut.astype(np.float64), out=out, where=cut >= 1)
    return out


Rprec_mult = Measure(
    name="Rprec_mult",
    formula=(
        r"\mathrm{Rprec\_mult}_m = \frac{\mathrm{rel}(k_m)}{k_m}, \qquad k_m = \lfloor m R + 0.9 "
        r"\rfloor\quad (0 \text{ if } k_m = 0)"
    ),
    help=(
        "Precision at multiples of R (the topic's relevant count): at cutoff m*R for each "
        "multiple m, short rankings padded with non-relevant documents. Shows whether a "
        "run does better early (precision) or late (recall). Multiples: -m Rprec_mult.0.5,1,2"
    ),
    kernel=_rprec_mult,
    params=FloatCutoffs(DEFAULT_MULTIPLES),
    nicknames=frozenset({"all_trec"}),
)
