"""Intent-aware expected reciprocal rank at cutoffs (``ERR_IA``, ``nERR_IA``),
as NIST's ndeval computes them for the TREC Web track's diversity task.

With the gains of :mod:`._diversity` (a document relevant to subtopic ``s``
gains ``(1 - alpha)^c`` there, ``c`` the documents relevant to ``s`` ranked
above it, summed over its subtopics)::

    ERR-IA@k  = sum_{i<=k} gain_i / i  /  sum_{i<=k} A (1 - alpha)^(i-1) / i
    nERR-IA@k = ERR-IA@k of the run / ERR-IA@k of the ideal ranking

``A`` is the topic's number of subtopics with a relevant document. The first
divisor is the value of a ranking that covers every subtopic at every rank
(ndeval's "collection-independent" normalisation), so ERR-IA is at most 1
but rarely reaches it; nERR-IA divides by the greedy ideal ranking of
:mod:`._diversity` (collection-dependent) instead. This is Chapelle et al.'s
ERR averaged over intents with the probability that a relevant document
satisfies an intent taken as ``alpha`` (the factor ``alpha`` cancels).

Parameters: cutoffs (default 5, 10, 20, ndeval's) and ``alpha`` from 0 to 1
(default 0.5): ``-m ERR_IA.5,10,alpha=0.3``.

Edge cases: a topic without any relevant document (no subtopic), an empty
ranking and a ranking without relevant documents score 0; ranks past the end
of a short ranking add nothing. nERR-IA is 0 wherever ERR-IA is 0.

Sources: O. Chapelle, D. Metzler, Y. Zhang, P. Grinspan, "Expected reciprocal
rank for graded relevance", CIKM 2009; O. Chapelle, S. Ji, C. Liao, E. Velipasaoglu,
L. Lai, S.-L. Wu, "Intent-based diversification of web search results:
metrics and algorithms", Information Retrieval 14(6), 2011; ndeval 4.5
(TREC Web track 2009-2014).
"""
from __future__ import annotations

from ._base import Measure
from ._diversity import at_cutoffs
from ._params import CutoffsAndValues

#: ndeval's cutoffs and its default alpha
CUTOFFS = (5, 10, 20)
PARAMS = CutoffsAndValues(cutoffs=CUTOFFS, names=("alpha",), defaults=(0.5,))
DIVERSITY = frozenset({"qrels_diversity"})


def _err_ia(b, p):
    return at_cutoffs(b, p.values[1][0], "err", p.values[0], normalised=False)


def _nerr_ia(b, p):
    return at_cutoffs(b, p.values[1][0], "err", p.values[0], normalised=True)


ERR_IA = Measure(
    name="ERR_IA",
    formula=(
        r"\mathrm{ERR\_IA}_k = \frac{\sum_{i \le k} \gamma_i / i}{\sum_{i \le k} A (1 - \alpha)^{i-1} / "
        r"i}, \qquad \gamma_i = \sum_{s:\, d_i \in \mathcal{R}_s} (1 - \alpha)^{c_s(i)}"
    ),
    help=(
        "Intent-aware ERR at cutoff k (ndeval's ERR-IA): the sum over ranks i <= k of a "
        "document's novelty-discounted gain over i, divided by that of a ranking covering "
        "every subtopic at every rank. Needs -R qrels_diversity. -m ERR_IA.5,10,alpha=0.5 "
        "(defaults: 5, 10, 20 and alpha 0.5)."
    ),
    kernel=_err_ia,
    params=PARAMS,
    nicknames=frozenset({"ndeval"}),
    since="extra",
    rel_formats=DIVERSITY,
)

nERR_IA = Measure(
    name="nERR_IA",
    formula=(
        r"\mathrm{nERR\_IA}_k = \frac{\sum_{i \le k} \gamma_i / i}{\sum_{i \le k} \gamma^*_i / i}, \qquad "
        r"\gamma_i = \sum_{s:\, d_i \in \mathcal{R}_s} (1 - \alpha)^{c_s(i)}\quad (\gamma^* \text{ of the "
        r"greedy ideal ranking})"
    ),
    help=(
        "ERR_IA normalised by the ERR_IA of the greedy ideal ranking (ndeval's nERR-IA). "
        "Needs -R qrels_diversity. -m nERR_IA.5,10,alpha=0.5 (defaults: 5, 10, 20 and alpha 0.5)."
    ),
    kernel=_nerr_ia,
    params=PARAMS,
    nicknames=frozenset({"ndeval"}),
    since="extra",
    rel_formats=DIVERSITY,
)
