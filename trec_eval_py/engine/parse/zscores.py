"""Reader for z-score reference files (``-Z``): ``qid measure mean stddev`` lines.

Each line gives, for one topic and one printed measure name (``map``,
``P_10``, ``iprec_at_recall_0.50``...), the mean and standard deviation of
that measure over some reference set of runs. With ``-Z`` every per-topic
value is reported as its distance from that mean in standard deviations
(see :mod:`trec_eval_py.engine.standardize`).

Rules, as for the other readers: fields are separated by blanks; blank lines
and lines whose first non-blank byte is ``#`` are skipped; a line must have
exactly four fields; ``mean`` and ``stddev`` must be decimal numbers (no
NaN). Unlike trec_eval, which reads numbers with ``atof`` (garbage becomes 0)
and silently keeps one of two lines for the same topic and measure, a bad
number or a repeated ``qid measure`` pair is an :class:`InputError` naming
the file and line.
"""
from __future__ import annotations

import numpy as np

from ..._record import record
from ...errors import InputError
from .fields import FLOAT, TEXT, split_fields
from .source import Source, line_text, read_source, source_name


@record(eq=False)
class ZScores:
    """Reference means and deviations as flat columns sorted by (measure, qid).

    ``qid`` and ``measure`` are numpy byte-string arrays; ``mean``, ``stddev``
    float64; ``lineno`` each row's line in ``name``.
    """

    qid: np.ndarray
    measure: np.ndarray
    mean: np.ndarray
    stddev: np.ndarray
    lineno: np.ndarray
    name: str = "<zscores>"

    def __post_init__(self):
        # each measure's row span, found on first lookup (a cache, not a field)
        self.__dict__["_spans"] = {}

    def __len__(self) -> int:
        return len(self.mean)

    def _span(self, measure: bytes) -> tuple[int, int]:
        spans: dict[bytes, tuple[int, int]] = self.__dict__["_spans"]  # not a field: set in __post_init__
        span = spans.get(measure)
        if span is None:
            lo = int(np.searchsorted(self.measure, measure, side="left"))
            hi = int(np.searchsorted(self.measure, measure, side="right"))
            span = spans[measure] = (lo, hi)
        return span

    def lookup(self, measure: str, qids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(mean, stddev, found)`` for output ``measure`` of each topic in ``qids``.

        ``qids`` is a byte-string array; where ``found`` is false the mean and
        deviation are 0 and mean nothing.
        """
        lo, hi = self._span(measure.encode("utf-8", "surrogateescape"))
        n = len(qids)
        mean = np.zeros(n, dtype=np.float64)
        sd = np.zeros(n, dtype=np.float64)
        if hi == lo or n == 0:
            return mean, sd, np.zeros(n, dtype=bool)
        keys = self.qid[lo:hi]
        pos = np.searchsorted(keys, qids)
        at = np.minimum(pos, hi - lo - 1)
        found = (pos < hi - lo) & (keys[at] == qids)
        mean[found] = self.mean[lo + at[found]]
        sd[found] = self.stddev[lo + at[found]]
        return mean, sd, found

    def to_dict(self) -> dict[str, dict[str, tuple[float, float]]]:
        """``{qid: {measure: (mean, stddev)}}``."""
        out: dict[str, dict[str, tuple[float, float]]] = {}
        for q, m, mu, sd in zip(self.qid.tolist(), self.measure.tolist(), self.mean.tolist(), self.stddev.tolist()):
            out.setdefault(q.decode("utf-8", "surrogateescape"), {})[m.decode("utf-8", "surrogateescape")] = (mu, sd)
        return out


def _check_lines(name: str):
    """The line rules after splitting (in line order with the splitter's, see
    :func:`~.fields.split_fields`): no NaN, no topic and measure given twice."""
    def check(f, data):
        for col, what in ((f.columns[2], "mean"), (f.columns[3], "standard deviation")):
            bad = np.flatnonzero(np.isnan(col))
            if len(bad):
                ln = int(f.lineno[bad[0]])
                raise InputError(name, f"{what} is not a number (NaN)", ln, line_text(bytes(data), ln))
        qid, meas, lineno = f.columns[0], f.columns[1], f.lineno
        order = np.lexsort((qid, meas))
        qid, meas, lineno = qid[order], meas[order], lineno[order]
        dup = np.flatnonzero((qid[1:] == qid[:-1]) & (meas[1:] == meas[:-1]))
        if len(dup):
            # report the later of the first repeated pair, with the earlier line for reference
            pairs = [(max(int(lineno[i]), int(lineno[i + 1])), min(int(lineno[i]), int(lineno[i + 1]))) for i in dup]
            ln, first = min(pairs)
            raise InputError(name, f"topic and measure already given on line {first}", ln,
                             line_text(bytes(data), ln))
    return check


def read_zscores(source: Source | ZScores, *, name: str | None = None) -> ZScores:
    """Read a z-score file from a path, ``-``, a file object or bytes.

    Raises :class:`~trec_eval_py.errors.InputError` for a missing or empty
    file, a line without exactly four fields, a NUL byte, a mean or deviation
    that is not a decimal number (NaN included), or a topic and measure given
    on two lines.
    """
    if isinstance(source, ZScores):
        return source
    name = name or source_name(source)
    data = read_source(source)
    f = split_fields(data, name, min_fields=4, max_fields=4, what="zscores",
                     wanted={0: TEXT, 1: TEXT, 2: FLOAT, 3: FLOAT},
                     labels={2: "mean", 3: "standard deviation"}, check=_check_lines(name))
    if len(f.lineno) == 0:
        raise InputError(name, "empty zscores file: no 'qid measure mean stddev' lines")
    qid, meas, mean, sd = (f.columns[k] for k in range(4))
    order = np.lexsort((qid, meas))
    qid, meas, mean, sd, lineno = qid[order], meas[order], mean[order], sd[order], f.lineno[order]
    return ZScores(qid, meas, mean, sd, lineno, name)
