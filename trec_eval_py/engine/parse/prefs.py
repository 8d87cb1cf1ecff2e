"""Readers for preference judgments (``-R prefs`` and ``-R qrels_prefs``).

``-R prefs`` lines have five fields::

    qid  jg  jsg  docno  level

``jg`` names a judgment group (one assessor's view of the topic at one
time) and ``jsg`` a sub-group inside it. Within a sub-group, a document
with a higher ``level`` is preferred to every document with a lower one;
equal levels express no preference. Levels are decimal numbers; only their
order matters, except that 0 marks a document the assessor found not
relevant (and other positive levels relevant).

``-R qrels_prefs`` reads an ordinary qrels file (``qid iter docno rel``)
the same way: ``iter`` becomes the judgment group and every line belongs to
one sub-group, so a graded qrels file says "higher grade preferred".

Both readers produce the same columnar :class:`Prefs`.
"""
from __future__ import annotations

import numpy as np

from ..._record import record
from ...errors import InputError
from .fields import FLOAT, TEXT, split_fields
from .source import Source, read_source, source_name


@record(eq=False)
class Prefs:
    """Preference judgments as flat columns, one row per input line.

    ``qid``, ``jg``, ``jsg`` and ``docno`` are numpy byte-string arrays,
    ``level`` is float64 and ``lineno`` the 1-based line of each row in
    ``name`` (for error messages).
    """

    qid: np.ndarray
    jg: np.ndarray
    jsg: np.ndarray
    docno: np.ndarray
    level: np.ndarray
    lineno: np.ndarray
    name: str = "<prefs>"

    def __len__(self) -> int:
        return len(self.level)


def _read(source, name, nfields: int, what: str) -> Prefs:
    name = name or source_name(source)
    data = read_source(source)
    level_col = nfields - 1
    wanted = {i: TEXT for i in range(level_col)}
    wanted[level_col] = FLOAT
    f = split_fields(data, name, min_fields=nfields, max_fields=nfields, wanted=wanted,
                     labels={level_col: "preference level"}, what=what)
    if len(f.lineno) == 0:
        raise InputError(name, f"empty {what} file: no judgment lines")
    c = f.columns
    if nfields == 5:
        jsg, docno = c[2], c[3]
    else:  # qrels layout: one sub-group per judgment group
        jsg, docno = np.full(len(f.lineno), b"0", dtype="S1"), c[2]
    return Prefs(c[0], c[1], jsg, docno, c[level_col], f.lineno, name)


def read_prefs(source: Source | Prefs, *, name: str | None = None) -> Prefs:
    """Read a ``-R prefs`` file (``qid jg jsg docno level``).

    Raises :class:`~trec_eval_py.errors.InputError` (with file and line) for
    a missing or empty file, a line without exactly five fields, a NUL byte,
    or a level that is not a decimal number. Comment lines (first non-blank
    byte ``#``) and blank lines are skipped.
    """
    if isinstance(source, Prefs):
        return source
    return _read(source, name, 5, "prefs")


def read_qrels_prefs(source: Source | Prefs, *, name: str | None = None) -> Prefs:
    """Read a qrels file (``qid iter docno rel``) as preferences (``-R qrels_prefs``).

    ``iter`` is the judgment group; every line is in sub-group ``0``. Same
    errors as :func:`read_prefs`, with four fields per line.
    """
    if isinstance(source, Prefs):
        return source
    return _read(source, name, 4, "qrels_prefs")
