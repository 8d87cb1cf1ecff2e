"""Area under the ROC curve (``auc_roc``).

With P relevant documents and n negatives (see below), each relevant document
has a false-positive rate fpr_i, the share of negatives ranked above it. The
area under the ROC step curve (true-positive rate against false-positive rate)
is

    auc_roc = (1/P) * sum_i (1 - fpr_i)

i.e. the share of (relevant, negative) pairs ranked in the right order.
Relevant documents that were not retrieved are ranked after every negative
and add 0. Topics without relevant documents score 0; with no negatives,
every retrieved relevant document adds 1.

Negatives: by default the retrieved non-relevant documents (LingPipe's
convention: missed relevant documents are misses at the end). With ``-N``, the
non-relevant documents of the whole collection, the unretrieved ones ranked
last (the CROC paper's full ranking). LingPipe's interpolated ROC area is the
same number, since rejection recall never rises down a ranking.

Ties: by default documents with equal scores are in trec_eval's order (by
docno), so the area can depend on how documents are named. ``auc_roc.ties=average``
gives every order of each group of tied documents the same weight: a tied
(relevant, negative) pair counts one half, the Mann-Whitney statistic that
scikit-learn's ``roc_auc_score`` and the CROC package's "smooth" tie mode
compute (a straight segment across the group).

Sources: LingPipe ``ScoredPrecisionRecallEvaluation.areaUnderRocCurve``;
Swamidass et al., "A CROC stronger than ROC", Bioinformatics 26(10), 2010.
"""
from __future__ import annotations

from ._base import Measure
from ._params import Ties, tie_rule
from .early_retrieval import Area, identity
from .ranked_curves import NEGATIVES_HELP, TIES_HELP, croc_area

auc_roc = Measure(
    name="auc_roc",
    formula=(
        r"\mathrm{auc\_roc} = \frac{1}{P} \sum_{t=1}^{P} (1 - \nu_t), \qquad \nu_t = "
        r"\frac{\text{negatives ranked above the } t\text{-th relevant document}}{N_{\mathrm{neg}}}"
    ),
    help=(
        "Area under the ROC step curve (LingPipe areaUnderRocCurve): the mean, over the "
        "relevant documents, of the share of negatives ranked below each one; relevant "
        "documents not retrieved add 0. " + NEGATIVES_HELP + " " + TIES_HELP
    ),
    kernel=lambda b, p: croc_area(b, ties=tie_rule(p)),
    params=Ties(),
    area=Area("fpr", identity),
    nicknames=frozenset({"extra"}),
    since="extra",
)
