"""Reader for qrels with judgment groups (``-R qrels_jg``).

Lines look like ordinary qrels, ``qid jg docno rel``, but the second field
names a judgment group (an assessor): each group is a complete, separate set
of judgments for the topic, and the ``*_avgjg`` measures score a ranking
against each group and average over the groups.
"""
from __future__ import annotations

import numpy as np

from ..._record import record
from ...errors import InputError
from .fields import INT, TEXT, split_fields
from .qrels import check_levels
from .source import Source, read_source, source_name


@record(eq=False)
class QrelsJG:
    """Judgments with judgment groups as flat columns, one row per line.

    ``qid``, ``jg`` and ``docno`` are numpy byte-string arrays, ``rel`` is
    int64, ``lineno`` the 1-based line of each row in ``name``.
    """

    qid: np.ndarray
    jg: np.ndarray
    docno: np.ndarray
    rel: np.ndarray
    lineno: np.ndarray
    name: str = "<qrels_jg>"

    def __len__(self) -> int:
        return len(self.rel)


def read_qrels_jg(source: Source | QrelsJG, *, name: str | None = None) -> QrelsJG:
    """Read a ``-R qrels_jg`` file.

    Raises :class:`~trec_eval_py.errors.InputError` (with file and line) for
    a missing or empty file, a line without exactly four fields, a NUL byte,
    or a relevance that is not an integer. Comment lines (first non-blank
    byte ``#``) and blank lines are skipped. Duplicate documents within one
    topic and group are reported by the join stage.
    """
    if isinstance(source, QrelsJG):
        return source
    name = name or source_name(source)
    data = read_source(source)
    f = split_fields(data, name, min_fields=4, max_fields=4, what="qrels_jg",
                     wanted={0: TEXT, 1: TEXT, 2: TEXT, 3: INT}, labels={3: "relevance"},
                     check=lambda f, d: check_levels(f.columns[3], f.lineno, name, d))
    if len(f.lineno) == 0:
        raise InputError(name, "empty qrels_jg file: no judgment lines")
    c = f.columns
    return QrelsJG(c[0], c[1], c[2], c[3], f.lineno, name)
