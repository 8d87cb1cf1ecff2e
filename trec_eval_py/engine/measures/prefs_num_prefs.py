"""Preference counts (trec_eval ``prefs_num_prefs_poss``, ``prefs_num_prefs_ful``,
``prefs_num_prefs_ful_ret``).

Counts of the preferences "A over B" of a topic's judgment groups (see
:mod:`trec_eval_py.engine.join.prefs` for how groups, documents ids and categories
are formed), added over the groups:

* ``prefs_num_prefs_poss``: every preference, whether A and B were retrieved
  or not;
* ``prefs_num_prefs_ful``: fulfilled ones, i.e. A retrieved and ranked above
  B (B ranked lower, or not retrieved at all);
* ``prefs_num_prefs_ful_ret``: fulfilled ones with both A and B retrieved.

A preference stated by two groups counts twice. The summary line is the
total over topics, not a mean. Source: trec_eval ``m_prefs_num_prefs_*.c``.
"""
from __future__ import annotations

from ._base import Agg, Kind, Measure

_PREFS = frozenset({"prefs", "qrels_prefs"})
_NICK = frozenset({"all_prefs", "prefs"})


def _sum(b, fn):
    return b.map(lambda t: sum(fn(g) for g in t.jgs))


prefs_num_prefs_poss = Measure(
    name="prefs_num_prefs_poss",
    formula=r"\mathrm{prefs\_num\_prefs\_poss} = \sum_{j=1}^{J} |\Pi_j|",
    help=(
        "Number of preferences in the topic's judgments (added over judgment groups), "
        "whether or not the run retrieved the documents. Summary: total over topics."
    ),
    kernel=lambda b, p: _sum(b, lambda g: g.poss),
    kind=Kind.INT,
    aggregate=Agg.SUM,
    nicknames=_NICK,
    rel_formats=_PREFS,
)

prefs_num_prefs_ful = Measure(
    name="prefs_num_prefs_ful",
    formula=(
        r"\mathrm{prefs\_num\_prefs\_ful} = \sum_{j=1}^{J} \sum_{(a, b) \in \Pi_j} \phi(a, b), \qquad "
        r"\phi(a, b) = [\, a \text{ retrieved and } (b \text{ not retrieved or } \mathrm{rank}(a) < "
        r"\mathrm{rank}(b)) \,]"
    ),
    help=(
        "Number of preferences A over B the run fulfils: A retrieved and ranked above B, "
        "or B not retrieved. Summary: total over topics."
    ),
    kernel=lambda b, p: _sum(b, lambda g: g.ful),
    kind=Kind.INT,
    aggregate=Agg.SUM,
    nicknames=_NICK,
    rel_formats=_PREFS,
)

prefs_num_prefs_ful_ret = Measure(
    name="prefs_num_prefs_ful_ret",
    formula=(
        r"\mathrm{prefs\_num\_prefs\_ful\_ret} = \sum_{j=1}^{J} \sum_{(a, b) \in \Pi_j,\ a, b \text{ "
        r"retrieved}} [\, \mathrm{rank}(a) < \mathrm{rank}(b) \,]"
    ),
    help=(
        "Number of preferences A over B fulfilled with both documents retrieved (A ranked "
        "above B). Summary: total over topics."
    ),
    kernel=lambda b, p: _sum(b, lambda g: g.ful_ret),
    kind=Kind.INT,
    aggregate=Agg.SUM,
    nicknames=_NICK,
    rel_formats=_PREFS,
)
