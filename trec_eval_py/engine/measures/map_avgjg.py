"""Mean average precision over judgment groups (trec_eval ``map_avgjg``).

With ``-R qrels_jg`` a topic may have several judgment groups (sets of
judgments, e.g. one per assessor). Average precision is computed against
each group as for ``map`` (precision at each relevant retrieved document,
summed in rank order, divided by the group's relevant count), the topic's
value is the mean over its groups (groups without a relevant retrieved
document add 0), and the summary is the mean over topics. With one group it
equals ``map``. Source: trec_eval ``m_map_avgjg.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from .map import average_precision

map_avgjg = Measure(
    name="map_avgjg",
    formula=(
        r"\mathrm{map\_avgjg} = \frac{1}{J} \sum_{j=1}^{J} \frac{1}{R^{(j)}} \sum_{i=1}^{n} "
        r"\mathrm{rel}^{(j)}_i \, \frac{\mathrm{rel}^{(j)}(i)}{i}\quad (\text{a group without relevant "
        r"documents adds } 0)"
    ),
    help=(
        "Mean average precision where each topic's average precision is itself averaged over "
        "the topic's judgment groups (-R qrels_jg): computed against each group's judgments "
        "as for map, then the mean over groups. Same as map with a single group."
    ),
    kernel=lambda b, p: b.combine(np.where(b.rows.num_rel_ret > 0, average_precision(b.rows), 0.0)),
    nicknames=frozenset({"qrels_jg"}),
    rel_formats=frozenset({"qrels_jg"}),
)
