"""Per-group preference ratio with as many non-relevant as relevant documents
(trec_eval ``prefs_avgjg_Rnonrel``, ``prefs_avgjg_Rnonrel_ret``).

How many non-relevant documents were judged can swing a preference score:
hundreds of easy "relevant over non-relevant" preferences drown the rest.
These measures compute ``prefs_avgjg`` as if each judgment group had
exactly R non-relevant documents, R being its relevant ones (level > 0):

* R >= N (N non-relevant): the missing R - N non-relevant documents are
  taken as fulfilled by every retrieved relevant document, i.e.
  ``num_rel_ret * (R - N)`` fulfilled and ``num_rel * (R - N)`` possible
  preferences are added.
* R < N: only the first R non-relevant documents (in ranking order, the
  unretrieved last) are kept and the group's preferences are counted again.

With one group of two classes (relevant / not) this behaves much like bpref.
``..._ret`` uses retrieved documents only (R and N are retrieved counts).

trec_eval's recount has quirks kept here so the numbers match: for a class
list the kept non-relevant documents are also paired with every document of
the lowest class, themselves included (a pair of one document with itself is
a failure); the ``_ret`` variant adds ``num_rel`` (not ``num_rel_ret``) times
R - N possible preferences, and for a preference array it keeps the first
``num_rel`` retrieved non-relevant documents. A group whose count of possible
preferences is 0 makes the topic's value 0 (trec_eval divides 0 by 0 and
the resulting NaN fails its final "> 0" test). Source: trec_eval
``m_prefs_avgjg_Rnonrel*.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import C_NAN, Measure

_PREFS = frozenset({"prefs", "qrels_prefs"})


def _count_below(sorted_ids: np.ndarray, bounds: np.ndarray) -> int:
    """Sum over ``bounds`` of how many ``sorted_ids`` are smaller."""
    return int(np.searchsorted(sorted_ids, bounds, "left").sum())


def _recount_classes(ecs: list, keep: int, njr: int, ret_only: bool) -> tuple[int, int]:
    """(fulfilled, possible) for a class list whose lowest class is cut to ``keep`` lines."""
    if ret_only:
        # retrieved lines only; then "a < min(b, njr)" is just "a < b"
        ecs = [ec[: int(np.searchsorted(ec, njr))] for ec in ecs]
    new = ecs[-1][:keep]
    ful = pairs = 0
    higher = np.zeros(0, dtype=np.int64)
    for ec in ecs[:-1]:  # classes above the lowest one, against each other
        ful += _count_below(higher, np.minimum(ec, njr))
        pairs += len(higher) * len(ec)
        higher = np.insert(higher, np.searchsorted(higher, ec), ec)
    # every line of every class (the lowest included) against the kept lines
    everything = np.sort(np.concatenate(ecs))
    ful += _count_below(everything, np.minimum(new, njr))
    pairs += len(everything) * len(new)
    return ful, pairs


def _recount_array(g, njr: int, num_judged: int, ret_only: bool) -> tuple[int, int]:
    """(fulfilled, possible) for a preference array without the surplus non-relevant docs."""
    local, c, level = g.local, g.closure, g.rel_level
    nonrel = level == 0.0
    scan = nonrel & (local < njr) if ret_only else nonrel
    seen = np.flatnonzero(scan)
    if len(seen) > g.num_rel:
        first_dropped = local[seen[g.num_rel]]
    else:
        first_dropped = njr if ret_only else num_judged
    keep = ~(nonrel & (local >= first_dropped))
    if ret_only:
        keep &= local < njr
    ck = c[np.ix_(keep, keep)]
    r = int(np.count_nonzero(local[keep] < njr))
    ful = int(np.triu(ck[:r, :r], 1).sum())
    if ret_only:
        return ful, int(ck[:r, :r].sum())
    return ful + int(ck[:r, r:].sum()), int(ck.sum())


def _group_ratio(g, t, ret_only: bool) -> float:
    njr = t.num_judged_ret
    if ret_only:
        R, N = g.num_rel_ret, g.num_nonrel_ret
        ful, poss = g.ful_ret, g.poss_ret
    else:
        R, N = g.num_rel, g.num_nonrel
        ful, poss = g.ful, g.poss
    if R >= N:
        ful += g.num_rel_ret * (R - N)
        poss += g.num_rel * (R - N)
    elif g.is_class_list:
        ful, poss = _recount_classes(g.ecs, g.num_rel_ret if ret_only else g.num_rel, njr, ret_only)
    else:
        ful, poss = _recount_array(g, njr, t.num_judged, ret_only)
    return ful / poss if poss else C_NAN  # C's 0/0


def _rnonrel(b, ret_only: bool):
    def one(t):
        total = 0.0
        for g in t.jgs:
            total += _group_ratio(g, t, ret_only)
        return total / len(t.jgs) if total > 0.0 else 0.0

    return b.map(one)


prefs_avgjg_Rnonrel = Measure(
    name="prefs_avgjg_Rnonrel",
    formula=(
        r"\mathrm{prefs\_avgjg\_Rnonrel} = \frac{1}{J} \sum_{j=1}^{J} \frac{\sum_{(a, b) \in \Pi'_j} "
        r"\phi(a, b) + \mathrm{rel}^{(j)}(n) \cdot \max(R^{(j)} - N^{(j)}, 0)}{|\Pi'_j| + R^{(j)} \cdot "
        r"\max(R^{(j)} - N^{(j)}, 0)}\quad (\Pi'_j: \text{ only the first } R^{(j)} \text{ non-relevant "
        r"documents})"
    ),
    help=(
        "prefs_avgjg computed as if each judgment group had as many non-relevant documents "
        "(level 0) as relevant ones (R): missing ones count as preferences fulfilled by the "
        "retrieved relevant documents, surplus ones beyond the first R in ranking order are "
        "ignored. Keeps the number of judged non-relevant documents from dominating; close "
        "to bpref for a single group with two levels."
    ),
    kernel=lambda b, p: _rnonrel(b, False),
    nicknames=frozenset({"all_prefs"}),
    rel_formats=_PREFS,
)

prefs_avgjg_Rnonrel_ret = Measure(
    name="prefs_avgjg_Rnonrel_ret",
    formula=(
        r"\mathrm{prefs\_avgjg\_Rnonrel\_ret} = \frac{1}{J} \sum_{j=1}^{J} \frac{\sum_{(a, b) \in \Pi'_j} "
        r"\phi(a, b) + \mathrm{rel}^{(j)}(n) \cdot \max(R^{(j)} - N^{(j)}, 0)}{|\Pi'_j| + R^{(j)} \cdot "
        r"\max(R^{(j)} - N^{(j)}, 0)}\quad (R^{(j)}, N^{(j)}, \Pi'_j \text{ over retrieved documents "
        r"only})"
    ),
    help=(
        "Like prefs_avgjg_Rnonrel, over retrieved documents only (R and the non-relevant "
        "count are those retrieved)."
    ),
    kernel=lambda b, p: _rnonrel(b, True),
    nicknames=frozenset({"all_prefs"}),
    rel_formats=_PREFS,
)
