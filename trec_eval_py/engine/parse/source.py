"""Turn what the user names (a path, ``-``, a file object, bytes) into bytes.

Compressed files (``.gz``, ``.bz2``, ``.xz``) are recognised by their magic
bytes, not their names, so a renamed file still reads.
"""
from __future__ import annotations

import os
import sys
from typing import BinaryIO, Sequence, TextIO, Union

from ...errors import InputError, InputTypeError

Source = Union[str, os.PathLike, bytes, BinaryIO, TextIO]

# magic bytes -> module whose decompress() reads the format (imported only when met)
_MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "lzma"),
)


def source_name(source: Source) -> str:
    """A name for ``source`` fit for error messages."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "<bytes>"
    return getattr(source, "name", None) or "<stream>"


def source_label(source, i: int, default: str = "run") -> str:
    """A short label for the ``i``-th of several inputs in a tool's table: the
    path as given, else the object's ``name``, else ``{default}{i + 1}``."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) and name else f"{default}{i + 1}"


def run_labels(runids: Sequence[str], files: Sequence[str]) -> list[str]:
    """Names to show for runs: their run ids when those are distinct, else file names."""
    if all(runids) and len(set(runids)) == len(runids):
        return list(runids)
    base = [os.path.basename(f) for f in files]
    if all(base) and len(set(base)) == len(base):
        return base
    if len(set(files)) == len(files):
        return list(files)
    return [f"{f} ({i + 1})" for i, f in enumerate(files)]


def read_source(source: Source, *, allow_stdin: bool = True) -> bytes:
    """Read ``source`` whole and decompress it if needed.

    ``-`` means standard input when ``allow_stdin`` is true.
    """
    name = source_name(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif isinstance(source, (str, os.PathLike)):
        if os.fspath(source) == "-" and allow_stdin:
            data = sys.stdin.buffer.read()
        else:
            try:
                with open(source, "rb") as f:
                    data = f.read()
            except FileNotFoundError:
                raise InputError(name, "no such file") from None
            except IsADirectoryError:
                raise InputError(name, "is a directory, not a file") from None
            except OSError as e:
                raise InputError(name, f"cannot read: {e.strerror or e}") from None
    elif not callable(getattr(source, "read", None)):
        raise InputTypeError(
            name if name != "<stream>" else repr(source),
            f"expected a file name, '-', bytes, a file object or a dict, not {type(source).__name__}")
    else:
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
    for magic, module in _MAGIC:
        if data.startswith(magic):
            import importlib
            import lzma
            import zlib

            try:
                data = importlib.import_module(module).decompress(data)
            except (OSError, EOFError, lzma.LZMAError, zlib.error, ValueError, MemoryError) as e:
                raise InputError(name, f"cannot decompress: {e}") from None
            break
    return data


def _names_a_file(source: Source) -> bool:
    """Whether ``source`` is a path (``-`` is standard input, not a file)."""
    return isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-"


def file_size(source: Source) -> int | None:
    """The size in bytes of the file ``source`` names; None for standard input,
    bytes, a file object or a path that cannot be read (a hint, never an error:
    the reader reports the problem)."""
    if _names_a_file(source):
        try:
            return os.path.getsize(source)
        except OSError:
            pass
    return None


def read_pieces(source: Source, chunk_bytes: int):
    """Consecutive pieces of ``source``, each ending at a line end (the last
    one may lack it); one piece for a line longer than ``chunk_bytes``.

    A plain file is read into one buffer that is reused for every piece
    (fresh buffers cost a page fault per 4 KB each time): a yielded
    piece is a view into it, valid until the next one is asked for.
    """
    if _names_a_file(source):
        try:
            f = open(source, "rb", buffering=0)
        except OSError:
            pass  # read_source says what is wrong with it
        else:
            with f:
                head = f.read(6)
                if not head.startswith(tuple(magic for magic, _ in _MAGIC)):
                    yield from _file_pieces(f, head, chunk_bytes)
                    return
    # stdin, compressed data, bytes and file objects are read whole first
    data = read_source(source)
    view = memoryview(data)
    pos = 0
    while pos < len(data):
        end = data.rfind(b"\n", pos, pos + chunk_bytes) + 1 if pos + chunk_bytes < len(data) else len(data)
        if end <= pos:
            end = data.find(b"\n", pos + chunk_bytes) + 1 or len(data)
        yield view[pos:end]
        pos = end


def _file_pieces(f, head: bytes, chunk_bytes: int):
    import stat

    # no bigger buffer than a regular file needs: a fresh one is zeroed page by
    # page (a pipe, e.g. <(zcat run.gz), says nothing of its size)
    st = os.fstat(f.fileno())
    room = st.st_size + 1 if stat.S_ISREG(st.st_mode) else chunk_bytes
    buf = bytearray(max(min(chunk_bytes, room), 2 * len(head), 64))
    buf[: len(head)] = head
    have = len(head)  # bytes at the start of buf not yet handed out
    while True:
        if have == len(buf):  # one line longer than the buffer: a bigger one
            bigger = bytearray(2 * len(buf))
            bigger[:have] = buf
            buf = bigger
        with memoryview(buf) as view:
            n = f.readinto(view[have:])
        if not n:
            break
        end = have + n
        cut = buf.rfind(b"\n", 0, end) + 1
        if cut == 0:
            have = end
            continue
        with memoryview(buf) as view:
            with view[:cut] as piece:
                yield piece
        buf[: end - cut] = buf[cut:end]  # the unfinished last line moves to the front
        have = end - cut
    if have:
        with memoryview(buf) as view:
            with view[:have] as piece:
                yield piece


def line_start(data: bytes, lineno: int) -> int:
    """Byte offset where physical line ``lineno`` (1-based) starts (``len(data)`` past the end)."""
    pos, need, step = 0, lineno - 1, 8 << 20
    while need > 0 and pos < len(data):
        n = data.count(b"\n", pos, pos + step)
        if n < need:
            need -= n
            pos += step
            continue
        for _ in range(need):
            pos = data.find(b"\n", pos) + 1
        return pos
    return pos if need == 0 else len(data)


def line_text(data: bytes, lineno: int) -> str:
    """The text of physical line ``lineno`` (1-based), for error messages."""
    start = line_start(data, lineno)
    end = data.find(b"\n", start)
    line = data[start:] if end < 0 else data[start:end]
    return line.rstrip(b"\r").decode("utf-8", "replace")
