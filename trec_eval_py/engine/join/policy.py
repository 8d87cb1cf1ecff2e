"""When a run is read whole, in pieces, or regrouped through temporary files: the one record.

A run is read three ways, all through :mod:`.stream`:

- **whole**, when it is small: one read, one join (the common case, and the fastest);
- **in pieces**, when it is big and lists each topic's lines together: each piece's
  complete topics are joined and measured while the next piece is read
  (:func:`.stream.whole_topics`, the one loop that regroups pieces into topics);
- **regrouped through temporary files**, when a big run's topics come back after
  other topics: its rows are appended to files by topic and read back a file at a time.

Every size that decides between them is a field of :data:`POLICY`, so the evaluation,
the tools that read many runs together (pool, fuse, pool-bias) and ``validate`` decide
alike, and a test (or a user with unusual memory) changes a threshold in one place.
"""
from __future__ import annotations

from ..._record import record
from ..parse.layouts import DICT_PIECE_ROWS


@record(frozen=False)
class ReadPolicy:
    """The sizes that decide how runs are read (see the module docstring).

    stream_min_bytes : a run evaluated on its own is read in pieces from this size
        (bytes of an uncompressed file; a compressed file counts what it expands to)
    dict_stream_min_rows : a dict of dicts with at least this many results is flattened
        and measured a piece at a time
    many_stream_min_bytes, whole_bytes : among ``n`` runs read together, a run is read
        in pieces from ``min(many_stream_min_bytes, whole_bytes / n)``, so adding
        runs does not add memory (:meth:`stream_min`)
    spill_bytes, max_spill_files : bytes of rows per temporary file when a run is
        regrouped by topic, and at most this many files (:meth:`spill_files`)
    piece_bytes : bytes of a run file ``validate`` reads and checks at a time
    range_min_topics : a summary of a big run is folded range of topics by range
        (through temporary files) only against judgments of at least this many topics;
        below, the one streamed pass holds the summary's values
    range_bytes : bytes of a big run's file per range of topics in that case
    read_ahead : bytes of run text read ahead, all runs together, when runs are read together
    min_piece : the smallest piece of one run read together with others
    block_rows : about how many rows (all runs together) a block of topics holds, and
        a range of topics of runs regrouped into topic order (pool, fuse, pool-bias)
    """

    stream_min_bytes: int = 64 << 20
    dict_stream_min_rows: int = 2 * DICT_PIECE_ROWS[0]
    many_stream_min_bytes: int = 16 << 20
    whole_bytes: int = 32 << 20
    spill_bytes: int = 8 << 20
    max_spill_files: int = 512
    piece_bytes: int = 8 << 20
    range_min_topics: int = 50_000
    range_bytes: int = 32 << 20
    read_ahead: int = 32 << 20
    min_piece: int = 64 << 10
    block_rows: int = 500_000

    def stream_min(self, n_runs: int | None = None) -> int:
        """The size (bytes) from which a run is read in pieces: evaluated on its own
        (``n_runs`` None), or as one of ``n_runs`` runs read together."""
        if n_runs is None:
            return self.stream_min_bytes
        return min(self.many_stream_min_bytes, self.whole_bytes // max(1, n_runs))

    def spill_files(self, size: int) -> int:
        """How many temporary files regroup by topic a run of ``size`` bytes."""
        return int(min(self.max_spill_files, max(1, -(-int(size) // self.spill_bytes))))


#: the policy every reader of runs follows (its fields may be changed in place)
POLICY = ReadPolicy()


class Interleaved(Exception):
    """A topic's lines are not contiguous in the run: a run read in pieces is then
    regrouped through temporary files (raised by :mod:`.stream`; here, so that an
    evaluation catches it without importing the piecewise readers it never uses
    on a run read whole)."""
