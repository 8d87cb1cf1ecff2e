"""Reader for subtopic (intent) judgments: ``topic subtopic docno rel`` lines.

The layout of the TREC Web track's diversity qrels (2009-2014) and of NIST's
``ndeval``: the second field, where ordinary qrels carry an ignored
"iteration", names the subtopic (intent) of the topic that the judgment is
for. A document relevant to several subtopics has one line per subtopic.

* ``subtopic`` is a whole number, 0 or more (subtopics are told apart and
  ordered by their number);
* ``rel`` is a whole number, 0 or more: the document is relevant to that
  subtopic when ``rel`` is at least the relevance level (``-l``, default 1;
  ndeval clips every level above 1 to 1, which is the same thing);
* a (topic, subtopic, docno) may be judged once (the join checks it, see
  :mod:`trec_eval_py.engine.join.diversity`).

Blank lines and lines whose first non-blank character is ``#`` are skipped,
as in every judgment file this package reads.
"""
from __future__ import annotations

import numpy as np

from ..._record import record
from ...errors import InputError
from .fields import INT, TEXT, line_text, split_fields
from .source import Source, read_source, source_name


@record(eq=False)
class DiversityQrels:
    """Subtopic judgments as flat columns, one row per line.

    ``qid`` and ``docno`` are numpy byte-string arrays; ``subtopic`` and
    ``rel`` int64; ``lineno`` each row's line in ``name``.
    """

    qid: np.ndarray
    subtopic: np.ndarray
    docno: np.ndarray
    rel: np.ndarray
    lineno: np.ndarray
    name: str = "<qrels>"

    def __len__(self) -> int:
        return len(self.rel)

    def with_qids(self, qid: np.ndarray) -> DiversityQrels:
        """The same judgments with other topic ids (one per row)."""
        return DiversityQrels(np.asarray(qid), self.subtopic, self.docno, self.rel, self.lineno, self.name)


def _check(name: str):
    def check(f, data) -> None:
        sub, rel = f.columns[1], f.columns[3]
        bad = np.flatnonzero((sub < 0) | (rel < 0))
        if len(bad):
            i = int(bad[0])
            what = "subtopic" if sub[i] < 0 else "relevance"
            raise InputError(name, f"{what} {int(sub[i] if sub[i] < 0 else rel[i])} is negative "
                             "(subtopics and relevance levels are whole numbers, 0 or more)",
                             int(f.lineno[i]), line_text(bytes(data), int(f.lineno[i])))
    return check


def read_qrels_diversity(source: Source | DiversityQrels, *, name: str | None = None) -> DiversityQrels:
    """Read subtopic judgments from a path, ``-``, a file object or bytes.

    Raises :class:`~trec_eval_py.errors.InputError` (file, line, text) for a
    missing or empty file, a line without exactly four fields, a NUL byte, or a
    subtopic or relevance that is not a whole number 0 or more. An error at a
    line carries the rows before it as ``rows_before``, whose join may find an
    earlier (topic, subtopic, docno) judged twice.
    """
    if isinstance(source, DiversityQrels):
        return source
    name = name or source_name(source)
    data = read_source(source)
    try:
        f = split_fields(data, name, min_fields=4, max_fields=4, what="qrels",
                         wanted={0: TEXT, 1: INT, 2: TEXT, 3: INT}, labels={1: "subtopic", 3: "relevance"},
                         check=_check(name))
    except InputError as e:  # the lines before: the join still checks them (see InputError)
        before = e.fields_before
        if before is not None and len(before.lineno):
            c = before.columns
            e.rows_before = DiversityQrels(c[0], c[1], c[2], c[3], before.lineno, name)
        raise
    if len(f.lineno) == 0:
        raise InputError(name, "empty qrels file: no judgment lines")
    return DiversityQrels(f.columns[0], f.columns[1], f.columns[2], f.columns[3], f.lineno, name)
