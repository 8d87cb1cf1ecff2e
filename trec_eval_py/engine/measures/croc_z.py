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

# the modules, not their measures: a measure found in this module's namespace
# would be taken for one of its own
from . import auc_roc as _roc
from . import croc as _croc
from ._base import Measure
from .early_retrieval import area_measures


def _z_only(m: Measure) -> Measure:
    """The Z-score of the area measure ``m``, from its own :attr:`Measure.area`."""
    return area_measures(m.name, m.area, "", m.params)[1]


auc_roc_z = _z_only(_roc.auc_roc)
croc_exp_z = _z_only(_croc.croc_exp)
croc_pow_z = _z_only(_croc.croc_pow)
croc_log_z = _z_only(_croc.croc_log)
