"""The command line's two files read and scanned on a second core while numpy is imported.

A plain evaluation of a file of a few hundred thousand lines spends about as
long importing numpy (one core, 0.1 to 0.2 s) as reading and scanning its
files. :func:`read_ahead`, entered by the command line before numpy is
imported, starts one thread that does the first stage's work for each file
named: it reads the file as :func:`~.source.read_source` does (the same
function, the same bounds) and scans it with the C scanner as its reader
will (the same :class:`~.layouts.Layout`). The scanner and the reads run
without the GIL, so this goes on beside the import. The readers then take
what is ready instead of doing it again (through :mod:`.handover`): the
bytes in place of reading a file whole, the scanner's answer in place of
scanning the same bytes.

It changes nothing that is read or found, only when: what the thread keeps
is what the reader's own calls would return, handed over only for the very
bytes and scanner arguments it was made for. A file that is missing, not a
regular file (a pipe is read once, by its reader: the read-ahead leaves it alone),
changed since (another inode, size or time), or that gave an error or a
problem of any kind is simply not kept: its reader does its own work and
reports what it finds, as without the read-ahead. Only the judgments and runs
of the formats with a :mod:`~.layouts` layout are read ahead, and only when
their reader reads them whole: below the size from which a run is read in
pieces (the caller's ``max_bytes``, the read policy's ``stream_min_bytes``)
and the layout's ``piece_bytes``; a bigger file is never held whole. Outside
the command line (the Python API) nothing is read ahead.
"""
from __future__ import annotations

import contextlib
import os
import stat
import threading
from collections.abc import Iterator, Sequence

from ... import _native
from .handover import CURRENT
from .layouts import Layout
from .source import read_source, text_size


def _identity(st: os.stat_result) -> tuple:
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


class _File:
    """One file read ahead: what its reader's calls would return, once ready."""

    __slots__ = ("path", "layout", "ready", "taken", "identity", "data", "scan_args", "scan")

    def __init__(self, path: str, layout: Layout):
        self.path, self.layout = path, layout
        self.ready = threading.Event()
        self.taken = False
        self.identity: tuple | None = None
        self.data: bytes | None = None  # read_source(path)
        self.scan_args: tuple | None = None  # the scanner's arguments after the data
        self.scan: tuple | None = None  # its answer, kept when "ok"


class ReadAhead:
    """Files read (and scanned) by a thread of their own, in the order given."""

    def __init__(self, files: Sequence[tuple[str, Layout]], max_bytes: int):
        self.files = [_File(path, layout) for path, layout in files]
        self.max_bytes = max_bytes
        self.stopped = False
        self.thread = threading.Thread(target=self._run, name="trec_eval_py read-ahead", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        for f in self.files:
            try:
                if not self.stopped:
                    self._read(f)
            except Exception:  # its reader reads it again and says what is wrong
                f.data = f.scan = None
            finally:
                f.ready.set()

    def _read(self, f: _File) -> None:
        st = os.stat(f.path)
        if not stat.S_ISREG(st.st_mode):
            return  # a pipe or a device: its reader's alone
        size = text_size(f.path)
        piece = f.layout.piece_bytes
        if size is None or size >= self.max_bytes or (piece is not None and size > piece):
            return  # read in pieces by its reader
        data = read_source(f.path)
        if _identity(os.stat(f.path)) != _identity(st):
            return  # changed while it was read
        f.identity, f.data = _identity(st), data
        scanner = _native.extension("scan")
        if scanner is not None:
            args = f.layout.scan_args(len(data))
            answer = scanner.scan(data, *args)
            if answer[0] == "ok":  # (a problem is found again, and reported, by the reader)
                f.scan_args, f.scan = args, answer

    def take(self, path: str) -> bytes | None:
        """The bytes of ``path`` read ahead (each file once), or None."""
        f = next((f for f in self.files if f.path == path and not f.taken), None)
        if f is None:
            return None
        f.taken = True
        f.ready.wait()
        if f.identity is None:
            return None
        try:
            unchanged = _identity(os.stat(path)) == f.identity
        except OSError:
            unchanged = False
        data = f.data if unchanged else None
        if data is None or f.scan is None:
            f.data = f.scan = None  # nothing more to hand over: not held any longer
        return data

    def scanned(self, data, args: tuple) -> tuple | None:
        """The scanner's answer for ``data`` (the whole of what :meth:`take` gave, or
        a view of all of it) with ``args``, or None."""
        base = data.obj if isinstance(data, memoryview) else data
        for f in self.files:
            if f.data is not None and f.data is base and len(data) == len(base) and f.scan_args == args:
                answer = f.scan
                f.data = f.scan = None
                return answer
        return None

    def stop(self) -> None:
        """No more files are started; the one being read is finished (bounded work)."""
        self.stopped = True
        self.thread.join()
        self.files = []


@contextlib.contextmanager
def read_ahead(files: Sequence[tuple[str, Layout]], max_bytes: int) -> Iterator[ReadAhead]:
    """Read and scan ``files`` (each a path and the layout its reader splits it by)
    on a thread, for the readers called inside the block; a file its reader reads
    in pieces (more than ``max_bytes`` or than the layout's ``piece_bytes``) is
    left to it."""
    ahead = ReadAhead(files, max_bytes)
    token = CURRENT.set(ahead)
    try:
        yield ahead
    finally:
        CURRENT.reset(token)
        ahead.stop()

