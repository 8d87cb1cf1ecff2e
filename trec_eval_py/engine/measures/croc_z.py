"""Z-scores of the ROC and CROC areas against a random ranking:
``auc_roc_z`` and ``croc_exp_z``, ``croc_pow_z``, ``croc_log_z``.

(area - E) / SD with the exact mean and variance of the area when the
relevant documents are placed uniformly at random in the same full list
(:mod:`.early_retrieval`); for ``auc_roc`` the variance is the Mann-Whitney
one, (P + n + 1) / (12 P n). Same parameters as ``auc_roc`` and ``croc_*``;
0 for a topic without relevant documents or without negatives.

Source: Swamidass et al., "A CROC stronger than ROC", Bioinformatics 26(10),
2010, section 2.1 ("the variance of the random AUC[ROC] ... can be estimated
analytically ... to derive a Z-score for the area").
"""
from __future__ import annotations

from .croc import DEFAULT_ALPHA
from ._base import Measure
from .early_retrieval import Area, area_measures, identity
from ._params import NoParams
from .ranked_curves import MAGNIFIERS, PositiveFloats


def _z_only(name: str, area: Area, params) -> Measure:
    return area_measures(name, area, "", params)[1]


auc_roc_z = _z_only("auc_roc", Area("fpr", identity), NoParams())
croc_exp_z = _z_only("croc_exp", Area("fpr", lambda x, a, n, s: MAGNIFIERS["exp"](x, a)),
                     PositiveFloats((DEFAULT_ALPHA["exp"],), "alpha"))
croc_pow_z = _z_only("croc_pow", Area("fpr", lambda x, a, n, s: MAGNIFIERS["pow"](x, a)),
                     PositiveFloats((DEFAULT_ALPHA["pow"],), "alpha"))
croc_log_z = _z_only("croc_log", Area("fpr", lambda x, a, n, s: MAGNIFIERS["log"](x, a)),
                     PositiveFloats((DEFAULT_ALPHA["log"],), "alpha"))
