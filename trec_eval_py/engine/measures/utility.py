"""Set utility (trec_eval ``utility``).

From the contingency table of one topic (a = relevant retrieved, b =
non-relevant retrieved, c = relevant not retrieved, d = non-relevant not
retrieved, with d = N - a - b - c for the collection size N given by ``-N``),
utility is ``p1*a + p2*b + p3*c + p4*d``. Parameters ``-m utility.p1,p2,p3,p4``
(exactly four), default 1,-1,0,0 (i.e. a - b). "Retrieved" means the ranking
after ``-M`` and ``-J``; documents not in the qrels count as non-relevant.
With parameters given, the printed name carries them as typed
(``utility_1,-1,0,0``). The summary is the arithmetic mean over topics.

Topics filled in by ``-c`` (no results): trec_eval 9.0.8 does not evaluate
them, so they add 0 to the mean. trec_eval 10.0 evaluates them as a ranking of
one unjudged document, then resets the value to 0 only when the measure is
printed under its plain name ``utility``; with parameters the value computed
from that one-document ranking stands. Both are reproduced.

Source: trec_eval ``m_utility.c`` and ``trec_eval.c``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import MeasureError
from ._base import Measure
from ._params import FloatParams
from ._set_counts import num_rel, num_rel_ret


@dataclass(frozen=True)
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
    if b.ctx.v10 and p.text is not None:
        # 10.0 scores a topic without results as a one-document ranking whose
        # document is not in the qrels (dropped by -J, or by -M 0).
        bogus = 0 if (b.ctx.judged_only or b.ctx.max_docs == 0) else 1
        ret = np.where(b.filled, bogus, ret)
    n = b.ctx.num_docs_in_coll
    # the same term order as trec_eval; each count is an integer before scaling
    val = p1 * rel_ret.astype(np.float64) + p2 * (ret - rel_ret).astype(np.float64)
    val = val + p3 * (rel - rel_ret).astype(np.float64)
    val = val + p4 * (n + rel_ret - ret - rel).astype(np.float64)
    if p.text is None or not b.ctx.v10:
        # 9.0.8 skips topics without results; 10.0 zeroes plain ``utility`` for them
        val = np.where(b.filled, 0.0, val)
    return val


utility = Measure(
    name="utility",
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
