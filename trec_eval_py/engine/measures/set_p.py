"""Set precision (trec_eval ``set_P``).

Relevant documents retrieved divided by documents retrieved, over the whole
ranking after ``-M``/``-J`` (no padding to a cutoff, unlike ``P``). A topic
with nothing retrieved scores 0. The summary is the arithmetic mean.

Source: trec_eval ``m_set_P.c``.
"""
from __future__ import annotations

from ._base import Measure, safe_div
from ._set_counts import num_rel_ret

set_P = Measure(
    name="set_P",
    formula=r"\mathrm{set\_P} = \frac{\mathrm{rel}(n)}{n}\quad (0 \text{ if } n = 0)",
    help=(
        "Set precision: relevant retrieved / retrieved, over everything retrieved for the topic "
        "(0 when nothing is retrieved). Unlike P.k, short rankings are not padded."
    ),
    kernel=lambda b, p: safe_div(num_rel_ret(b), b.num_ret),
    nicknames=frozenset({"all_trec", "set"}),
)
