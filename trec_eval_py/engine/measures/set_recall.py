"""Set recall (trec_eval ``set_recall``).

Relevant documents retrieved divided by the relevant documents in the qrels,
over the whole ranking after ``-M``/``-J``. 0 for a topic without relevant
documents. The summary is the arithmetic mean.

Source: trec_eval ``m_set_recall.c``.
"""
from __future__ import annotations

from ._base import Measure, safe_div
from ._set_counts import num_rel, num_rel_ret

set_recall = Measure(
    name="set_recall",
    formula=r"\mathrm{set\_recall} = \frac{\mathrm{rel}(n)}{R}\quad (0 \text{ if } R = 0)",
    help="Set recall: relevant retrieved / relevant in the judgments (0 when there are none).",
    kernel=lambda b, p: safe_div(num_rel_ret(b), num_rel(b)),
    nicknames=frozenset({"all_trec", "set"}),
)
