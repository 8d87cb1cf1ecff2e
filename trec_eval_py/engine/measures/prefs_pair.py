"""Mean over document pairs of the share of groups satisfied (trec_eval
``prefs_pair``, ``prefs_pair_ret``, ``prefs_pair_imp``).

For each pair of documents some judgment group expresses a preference on,
the pair scores the fraction of those preferences the ranking fulfils (3
groups prefer the higher-ranked document, 2 the other: 3/5). The topic's
value is the mean over pairs. With one group per topic this equals
``prefs_simp`` up to duplicates. Ranking position decides: of two retrieved
documents the higher ranked one is "first"; a retrieved document is first
against an unretrieved one; a pair of two unretrieved documents scores 0.

* ``prefs_pair``: all pairs;
* ``prefs_pair_ret``: pairs of two retrieved documents;
* ``prefs_pair_imp``: pairs with at least one retrieved document.

Pair scores are added in trec_eval's order (first pairs of retrieved
documents by rank, then retrieved against unretrieved). 0 when there is no
pair. Source: trec_eval ``m_prefs_pair*.c``.
"""
from __future__ import annotations

from ._base import Measure

_PREFS = frozenset({"prefs", "qrels_prefs"})


def _pair(t, imp: bool, unret: bool) -> float:
    s1, n1, s12, n2, n3 = t.pair_sums
    total = s12 if imp else s1
    n = n1 + (n2 if imp else 0) + (n3 if unret else 0)
    return total / n if n else 0.0


prefs_pair = Measure(
    name="prefs_pair",
    formula=(
        r"\mathrm{prefs\_pair} = \frac{1}{|\mathcal{P}|} \sum_{\{a, b\} \in \mathcal{P}} \frac{\sum_j "
        r"\sum_{(x, y) \in \Pi_j,\ \{x, y\} = \{a, b\}} \phi(x, y)}{\sum_j |\{ (x, y) \in \Pi_j : \{x, "
        r"y\} = \{a, b\} \}|}"
    ),
    help=(
        "Mean over document pairs of the fraction of the judgment groups' preferences on the "
        "pair that the ranking fulfils (3 groups agree with the ranking, 2 not: 0.6). Pairs "
        "of two unretrieved documents score 0. 0 when no pair has a preference."
    ),
    kernel=lambda b, p: b.map(lambda t: _pair(t, True, True)),
    nicknames=frozenset({"all_prefs", "prefs"}),
    rel_formats=_PREFS,
)

prefs_pair_ret = Measure(
    name="prefs_pair_ret",
    formula=(
        r"\mathrm{prefs\_pair\_ret} = \frac{1}{|\mathcal{P}|} \sum_{\{a, b\} \in \mathcal{P}} "
        r"\frac{\sum_j \sum_{(x, y) \in \Pi_j^{\mathrm{ret}},\ \{x, y\} = \{a, b\}} \phi(x, y)}{\sum_j "
        r"|\{ (x, y) \in \Pi_j^{\mathrm{ret}} : \{x, y\} = \{a, b\} \}|}"
    ),
    help="Like prefs_pair, over pairs of two retrieved documents only. 0 when there are none.",
    kernel=lambda b, p: b.map(lambda t: _pair(t, False, False)),
    nicknames=frozenset({"all_prefs"}),
    rel_formats=_PREFS,
)

prefs_pair_imp = Measure(
    name="prefs_pair_imp",
    formula=(
        r"\mathrm{prefs\_pair\_imp} = \frac{1}{|\mathcal{P}|} \sum_{\{a, b\} \in \mathcal{P}} "
        r"\frac{\sum_j \sum_{(x, y) \in \Pi_j^{\mathrm{imp}},\ \{x, y\} = \{a, b\}} \phi(x, y)}{\sum_j "
        r"|\{ (x, y) \in \Pi_j^{\mathrm{imp}} : \{x, y\} = \{a, b\} \}|}"
    ),
    help=(
        "Like prefs_pair, leaving out pairs of two unretrieved documents. 0 when none remain."
    ),
    kernel=lambda b, p: b.map(lambda t: _pair(t, True, False)),
    nicknames=frozenset({"all_prefs"}),
    rel_formats=_PREFS,
)
