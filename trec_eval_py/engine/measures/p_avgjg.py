"""Precision at cutoffs, averaged over judgment groups (trec_eval ``P_avgjg``).

For each judgment group of the topic (``-R qrels_jg``), ``P_k`` is the
number of documents in the top ``k`` relevant by that group's judgments
divided by ``k`` (ranks past the end of a short ranking count as not
relevant); the topic's value is the mean over its groups. Default cutoffs 5,
10, 15, 20, 30, 100, 200, 500, 1000. Source: trec_eval ``m_P_avgjg.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._params import IntCutoffs

DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def _p_avgjg(b, p):
    rows = b.rows
    per_row = np.stack([rows.cum_rel_at(k) / float(k) for k in p.values], axis=1)
    return b.combine(per_row)


P_avgjg = Measure(
    name="P_avgjg",
    formula=r"\mathrm{P\_avgjg}_k = \frac{1}{J} \sum_{j=1}^{J} \frac{\mathrm{rel}^{(j)}(k)}{k}",
    help=(
        "Precision at cutoffs (relevant in the top k divided by k) computed against each "
        "judgment group of the topic (-R qrels_jg) and averaged over the groups. Cutoffs: "
        "-m P_avgjg.5,10"
    ),
    kernel=_p_avgjg,
    params=IntCutoffs(DEFAULT_CUTOFFS),
    nicknames=frozenset({"qrels_jg"}),
    rel_formats=frozenset({"qrels_jg"}),
)
