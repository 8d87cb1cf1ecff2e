"""alpha-DCG and alpha-nDCG at cutoffs (``alpha_DCG``, ``alpha_nDCG``), as
NIST's ndeval computes them for the TREC Web track's diversity task.

With the gains of :mod:`._diversity` (a document relevant to subtopic ``s``
gains ``(1 - alpha)^c`` there, ``c`` the documents relevant to ``s`` ranked
above it, summed over its subtopics)::

    alpha-DCG@k  = sum_{i<=k} gain_i / log2(i + 1)  /  sum_{i<=k} A (1 - alpha)^(i-1) / log2(i + 1)
    alpha-nDCG@k = alpha-DCG@k of the run / alpha-DCG@k of the ideal ranking

``A`` is the topic's number of subtopics with a relevant document. The first
divisor is the value of a ranking covering every subtopic at every rank
(ndeval's "collection-independent" normalisation); alpha-nDCG divides by the
greedy ideal ranking of :mod:`._diversity` instead (the ideal is NP-hard to
find; the greedy one can be beaten, so alpha-nDCG can exceed 1 in rare cases).
``alpha`` is the redundancy penalty: 0 counts every relevant document fully
(intent-aware DCG), 1 only the first one of each subtopic.

Parameters: cutoffs (default 5, 10, 20, ndeval's) and ``alpha`` from 0 to 1
(default 0.5): ``-m alpha_nDCG.20,alpha=0.5``.

Edge cases: a topic without any relevant document (no subtopic), an empty
ranking and a ranking without relevant documents score 0; ranks past the end
of a short ranking add nothing. alpha-nDCG is 0 wherever alpha-DCG is 0.

Sources: C. L. A. Clarke, M. Kolla, G. V. Cormack, O. Vechtomova, A. Ashkan,
S. Büttcher, I. MacKinnon, "Novelty and diversity in information retrieval
evaluation", SIGIR 2008; ndeval 4.5 (TREC Web track 2009-2014).
"""
from __future__ import annotations

from ._base import Measure
from ._diversity import at_cutoffs
from .err_ia import DIVERSITY, PARAMS


def _alpha_dcg(b, p):
    return at_cutoffs(b, p.values[1][0], "dcg", p.values[0], normalised=False)


def _alpha_ndcg(b, p):
    return at_cutoffs(b, p.values[1][0], "dcg", p.values[0], normalised=True)


alpha_DCG = Measure(
    name="alpha_DCG",
    formula=(
        r"\alpha\text{-DCG}_k = \frac{\sum_{i \le k} \gamma_i / \log_2(i + 1)}{\sum_{i \le k} A (1 - "
        r"\alpha)^{i-1} / \log_2(i + 1)}, \qquad \gamma_i = \sum_{s:\, d_i \in \mathcal{R}_s} (1 - "
        r"\alpha)^{c_s(i)}"
    ),
    help=(
        "alpha-DCG at cutoff k (ndeval's alpha-DCG): novelty-discounted gains over log2(rank+1), "
        "divided by those of a ranking covering every subtopic at every rank. Needs "
        "-R qrels_diversity. -m alpha_DCG.5,10,alpha=0.5 (defaults: 5, 10, 20 and alpha 0.5)."
    ),
    kernel=_alpha_dcg,
    params=PARAMS,
    nicknames=frozenset({"ndeval"}),
    since="extra",
    rel_formats=DIVERSITY,
)

alpha_nDCG = Measure(
    name="alpha_nDCG",
    formula=(
        r"\alpha\text{-nDCG}_k = \frac{\sum_{i \le k} \gamma_i / \log_2(i + 1)}{\sum_{i \le k} \gamma^*_i "
        r"/ \log_2(i + 1)}, \qquad \gamma_i = \sum_{s:\, d_i \in \mathcal{R}_s} (1 - "
        r"\alpha)^{c_s(i)}\quad (\gamma^* \text{ of the greedy ideal ranking})"
    ),
    help=(
        "alpha-nDCG at cutoff k (Clarke et al. 2008, as ndeval computes it): alpha-DCG over the "
        "alpha-DCG of the greedy ideal ranking. Needs -R qrels_diversity. "
        "-m alpha_nDCG.20,alpha=0.5 (defaults: 5, 10, 20 and alpha 0.5)."
    ),
    kernel=_alpha_ndcg,
    params=PARAMS,
    nicknames=frozenset({"ndeval"}),
    since="extra",
    rel_formats=DIVERSITY,
)
