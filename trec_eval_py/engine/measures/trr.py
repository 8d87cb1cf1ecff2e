"""Total reciprocal rank (``trr``): the sum of 1/rank over the relevant
documents retrieved.

    trr = sum over retrieved relevant documents of 1 / rank

The BioCreative II.5 evaluation page discusses it beside the AUC of the
interpolated P/R curve: unlike the reciprocal rank of the first hit it rewards
every correct hit, most at the top. It is a sum, not a mean: it grows with the
number of relevant documents (at most 1 + 1/2 + ... + 1/R). Missed relevant
documents add 0; a topic without relevant documents retrieved scores 0.
Ranks are positions in the ranking (by score, or by the rank column or the
file order with ``--order``).

Source: BioCreative II.5 result evaluation page, 2009, section 4.1
("Reciprocal ranking"; its examples: the 2nd and 4th answers correct give
0.5 + 0.25 = 0.75, and section 4.5's systems score 1.1 and 0.833).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure


def _trr(b, p) -> np.ndarray:
    return b.seq_sum(np.where(b.is_rel, 1.0 / b.ranks[None, :], 0.0))


trr = Measure(
    name="trr",
    formula=r"\mathrm{trr} = \sum_{i=1}^{n} \frac{\mathrm{rel}_i}{i}",
    help=(
        "Total reciprocal rank (BioCreative II.5): the sum of 1/rank over the relevant "
        "documents retrieved; a sum, so it grows with the number of relevant documents. "
        "Topics without relevant documents retrieved score 0."
    ),
    kernel=_trr,
    nicknames=frozenset({"extra"}),
    since="extra",
)
