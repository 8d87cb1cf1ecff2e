"""Expected reciprocal rank at cutoffs (``err``), with gdeval's graded gains.

A document judged at grade g (clipped to 0..4; unjudged and negative grades
are 0) satisfies the user with probability R(g) = (2^g - 1) / 2^4. The user
scans down the ranking and stops at the first satisfying document; ERR is
the expected reciprocal of the stopping rank::

    ERR@k = sum_{i=1..k} R(g_i) / i * prod_{j<i} (1 - R(g_j))

accumulated in rank order as gdeval.pl does (term ``R * decay / i``, then
``decay *= 1 - R``). Ranks past the end of a short ranking add nothing. The
grades are used as they are: ``-l`` does not apply. 4 is gdeval's maximum
grade (it rejects higher ones; here they count as 4). A topic with no
relevant documents is evaluated like any other (ERR does not look at the
judgments of unretrieved documents). Default cutoff 20 (gdeval's).

Sources: O. Chapelle, D. Metzler, Y. Zhang, P. Grinspan, "Expected reciprocal
rank for graded relevance", CIKM 2009; gdeval.pl of the TREC Web track.
"""
from __future__ import annotations

import numpy as np

from ._base import Measure
from ._params import IntCutoffs

MAX_GRADE = 4


def _err(b, p) -> np.ndarray:
    g = np.clip(b.rel, 0, MAX_GRADE).astype(np.float64)
    r = (np.exp2(g) - 1.0) / float(2 ** MAX_GRADE)
    decay = np.ones_like(r)
    if b.width > 1:
        decay[:, 1:] = np.cumprod(1.0 - r[:, :-1], axis=1)
    terms = r * decay / b.ranks[None, :]
    cs = np.cumsum(terms, axis=1)
    return np.stack([cs[:, min(k, b.width) - 1] for k in p.values], axis=1)


err = Measure(
    name="err",
    formula=(
        r"\mathrm{err}_k = \sum_{i=1}^{\min(k, n)} \frac{\pi_i}{i} \prod_{j < i} (1 - \pi_j), \qquad "
        r"\pi_i = \frac{2^{\min(\max(\ell_i, 0), 4)} - 1}{16}"
    ),
    help=(
        "Expected reciprocal rank at cutoff k (Chapelle et al. 2009; gdeval.pl's "
        "arithmetic): sum over ranks i <= k of R_i/i times the product of (1 - R_j) over "
        "earlier ranks, with R = (2^grade - 1)/16, grades clipped to 0..4 (unjudged: 0). "
        "Uses the grades directly; -l does not apply. Cutoffs: -m err.10,20 (default 20)."
    ),
    kernel=_err,
    params=IntCutoffs((20,)),
    nicknames=frozenset({"extra"}),
    since="extra",
)
