"""Novelty- and rank-biased precision (``NRBP``, ``nNRBP``), as NIST's ndeval
computes them for the TREC Web track's diversity task.

NRBP is rank-biased precision (a user reads on from one rank to the next
with probability ``beta``) over the novelty-discounted gains of
:mod:`._diversity` (a document relevant to subtopic ``s`` gains
``(1 - alpha)^c`` there, ``c`` the documents relevant to ``s`` ranked above
it), averaged over the ``A`` subtopics that have a relevant document::

    NRBP  = (1 - (1 - alpha) beta) / A * sum_i gain_i beta^(i-1)
    nNRBP = NRBP of the run / NRBP of the greedy ideal ranking

The factor in front makes 1 the value of an infinite ranking covering every
subtopic at every rank (collection-independent); nNRBP normalises by the
ideal ranking instead. Every rank counts: NRBP has no cutoff (``-M`` cuts
the ranking first).

Parameters: ``alpha`` (redundancy penalty) and ``beta`` (patience), each
from 0 to 1, default 0.5 (ndeval's): ``-m NRBP.alpha=0.5,beta=0.8``.

Edge cases: an empty ranking or one without relevant documents has NRBP 0
and nNRBP 0. A topic without any relevant document has NRBP 0 and nNRBP
NaN (printed ``-nan``): ndeval divides 0 by 0 there, and the NaN reaches the
mean, as in ndeval's reports; likewise every topic with alpha 0 and beta 1,
where the factor in front is 0.

Sources: C. L. A. Clarke, M. Kolla, O. Vechtomova, "An effectiveness measure
for ambiguous and underspecified queries", ICTIR 2009; A. Moffat, J. Zobel,
"Rank-biased precision for measurement of retrieval effectiveness", TOIS
27(1), 2008; ndeval 4.5 (TREC Web track 2009-2014).
"""
from __future__ import annotations

import numpy as np

from ._base import C_NAN, Measure
from ._diversity import nrbp
from ._params import CutoffsAndValues
from .err_ia import DIVERSITY

PARAMS = CutoffsAndValues(cutoffs=None, names=("alpha", "beta"), defaults=(0.5, 0.5))


def _nrbp(b, p):
    alpha, beta = p.values[1]
    return b.memo(nrbp, alpha, beta, False)


def _nnrbp(b, p):
    alpha, beta = p.values[1]
    run = b.memo(nrbp, alpha, beta, False)
    ideal = b.memo(nrbp, alpha, beta, True)
    out = np.full(b.n, C_NAN)
    # 0 / 0 where the ideal is 0 too: C's NaN, sign bit set, whatever the platform gives
    np.divide(run, ideal, out=out, where=ideal != 0)
    return out


NRBP = Measure(
    name="NRBP",
    formula=(
        r"\mathrm{NRBP} = \frac{1 - (1 - \alpha) \beta}{A} \sum_{i=1}^{n} \gamma_i\, \beta^{\,i-1}, "
        r"\qquad \gamma_i = \sum_{s:\, d_i \in \mathcal{R}_s} (1 - \alpha)^{c_s(i)}"
    ),
    help=(
        "Novelty- and rank-biased precision (Clarke et al. 2009, as ndeval computes it): "
        "rank-biased precision (persistence beta) of novelty-discounted gains (alpha), per "
        "subtopic. Needs -R qrels_diversity. -m NRBP.alpha=0.5,beta=0.5 (the defaults)."
    ),
    kernel=_nrbp,
    params=PARAMS,
    nicknames=frozenset({"ndeval"}),
    since="extra",
    rel_formats=DIVERSITY,
)

nNRBP = Measure(
    name="nNRBP",
    formula=(
        r"\mathrm{nNRBP} = \frac{\sum_{i} \gamma_i\, \beta^{\,i-1}}{\sum_{i} \gamma^*_i\, \beta^{\,i-1}}, "
        r"\qquad \gamma_i = \sum_{s:\, d_i \in \mathcal{R}_s} (1 - \alpha)^{c_s(i)}\quad (\gamma^* \text{ "
        r"of the greedy ideal ranking})"
    ),
    help=(
        "NRBP normalised by the NRBP of the greedy ideal ranking (ndeval's nNRBP); NaN for a "
        "topic without relevant documents, as in ndeval. Needs -R qrels_diversity. "
        "-m nNRBP.alpha=0.5,beta=0.5 (the defaults)."
    ),
    kernel=_nnrbp,
    params=PARAMS,
    nicknames=frozenset({"ndeval"}),
    since="extra",
    rel_formats=DIVERSITY,
)
