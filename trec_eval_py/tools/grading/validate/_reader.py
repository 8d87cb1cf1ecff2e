"""A run read in pieces: its bytes (a file, a pipe, a submission, bytes), the head
the looks at the whole file need, and each piece's columns (only the parts with a
line problem read line by line)."""
from __future__ import annotations

import itertools
import os
import re
import stat
from collections.abc import Iterator

from ....engine.join.policy import POLICY
from ....engine.parse.source import expand, read_pieces, read_source, split_pieces, text_size
from ._findings import Report
from ._lines import _Cols, _fast_columns, _LineScan


class _RunBytes:
    """Where a run's bytes come from: in pieces, as often as asked (a run whose
    topics come back is read twice), or whole (a run in another format). A
    regular file (a path, or a submission that is a file) is read again each
    time; anything else (standard input, a pipe, bytes, a file object, a zip
    member) is read whole once and its pieces cut from memory."""

    def __init__(self, run, data: bytes | None, name: str):
        from ...shared.submissions import Submission

        self.run, self.name = run, name
        self.data = None
        if data is not None:
            self.data = expand(data, name)
        elif isinstance(run, Submission):
            if not run.on_disk:
                self.data = expand(run.read(), name)
        elif not _regular_file(run):
            self.data = read_source(run)

    def pieces(self):
        if self.data is not None:
            return split_pieces(self.data, POLICY.piece_bytes, self.name)
        if isinstance(self.run, (str, os.PathLike)):
            return read_pieces(self.run, POLICY.piece_bytes)
        return self.run.pieces(POLICY.piece_bytes)

    def whole(self) -> bytes:
        if self.data is not None:
            return self.data
        if isinstance(self.run, (str, os.PathLike)):
            return read_source(self.run)
        return expand(self.run.read(), self.name)

    def size(self) -> int:
        """The run's size in bytes of text (a guess for a compressed file; 0 when it cannot be told)."""
        if self.data is not None:
            return len(self.data)
        return text_size(self.run if isinstance(self.run, (str, os.PathLike)) else self.run.path) or 0


def _regular_file(run) -> bool:
    """Whether ``run`` names a regular file (one that can be read twice; not a pipe)."""
    if not isinstance(run, (str, os.PathLike)) or os.fspath(run) == "-":
        return False
    try:
        return stat.S_ISREG(os.stat(run).st_mode)
    except (OSError, ValueError):
        return False  # read_source says what is wrong with it


#: what the looks at the whole file need to see of its start: the bytes that tell
#: a binary file, and the lines that tell a qrels file (:func:`sniff`)
_HEAD_BYTES = 4096
_HEAD_LINES = 200


def _head(pieces) -> tuple[bytes, Iterator | None]:
    """The first pieces of a file joined until they hold its first :data:`_HEAD_BYTES`,
    its first :data:`_HEAD_LINES` lines and a line end followed by more text (so the
    file does not end its lines in CR alone); and the pieces after them, or None when
    the file is all in the first."""
    it = iter(pieces)
    parts: list[bytes] = []
    size = lines = 0
    for piece in it:
        parts.append(bytes(piece))  # (a view into a buffer the next piece may reuse)
        size += len(parts[-1])
        if lines < _HEAD_LINES:  # (only whether there are enough matters: a big piece is not counted whole)
            lines += _lines_up_to(parts[-1], _HEAD_LINES - lines)
        if size >= _HEAD_BYTES and lines >= _HEAD_LINES and re.search(rb"\n[^\r\n]", b"".join(parts)):
            break
    head = b"".join(parts)
    following = next(it, None)
    if following is None:
        return head, None
    return head, itertools.chain((bytes(following),), (bytes(p) for p in it))


def _lines_up_to(data: bytes, most: int) -> int:
    """The line ends in ``data``, counted up to ``most`` (or a few more)."""
    start = n = 0
    while n < most and start < len(data):
        end = min(len(data), start + 64 * most)  # (about the bytes of ``most`` lines of a run)
        n += data.count(b"\n", start, end)
        start = end
    return n


#: a piece with a line problem is looked at in parts of about this many bytes: only
#: the parts with a problem are read line by line, the others by the fast scanner
PROBLEM_BYTES = 64 << 10


def _columns(pieces, scan: _LineScan, name: str, report: Report, plain: list | None = None) -> Iterator[_Cols]:
    """The result lines of each of ``pieces`` (consecutive, the first one the file's
    first), line problems reported through ``scan``; ``report.lines`` counts the lines.
    ``plain[0]`` (when given) is set False once a piece is read line by line (not
    every line of it a plain result split by the readers' own scanner)."""
    line = 1
    for piece in pieces:
        fast = _plain_columns(piece, scan, name, line)
        if fast is None:
            if plain is not None:
                plain[0] = False
            found = []
            parts = split_pieces(piece, PROBLEM_BYTES) if len(piece) > PROBLEM_BYTES else (piece,)
            for part in parts:
                part = bytes(part)
                cols, n = (_plain_columns(part, scan, name, line) if len(piece) > PROBLEM_BYTES else None) or \
                    _problem_columns(part, scan, line)
                found.append(cols)
                line += n
                report.lines += n
            yield _Cols.joined(found, name)
        else:
            cols, n = fast
            line += n
            report.lines += n
            yield cols


def _plain_columns(piece: bytes, scan: _LineScan, name: str, line: int) -> tuple[_Cols, int] | None:
    """The columns and number of lines of a piece of plain result lines, if it is one (and
    no lines are held for the header question); else None."""
    if scan.held:
        return None
    fast = _fast_columns(piece, name, line)
    if fast is None or not scan.plain(fast[0]):
        return None
    return fast


def _problem_columns(piece: bytes, scan: _LineScan, line: int) -> tuple[_Cols, int]:
    lines = piece.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return scan.feed(lines, line), len(lines)


def _count_lines(piece: bytes) -> int:
    return piece.count(b"\n") + (len(piece) > 0 and not piece.endswith(b"\n"))
