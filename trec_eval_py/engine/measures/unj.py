"""Unjudged documents at cutoffs (trec_eval 10.0 ``unj``).

``unj_k`` is the fraction of the top ``k`` documents that have no judgment:
not in the qrels, or in the qrels with a negative level. A ranking shorter
than ``k`` is treated as padded with judged documents, so the count is still
divided by ``k``. A high value at small cutoffs warns that the run is poorly
covered by the judgments. With ``-J`` it is always 0. Default cutoffs 5, 10,
20. Summary: mean over topics. Source: trec_eval 10.0 ``m_unjudged.c``.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._params import IntCutoffs

DEFAULT_CUTOFFS = (5, 10, 20)


def _unj(b, p) -> np.ndarray:
    unjudged = np.cumsum(b.valid & (b.rel < 0), axis=1)
    return np.stack(
        [unjudged[:, min(k, b.width) - 1] / float(k) for k in p.values], axis=1
    )


UNJ = Measure(
    name="unj",
    formula=r"\mathrm{unj}_k = \frac{\bigl|\{\, i \le \min(k, n) : d_i \text{ unjudged} \,\}\bigr|}{k}",
    help=(
        "Unjudged at cutoffs: the fraction of the top k documents without a judgment "
        "(missing from the qrels or with a negative level); a short ranking counts as "
        "padded with judged documents. Cutoffs: -m unj.5,10"
    ),
    kernel=_unj,
    params=IntCutoffs(DEFAULT_CUTOFFS),
    nicknames=frozenset({"all_trec"}),
    since="10.0",
)
