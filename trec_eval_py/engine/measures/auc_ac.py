"""Area under the accumulation curve (``auc_ac``) and its Z-score (``auc_ac_z``).

The accumulation (enrichment) curve plots the true-positive rate against the
fraction of the list ranked so far. Its area is the mean over the topic's P
relevant documents of ``1 - r/N``, r the document's 1-based rank in the full
list of N documents (Swamidass et al. 2010, section 2.5: positives at ranks
{1, 2, 4, 5, 7} of 10 score 1 - mean{.1, .2, .4, .5, .7} = 0.62).

It is an affine function of the ROC area of the same list (n negatives):
``auc_ac = 1 - (P + 1) / (2N) - (n / N) (1 - auc_roc)``. A random ranking
scores (N - 1) / (2N) on average, 1/2 for long lists (the paper's 0.5); the
best ranking 1 - (P + 1)/(2N), the worst (P - 1)/(2N) - a perfect ranking does
not reach 1, which is why the paper shades the region outside the best and
worst curves.

The full list, its negatives and the missed relevant documents (the last
ranks) are those of ``auc_roc`` (see ``-N``). Topics without relevant
documents score 0. ``auc_ac_z`` is the Z-score against a random ranking with
the exact finite-list mean and variance (ranks sampled without replacement).

Source: S. J. Swamidass, C.-A. Azencott, K. Daily, P. Baldi, "A CROC stronger
than ROC", Bioinformatics 26(10):1348-1356, 2010, sections 2.1 and 2.5.
"""
from __future__ import annotations

from ._params import NoParams
from .early_retrieval import Area, area_measures, identity
from .ranked_curves import NEGATIVES_HELP

auc_ac, auc_ac_z = area_measures(
    "auc_ac",
    Area("rank", identity),
    (
        "Area under the accumulation curve (true-positive rate against the fraction of the "
        "list ranked; Swamidass et al. 2010): the mean over the relevant documents of "
        "1 - r/N, r the rank in the full list of N documents; a random ranking scores about "
        "0.5. " + NEGATIVES_HELP
    ),
    NoParams(),
    formula=r"\mathrm{auc\_ac} = \frac{1}{P} \sum_{t=1}^{P} \Bigl(1 - \frac{r_t}{N}\Bigr)",
)
