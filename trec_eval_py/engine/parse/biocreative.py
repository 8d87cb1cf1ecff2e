"""Readers for the BioCreative II.5 files: results and gold standards of its
three tasks (INT, IPT, ACT).

Every line holds single-tab-separated columns (the campaign's rule: a blank
inside a column, an empty column or a line with another number of columns is
an error naming the file and line). Blank lines and lines whose first
non-blank character is ``#`` are skipped, as in the other readers.

Results (``-T biocreative_*``), one hit a line::

    INT   DOI  accession             rank  confidence
    IPT   DOI  accession  accession  rank  confidence
    ACT   DOI  class                 rank  confidence

Gold standards (``-R biocreative_*``): the same columns without rank and
confidence.

What becomes of them (so that the ordinary qrels join and measures apply):

* INT and IPT: each article (DOI) is a topic; its hits are the documents.
  An IPT pair is unordered: ``A B`` and ``B A`` are one pair, whose docno is
  the two accessions in byte order joined by ``|`` (so ``|`` may not occur in
  an IPT accession). A pair listed twice, swapped or not, is an error, as is
  an accession listed twice for one article.
* ACT: the whole file is one ranking of articles, topic ``ACT``; the docno is
  the DOI and the gold class is the relevance (1 relevant, 0 not). An article
  listed twice is an error.

The page's checks on results (BioCreative II.5, "Result evaluation",
section 3.2): ranks are whole numbers that start at 1 and go up by one from
line to line within each article (within each class for ACT): unique,
consecutive and ascending in the order listed; confidences lie in ]0, 1].
Confidences should not rise as ranks go down the list: where one does, an
:class:`~trec_eval_py.errors.InputWarning` says so (one per line) and reading
goes on.

Ranking: the rank column (kept in :attr:`Run.rank`, see
:mod:`trec_eval_py.engine.join.order`); the confidence is the run's score,
which ranks nothing unless ``--order score`` is asked for. ACT joins its two
lists as the page prescribes: the positive hits (class 1) by rank, followed by
the negative hits (class 0) in *inverted* rank order. A negative ranked 1 is
the article its system is surest has no interaction, so it goes last. With
``P`` positive and ``N`` negative hits, a positive of rank ``r`` takes place
``r`` and a negative of rank ``r`` takes place ``P + N - r + 1``, which is
the rank column the run carries.

The run id (trec_eval prints it in the ``runid`` line) is the file's base
name: these files have no run id column.
"""
from __future__ import annotations

import os
import re
import warnings

import numpy as np

from ..._record import record
from ...errors import InputError, InputWarning
from .fields import has_bare_cr
from .numbers import FLOAT_RE
from .qrels import Qrels
from .run import Run
from .source import Source, read_source, skip_bom, source_name

#: the one topic of an ACT file (a single ranking of articles)
ACT_TOPIC = b"ACT"
#: joins the two accessions of an IPT pair into one docno
PAIR_SEPARATOR = b"|"


@record
class Task:
    """The columns of one task's files."""

    name: str  # INT, IPT or ACT
    keys: tuple[str, ...]  # what the columns before rank and confidence hold

    @property
    def gold_columns(self) -> int:
        return len(self.keys)

    @property
    def result_columns(self) -> int:
        return len(self.keys) + 2


TASKS = {
    "int": Task("INT", ("DOI", "accession")),
    "ipt": Task("IPT", ("DOI", "accession A", "accession B")),
    "act": Task("ACT", ("DOI", "class")),
}

_BLANK = re.compile(rb"[ \t\r\x0b\x0c]")
_RANK = re.compile(rb"[0-9]+")


def _text(line: bytes) -> str:
    return line.decode("utf-8", "replace")


def _lines(data: bytes, name: str):
    """``(line number, line)`` of every content line: NUL bytes and carriage
    returns inside a line are errors; a CRLF ending is a line ending."""
    nul = data.find(b"\0")
    for i, line in enumerate(data.split(b"\n"), 1):
        if nul >= 0 and b"\0" in line:
            raise InputError(name, "NUL byte in the input", i)
        if line.endswith(b"\r"):
            line = line[:-1]
        if has_bare_cr(line + b"\n"):
            raise InputError(name, "carriage return inside a line (CR-only line endings are not supported)",
                             i, _text(line))
        stripped = line.strip(b" \t\r\x0b\x0c")
        if not stripped or stripped.startswith(b"#"):
            continue
        yield i, line


