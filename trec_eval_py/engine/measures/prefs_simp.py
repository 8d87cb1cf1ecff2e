"""Fulfilled over possible preferences, all groups pooled (trec_eval
``prefs_simp``, ``prefs_simp_ret``, ``prefs_simp_imp``).

The fulfilled preferences of all the topic's judgment groups divided by the
possible ones (each group's preferences count, so a pair two groups agree on
counts twice, and a pair they disagree on cannot be fully satisfied). The
variants differ in which preferences "A over B" take part:

* ``prefs_simp``: all; a pair with neither document retrieved is a failure;
* ``prefs_simp_ret``: only pairs with both documents retrieved;
* ``prefs_simp_imp``: pairs with at least one document retrieved.

A topic with no preference in the chosen category scores 0. Source: trec_eval
``m_prefs_simp*.c``.
"""
from __future__ import annotations

from ._base import Measure

_PREFS = frozenset({"prefs", "qrels_prefs"})


def _ratio(b, ful, poss):
    def one(t):
        f = sum(ful(g) for g in t.jgs)
        p = sum(poss(g) for g in t.jgs)
        return f / p if p else 0.0

    return b.map(one)


prefs_simp = Measure(
    name="prefs_simp",
    formula=(
        r"\mathrm{prefs\_simp} = \frac{\sum_j \sum_{(a, b) \in \Pi_j} \phi(a, b)}{\sum_j |\Pi_j|}, \qquad "
        r"\phi(a, b) = [\, a \text{ retrieved and } (b \text{ not retrieved or } \mathrm{rank}(a) < "
        r"\mathrm{rank}(b)) \,]"
    ),
    help=(
        "Preferences fulfilled divided by preferences possible, over all judgment groups of "
        "the topic. A preference A over B is fulfilled when A is retrieved and ranked above B "
        "(or B is not retrieved); if neither is retrieved it counts as a failure. 0 when the "
        "topic has no preferences."
    ),
    kernel=lambda b, p: _ratio(b, lambda g: g.ful, lambda g: g.poss),
    nicknames=frozenset({"all_prefs", "prefs"}),
    rel_formats=_PREFS,
)

prefs_simp_ret = Measure(
    name="prefs_simp_ret",
    formula=(
        r"\mathrm{prefs\_simp\_ret} = \frac{\sum_j \sum_{(a, b) \in \Pi_j^{\mathrm{ret}}} \phi(a, "
        r"b)}{\sum_j |\Pi_j^{\mathrm{ret}}|}, \qquad \phi(a, b) = [\, a \text{ retrieved and } (b \text{ "
        r"not retrieved or } \mathrm{rank}(a) < \mathrm{rank}(b)) \,]"
    ),
    help=(
        "Like prefs_simp, but only preferences between two retrieved documents take part "
        "(suited to collections that change over time). 0 when there are none."
    ),
    kernel=lambda b, p: _ratio(b, lambda g: g.ful_ret, lambda g: g.poss_ret),
    nicknames=frozenset({"all_prefs"}),
    rel_formats=_PREFS,
)

prefs_simp_imp = Measure(
    name="prefs_simp_imp",
    formula=(
        r"\mathrm{prefs\_simp\_imp} = \frac{\sum_j \sum_{(a, b) \in \Pi_j^{\mathrm{imp}}} \phi(a, "
        r"b)}{\sum_j |\Pi_j^{\mathrm{imp}}|}, \qquad \phi(a, b) = [\, a \text{ retrieved and } (b \text{ "
        r"not retrieved or } \mathrm{rank}(a) < \mathrm{rank}(b)) \,]"
    ),
    help=(
        "Like prefs_simp, but preferences between two unretrieved documents are left out "
        "instead of counting as failures. 0 when none remain."
    ),
    kernel=lambda b, p: _ratio(b, lambda g: g.ful, lambda g: g.poss_ret + g.poss_imp),
    nicknames=frozenset({"all_prefs"}),
    rel_formats=_PREFS,
)
