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

Numerics: both scores are computed from sum_i e^(-alpha (r_i - 1)/N) and
expm1 terms (see :func:`_scaled_sum`), so they stay exact for large alpha/N,
where the textbook form overflows (e^(alpha/N) - 1 is inf beyond about 709)
and would print 0. BEDROC is clipped to [0, 1]: rounding can otherwise give
-0.0000 for the worst ranking or 1.000000000000002 for the best.

``ties=average`` (``bedroc.20,ties=average``): each relevant document's term
e^(-alpha r/N) is its mean over the ranks of its group of tied documents (the
scores are linear in the terms, so this is their mean over every order of
the ties).

Sources: J.-F. Truchon and C. I. Bayly, "Evaluating virtual screening
methods: good and bad metrics for the early recognition problem",
J. Chem. Inf. Model. 47:488-508, 2007 (RIE after Sheridan et al. 2001);
related to the concentrated AC curve in Swamidass et al. 2010, section 6.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, safe_div
from ._params import Ties, tie_rule
from .croc import magnification
from .early_retrieval import Area
from .ranked_curves import TIES_HELP, PositiveFloats, list_size, mean_over_group_ranks, num_negatives, tie_groups

#: both scores are affine transforms of ``cac_exp`` with the same alpha, topic by
#: topic (Swamidass et al. 2010, equations 12 and 13): their per-positive tests
#: are those of ``cac_exp`` (``compare --unit positives``)
_CAC_EXP = Area("rank", magnification("exp"), affine_of="cac_exp")


def _no_negatives(b, values: np.ndarray) -> np.ndarray:
    """``values``, except the share of relevant documents retrieved for topics
    whose list has no negatives (see the module doc)."""
    bare = (num_negatives(b) == 0) & (b.num_rel > 0)
    return np.where(bare, safe_div(b.num_rel_ret, b.num_rel), values)


def _scaled_sum(b, alpha: float, ties: str = "docno"):
    """Per topic: S = sum over the relevant documents of e^(-s (r_i - 1)),
    s = alpha/N, counting the missed ones at ranks N-m+1..N; also s, R_a and a
    mask of topics with relevant documents.

    Both scores are written with S instead of sum_i e^(-alpha r_i/N) so that
    nothing overflows or underflows before it matters: the usual form divides
    by e^(alpha/N) - 1, which is inf (and the score 0) once alpha/N > ~709,
    while every term of S is at most 1 and only terms that are negligible
    next to the others underflow.
    """
    n = b.num_rel.astype(np.float64)
    has = b.num_rel > 0
    size = np.where(has, list_size(b).astype(np.float64), 1.0)
    step = alpha / size
    # retrieved relevant documents, in rank order
    w = np.exp(-step[:, None] * (b.ranks[None, :] - 1.0))
    if ties == "average":  # each term its mean over the ranks of its group of tied documents
        groups = tie_groups(b)
        total = b.seq_sum(groups.share * mean_over_group_ranks(w, groups))
    else:
        total = b.seq_sum(np.where(b.is_rel, w, 0.0))
    # missed relevant documents at ranks N-m+1..N: a geometric series,
    # e^(-s (N-m)) (1 - e^(-s m)) / (1 - e^(-s))
    m = (b.num_rel - b.num_rel_ret).astype(np.float64)
    tail = np.exp(-step * (size - m)) * safe_div(-np.expm1(-step * m), -np.expm1(-step))
    return total + tail, step, safe_div(n, size), has


def _rie_parts(b, alpha: float, ties: str = "docno"):
    """Per topic: RIE, R_a, and a mask of topics with relevant documents.

    RIE = S (1 - e^-s) / (R_a (1 - e^-alpha)), the same quantity as the
    module doc's formula (multiply its numerator and denominator by e^-s).
    """
    total, step, ra, has = _scaled_sum(b, alpha, ties)
    rie = safe_div(total * -np.expm1(-step), ra * -np.expm1(-alpha))
    return np.where(has, rie, 0.0), ra, has


def _rie(b, p) -> np.ndarray:
    return np.stack([_no_negatives(b, _rie_parts(b, a, tie_rule(p))[0]) for a in p.values], axis=1)


def _unit_interval(x: np.ndarray) -> np.ndarray:
    """``x`` clipped to [0, 1] with rounding noise removed: no -0.0 (which
    would print as -0.0000) and nothing like 1.000000000000002 in JSON."""
    return np.where(x > 0.0, np.minimum(x, 1.0), 0.0)


def _bedroc(b, p) -> np.ndarray:
    cols = []
    for a in p.values:
        total, step, ra, has = _scaled_sum(b, a, tie_rule(p))
        # RIE / RIE_max = S (1 - e^-s) / (1 - e^(-alpha R_a)), alpha R_a = s n;
        # BEDROC = (RIE/RIE_max - e^(-alpha (1 - R_a))) / (1 - e^(-alpha (1 - R_a)))
        ratio = safe_div(total * -np.expm1(-step), -np.expm1(-a * ra))
        floor = np.exp(-a * (1.0 - ra))
        val = safe_div(ratio - floor, -np.expm1(-a * (1.0 - ra)))
        cols.append(_unit_interval(_no_negatives(b, np.where(has, val, 0.0))))
    return np.stack(cols, axis=1)


_LIST_HELP = (
    "The list is the retrieved documents followed by the missed relevant documents, "
    "or with -N D a collection of D documents with the missed relevant ones last. "
    "Topics without relevant documents score 0; a list without negatives scores the "
    "share of relevant documents retrieved. " + TIES_HELP
)

rie = Measure(
    name="rie",
    formula=(
        r"\mathrm{rie}_\alpha = \frac{\sum_{t=1}^{P} e^{-\alpha r_t / N}}{\frac{P}{N} \cdot \frac{1 - "
        r"e^{-\alpha}}{e^{\alpha / N} - 1}}"
    ),
    help=(
        "Robust initial enhancement (Sheridan et al. 2001, as in Truchon and Bayly 2007): "
        "sum over the relevant documents of exp(-alpha rank/N), divided by its expected "
        "value for a random ranking, (n/N)(1-e^-alpha)/(e^(alpha/N)-1); about 1 for a random "
        "ranking. Parameters: -m rie.A,B (default 20), outputs rie_A... " + _LIST_HELP
    ),
    kernel=_rie,
    params=Ties(PositiveFloats((20.0,), "alpha")),
    area=_CAC_EXP,
    nicknames=frozenset({"extra"}),
    since="extra",
)

bedroc = Measure(
    name="bedroc",
    formula=(
        r"\mathrm{bedroc}_\alpha = \frac{\mathrm{RIE} - \mathrm{RIE}_{\min}}{\mathrm{RIE}_{\max} - "
        r"\mathrm{RIE}_{\min}}, \qquad \mathrm{RIE}_{\max} = \frac{1 - e^{-\alpha P/N}}{\frac{P}{N}(1 - "
        r"e^{-\alpha})},\ \mathrm{RIE}_{\min} = \mathrm{RIE}_{\max}\, e^{-\alpha (1 - P/N)}"
    ),
    help=(
        "Boltzmann-enhanced discrimination of ROC (Truchon and Bayly 2007): RIE rescaled "
        "to [0, 1] between the worst ranking (all relevant documents last, 0) and the best "
        "(all first, 1). Parameters: -m bedroc.A,B "
        "(default alpha 20), outputs bedroc_A... " + _LIST_HELP
    ),
    kernel=_bedroc,
    params=Ties(PositiveFloats((20.0,), "alpha")),
    area=_CAC_EXP,
    nicknames=frozenset({"extra"}),
    since="extra",
)
