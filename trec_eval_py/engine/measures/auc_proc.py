"""Areas under the log-scaled ROC and accumulation curves: ``auc_proc``,
``auc_pac`` and their Z-scores ``auc_proc_z``, ``auc_pac_z``.

Clark and Webster-Clark's pROC curve plots the true-positive rate against
p(x) = log10(max(x, 0.5/N)) of the false-positive rate, N the number of
documents in the full list (the floor keeps x = 0 finite); the pAC curve does
the same to the fraction of the list ranked (Swamidass et al. 2010, section 6
and Figure 1). Both curves run from x = log10(0.5/N) to 0. We report the area
divided by that width, i.e. the CROC area with
f(x) = 1 - p(x) / log10(0.5/N): the mean over the topic's relevant documents
of ``log10(max(x_i, 0.5/N)) / log10(0.5/N)`` with x_i the document's
false-positive rate (pROC) or r_i/N (pAC, r_i its 1-based rank). A document
ranked first without a negative above scores 1, one below every negative 0.

The scale makes the area depend on N: a long random ranking scores about
(1 - 0.5/N) / ln(2N) (:func:`log_floor_random_area`); the ``_z`` scores
use the exact finite-list mean and variance. The sum of log ranks (SLR) of
Zhao et al. 2009 is an affine transform of ``auc_pac``. Topics without
relevant documents score 0; list and negatives as ``auc_roc``.

Sources: R. D. Clark and D. J. Webster-Clark, "Managing bias in ROC curves",
J. Comput. Aided Mol. Des. 22:141-146, 2008; Swamidass et al., "A CROC
stronger than ROC", Bioinformatics 26(10), 2010, equation 11.
"""
from __future__ import annotations

from ._params import NoParams
from .early_retrieval import Area, area_measures, log_floor, log_floor_random_area  # noqa: F401
from .ranked_curves import NEGATIVES_HELP

_SCALE = (
    "log10(max(x, 0.5/N)) / log10(0.5/N), N the full list's length (the area under the "
    "log-scaled curve divided by its width; Clark and Webster-Clark 2008, Swamidass et al. 2010). "
)

auc_proc, auc_proc_z = area_measures(
    "auc_proc",
    Area("fpr", log_floor),
    "Area under the pROC curve (false-positive rate on a log10 axis): the mean over the relevant "
    "documents of " + _SCALE + "x being the document's false-positive rate. " + NEGATIVES_HELP,
    NoParams(),
    formula=(
        r"\mathrm{auc\_proc} = \frac{1}{P} \sum_{t=1}^{P} \frac{\log_{10} "
        r"\max(x_t,\ 0.5/N)}{\log_{10}(0.5/N)}, \qquad x_t = \nu_t"
    ),
)

auc_pac, auc_pac_z = area_measures(
    "auc_pac",
    Area("rank", log_floor),
    "Area under the pAC curve (fraction of the list ranked on a log10 axis): the mean over the "
    "relevant documents of " + _SCALE + "x = r/N, r the document's rank in the full list. "
    + NEGATIVES_HELP,
    NoParams(),
    formula=(
        r"\mathrm{auc\_pac} = \frac{1}{P} \sum_{t=1}^{P} \frac{\log_{10} "
        r"\max(x_t,\ 0.5/N)}{\log_{10}(0.5/N)}, \qquad x_t = \frac{r_t}{N}"
    ),
)
