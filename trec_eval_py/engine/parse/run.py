"""Reader for TREC runs: ``qid iter docno rank score runid [ignored...]`` lines.

The rank column is ignored unless asked for (``rank_column=True``, read for
``--order rank``): documents are ranked by score, higher first, ties broken by
docno in descending byte order, as trec_eval does (see
:mod:`trec_eval_py.engine.join.order`). The run id is taken from the last
line of the file.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..._record import record
from ...errors import InputError
from .fields import line_fields, split_fields
from .layouts import DICT_PIECE_ROWS, RANKED_RUN, RUN, Layout
from .layouts import MAX_FIELDS as MAX_FIELDS  # (the most fields of a run line, named where it was)
from .python import row_numbers
from .source import Source, read_pieces, read_source, source_name


@record(eq=False)
class Run:
    """Retrieved documents as flat columns, one row per line of the run.

    What :func:`read_run` returns, in the order read (the evaluation ranks
    them); :func:`~trec_eval_py.evaluate` takes one as it takes a file.

    Attributes
    ----------
    qid, docno : numpy.ndarray
        Topic ids and document ids, numpy byte strings.
    score : numpy.ndarray
        Scores, float64.
    lineno : numpy.ndarray
        Each row's line in ``name`` (1-based; for error messages).
    runid : str
        The run's name: the sixth field of the last line ("" for a dict).
    name : str
        Where the run was read from (a path, ``<bytes>``, ``<run dict>``).

    Examples
    --------
    >>> from trec_eval_py import read_run
    >>> r = read_run(b"301 Q0 d1 1 2.5 bm25\\n301 Q0 d2 2 1.5 bm25\\n")
    >>> r.docno.tolist(), r.score.tolist(), r.runid
    ([b'd1', b'd2'], [2.5, 1.5], 'bm25')
    """

    qid: np.ndarray
    docno: np.ndarray
    score: np.ndarray
    lineno: np.ndarray
    runid: str = ""
    name: str = "<run>"
    #: the rank column (float64), read only when an evaluation ranks by it
    rank: np.ndarray | None = None
    #: the run id of the file's first line (ndeval names a run by it), when read from a file
    first_runid: str | None = None

    def __len__(self) -> int:
        return len(self.score)

    @classmethod
    def from_dict(cls, run: Mapping[str, Mapping[str, float]], runid: str = "", name: str = "<run dict>") -> Run:
        """Build from ``{qid: {docno: score}}`` (pytrec_eval's layout; see :mod:`.python`)."""
        from .python import run_from_dict

        q, d, s, _ = run_from_dict(run, name)
        return cls(q, d, s, row_numbers(len(s)), runid, name)

    @classmethod
    def from_table(cls, table, runid: str = "", name: str = "<run table>", rank_column: bool = False) -> Run:
        """Build from a pandas or polars DataFrame, a pyarrow Table or RecordBatch, or a
        Parquet file, by column names (see :mod:`.python`); the table's run id column, if
        any, gives the run id unless ``runid`` is given."""
        from .python import run_from_table

        q, d, s, rid, rank = run_from_table(table, name, rank_column)
        return cls(q, d, s, row_numbers(len(s)), runid or rid, name, rank)

    @classmethod
    def from_records(cls, records, runid: str = "", name: str = "<run records>") -> Run:
        """Build from an iterable of namedtuples with fields ``query_id, doc_id, score``
        (ir_measures' ``ScoredDoc``)."""
        from .python import run_from_records

        q, d, s = run_from_records(records, name)
        return cls(q, d, s, row_numbers(len(s)), runid, name)

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{qid: {docno: score}}`` (pytrec_eval's layout), topics and documents in row order."""
        from .python import nested

        return nested(self.qid, self.docno, self.score.tolist())

    def to_dataframe(self):
        """A pandas DataFrame with ir_measures' columns ``query_id, doc_id, score``
        (and ``rank`` when the rank column was read), one row per row of the run."""
        from .python import ids_text, require_pandas

        pd = require_pandas()
        cols = {"query_id": ids_text(self.qid), "doc_id": ids_text(self.docno), "score": self.score}
        if self.rank is not None:
            cols["rank"] = self.rank
        return pd.DataFrame(cols)

    def topics(self, ids) -> Run:
        """The rows of the topics ``ids`` (an iterable of topic ids), in their order here."""
        from .python import topic_mask

        keep = topic_mask(self.qid, ids)
        return Run(self.qid[keep], self.docno[keep], self.score[keep], self.lineno[keep], self.runid, self.name,
                   None if self.rank is None else self.rank[keep])

    def write(self, path) -> None:
        """Write the run: Parquet when ``path`` ends in ``.parquet`` (columns ``query_id,
        doc_id, score``, and ``run_id``), else TREC text (``qid Q0 docno rank score runid``,
        ranks counted per topic in row order, scores printed to round-trip exactly)."""
        from .python import write_rows

        write_rows(path, self.qid, self.docno, ("score", self.score), self.runid or "run", self.rank)


#: pieces of a big run: 8 MB keeps each piece's columns, its ranking and its
#: batch of measure matrices small enough to stay in cache-friendly sizes and
#: bounds what is in flight (the reader thread holds the next piece): against
#: 32 MB pieces, a quarter less CPU on 6.9M lines and half the peak memory
CHUNK_BYTES = 8 << 20


def _check_nan(name: str, f, col: int, what: str) -> None:
    v = f.columns[col]
    if np.isnan(v).any():
        i = int(np.flatnonzero(np.isnan(v))[0])
        raise InputError(name, f"{what} is not a number (NaN)", int(f.lineno[i]))


def _split(piece, name, layout: Layout, first_line=1):
    """:func:`split_fields` for run lines; an error at a line carries the rows
    before it as ``rows_before`` (a :class:`Run`)."""
    try:
        return split_fields(piece, name, min_fields=layout.min_fields, max_fields=layout.max_fields,
                            what=layout.what, wanted=layout.wanted, labels=layout.labels, first_line=first_line)
    except InputError as e:
        f = e.fields_before
        if f is not None:
            last = f.last_line_fields
            rid = last[5].decode("utf-8", "surrogateescape") if len(last) > 5 else ""
            e.rows_before = Run(f.columns[0], f.columns[2], f.columns[4], f.lineno, rid, name)
        raise


def iter_run_chunks(source: Source, *, chunk_bytes: int | None = None, name: str | None = None):
    """Read a run file piece by piece (for large runs): yields :class:`Run` values
    of consecutive lines, each with the run id of its own last line. Raises the
    same errors as :func:`read_run`, with line numbers counted in the whole file."""
    from .python import dict_rows, is_parquet, iter_parquet_run, iter_run_from_dict

    if isinstance(source, Mapping):  # a dict of dicts: pieces of whole topics
        name = name or "<run dict>"
        before = 0
        fewest, most = DICT_PIECE_ROWS
        rows = min(max((dict_rows(source) or 0) // 64, fewest), most)
        for q, d, s in iter_run_from_dict(source, name, rows):
            if not len(s):  # topics without results only
                continue
            yield Run(q, d, s, np.arange(before + 1, before + len(s) + 1, dtype=np.int64), "", name)
            before += len(s)
        return
    name = name or source_name(source)
    if is_parquet(source):  # record batches of the file, one piece each
        for q, d, s, rid, before in iter_parquet_run(source, name):
            yield Run(q, d, s, np.arange(before + 1, before + len(s) + 1, dtype=np.int64), rid, name)
        return
    any_rows = False
    first_line = 1
    for piece in read_pieces(source, chunk_bytes or CHUNK_BYTES):
        f = _split(piece, name, RUN, first_line)
        first_line += f.num_lines
        if len(f.lineno) == 0:
            continue
        any_rows = True
        rid = f.last_line_fields[5].decode("utf-8", "surrogateescape")
        yield Run(f.columns[0], f.columns[2], f.columns[4], f.lineno, rid, name)
    if not any_rows:
        raise InputError(name, "empty run file: no result lines")


def read_run(source: Source | Mapping | Run, *, name: str | None = None, runid: str = "",
             rank_column: bool = False) -> Run:
    """Read a run (retrieval results).

    A text file has one result a line, ``TOPIC Q0 DOCNO RANK SCORE RUNID``;
    fields after the run id are ignored, and so is the rank unless
    ``rank_column`` asks for it.

    Parameters
    ----------
    source
        A path, ``-`` (standard input), a file object or bytes (TREC text, or
        Parquet), or a Python value: a dict ``{topic: {docno: score}}``, a
        pandas or polars DataFrame, an Arrow table, an iterable of ir_measures
        ``ScoredDoc`` (see :mod:`~trec_eval_py.engine.parse.python`). A
        :class:`Run` is returned as it is.
    name : str, optional
        The name error messages give the run (default: the path, or
        ``<bytes>``, ``<run dict>``...).
    runid : str
        The run id of a run given as a Python value without one.
    rank_column : bool
        Also read the rank column (4th field) as a number, with the same checks
        as a score, into :attr:`Run.rank`.

    Returns
    -------
    Run

    Raises
    ------
    InputError
        A missing or empty file, a line with fewer than six or more than
        :data:`MAX_FIELDS` fields, a NUL byte, a carriage return inside a line,
        or a score that is not a decimal number (NaN included); the message
        names the file, the line and its text.
    InputTypeError
        A ``source`` of a type that holds no run (also a ``TypeError``).

    Examples
    --------
    >>> from trec_eval_py import read_run
    >>> r = read_run("examples/run_a.txt")
    >>> len(r), r.runid
    (1500, 'STANDARD')
    >>> read_run({"q1": {"d1": 2.0}}, runid="mine").runid
    'mine'
    >>> read_run(b"301 Q0 d1 1 abc run\\n")
    Traceback (most recent call last):
      ...
    trec_eval_py.errors.InputError: <bytes>, line 1: score is not a number ('abc'): '301 Q0 d1 1 abc run'
    """
    if isinstance(source, Run):
        return source
    from . import python as py

    if isinstance(source, Mapping):
        return Run.from_dict(source, runid, name or "<run dict>")
    if py.is_frame(source) or py.is_parquet(source):
        return Run.from_table(source, runid, name or py.table_name(source, "run"), rank_column)
    if py.is_records(source):
        return Run.from_records(source, runid, name or "<run records>")
    name = name or source_name(source)
    data = read_source(source)
    f = _split(data, name, RANKED_RUN if rank_column else RUN)
    if len(f.lineno) == 0:
        raise InputError(name, "empty run file: no result lines")
    score = f.columns[4]
    _check_nan(name, f, 4, "score")
    rank = None
    if rank_column:
        _check_nan(name, f, 3, "rank")
        rank = f.columns[3]
    rid = f.last_line_fields[5].decode("utf-8", "surrogateescape")
    first = line_fields(data, int(f.lineno[0]))[5].decode("utf-8", "surrogateescape")
    return Run(f.columns[0], f.columns[2], score, f.lineno, rid, name, rank, first)
