"""Run-level bookkeeping: run id, number of topics, and document counts.

These are trec_eval's ``runid``, ``num_q``, ``num_ret``, ``num_rel`` and
``num_rel_ret``. The counts are summed (not averaged) over topics.

Source: trec_eval ``m_runid.c``, ``m_num_q.c``, ``m_num_ret.c``,
``m_num_rel.c``, ``m_num_rel_ret.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Agg, Kind, Measure, SummaryFold

_BASIC = frozenset({"official", "all_trec", "set", "all_prefs", "prefs", "qrels_jg"})
_TREC = frozenset({"official", "all_trec", "set"})

runid = Measure(
    name="runid",
    formula=r"\mathrm{runid} = \text{the run's name (sixth field of the results' last line)}",
    help="The run's name: the sixth field of the run file's last line. Summary only.",
    kernel=lambda b, p: np.zeros(b.n),
    kind=Kind.STR,
    aggregate=Agg.RUNID,
    per_topic=False,
    nicknames=_BASIC,
    rel_formats=None,
)

num_q = Measure(
    name="num_q",
    formula=(
        r"\mathrm{num\_q} = |Q|, \qquad Q = \text{the topics averaged over (with } \texttt{-c}\text{: "
        r"every judged topic)}"
    ),
    help=(
        "Number of topics evaluated: those with both judgments and results, or with -c "
        "every topic of the judgments. Summary only."
    ),
    kernel=lambda b, p: np.zeros(b.n),
    kind=Kind.INT,
    aggregate=Agg.NUM_Q,
    per_topic=False,
    nicknames=_BASIC,
    rel_formats=None,
)

num_ret = Measure(
    name="num_ret",
    formula=r"\mathrm{num\_ret} = \sum_{q \in Q} n_q",
    help="Number of documents retrieved for the topic (after -M and -J). Summed over topics.",
    kernel=lambda b, p: b.num_ret,
    kind=Kind.INT,
    aggregate=Agg.SUM,
    nicknames=_TREC,
)

def _num_rel_summary(values, info):
    # With -c trec_eval's total counts every judgment of level >= 1 in the
    # qrels, whatever -l says (observed in both 9.0.8 and 10.0).
    if info.complete:
        return info.num_positive_judgments
    return info.of(Agg.SUM, values)


def _num_rel_finish(total, info):
    # the fold of _num_rel_summary: the aggregate's total, or under -c the qrels' count
    return info.num_positive_judgments if info.complete else total


num_rel = Measure(
    name="num_rel",
    formula=r"\mathrm{num\_rel} = \sum_{q \in Q} R_q",
    help=(
        "Number of relevant documents in the judgments for the topic (level at least -l), "
        "retrieved or not. Summed over topics; with -c the total is instead every judgment "
        "of level 1 or more in the qrels, whatever -l is, as trec_eval reports it."
    ),
    summary=_num_rel_summary,
    fold=SummaryFold(finish=_num_rel_finish),
    kernel=lambda b, p: b.num_rel,
    kind=Kind.INT,
    aggregate=Agg.SUM,
    nicknames=_TREC,
)

num_rel_ret = Measure(
    name="num_rel_ret",
    formula=r"\mathrm{num\_rel\_ret} = \sum_{q \in Q} \mathrm{rel}_q(n_q)",
    help="Number of relevant documents retrieved. Summed over topics.",
    kernel=lambda b, p: b.num_rel_ret,
    kind=Kind.INT,
    aggregate=Agg.SUM,
    nicknames=_TREC,
)
