"""What a line of the two common text formats holds, and how it is scanned.

A qrels line and a run line are described here once, as :class:`Layout`
records: how many fields a line has, which of them are read and as what.
The readers (:mod:`.qrels`, :mod:`.run`) split their lines by these
records, and so does the command line's read-ahead (:mod:`.readahead`),
which scans a file on a second thread while numpy is imported: this module
imports nothing but the standard library, so that it can run before numpy.
"""
from __future__ import annotations

from ..._record import record

#: what a wanted field is read as: a byte string, a float, an integer
TEXT, FLOAT, INT = "text", "float", "int"
#: the C scanner's codes of the same kinds
C_KINDS = {TEXT: 0, FLOAT: 1, INT: 2}

#: fields after a run's run id are ignored, but a line with more than this many is
#: an error: it is several lines run together, not a result
MAX_FIELDS = 32

#: a padded text column (rows x longest value) may take this many bytes, or
#: COLUMN_BYTES_PER_INPUT_BYTE times the input's size if that is more: one
#: huge docno among many lines is an input error, not a MemoryError
COLUMN_BYTES_MIN = 256 << 20
COLUMN_BYTES_PER_INPUT_BYTE = 4

#: results of a dict of dicts per piece (fewest, most): a dict is flattened, ranked
#: and measured about a 64th at a time, within these bounds (see
#: :func:`~.run.iter_run_chunks`); smaller pieces hold less at once, each piece
#: costs about a millisecond
DICT_PIECE_ROWS = (1 << 13, 1 << 16)


def column_budget(size: int) -> int:
    """The most bytes the text columns read from ``size`` bytes of input may take
    (fields are stored at the width of the longest: one long field pads every row)."""
    return max(COLUMN_BYTES_MIN, COLUMN_BYTES_PER_INPUT_BYTE * size)


@record
class Layout:
    """The fields of one line format.

    what : the format's word in error messages ("qrels", "run")
    min_fields, max_fields : a line's fewest and most fields (None: no most)
    wanted : field index -> :data:`TEXT`, :data:`FLOAT` or :data:`INT`, the fields read
    labels : field index -> its name in error messages (the numeric fields)
    piece_bytes : the reader reads a file at most this many bytes at a time (None: as
        the read policy says, :mod:`~trec_eval_py.engine.join.policy`)
    """

    what: str
    min_fields: int
    max_fields: int | None
    wanted: dict[int, str]
    labels: dict[int, str]
    piece_bytes: int | None = None

    def scan_args(self, size: int) -> tuple:
        """The C scanner's arguments after the data, for ``size`` bytes of it."""
        return scan_args(self.min_fields, self.max_fields, self.wanted, size)


def scan_args(min_fields: int, max_fields: int | None, wanted: dict[int, str], size: int) -> tuple:
    """The C scanner's arguments after ``size`` bytes of data, for lines of
    ``min_fields`` to ``max_fields`` fields whose ``wanted`` fields are read: the
    one place they are made, so that the read-ahead's scan and a reader's are
    asked alike (the read-ahead hands a scan over only for equal arguments)."""
    kinds = tuple((f, C_KINDS[k]) for f, k in wanted.items())
    return min_fields, -1 if max_fields is None else max_fields, kinds, column_budget(size)


#: judgments are read in pieces of this many bytes: the file's text and the
#: scanner's working arrays are then never in memory whole, only the columns
QRELS_PIECE_BYTES = 32 << 20
#: ``TOPIC ITERATION DOCNO LEVEL``: the second field is ignored
QRELS = Layout("qrels", 4, 4, {0: TEXT, 2: TEXT, 3: INT}, {3: "relevance"}, QRELS_PIECE_BYTES)
#: ``TOPIC Q0 DOCNO RANK SCORE RUNID [ignored...]``: the rank is not read (see :data:`RANKED_RUN`)
RUN = Layout("run", 6, MAX_FIELDS, {0: TEXT, 2: TEXT, 4: FLOAT}, {4: "score"})
#: the same, with the rank read as a number (``--order rank``)
RANKED_RUN = Layout("run", 6, MAX_FIELDS, {0: TEXT, 2: TEXT, 4: FLOAT, 3: FLOAT}, {4: "score", 3: "rank"})

#: the formats (``-R``, ``-T``) whose readers split lines by these layouts
_OF_FORMAT = {"qrels": QRELS, "trec_results": RUN}


def layout_of(format_name: str, *, rank_column: bool = False) -> Layout | None:
    """The layout the reader of format ``format_name`` (a ``-R`` or ``-T`` name)
    splits its lines by, or None for a format read otherwise."""
    layout = _OF_FORMAT.get(format_name)
    return RANKED_RUN if layout is RUN and rank_column else layout
