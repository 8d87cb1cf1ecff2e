"""ROC area with a hard threshold (``auc_roc_t.T``) and up to the K-th false
positive (``auc_roc_fp.K``), with their Z-scores (``auc_roc_t_z``, ``auc_roc_fp_z``).

``auc_roc_t.T`` is the CROC area with the hard-threshold function
f(x) = min(x/T, 1) (Swamidass et al. 2010, equation 2): the mean over the
relevant documents of ``1 - min(fpr_i / T, 1)``, i.e. the area under the ROC
curve over false-positive rates [0, T] divided by T (the normalised partial
AUC; ranks of relevant documents after the threshold are ignored). T in ]0, 1];
T = 1 is ``auc_roc``. A random ranking scores T/2. The paper uses T = 0.5,
0.1 and 0.0086 (the thresholds matching alpha 7, 14 and 80); default 0.1.

``auc_roc_fp.K`` (ROC50 for K = 50, the paper's "AUC[ROC, FP = 50]") is the
same with the threshold at the K-th negative: the mean over the relevant
documents of ``1 - min(j_i / K, 1)``, j_i the negatives ranked above, which
equals Gribskov's ROC_K, (1/(K P)) * sum over the first K negatives of the
relevant documents above each. A list with fewer than K negatives is scored
up to its last negative (then it is ``auc_roc``). Missed relevant documents
add 0. A random ranking scores about K / (2n) for n negatives, n > K.

Topics without relevant documents score 0; negatives and list as ``auc_roc``
(``-N``). The ``_z`` scores use the exact finite-list mean and variance of a
random ranking.

Sources: Swamidass et al., "A CROC stronger than ROC", Bioinformatics 26(10),
2010, section 2.2 and Table 2; M. Gribskov and N. L. Robinson, "Use of
receiver operating characteristic (ROC) analysis to evaluate sequence
matching", Computers & Chemistry 20(1):25-33, 1996 (ROC_n).
"""
from __future__ import annotations

from ._params import IntCutoffs
from .early_retrieval import Area, UnitFloats, area_measures, fp_cutoff, hard_threshold
from .ranked_curves import NEGATIVES_HELP

auc_roc_t, auc_roc_t_z = area_measures(
    "auc_roc_t",
    Area("fpr", hard_threshold),
    "ROC area up to the false-positive rate T, divided by T (f(x) = min(x/T, 1) of Swamidass et "
    "al. 2010): the mean over the relevant documents of 1 - min(fpr/T, 1); a random ranking "
    "scores T/2. Parameters: -m auc_roc_t.T1,T2 with T in ]0, 1] (default 0.1), outputs "
    "auc_roc_t_T... " + NEGATIVES_HELP,
    UnitFloats((0.1,), "threshold"),
    formula=(
        r"\mathrm{auc\_roc\_t}_T = \frac{1}{P} \sum_{t=1}^{P} \Bigl(1 - \min\bigl(\tfrac{\nu_t}{T}, "
        r"1\bigr)\Bigr), \qquad \nu_t = \frac{\text{negatives ranked above the } t\text{-th relevant "
        r"document}}{N_{\mathrm{neg}}}"
    ),
)

auc_roc_fp, auc_roc_fp_z = area_measures(
    "auc_roc_fp",
    Area("fpr", fp_cutoff),
    "ROC area up to the K-th false positive (ROC50 for K = 50; Gribskov's ROC_n): the mean over "
    "the relevant documents of 1 - min(j/K, 1), j the negatives ranked above; a list with fewer "
    "than K negatives is scored up to its last one. Parameters: -m auc_roc_fp.K1,K2 (default 50), "
    "outputs auc_roc_fp_K... " + NEGATIVES_HELP,
    IntCutoffs((50,)),
    formula=(
        r"\mathrm{auc\_roc\_fp}_K = \frac{1}{P} \sum_{t=1}^{P} \Bigl(1 - \min\bigl(\tfrac{m_t}{K'}, "
        r"1\bigr)\Bigr), \qquad K' = \min(K, N_{\mathrm{neg}}),\ m_t = \text{negatives above the } "
        r"t\text{-th relevant document}"
    ),
)
