"""The Bejeweled Player Model, static and dynamic (``cwl_bpm``, ``cwl_bpm_dyn``).

Zhang, Liu, Li, Zhang, Xu and Ma, "Evaluating Web Search with a Bejeweled
Player Model", SIGIR 2017. The user stops as soon as either budget is spent:
they want ``T`` units of gain (``T=``, default 1) and will pay ``K`` units of
cost (``K=``, default 10; each document costs 1, so ``K`` documents). With
``G(i) = g(1) + ... + g(i)`` and ``i`` the cost spent after rank ``i``:

* ``cwl_bpm`` (static; ir_measures' ``BPM(T=..)@K``):
  ``C(i) = 1`` while ``G(i) < T`` and ``i < K``, then 0 from the first rank
  where either fails. The user reads ranks ``1..s`` evenly (``W = 1/s``), so
  the value is the gain of those ranks over ``s``: with no relevant
  document it is 0 and ``s`` is ``min(ceil(K), depth)``.
* ``cwl_bpm_dyn`` (dynamic): the budgets move with what is found. Starting
  from ``T_1 = T`` and ``K_1 = K``, after rank ``i``
  ``T_(i+1) = T_i + hb * (g(i) - med)`` and ``K_(i+1) = K_i + hc * (g(i) - med)``
  (``hb=``, ``hc=`` default 1, ``med=`` the median gain, default 0.5): a
  document better than the median raises both, a worse one lowers them.
  ``C(i) = 1`` while ``G(j) < T_j`` and ``j < K_j`` for every ``j <= i``.

See :mod:`._cwl` for W, the gains and the outputs ETU, EC, ETC, ED.
cwl_eval's ``BPMCWLMetric`` and ``BPMDCWLMetric``. The difference: cwl_eval's
dynamic model updates ``T`` (not ``K``) with ``hc`` inside its cost loop,
after the gain condition has been decided, so there ``hc`` changes nothing
and ``K`` stays fixed; here ``hc`` moves ``K`` as the paper describes. With
``hc=0`` the two agree (tests/engine/measures/test_m_cwl.py checks both ways).

Source: Zhang et al., "Evaluating Web Search with a Bejeweled Player Model",
SIGIR 2017; cwl_eval's ``BPMCWLMetric`` and ``BPMDCWLMetric``.
"""
from __future__ import annotations

import numpy as np

from ._cwl import Field, cwl_measure, ranks


def _static(g, s, depth):
    return ((np.cumsum(g, axis=1) < s["T"]) & (ranks(depth) < s["K"])).astype(np.float64)


def _budget(start: float, scale: float, g: np.ndarray, med: float) -> np.ndarray:
    """The budget in force at each rank: ``start``, then each rank's change added in turn."""
    steps = np.empty_like(g)
    steps[:, 0] = start
    steps[:, 1:] = scale * (g[:, :-1] - med)
    return np.cumsum(steps, axis=1)


def _dynamic(g, s, depth):
    med = s["med"]
    keep = (np.cumsum(g, axis=1) < _budget(s["T"], s["hb"], g, med)) & (
        ranks(depth) < _budget(s["K"], s["hc"], g, med))
    # the user stops at the first rank where a budget is spent, whatever follows
    return np.logical_and.accumulate(keep, axis=1).astype(np.float64)


CWL_BPM = cwl_measure(
    "cwl_bpm",
    "Bejeweled Player Model, static (Zhang et al. 2017): the user reads on while the "
    "gain found is below T (T=1) and the documents read below K (K=10), then stops. "
    "ir_measures' BPM(T=..)@K.",
    (Field("T", 1.0, "positive", "gain the user wants"),
     Field("K", 10.0, "positive", "cost (documents) the user will spend")),
    "T=2,K=20",
    continuation=_static,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = [\, \textstyle\sum_{j \le i} g_j < T \text{ and } i < K \,]"
    ),
)

CWL_BPM_DYN = cwl_measure(
    "cwl_bpm_dyn",
    "Bejeweled Player Model, dynamic (Zhang et al. 2017): cwl_bpm whose budgets T and K "
    "move by hb*(gain-med) and hc*(gain-med) after each document (hb=1, hc=1, med=0.5).",
    (Field("T", 1.0, "positive", "gain the user wants at first"),
     Field("K", 10.0, "positive", "cost (documents) the user will spend at first"),
     Field("hb", 1.0, "real", "change of T per unit of gain above med"),
     Field("hc", 1.0, "real", "change of K per unit of gain above med"),
     Field("med", 0.5, "prob", "median gain")),
    "T=2,K=20,hb=0.5,hc=2",
    continuation=_dynamic,
    formula=(
        r"\mathrm{EU} = \sum_{i=1}^{D} W(i)\, g_i, \qquad W(i) = \frac{\prod_{j < i} C(j)}{\sum_{m=1}^{D} "
        r"\prod_{j < m} C(j)}, \qquad C(i) = \prod_{u \le i} [\, \textstyle\sum_{j \le u} g_j < T_u "
        r"\text{ and } u < K_u \,],\ T_{u+1} = T_u + h_b (g_u - \mathrm{med}),\ K_{u+1} = K_u + h_c (g_u "
        r"- \mathrm{med})"
    ),
)
