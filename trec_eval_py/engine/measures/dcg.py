"""Discounted cumulative gain and its ideal value (trec_eval 10.0 ``dcg``, ``ideal_dcg``).

``dcg`` is the unnormalized numerator of :mod:`.ndcg`: the sum over ranks of
``gain / log2(rank + 1)``. ``ideal_dcg`` is the same sum for the ideal
ranking built from the topic's qrels (documents by decreasing gain, stopping
at the first non-positive gain). Gains and their ``level=gain`` parameters
work exactly as for ``ndcg``. An empty ranking has dcg 0; a topic with no
positive gain has ideal_dcg 0. Summary: mean over topics. Neither is part of
any nickname. Source: trec_eval 10.0 ``m_ndcg.c``.
"""
from __future__ import annotations

from ._base import Measure
from ._params import PairParams
from .ndcg import dcg_parts

DCG = Measure(
    name="dcg",
    formula=r"\mathrm{dcg} = \sum_{i=1}^{n} \frac{g_i}{\log_2(i + 1)}",
    help=(
        "Discounted cumulative gain: sum over the ranking of gain/log2(rank+1), not "
        "normalized. Gains as for ndcg (-m dcg.1=3,2=9 overrides levels)."
    ),
    kernel=lambda b, p: dcg_parts(b, p)[0],
    params=PairParams(),
    since="10.0",
)

IDEAL_DCG = Measure(
    name="ideal_dcg",
    formula=(
        r"\mathrm{ideal\_dcg} = \sum_{i=1}^{R^+} \frac{g^*_i}{\log_2(i + 1)}, \qquad g^*_1 \ge g^*_2 \ge "
        r"\cdots \ge g^*_{R^+} > 0"
    ),
    help=(
        "Ideal discounted cumulative gain: the dcg of the best possible ranking of the "
        "topic's judged documents (the normalizer of ndcg). Gains as for ndcg."
    ),
    kernel=lambda b, p: dcg_parts(b, p)[1],
    params=PairParams(),
    since="10.0",
)
