"""Judged non-relevant documents retrieved (trec_eval ``num_nonrel_judged_ret``).

The documents retrieved that have a judgment below the relevance level:
retrieved minus those not in the judgments, minus those pooled but left
unjudged (negative level), minus the relevant ones. A count, summed (not
averaged) over topics. Source: trec_eval ``m_num_nonrel_judged_ret.c``.
"""
from __future__ import annotations

from ._base import Agg, Kind, Measure


def _nonrel_judged(b, p):
    return b.num_ret - b.num_nonpool - b.num_unjudged_in_pool - b.num_rel_ret


num_nonrel_judged_ret = Measure(
    name="num_nonrel_judged_ret",
    formula=(
        r"\mathrm{num\_nonrel\_judged\_ret} = \sum_{q \in Q} \bigl|\{\, i \le n_q : 0 \le \ell_i < l "
        r"\,\}\bigr|"
    ),
    help=(
        "Number of retrieved documents judged non-relevant (judged, but below the "
        "relevance level). Summed over topics."
    ),
    kernel=_nonrel_judged,
    kind=Kind.INT,
    aggregate=Agg.SUM,
    nicknames=frozenset({"all_trec"}),
)
