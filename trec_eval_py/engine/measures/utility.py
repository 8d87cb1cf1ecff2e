"""Set utility (trec_eval ``utility``).

From the contingency table of one topic (a = relevant retrieved, b =
non-relevant retrieved, c = relevant not retrieved, d = non-relevant not
retrieved, with d = N - a - b - c for the collection size N given by ``-N``),
utility is ``p1*a + p2*b + p3*c + p4*d``. Parameters ``-m utility.p1,p2,p3,p4``
(exactly four), default 1,-1,0,0 (i.e. a - b). "Retrieved" means the ranking
after ``-M`` and ``-J``; documents not in the qrels count as non-relevant.
With parameters given, the printed name carries them as typed
(``utility_1,-1,0,0``). The summary is the arithmetic mean over topics.

Topics filled in by ``-c`` follow the version's rule in
:mod:`trec_eval_py.engine.join.empty_topics` (10.0 resets plain ``utility`` only).

Source: trec_eval ``m_utility.c``.
"""
from __future__ import annotations

import numpy as np

from ..._record import record
from ...errors import MeasureError
from ._base import Measure
from ._params import FloatParams
from ._set_counts import num_rel, num_rel_ret


@record
class UtilityParams(FloatParams):
    """Four float coefficients."""

    def _parse(self, measure: str, text: str) -> tuple:
        vals = super()._parse(measure, text)
        if len(vals) != 4:
            raise MeasureError(
                f"measure '{measure}' takes exactly 4 coefficients (p1,p2,p3,p4), got {len(vals)} in {text!r}"
            )
        return vals


def _utility(b, p) -> np.ndarray:
    p1, p2, p3, p4 = p.values
    ret = b.num_ret.astype(np.int64)
    rel_ret = num_rel_ret(b)
    rel = num_rel(b)
    n = b.ctx.num_docs_in_coll
    # the same term order as trec_eval; each count is an integer before scaling
    val = p1 * rel_ret.astype(np.float64) + p2 * (ret - rel_ret).astype(np.float64)
    val = val + p3 * (rel - rel_ret).astype(np.float64)
    return val + p4 * (n + rel_ret - ret - rel).astype(np.float64)


utility = Measure(
    name="utility",
    formula=(
        r"\mathrm{utility} = p_1 a + p_2 b + p_3 c + p_4 d, \qquad a = \mathrm{rel}(n),\ b = n - a,\ c = "
        r"R - a,\ d = N_{\text{coll}} - a - b - c"
    ),
    help=(
        "Set utility p1*a + p2*b + p3*c + p4*d over the contingency table (a relevant "
        "retrieved, b non-relevant retrieved, c relevant missed, d non-relevant missed; d needs "
        "-N). Parameters: -m utility.p1,p2,p3,p4 (exactly four), default 1,-1,0,0. Averaged "
        "over topics."
    ),
    kernel=_utility,
    params=UtilityParams((1.0, -1.0, 0.0, 0.0)),
    nicknames=frozenset({"all_trec", "set"}),
)
