"""The relevance of the top documents as a string (trec_eval ``relstring``).

One character per document for the first N retrieved (default 10; ``-m
relstring.20``): the judged level when it is 0-9, ``>`` above 9, ``-`` for a
document not in the judgments, ``.`` for one pooled but left unjudged, ``<``
for any other value. Printed between single quotes (``'0000011000'``), for
each topic only; there is no summary line. A shorter ranking gives a shorter
string, an empty one ``''``. Source: trec_eval ``m_relstring.c``.
"""
from __future__ import annotations

import numpy as np

from ..join.batch import NONPOOL, UNJUDGED
from ._base import Agg, Kind, Measure, c_long
from ._params import FloatParams


def _relstring(b, p):
    length = max(int(c_long(np.trunc(p.values[0]))), 0)  # C casts the parameter to long
    shown = min(length, b.width)
    codes = b.rel[:, :shown]
    chars = np.select(
        [codes > 9, codes >= 0, codes == NONPOOL, codes == UNJUDGED],
        [ord(">"), codes + ord("0"), ord("-"), ord(".")],
        default=ord("<"),
    ).astype(np.uint8)
    lens = np.minimum(b.num_ret, shown)  # num_ret <= width: the same as min(num_ret, length), in int64
    # every topic's quoted string at once: rows of "'" chars "'" "\n", NUL
    # padded; dropping the NULs leaves the lines (no code maps to NUL or '\n')
    rows = np.zeros((b.n, shown + 3), dtype=np.uint8)
    rows[:, 0] = ord("'")
    rows[:, 1 : shown + 1] = np.where(np.arange(shown) < lens[:, None], chars, 0)
    idx = np.arange(b.n)
    rows[idx, lens + 1] = ord("'")
    rows[idx, lens + 2] = ord("\n")
    out = np.empty(b.n, dtype=object)
    out[:] = rows.tobytes().replace(b"\0", b"").decode("ascii").split("\n")[: b.n]
    return out


relstring = Measure(
    name="relstring",
    formula=(
        r"\mathrm{relstring}_m = c(d_1)\, c(d_2) \cdots c(d_{\min(m, n)}), \qquad c(d) = \begin{cases} "
        r"\ell & 0 \le \ell \le 9 \\ \texttt{>} & \ell > 9 \\ \texttt{-} & d \text{ not in the judgments} "
        r"\\ \texttt{.} & \text{pooled, unjudged} \\ \texttt{<} & \text{any other level} \end{cases}"
    ),
    help=(
        "The judged levels of the first N documents (default 10, -m relstring.20) as a "
        "quoted string: digits 0-9, '>' above 9, '-' not judged (not in the pool), '.' "
        "pooled but unjudged, '<' any other value. Per topic only."
    ),
    kernel=_relstring,
    kind=Kind.STR,
    params=FloatParams((10.0,)),
    aggregate=Agg.NONE,
    nicknames=frozenset({"all_trec"}),
)
