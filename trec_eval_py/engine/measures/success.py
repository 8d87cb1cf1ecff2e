"""Success at fixed cutoffs (trec_eval ``success``).

``success_k`` is 1 when at least one relevant document is in the top ``k``,
else 0; its mean is the fraction of topics with an early hit. Default
cutoffs 1, 5, 10. Source: trec_eval ``m_success.c`` (measure proposed by
Stephen Tomlinson).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._params import IntCutoffs

DEFAULT_CUTOFFS = (1, 5, 10)


def _success(b, p):
    return np.stack([(b.cum_rel_at(k) > 0).astype(np.float64) for k in p.values], axis=1)


success = Measure(
    name="success",
    formula=r"\mathrm{success}_k = [\, \mathrm{rel}(k) > 0 \,]",
    help=(
        "Success at cutoffs: 1 if a relevant document is in the top k, else 0. "
        "Cutoffs: -m success.1,5,10"
    ),
    kernel=_success,
    params=IntCutoffs(DEFAULT_CUTOFFS),
    nicknames=frozenset({"all_trec"}),
)
