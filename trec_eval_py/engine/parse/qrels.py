"""Reader for TREC qrels: ``qid iter docno rel`` lines.

``rel`` is an integer: levels >= 0 are judgments (relevant when at least the
relevance level, ``-l``, default 1); a negative value marks a document that
is in the pool but was not judged (trec_eval's "unjudged", used by infAP).
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..._record import record
from ...errors import InputError
from .fields import split_fields
from .layouts import QRELS, QRELS_PIECE_BYTES
from .levels import MAX_LEVEL, MIN_LEVEL
from .python import row_numbers
from .source import Source, file_size, line_text, read_pieces, source_name

#: judgments are read in pieces of this many bytes (see :data:`.layouts.QRELS_PIECE_BYTES`)
CHUNK_BYTES = QRELS_PIECE_BYTES

def check_levels(rel: np.ndarray, lineno: np.ndarray, name: str, data: bytes | None = None,
                 keys: list | None = None) -> None:
    """Raise :class:`InputError` for the first relevance outside :data:`MIN_LEVEL` .. :data:`MAX_LEVEL`."""
    if len(rel) and (int(rel.max()) > MAX_LEVEL or int(rel.min()) < MIN_LEVEL):
        i = int(np.flatnonzero((rel > MAX_LEVEL) | (rel < MIN_LEVEL))[0])
        if rel[i] > MAX_LEVEL:
            reason = f"relevance {int(rel[i])} is above the highest supported level ({MAX_LEVEL})"
        else:
            reason = f"relevance {int(rel[i])} is below the lowest supported level ({MIN_LEVEL})"
        if keys is not None:
            raise InputError(name, f"{reason} for {keys[i]}")
        assert data is not None, "a relevance from a file is checked with the file's text"
        raise InputError(name, reason, int(lineno[i]), line_text(bytes(data), int(lineno[i])))


@record(eq=False)
class Qrels:
    """Relevance judgments as flat columns, one row per judged document.

    What :func:`read_qrels` returns, in the order read; :func:`~trec_eval_py.evaluate`
    and :class:`~trec_eval_py.Evaluator` take one as they take a file.

    Attributes
    ----------
    qid, docno : numpy.ndarray
        Topic ids and document ids, numpy byte strings.
    rel : numpy.ndarray
        Relevance levels, int64; a negative level is a document pooled but
        not judged.
    lineno : numpy.ndarray
        Each row's line in ``name`` (1-based; for error messages).
    name : str
        Where the judgments were read from (a path, ``<bytes>``, ``<qrels dict>``).

    Examples
    --------
    >>> from trec_eval_py import read_qrels
    >>> q = read_qrels(b"301 0 d1 1\\n301 0 d2 0\\n302 0 d1 2\\n")
    >>> len(q), q.qid.tolist(), q.rel.tolist()
    (3, [b'301', b'301', b'302'], [1, 0, 2])
    """

    qid: np.ndarray
    docno: np.ndarray
    rel: np.ndarray
    lineno: np.ndarray
    name: str = "<qrels>"

    def __len__(self) -> int:
        return len(self.rel)

    @classmethod
    def from_dict(cls, qrels: Mapping[str, Mapping[str, int]], name: str = "<qrels dict>") -> Qrels:
        """Build from ``{qid: {docno: rel}}`` (pytrec_eval's layout; see :mod:`.python`)."""
        from .python import qrels_from_dict

        return cls._of(*qrels_from_dict(qrels, name), name)

    @classmethod
    def from_table(cls, table, name: str = "<qrels table>") -> Qrels:
        """Build from a pandas or polars DataFrame, a pyarrow Table or RecordBatch, or a
        Parquet file, by column names (see :mod:`.python`)."""
        from .python import qrels_from_table

        return cls._of(*qrels_from_table(table, name), name)

    @classmethod
    def from_records(cls, records, name: str = "<qrels records>") -> Qrels:
        """Build from an iterable of namedtuples with fields ``query_id, doc_id, relevance``
        (ir_measures' ``Qrel``)."""
        from .python import qrels_from_records

        return cls._of(*qrels_from_records(records, name), name)

    @classmethod
    def _of(cls, qid, docno, rel, name) -> Qrels:
        if not len(rel):
            raise InputError(name, "no judgments")
        return cls(qid, docno, rel, row_numbers(len(rel)), name)

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{qid: {docno: rel}}`` (pytrec_eval's layout), topics and documents in row order."""
        from .python import nested

        return nested(self.qid, self.docno, self.rel.tolist())

    def to_dataframe(self):
        """A pandas DataFrame with ir_measures' columns ``query_id, doc_id, relevance``."""
        from .python import ids_text, require_pandas

        pd = require_pandas()
        return pd.DataFrame({"query_id": ids_text(self.qid), "doc_id": ids_text(self.docno), "relevance": self.rel})

    def topics(self, ids) -> Qrels:
        """The judgments of the topics ``ids`` (an iterable of topic ids), in their order here."""
        from .python import topic_mask

        keep = topic_mask(self.qid, ids)
        return Qrels(self.qid[keep], self.docno[keep], self.rel[keep], self.lineno[keep], self.name)

    def write(self, path) -> None:
        """Write the judgments: Parquet when ``path`` ends in ``.parquet`` (columns
        ``query_id, doc_id, relevance``), else TREC text (``qid 0 docno rel``)."""
        from .python import write_rows

        write_rows(path, self.qid, self.docno, ("relevance", self.rel))


def read_qrels(source: Source | Mapping | Qrels, *, name: str | None = None) -> Qrels:
    """Read relevance judgments (qrels).

    A text file has one judgment a line, ``TOPIC ITERATION DOCNO LEVEL``
    (the second field is ignored). Comment lines (first non-blank byte ``#``)
    and blank lines are skipped.

    Parameters
    ----------
    source
        A path, ``-`` (standard input), a file object or bytes (TREC text, or
        Parquet), or a Python value: a dict ``{topic: {docno: level}}``, a
        pandas or polars DataFrame, an Arrow table, an iterable of ir_measures
        ``Qrel`` (see :mod:`~trec_eval_py.engine.parse.python`). A
        :class:`Qrels` is returned as it is.
    name : str, optional
        The name error messages give the judgments (default: the path, or
        ``<bytes>``, ``<qrels dict>``...).

    Returns
    -------
    Qrels

    Raises
    ------
    InputError
        A missing or empty file, a line without exactly four fields, a NUL
        byte or a level that is not an integer; the message names the file,
        the line and its text.
    InputTypeError
        A ``source`` of a type that holds no judgments (also a ``TypeError``).

    Examples
    --------
    >>> from trec_eval_py import read_qrels
    >>> len(read_qrels("examples/qrels.txt"))
    3681
    >>> read_qrels({"q1": {"d1": 1, "d2": 0}}).docno.tolist()
    [b'd1', b'd2']
    >>> read_qrels(b"301 0 d1 x\\n")
    Traceback (most recent call last):
      ...
    trec_eval_py.errors.InputError: <bytes>, line 1: relevance is not an integer ('x'): '301 0 d1 x'
    """
    if isinstance(source, Qrels):
        return source
    from . import python as py

    if isinstance(source, Mapping):
        return Qrels.from_dict(source, name or "<qrels dict>")
    if py.is_frame(source) or py.is_parquet(source):
        return Qrels.from_table(source, name or py.table_name(source, "qrels"))
    if py.is_records(source):
        return Qrels.from_records(source, name or "<qrels records>")
    name = name or source_name(source)
    rows = _Rows(file_size(source) or 0)
    first_line = 1
    for piece in read_pieces(source, CHUNK_BYTES):
        try:
            f = split_fields(
                piece, name, min_fields=QRELS.min_fields, max_fields=QRELS.max_fields, what=QRELS.what,
                wanted=QRELS.wanted, labels=QRELS.labels,
                check=lambda f, d: check_levels(f.columns[3], f.lineno, name, d), first_line=first_line,
            )
        except InputError as e:  # the lines before: the join still checks them (see InputError)
            before = e.fields_before
            if before is not None:
                rows.append(before, len(piece))
                e.rows_before = Qrels(*rows.columns(), name)
            raise
        first_line += f.num_lines
        rows.append(f, len(piece))
    if rows.n == 0:
        raise InputError(name, "empty qrels file: no judgment lines")
    return Qrels(*rows.columns(), name)


class _Rows:
    """Columns gathered piece by piece into arrays sized for the whole file.

    Keeping the pieces and concatenating them at the end would hold the
    judgments twice; copying each piece into its place holds them about
    once. The arrays are sized from the file's size and the first pieces'
    bytes per row, with room to spare that is never written (the operating
    system gives memory to pages when they are first written); a wrong guess
    or a wider byte string later in the file costs one copy of a column.
    """

    def __init__(self, size_hint: int):
        self.size_hint = size_hint
        self.cols: list[np.ndarray] | None = None
        self.n = 0
        self.bytes_seen = 0

    def append(self, f, nbytes: int) -> None:
        """Add the rows of one piece's :class:`~.fields.Fields` (``nbytes`` long)."""
        cols = [f.columns[0], f.columns[2], f.columns[3], f.lineno]
        m = len(cols[0])
        self.bytes_seen += nbytes
        if self.cols is None:  # one piece (a small file): its own arrays, no copy
            self.cols, self.n = cols, m
            return
        if m == 0:  # (the first piece's arrays may be read-only views of the scanner's bytes)
            return
        need = self.n + m
        cap = len(self.cols[0])
        if need > cap:
            per_row = self.bytes_seen / max(need, 1)
            guess = int(self.size_hint / per_row * 1.05) + 1024 if self.size_hint > self.bytes_seen else 0
            cap = max(need, guess, cap + cap // 2)
        for k, c in enumerate(cols):
            old = self.cols[k]
            dtype = c.dtype if c.dtype.itemsize > old.dtype.itemsize else old.dtype
            if cap != len(old) or dtype != old.dtype:
                grown = np.empty(cap, dtype=dtype)
                grown[:self.n] = old[:self.n]  # a narrower byte string is padded with NULs
                self.cols[k] = old = grown
            old[self.n:need] = c
        self.n = need

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """qid, docno, rel, lineno of the rows appended (at least one piece)."""
        assert self.cols is not None, "columns() follows an append()"
        qid, docno, rel, lineno = (c[:self.n] for c in self.cols)
        return qid, docno, rel, lineno
