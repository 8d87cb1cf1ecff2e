"""Precision at multiples of R, averaged over judgment groups (trec_eval
``Rprec_mult_avgjg``).

For each judgment group of the topic (``-R qrels_jg``) and multiple ``m``,
the cutoff is ``m * R`` made whole by truncating ``m * R + 0.9`` (R = the
group's relevant documents) and the value is precision at that cutoff, ranks
past the end of the ranking counting as not relevant; a cutoff of 0 scores
0. The topic's value is the mean over its groups. Default multiples 0.2,
0.4, ..., 2.0. Source: trec_eval ``m_Rprec_mult_avgjg.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._interp import fraction_to_count
from ._params import FloatCutoffs

DEFAULT_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)


def _rprec_mult_avgjg(b, p):
    rows = b.rows
    mult = np.asarray(p.values, dtype=np.float64)
    cut = fraction_to_count(mult, rows.num_rel, v10=False)
    cols = np.clip(cut, 1, rows.width) - 1
    rel = np.take_along_axis(rows.cum_rel, cols, axis=1)
    per_row = np.zeros(cut.shape, dtype=np.float64)
    np.divide(rel, cut.astype(np.float64), out=per_row, where=cut >= 1)
    return b.combine(per_row)


Rprec_mult_avgjg = Measure(
    name="Rprec_mult_avgjg",
    formula=(
        r"\mathrm{Rprec\_mult\_avgjg}_m = \frac{1}{J} \sum_{j=1}^{J} "
        r"\frac{\mathrm{rel}^{(j)}(k^{(j)}_m)}{k^{(j)}_m}, \qquad k^{(j)}_m = \lfloor m R^{(j)} + 0.9 "
        r"\rfloor\quad (\text{a term is } 0 \text{ if } k^{(j)}_m = 0)"
    ),
    help=(
        "Precision at multiples of R (cutoff m*R for each multiple m, R = relevant documents) "
        "computed against each judgment group of the topic (-R qrels_jg) and averaged over "
        "the groups. Multiples: -m Rprec_mult_avgjg.0.5,1,2"
    ),
    kernel=_rprec_mult_avgjg,
    params=FloatCutoffs(DEFAULT_MULTIPLES),
    nicknames=frozenset({"qrels_jg"}),
    rel_formats=frozenset({"qrels_jg"}),
)
