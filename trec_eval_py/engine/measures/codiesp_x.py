"""Micro-averaged set precision, recall and F1 (``codiesp_x_P``,
``codiesp_x_R``, ``codiesp_x_F``): CodiEsp-X's official measures.

Per topic (a clinical case) they are set precision, set recall and their
harmonic mean, from trec_eval's counts: relevant retrieved (true positives),
retrieved and relevant. The summary is *not* the mean of those values but
the micro-average the campaign reports: the counts are added over the
topics first, then

    P = sum(relevant retrieved) / sum(retrieved)
    R = sum(relevant retrieved) / sum(relevant)
    F = 2 P R / (P + R)

Edge cases: P is 0 when nothing is retrieved, R is 0 when nothing is
relevant and F is 0 when P + R is 0 (the campaign's script sets F to 0 there
and fails on the other two). Topics averaged over are those of the summary:
under ``-c`` (implied by ``-R codiesp_x``) a judged topic without results
adds its relevant documents to R's divisor and nothing else. Under ``-Z`` the
summary is the mean of the z-scores, as for every measure.

With ``-R codiesp_x`` a "document" is a (case, code) pair and a retrieved
pair is relevant only when its text reference matches (see
:mod:`trec_eval_py.engine.inputs.codiesp_x`); with ordinary qrels these are
plain micro-averaged set measures.

Source: CodiEsp track (CLEF eHealth 2020) evaluation page and its script
``codiespX_evaluation.py`` (TeMU-BSC/codiesp-evaluation-script).
"""
from __future__ import annotations

import numpy as np

from ._base import Measure, SummaryFold, safe_div

_NICK = frozenset({"codiesp_x"})


def _counts(b, p) -> np.ndarray:
    """(n, 3): relevant retrieved, retrieved, relevant."""
    return np.stack([b.num_rel_ret, b.num_ret, b.num_rel], axis=1).astype(np.float64)


def _f1(P, R):
    P = np.asarray(P, dtype=np.float64)
    R = np.asarray(R, dtype=np.float64)
    s = P + R
    out = np.zeros(np.broadcast(P, R).shape, dtype=np.float64)
    np.divide(2.0 * P * R, s, out=out, where=s > 0)
    return out


def _totals(info) -> np.ndarray:
    """float64 (3,): relevant retrieved, retrieved and relevant, added over the
    topics of ``info.parts`` (whole counts: exact in any order of addition)."""
    parts = info.parts
    filled = np.zeros(len(parts), dtype=bool) if info.filled is None else np.asarray(info.filled, dtype=bool)
    # a filled-in topic retrieves nothing (10.0's placeholder document is no prediction)
    return np.array([parts[:, 0].sum(), parts[~filled, 1].sum(), parts[:, 2].sum()], dtype=np.float64)


def micro(info) -> tuple[float, float, float]:
    """``(P, R, F)`` from the counts in ``info.parts`` (see the module docstring)."""
    return _micro(_totals(info))


def _micro(totals) -> tuple[float, float, float]:
    tp, ret, rel = (float(x) for x in totals)
    P = tp / ret if ret > 0 else 0.0
    R = tp / rel if rel > 0 else 0.0
    F = (2.0 * P * R) / (P + R) if P + R > 0 else 0.0
    return P, R, F


def _summary(which: int):
    def summary(values, info):
        if info.parts is None:  # -Z: the mean of the z-scores
            return info.of(codiesp_x_P.aggregate, values)
        return micro(info)[which]
    return summary


def _fold(which: int) -> SummaryFold:
    # the counts of each range of topics are added up, then divided at the end
    return SummaryFold(chunk=lambda values, info: _totals(info),
                       combine=lambda state, totals: totals if state is None else state + totals,
                       finish=lambda state, info: _micro(np.zeros(3) if state is None else state)[which])


codiesp_x_P = Measure(
    name="codiesp_x_P",
    formula=(
        r"P_q = \frac{\mathrm{rel}_q(n_q)}{n_q}, \qquad \text{summary: } P = \frac{\sum_q "
        r"\mathrm{rel}_q(n_q)}{\sum_q n_q}\quad (0 \text{ if the divisor is } 0)"
    ),
    help=("Micro-averaged set precision (CodiEsp-X): per topic relevant retrieved / retrieved; "
          "the summary adds the counts over topics before dividing. 0 when nothing is retrieved."),
    kernel=lambda b, p: safe_div(b.num_rel_ret, b.num_ret),
    parts=_counts,
    summary=_summary(0),
    fold=_fold(0),
    nicknames=_NICK,
    since="extra",
)

codiesp_x_R = Measure(
    name="codiesp_x_R",
    formula=(
        r"R'_q = \frac{\mathrm{rel}_q(n_q)}{R_q}, \qquad \text{summary: } R' = \frac{\sum_q "
        r"\mathrm{rel}_q(n_q)}{\sum_q R_q}\quad (0 \text{ if the divisor is } 0)"
    ),
    help=("Micro-averaged set recall (CodiEsp-X): per topic relevant retrieved / relevant; "
          "the summary adds the counts over topics (every judged topic under -c) before dividing."),
    kernel=lambda b, p: safe_div(b.num_rel_ret, b.num_rel),
    parts=_counts,
    summary=_summary(1),
    fold=_fold(1),
    nicknames=_NICK,
    since="extra",
)

codiesp_x_F = Measure(
    name="codiesp_x_F",
    formula=(
        r"F = \frac{2 P R'}{P + R'}\quad (0 \text{ if } P + R' = 0),\qquad P, R' \text{ per topic, or "
        r"micro-averaged for the summary}"
    ),
    help=("Micro-averaged F1 (CodiEsp-X, its primary measure): 2PR/(P+R) of the micro-averaged "
          "precision and recall; per topic, of the topic's set precision and recall. 0 when P+R is 0."),
    kernel=lambda b, p: _f1(safe_div(b.num_rel_ret, b.num_ret), safe_div(b.num_rel_ret, b.num_rel)),
    parts=_counts,
    summary=_summary(2),
    fold=_fold(2),
    nicknames=_NICK,
    since="extra",
)
