"""Fulfilled over possible preferences per judgment group, averaged over
groups (trec_eval ``prefs_avgjg``, ``prefs_avgjg_ret``, ``prefs_avgjg_imp``).

Each judgment group (e.g. each user) gets its own ratio of fulfilled to
possible preferences and the topic's value is the mean over its groups, so
a group with many preferences does not outweigh one with few. Groups with no
preference in the chosen category add 0 but still count in the mean. The
categories are those of :mod:`.prefs_simp` (all; both retrieved; at least
one retrieved). Source: trec_eval ``m_prefs_avgjg*.c``.
"""
from __future__ import annotations

from ._base import Measure

_PREFS = frozenset({"prefs", "qrels_prefs"})


def _avgjg(b, ful, poss):
    def one(t):
        total = 0.0
        for g in t.jgs:
            p = poss(g)
            if p:
                total += ful(g) / p
        return total / len(t.jgs) if total > 0.0 else 0.0

    return b.map(one)


prefs_avgjg = Measure(
    name="prefs_avgjg",
    formula=(
        r"\mathrm{prefs\_avgjg} = \frac{1}{J} \sum_{j=1}^{J} \frac{\sum_{(a, b) \in \Pi_j} \phi(a, "
        r"b)}{|\Pi_j|}\quad (0/0 = 0), \qquad \phi(a, b) = [\, a \text{ retrieved and } (b \text{ not "
        r"retrieved or } \mathrm{rank}(a) < \mathrm{rank}(b)) \,]"
    ),
    help=(
        "Per judgment group, preferences fulfilled divided by preferences possible; the mean "
        "over the topic's groups. Every group weighs the same however many preferences it "
        "states. A pair of two unretrieved documents counts as a failure."
    ),
    kernel=lambda b, p: _avgjg(b, lambda g: g.ful, lambda g: g.poss),
    nicknames=frozenset({"all_prefs", "prefs"}),
    rel_formats=_PREFS,
)

prefs_avgjg_ret = Measure(
    name="prefs_avgjg_ret",
    formula=(
        r"\mathrm{prefs\_avgjg\_ret} = \frac{1}{J} \sum_{j=1}^{J} \frac{\sum_{(a, b) \in "
        r"\Pi_j^{\mathrm{ret}}} \phi(a, b)}{|\Pi_j^{\mathrm{ret}}|}\quad (0/0 = 0), \qquad \phi(a, b) = "
        r"[\, a \text{ retrieved and } (b \text{ not retrieved or } \mathrm{rank}(a) < \mathrm{rank}(b)) "
        r"\,]"
    ),
    help="Like prefs_avgjg, with only preferences between two retrieved documents.",
    kernel=lambda b, p: _avgjg(b, lambda g: g.ful_ret, lambda g: g.poss_ret),
    nicknames=frozenset({"all_prefs"}),
    rel_formats=_PREFS,
)

prefs_avgjg_imp = Measure(
    name="prefs_avgjg_imp",
    formula=(
        r"\mathrm{prefs\_avgjg\_imp} = \frac{1}{J} \sum_{j=1}^{J} \frac{\sum_{(a, b) \in "
        r"\Pi_j^{\mathrm{imp}}} \phi(a, b)}{|\Pi_j^{\mathrm{imp}}|}\quad (0/0 = 0), \qquad \phi(a, b) = "
        r"[\, a \text{ retrieved and } (b \text{ not retrieved or } \mathrm{rank}(a) < \mathrm{rank}(b)) "
        r"\,]"
    ),
    help="Like prefs_avgjg, leaving out preferences between two unretrieved documents.",
    kernel=lambda b, p: _avgjg(b, lambda g: g.ful, lambda g: g.poss_ret + g.poss_imp),
    nicknames=frozenset({"all_prefs"}),
    rel_formats=_PREFS,
)
