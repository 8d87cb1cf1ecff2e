"""Intent-aware mean average precision (``MAP_IA``), as NIST's ndeval computes
it for the TREC Web track's diversity task.

The average precision of the ranking for each subtopic (intent) that has a
relevant document, its relevant documents being those relevant to that
subtopic, averaged over those ``A`` subtopics with equal weights::

    MAP-IA = 1/A sum_s 1/R_s sum_{i: d_i relevant to s} |{j <= i: d_j relevant to s}| / i

``R_s`` is the number of documents relevant to subtopic ``s`` in the
judgments. No parameters (``alpha`` plays no part).

Edge cases: a topic without any relevant document (no subtopic), an empty
ranking and a ranking without relevant documents score 0.

Sources: R. Agrawal, S. Gollapudi, A. Halverson, S. Ieong, "Diversifying
search results", WSDM 2009 (intent-aware measures); ndeval 4.5 (TREC Web
track 2009-2014).
"""
from __future__ import annotations

import numpy as np

from ..join.batch import TopicBatch
from ._base import Measure
from ._diversity import _pad_sums, first_hits
from .err_ia import DIVERSITY


def _map_ia(b, p):
    out = np.zeros(b.n, dtype=np.float64)
    if len(b.hit_row) == 0:
        return out
    row, sub, rank, group = first_hits(b)
    sizes = np.bincount(group)
    seen = np.arange(1, len(group) + 1) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    totals = _pad_sums(group, seen / (rank + 1.0), len(sizes))
    first = np.cumsum(sizes) - sizes
    per_sub = np.zeros((b.n, b.max_subtopics), dtype=np.float64)
    gr, gs = row[first], sub[first]
    per_sub[gr, gs] = totals / b.sub_num_rel[gr, gs]
    total = TopicBatch.seq_sum(per_sub)
    a = b.num_subtopics
    has = a > 0
    out[has] = total[has] / a[has]
    return out


MAP_IA = Measure(
    name="MAP_IA",
    formula=(
        r"\mathrm{MAP\_IA} = \frac{1}{A} \sum_{s} \frac{1}{R_s} \sum_{i:\, d_i \in \mathcal{R}_s} "
        r"\frac{|\{\, j \le i : d_j \in \mathcal{R}_s \,\}|}{i}"
    ),
    help=(
        "Intent-aware average precision (ndeval's MAP-IA): the average precision for each "
        "subtopic with a relevant document, averaged over those subtopics. Needs -R qrels_diversity."
    ),
    kernel=_map_ia,
    nicknames=frozenset({"ndeval"}),
    since="extra",
    rel_formats=DIVERSITY,
)
