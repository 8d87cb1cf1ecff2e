"""Rank-biased precision and its residual (trec_eval 10.0 ``rbp``, ``rbp_resid``).

Moffat and Zobel, "Rank-Biased Precision for Measurement of Retrieval
Effectiveness", ACM TOIS 27(1), 2008. A reader goes down the ranking and moves
on to the next document with probability ``p`` (the *persistence*, default
0.9, set with ``-m rbp.p=0.95``):

* ``rbp = (1 - p) * sum_i gain_i * p^(i-1)`` over ranks ``i``. Gains come from
  the same gain table as :mod:`.ndcg` (the relevance level by default;
  ``level=gain`` pairs may be given next to ``p``). When some gain of the
  table lies outside [0, 1] all gains are rescaled to
  ``(gain - min) / (max - min)``; unjudged documents gain 0.
* ``rbp_resid`` is how much rbp could still grow if every unjudged document
  retrieved (not in the qrels, or with a negative level) had gain 1, plus the
  weight of everything past the end of the ranking:
  ``p^n + (1 - p) * sum over unjudged ranks of p^(i-1)`` for a ranking of
  ``n`` documents. A topic without unjudged documents retrieved gets 0 (even
  though the tail weight ``p^n`` is not 0); so does an empty ranking.

``p^(i-1)`` is formed by repeated multiplication, as trec_eval does.

A trec_eval 10.0 quirk reproduced here: the rescaling's running maximum
starts from whatever the previous computation left behind instead of from
the table. When ``num_nonrel_judged_ret`` is computed just before (as in
``-m all_trec``), that value is the topic's number of relevant documents
retrieved, so with ``all_trec`` a topic whose relevant-retrieved count
exceeds its highest gain has its gains divided by that count. Otherwise the
maximum of the table is used.

Source: trec_eval 10.0 ``m_rbp.c``, ``m_rbp_resid.c``. Summary: mean over topics.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._gains import gain_pairs, group_table, groups_by_levels
from ._order import print_key
from ._params import PairParams
from ._registry import registry

#: the measure whose leftover value seeds rbp's running maximum (see module doc)
_SEEDS_MAX = "num_nonrel_judged_ret"
_ORDER_RBP = print_key("rbp")


def persistence(params) -> float:
    """The ``p=`` parameter (the last one given wins), default 0.9."""
    p = 0.9
    for name, value in params.values:
        if name == "p":
            p = float(value)
    return p


def powers(p: float, width: int) -> np.ndarray:
    """float64 (width + 1,): ``1, p, p*p, ...``, each the previous times ``p``."""
    steps = np.full(width + 1, p, dtype=np.float64)
    steps[0] = 1.0
    return np.cumprod(steps)


def _max_seeded_by_num_rel_ret(ctx) -> bool:
    """Whether the trec_eval measure computed just before rbp is ``num_nonrel_judged_ret``."""
    names = getattr(ctx, "measures", ()) or ()
    reg = registry()
    before = [n for n in names if n in reg and reg[n].order < _ORDER_RBP]
    if not before:
        return False
    return max(before, key=lambda n: reg[n].order) == _SEEDS_MAX


def _rbp(b, params) -> np.ndarray:
    p = persistence(params)
    pairs = gain_pairs(params, True)
    seeded = b.num_rel_ret.astype(np.float64) if _max_seeded_by_num_rel_ret(b.ctx) else None
    n, w = b.rel.shape
    gains = np.zeros((n, w), dtype=np.float64)
    for levels, rows in groups_by_levels(b):
        table = group_table(b, rows, pairs, levels)
        got, known = table.gain_of(b.rel[rows])
        if table.gains:
            lo = table.min_gain
            hi = np.full(len(rows), table.max_gain)
            if seeded is not None:
                hi = np.maximum(hi, seeded[rows])
            rescale = (lo < 0.0) | (hi > 1.0)
            span = np.where(rescale, hi - lo, 1.0)[:, None]
            # only table entries are rescaled; codes without an entry stay at 0
            scaled = np.where(known, (got - lo) / span, 0.0)
            got = np.where(rescale[:, None], scaled, got)
        gains[rows] = np.where(b.valid[rows], got, 0.0)
    weights = powers(p, w)[:w]
    terms = np.where(gains != 0.0, gains * weights, 0.0)
    return (1.0 - p) * b.seq_sum(terms)


def _rbp_resid(b, params) -> np.ndarray:
    p = persistence(params)
    weights = powers(p, b.width)
    unjudged = b.valid & (b.rel < 0)
    total = b.seq_sum(np.where(unjudged, weights[None, : b.width], 0.0))
    tail = weights[b.num_ret]
    return np.where(unjudged.any(axis=1), tail + (1.0 - p) * total, 0.0)


RBP = Measure(
    name="rbp",
    help=(
        "Rank-biased precision (Moffat & Zobel 2008): (1-p) * sum of gain * p^(rank-1), "
        "persistence p = 0.9 by default (-m rbp.p=0.95). Gains as for ndcg (level=gain "
        "pairs allowed), rescaled into [0,1] when some gain is outside it."
    ),
    kernel=_rbp,
    params=PairParams(),
    nicknames=frozenset({"all_trec"}),
    since="10.0",
)

RBP_RESID = Measure(
    name="rbp_resid",
    help=(
        "Residual of rank-biased precision: how much rbp could rise if every unjudged "
        "document retrieved were relevant, plus the weight beyond the ranking's end "
        "(p^n). 0 when no unjudged document is retrieved. -m rbp_resid.p=0.95"
    ),
    kernel=_rbp_resid,
    params=PairParams(),
    nicknames=frozenset({"all_trec"}),
    since="10.0",
)