def _columns(line: bytes, lineno: int, n: int, what: str, name: str) -> list[bytes]:
    cols = line.split(b"\t")
    if len(cols) != n:
        reason = f"{what} line has {len(cols)} tab-separated column{'s' if len(cols) != 1 else ''}, needs {n}"
        if len(line.split()) == n:
            reason += " (columns are separated by single tabs, not spaces)"
        raise InputError(name, reason, lineno, _text(line))
    for k, c in enumerate(cols, 1):
        if not c:
            raise InputError(name, f"column {k} is empty (columns are separated by single tabs)",
                             lineno, _text(line))
        if _BLANK.search(c):
            raise InputError(name, f"column {k} holds a blank (columns are separated by single tabs)",
                             lineno, _text(line))
    return cols


def _label(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def _class(tok: bytes, lineno: int, line: bytes, name: str) -> int:
    if tok not in (b"0", b"1"):
        raise InputError(name, f"class must be 0 (negative) or 1 (positive), not {_label(tok)!r}",
                         lineno, _text(line))
    return int(tok)


def _pair(a: bytes, b: bytes, lineno: int, line: bytes, name: str) -> bytes:
    for acc in (a, b):
        if PAIR_SEPARATOR in acc:
            raise InputError(name, f"accession {_label(acc)!r} holds '|', which joins the two accessions "
                             "of a pair", lineno, _text(line))
    return PAIR_SEPARATOR.join(sorted((a, b)))


class _Keys:
    """The hits (or gold entries) seen so far: a second one with the same key is an error."""

    def __init__(self, task: Task, name: str):
        self.task, self.name = task, name
        self.seen: dict[tuple[bytes, bytes], tuple[int, tuple[bytes, ...]]] = {}

    def add(self, cols: list[bytes], lineno: int, line: bytes) -> tuple[bytes, bytes]:
        """``(topic, docno)`` of the line's hit."""
        task, doi = self.task.name, cols[0]
        if task == "INT":
            key = (doi, cols[1])
        elif task == "IPT":
            key = (doi, _pair(cols[1], cols[2], lineno, line, self.name))
        else:
            key = (ACT_TOPIC, doi)
        if key in self.seen:
            first, given = self.seen[key]
            if task == "ACT":
                reason = f"article {_label(doi)} is listed twice (also line {first})"
            elif task == "IPT" and given != (cols[1], cols[2]):
                reason = (f"pair {_label(cols[1])} {_label(cols[2])} of article {_label(doi)} repeats "
                          f"line {first}'s pair with its columns swapped (a pair is unordered)")
            elif task == "IPT":
                reason = (f"pair {_label(cols[1])} {_label(cols[2])} of article {_label(doi)} is listed twice "
                          f"(also line {first})")
            else:
                reason = f"accession {_label(cols[1])} of article {_label(doi)} is listed twice (also line {first})"
            raise InputError(self.name, reason, lineno, _text(line))
        self.seen[key] = (lineno, tuple(cols[1:3]))
        return key


def _rank(tok: bytes, lineno: int, line: bytes, name: str) -> int:
    if not _RANK.fullmatch(tok) or int(tok) < 1:
        raise InputError(name, f"rank must be a whole number from 1 up, not {_label(tok)!r}", lineno, _text(line))
    return int(tok)


def _confidence(tok: bytes, lineno: int, line: bytes, name: str) -> float:
    if not FLOAT_RE.fullmatch(tok):
        raise InputError(name, f"confidence is not a number ({_label(tok)!r})", lineno, _text(line))
    c = float(tok)
    if not 0.0 < c <= 1.0:
        raise InputError(name, f"confidence {_label(tok)} is outside ]0, 1]", lineno, _text(line))
    return c


def read_biocreative_results(source: Source | Run, task: str, *, name: str | None = None) -> Run:
    """Read a BioCreative II.5 results file of ``task`` (``int``, ``ipt`` or ``act``).

    Returns a :class:`Run` whose ``rank`` is the rank column (ACT: its joined
    ranking, see the module docstring) and whose ``score`` is the confidence.
    Raises :class:`~trec_eval_py.errors.InputError` naming the file and line
    for every breach of the page's rules; warns
    (:class:`~trec_eval_py.errors.InputWarning`) where a confidence rises.
    """
    if isinstance(source, Run):
        return source
    t = TASKS[task]
    name = name or source_name(source)
    data = skip_bom(read_source(source))  # a byte-order mark is no part of the first id
    keys = _Keys(t, name)
    # per article (ACT: per class): (last rank, its line, its confidence and as written)
    last: dict[bytes, tuple[int, int, float, bytes]] = {}
    qid, docno, conf, rank, lines, cls = [], [], [], [], [], []
    for lineno, line in _lines(data, name):
        cols = _columns(line, lineno, t.result_columns, f"{t.name} results", name)
        r = _rank(cols[-2], lineno, line, name)
        c = _confidence(cols[-1], lineno, line, name)
        if t.name == "ACT":
            k = _class(cols[1], lineno, line, name)
            group, what = bytes([k]), f"class {k} ({'positive' if k else 'negative'} hits)"
        else:
            k = 1
            group, what = cols[0], f"article {_label(cols[0])}"
        prev = last.get(group)
        if prev is None:
            if r != 1:
                raise InputError(name, f"ranks of {what} start at {r}, not 1", lineno, _text(line))
        else:
            pr, pl, pc, ptok = prev
            if r == pr:
                reason = f"rank {r} of {what} is given twice (also line {pl}): ranks must be unique"
            elif r < pr:
                reason = f"rank {r} of {what} comes after rank {pr} (line {pl}): ranks must ascend"
            elif r > pr + 1:
                reason = f"rank {r} of {what} follows rank {pr} (line {pl}): ranks must be consecutive"
            else:
                reason = None
            if reason:
                raise InputError(name, reason, lineno, _text(line))
            if c > pc:
                warnings.warn(InputWarning(
                    name, f"confidence {_label(cols[-1])} at rank {r} of {what} is higher than {_label(ptok)} at "
                    f"rank {pr} (line {pl}): confidences should fall as ranks go down", lineno, _text(line)),
                    stacklevel=2)
        last[group] = (r, lineno, c, cols[-1])
        q, d = keys.add(cols, lineno, line)
        qid.append(q)
        docno.append(d)
        conf.append(c)
        rank.append(r)
        lines.append(lineno)
        cls.append(k)
    if not lines:
        raise InputError(name, f"empty {t.name} results file: no result lines")
    rank_col = np.array(rank, dtype=np.float64)
    if t.name == "ACT":
        # positives by rank, then the negatives' ranking inverted (module docstring)
        neg = np.array(cls) == 0
        rank_col[neg] = len(rank_col) + 1 - rank_col[neg]
    runid = os.path.basename(name) if isinstance(name, str) else str(name)
    return Run(np.array(qid, dtype="S"), np.array(docno, dtype="S"), np.array(conf, dtype=np.float64),
               np.array(lines, dtype=np.int64), runid, name, rank_col)


def read_biocreative_gold(source: Source | Qrels, task: str, *, name: str | None = None) -> Qrels:
    """Read a BioCreative II.5 gold standard of ``task`` (``int``, ``ipt`` or ``act``)
    as judgments: every INT/IPT entry relevant (1) to its article, every ACT
    article judged by its class under the topic ``ACT``."""
    if isinstance(source, Qrels):
        return source
    t = TASKS[task]
    name = name or source_name(source)
    data = skip_bom(read_source(source))  # a byte-order mark is no part of the first id
    keys = _Keys(t, name)
    qid, docno, rel, lines = [], [], [], []
    for lineno, line in _lines(data, name):
        cols = _columns(line, lineno, t.gold_columns, f"{t.name} gold", name)
        level = _class(cols[1], lineno, line, name) if t.name == "ACT" else 1
        q, d = keys.add(cols, lineno, line)
        qid.append(q)
        docno.append(d)
        rel.append(level)
        lines.append(lineno)
    if not lines:
        raise InputError(name, f"empty {t.name} gold file: no entries")
    return Qrels(np.array(qid, dtype="S"), np.array(docno, dtype="S"), np.array(rel, dtype=np.int64),
                 np.array(lines, dtype=np.int64), name)
