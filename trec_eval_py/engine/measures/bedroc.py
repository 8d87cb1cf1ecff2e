"""Early-recognition scores of Truchon and Bayly: ``rie`` and ``bedroc``.

A topic's full list has N documents, n of them relevant (R_a = n/N), the
relevant ones at ranks r_1..r_n (1-based). With alpha > 0:

    RIE    = sum_i exp(-alpha r_i / N)  /  [ (n/N) (1 - e^-alpha) / (e^(alpha/N) - 1) ]
    BEDROC = (RIE - RIE_min) / (RIE_max - RIE_min)

The RIE denominator is the sum's expected value for a uniformly random
ranking, so a random ranking scores about 1. RIE_max and RIE_min are the
RIE of the best and worst rankings (all relevant documents first, or last):

    RIE_max = (1 - e^(-alpha R_a)) / (R_a (1 - e^-alpha)),
    RIE_min = RIE_max * e^(-alpha (1 - R_a)),

which makes BEDROC equal to Truchon and Bayly's closed form
RIE * R_a sinh(alpha/2) / (cosh(alpha/2) - cosh(alpha/2 - alpha R_a))
+ 1 / (1 - e^(alpha (1 - R_a))), and a score in [0, 1]. Topics without
relevant documents score 0.

A list without negatives (R_a = 1) leaves nothing to discriminate: both
formulas would give 1 whatever was retrieved, even for an empty ranking whose
list holds only missed documents. There both scores are the share of relevant
documents retrieved instead, as for ``auc_roc`` (retrieved ones count as
ranked above every negative, missed ones add 0).

The list: by default the retrieved documents followed by the relevant
documents that were not retrieved (N = num_ret + missed); with ``-N D`` the
whole collection, N = D (raised if the ranking would not fit), the missed
relevant documents taking its last ranks. Default alpha 20 (the authors'
recommendation: about 80% of the score comes from the top 8% of the list).
Parameters: ``bedroc.20,80``, outputs ``bedroc_20``, ``bedroc_80``.

Sources: J.-F. Truchon and C. I. Bayly, "Evaluating virtual screening
methods: good and bad metrics for the early recognition problem",
J. Chem. Inf. Model. 47:488-508, 2007 (RIE after Sheridan et al. 2001);
related to the concentrated AC curve in Swamidass et al. 2010, section 6.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._ranked_curves import PositiveFloats, list_size, num_negatives


def _no_negatives(b, values: np.ndarray) -> np.ndarray:
    """``values``, except the share of relevant documents retrieved for topics
    whose list has no negatives (see the module doc)."""
    bare = (num_negatives(b) == 0) & (b.num_rel > 0)
    return np.where(bare, safe_div(b.num_rel_ret, b.num_rel), values)


def _rie_parts(b, alpha: float):
    """Per topic: RIE, R_a, and a mask of topics with relevant documents."""
    n = b.num_rel.astype(np.float64)
    big_n = list_size(b).astype(np.float64)
    has = b.num_rel > 0
    size = np.where(has, big_n, 1.0)
    # retrieved relevant documents, in rank order
    w = np.exp(-alpha * b.ranks[None, :] / size[:, None])
    total = b.seq_sum(np.where(b.is_rel, w, 0.0))
    # missed relevant documents at ranks N-m+1..N: a geometric series
    m = (b.num_rel - b.num_rel_ret).astype(np.float64)
    step = alpha / size
    with np.errstate(invalid="ignore", divide="ignore"):
        tail = np.exp(-alpha * (size - m + 1.0) / size) * safe_div(-np.expm1(-step * m), -np.expm1(-step))
        ra = safe_div(n, size)
        expected = ra * (-np.expm1(-alpha)) / np.expm1(step)
        rie = safe_div(total + tail, expected)
    return np.where(has, rie, 0.0), ra, has


def _rie(b, p) -> np.ndarray:
    return np.stack([_no_negatives(b, _rie_parts(b, a)[0]) for a in p.values], axis=1)


def _bedroc(b, p) -> np.ndarray:
    cols = []
    for a in p.values:
        rie, ra, has = _rie_parts(b, a)
        rie_max = safe_div(-np.expm1(-a * ra), ra * -np.expm1(-a))
        rie_min = rie_max * np.exp(-a * (1.0 - ra))
        val = safe_div(rie - rie_min, rie_max - rie_min)
        cols.append(_no_negatives(b, np.where(has, val, 0.0)))
    return np.stack(cols, axis=1)


_LIST_HELP = (
    "The list is the retrieved documents followed by the missed relevant documents, "
    "or with -N D a collection of D documents with the missed relevant ones last. "
    "Topics without relevant documents score 0; a list without negatives scores the "
    "share of relevant documents retrieved."
)

rie = Measure(
    name="rie",
    help=(
        "Robust initial enhancement (Sheridan et al. 2001, as in Truchon and Bayly 2007): "
        "sum over the relevant documents of exp(-alpha rank/N), divided by its expected "
        "value for a random ranking, (n/N)(1-e^-alpha)/(e^(alpha/N)-1); about 1 for a random "
        "ranking. Parameters: -m rie.A,B (default 20), outputs rie_A... " + _LIST_HELP
    ),
    kernel=_rie,
    order=109,
    params=PositiveFloats((20.0,), "alpha"),
    nicknames=frozenset({"extra"}),
    since="extra",
)

bedroc = Measure(
    name="bedroc",
    help=(
        "Boltzmann-enhanced discrimination of ROC (Truchon and Bayly 2007): RIE rescaled "
        "to [0, 1] between the worst ranking (all relevant documents last, 0) and the best "
        "(all first, 1). Parameters: -m bedroc.A,B "
        "(default alpha 20), outputs bedroc_A... " + _LIST_HELP
    ),
    kernel=_bedroc,
    order=108,
    params=PositiveFloats((20.0,), "alpha"),
    nicknames=frozenset({"extra"}),
    since="extra",
)
