"""Turn what the user names (a path, ``-``, a file object, bytes) into bytes.

Compressed files (``.gz``, ``.bz2``, ``.xz``) are recognised by their magic
bytes, not their names, so a renamed file still reads.

What is read is bounded wherever its size is not known before reading
(:class:`ReadLimits`): standard input, pipes and devices (``/dev/zero``
never ends), file objects, and what a compressed file expands to. Past
the bound the reader stops with one :class:`~trec_eval_py.errors.InputError`
instead of filling the memory. A regular file's size is known, so it is read
whole (or in pieces) whatever its size; a compressed one read in pieces is
expanded as it is read, the bounds checked at every step. The bounds are raised with
:func:`set_read_limits` (``batch`` and ``validate``: ``--max-input``,
``--max-ratio``) or the environment (:data:`MAX_INPUT_ENV`,
:data:`MAX_RATIO_ENV`).
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import stat
import sys
from collections.abc import Sequence
from typing import BinaryIO, TextIO, TypeGuard

from ... import _native
from ..._record import record, replace
from ...errors import InputError, InputTypeError, UsageError, shorten

Source = str | os.PathLike | bytes | BinaryIO | TextIO

# magic bytes -> module whose decompress() reads the format (imported only when met)
_MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "lzma"),
)


# ---- bounds on what is read ----

#: environment variables that raise (or lower) the bounds for every command
MAX_INPUT_ENV = "TREC_EVAL_PY_MAX_INPUT"
MAX_RATIO_ENV = "TREC_EVAL_PY_MAX_RATIO"
MAX_MEMBERS_ENV = "TREC_EVAL_PY_MAX_MEMBERS"
MAX_ARCHIVE_ENV = "TREC_EVAL_PY_MAX_ARCHIVE"
MAX_CLASS_ENV = "TREC_EVAL_PY_MAX_CLASS"
MAX_LINE_ENV = "TREC_EVAL_PY_MAX_LINE"
MAX_SECONDS_ENV = "TREC_EVAL_PY_MAX_SECONDS"
#: most bytes read from a source of unknown size, or expanded from compressed data
DEFAULT_MAX_INPUT = 1 << 30
#: most bytes out per compressed byte in (text runs compress 5 to 20 times)...
DEFAULT_MAX_RATIO = 100
#: ... once the output passes this size (tiny files of repeated lines compress far better)
RATIO_FLOOR = 16 << 20
#: most entries in one archive (files and folders: a class of thousands fits)
DEFAULT_MAX_MEMBERS = 10_000
#: most bytes the members of one archive expand to, all together
DEFAULT_MAX_ARCHIVE = 4 << 30
#: most bytes the members of all the archives of one grading expand to
DEFAULT_MAX_CLASS = 16 << 30
#: the longest line read in pieces (a file of no line end is not held whole to find one)
DEFAULT_MAX_LINE = 1 << 20
#: the most seconds (wall time) grading one submission may take (batch)
DEFAULT_MAX_SECONDS = 120
_STEP = 1 << 20  # bytes read or expanded at a time


@record
class ReadLimits:
    """Bounds on reading: ``max_input`` bytes from a source whose size is unknown
    (standard input, a pipe, a device, a file object) or expanded from compressed
    data (a ``.gz`` file, a zip archive's member); ``max_ratio`` bytes expanded per
    compressed byte once past :data:`RATIO_FLOOR` (a zip bomb expands a few
    megabytes to gigabytes). For archives of submissions: ``max_members`` entries
    in one archive, ``max_archive`` bytes its members expand to together (an
    archive of many members, or of members sharing one compressed stream) and
    ``max_class`` bytes the members of all the archives read together expand to.
    ``max_line``: the longest line of a file read in pieces (a run, a submission).
    ``max_seconds``: the wall time grading one submission (reading, validating,
    evaluating it) may take, where it is graded (batch).
    0 turns a bound off."""

    max_input: int = DEFAULT_MAX_INPUT
    max_ratio: float = DEFAULT_MAX_RATIO
    max_members: int = DEFAULT_MAX_MEMBERS
    max_archive: int = DEFAULT_MAX_ARCHIVE
    max_class: int = DEFAULT_MAX_CLASS
    max_line: int = DEFAULT_MAX_LINE
    max_seconds: float = DEFAULT_MAX_SECONDS


#: a size such as ``1.5GiB`` (compiled on first use, through re's cache: most commands read none)
_SIZE = r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*"


def parse_size(text: str | int, what: str = "size") -> int:
    """Bytes from ``1073741824``, ``512M``, ``2G``, ``1.5GiB`` (powers of 1024); 0 is allowed."""
    if isinstance(text, bool):
        raise UsageError(f"{what}: expected a size such as 512M or 2G, not {text!r}")
    if isinstance(text, int):
        if text < 0:
            raise UsageError(f"{what}: a size cannot be negative")
        return text
    m = re.fullmatch(_SIZE, str(text), re.I)
    if not m:
        raise UsageError(f"{what}: expected a size such as 512M or 2G, not {text!r}")
    return int(float(m.group(1)) * 1024 ** " kmgt".index(m.group(2).lower() or " "))


#: each bound: its environment variable, its flag, and what reads its value
_BOUNDS = {
    "max_input": (MAX_INPUT_ENV, "--max-input", "size"),
    "max_ratio": (MAX_RATIO_ENV, "--max-ratio", "number"),
    "max_members": (MAX_MEMBERS_ENV, "--max-members", "count"),
    "max_archive": (MAX_ARCHIVE_ENV, "--max-archive", "size"),
    "max_class": (MAX_CLASS_ENV, "--max-class", "size"),
    "max_line": (MAX_LINE_ENV, "--max-line", "size"),
    "max_seconds": (MAX_SECONDS_ENV, "--max-seconds", "number"),
}


def _bound(value, field: str, what: str):
    """The value of the bound ``field`` from a flag, a keyword or the environment (``what``)."""
    kind = _BOUNDS[field][2]
    if kind == "size":
        return parse_size(value, what)
    if kind == "count":
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise UsageError(f"{what}: expected a whole number, 0 or more (0: no limit), not {value!r}")
        return value
    try:
        r = float(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else -1.0
    except ValueError:
        r = -1.0
    if not r >= 0:
        raise UsageError(f"{what}: expected a number, 0 or more (0: no limit), not {value!r}")
    return r


def bound_hint(field: str) -> str:
    """``--max-members or TREC_EVAL_PY_MAX_MEMBERS``: how to raise a bound, for a message."""
    env, flag, _ = _BOUNDS[field]
    return f"{flag} or {env}"


def _env_limits() -> ReadLimits:
    out = ReadLimits()
    for field, (env, _, _) in _BOUNDS.items():
        value = os.environ.get(env)
        if value:
            out = replace(out, **{field: _bound(value, field, env)})
    return out


_LIMITS: list[ReadLimits] = []  # set by set_read_limits; else the environment's


def read_limits() -> ReadLimits:
    """The bounds in force (:func:`set_read_limits`, else the environment, else the defaults)."""
    return _LIMITS[-1] if _LIMITS else _env_limits()


def use_read_limits(limits: ReadLimits) -> None:
    """Read with ``limits`` from now on in this process (a worker process takes its parent's).
    The bounds already in force push nothing: grading in this very process would
    otherwise leave them in force after the command, over the environment's."""
    if read_limits() != limits:
        _LIMITS.append(limits)


@contextlib.contextmanager
def set_read_limits(max_input: int | str | None = None, max_ratio: float | None = None, *,
                    max_members: int | None = None, max_archive: int | str | None = None,
                    max_class: int | str | None = None, max_line: int | str | None = None,
                    max_seconds: float | str | None = None):
    """Within the ``with`` block, read with these bounds (None: keep the one in force;
    sizes as :func:`parse_size` reads them)."""
    given = {"max_input": max_input, "max_ratio": max_ratio, "max_members": max_members,
             "max_archive": max_archive, "max_class": max_class, "max_line": max_line,
             "max_seconds": max_seconds}
    if max_ratio is not None and not isinstance(max_ratio, (int, float)):
        raise UsageError(f"--max-ratio: expected a number, 0 or more, not {max_ratio!r}")
    changed = {k: _bound(v, k, _BOUNDS[k][1]) for k, v in given.items() if v is not None}
    _LIMITS.append(replace(read_limits(), **changed))
    try:
        yield _LIMITS[-1]
    finally:
        _LIMITS.pop()


def show_size(n: int) -> str:
    """``1 GiB``, ``16 MiB``, ``300 bytes``: a size for a message."""
    for unit, k in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << k and n % (1 << k) == 0:
            return f"{n >> k} {unit}"
    return f"{n} bytes"


def too_big(name: str, what: str, limits: ReadLimits | None = None) -> InputError:
    """The error of a source read past :attr:`ReadLimits.max_input`."""
    limits = limits or read_limits()
    return InputError(name, f"{what} more than {show_size(limits.max_input)}, the limit for data of unknown "
                            f"size (raise it with --max-input or {MAX_INPUT_ENV})")


def long_line(name: str, lineno: int, limits: ReadLimits | None = None) -> InputError:
    """The error of a line past :attr:`ReadLimits.max_line` (physical line ``lineno``)."""
    limits = limits or read_limits()
    return InputError(name, f"the line is longer than {show_size(limits.max_line)}: no run or judgments line is "
                            f"(raise the bound with {bound_hint('max_line')})", lineno)


def check_lines(data: bytes | bytearray, name: str, bound: int, first_line: int = 1, start: int = 0,
                end: int | None = None) -> None:
    """Raise :func:`long_line` if a line of ``data[start:end]`` (whose first line is physical
    line ``first_line``; the last may go on past ``end``) is longer than ``bound`` bytes
    (0: no bound). At most two searches per ``bound`` bytes: a search backwards from the
    furthest a line starting here may end finds the last line end in reach."""
    end = len(data) if end is None else end
    if not bound:
        return
    pos = start
    while end - pos > bound:
        cut = data.rfind(b"\n", pos, pos + bound + 1)
        if cut < 0:
            raise long_line(name, first_line + data.count(b"\n", start, pos))
        pos = cut + 1


def check_expansion(name: str, out: int, packed: int, limits: ReadLimits | None = None) -> None:
    """Raise when ``packed`` compressed bytes have expanded to ``out`` bytes past the bounds."""
    limits = limits or read_limits()
    if limits.max_input and out > limits.max_input:
        raise too_big(name, "expands to", limits)
    if limits.max_ratio and out > RATIO_FLOOR and out > limits.max_ratio * max(packed, 1):
        whole = out - out % (1 << 20)
        raise InputError(name, f"expands more than {limits.max_ratio:g} times ({show_size(packed)} to "
                               f"{'over ' * (whole != out)}{show_size(whole)}): a decompression bomb? (raise the "
                               f"bound with --max-ratio or {MAX_RATIO_ENV})")


def read_bounded(f, name: str, limits: ReadLimits | None = None) -> bytes:
    """Everything ``f`` (an object with ``read(n)``) holds, up to the size bound."""
    limits = limits or read_limits()
    parts, have = [], 0
    while True:
        try:
            b = f.read(_STEP)
        except TypeError:  # an object whose read() takes no size: it gives everything at once
            b = f.read()
            parts.append(b.encode("utf-8") if isinstance(b, str) else b)
            have += len(parts[-1])
            if limits.max_input and have > limits.max_input:
                raise too_big(name, "holds", limits) from None
            break
        if not b:
            break
        if isinstance(b, str):
            b = b.encode("utf-8")
        parts.append(b)
        have += len(b)
        if limits.max_input and have > limits.max_input:
            raise too_big(name, "holds", limits)
    return b"".join(parts)


def _expand(data: bytes, module: str, name: str) -> bytes:
    """``data`` decompressed by ``module`` (gzip, bz2 or lzma), a step at a time within the bounds."""
    return b"".join(_expanded_steps(io.BytesIO(data), module, name, len(data)))


def _expanded_steps(f, module: str, name: str, packed: int):
    """What the compressed stream ``f`` (``packed`` bytes, gzip, bz2 or lzma) expands
    to, a step at a time; past the bounds (:func:`check_expansion`) one error."""
    import bz2
    import gzip
    import lzma
    import zlib

    opener = {"gzip": gzip.GzipFile, "bz2": bz2.BZ2File, "lzma": lzma.LZMAFile}[module]
    limits = read_limits()
    have = 0
    try:
        with opener(fileobj=f) if module == "gzip" else opener(f) as z:
            while True:
                b = z.read(_STEP)
                if not b:
                    break
                have += len(b)
                check_expansion(name, have, packed, limits)
                yield b
    except (OSError, EOFError, lzma.LZMAError, zlib.error, ValueError, MemoryError) as e:
        if isinstance(e, InputError):
            raise
        raise InputError(name, f"cannot decompress: {e}") from None


#: the bytes at the start of a file that tell a binary one (a NUL among them)
BINARY_HEAD = 4096


def binary_reason(head: bytes) -> str | None:
    """Why data starting with ``head`` (its first :data:`BINARY_HEAD` bytes are looked
    at) is no text file: a PDF document, NUL bytes; None for text."""
    if head.startswith(b"%PDF") or b"\0" in head[:BINARY_HEAD]:
        kind = "a PDF document" if head.startswith(b"%PDF") else "a binary file"
        return f"this is {kind}, not a text run file: save the run as plain text"
    return None


#: the UTF-8 byte-order mark some editors put at the start of a text file
BOM = b"\xef\xbb\xbf"


def skip_bom(data: bytes) -> bytes:
    """``data`` without a leading UTF-8 byte-order mark (the readers of formats
    whose reference tools read text as UTF-8 skip it; trec_eval keeps it)."""
    return data[3:] if data[:3] == BOM else data


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
            stdin = sys.stdin.buffer
            try:
                mode = os.fstat(stdin.fileno()).st_mode
            except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
                mode = 0  # a stream without a descriptor (a test's): no device
            _refuse_device(stdin, mode, name)  # `< /dev/zero`: refused at its first byte
            data = read_bounded(stdin, name)
        else:
            from .handover import take

            ahead = take(source)  # the command line's read-ahead may have read it already
            if ahead is not None:
                return ahead
            try:
                with open(source, "rb") as f:
                    # a regular file's size is known; a pipe is read within the bound
                    mode = os.fstat(f.fileno()).st_mode
                    if stat.S_ISREG(mode):
                        data = f.read()
                    else:
                        _refuse_device(f, mode, name)
                        data = read_bounded(f, name)
            except FileNotFoundError:
                raise InputError(name, "no such file") from None
            except IsADirectoryError:
                raise InputError(name, "is a directory, not a file") from None
            except MemoryError:
                raise InputError(name, "too big to read into memory") from None
            except OSError as e:
                raise InputError(name, f"cannot read: {e.strerror or e}") from None
    elif not callable(getattr(source, "read", None)):
        raise InputTypeError(
            name if name != "<stream>" else shorten(repr(source), 60),
            f"expected a file name, '-', bytes, a file object, a dict, a table or an iterable of namedtuples, "
            f"not {type(source).__name__}")
    else:
        try:
            data = read_bounded(source, name)
        except OSError as e:
            raise InputError(name, f"cannot read: {e.strerror or e}") from None
    return expand(data, name)


def expand(data: bytes, name: str) -> bytes:
    """``data`` decompressed if its magic bytes say it is compressed (within the
    read limits, see :func:`check_expansion`), else as it is."""
    module = compression(data)
    return data if module is None else _expand(data, module, name)


def compression(head: bytes) -> str | None:
    """The module that decompresses data starting with ``head`` (gzip, bz2, lzma), or None."""
    return next((module for magic, module in _MAGIC if head.startswith(magic)), None)


def _refuse_device(f, mode: int, name: str, head: bytes | None = None) -> None:
    """A device that is not a terminal is no file of results: /dev/zero and /dev/urandom never
    end (refused as soon as they give a byte); /dev/null gives none (an empty file)."""
    if not (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)) or f.isatty():
        return
    if head is None:
        head = f.peek(1)[:1] if hasattr(f, "peek") else f.read(1)
    if head:
        raise InputError(name, "is a device, not a file")


def _names_a_file(source: Source) -> TypeGuard[str | os.PathLike]:
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


#: bytes of text per compressed byte, to guess what a compressed file expands to
#: without expanding it (runs compress 5 to 20 times: a guess on the low side)
COMPRESSED_GUESS = 5


def text_size(source: Source) -> int | None:
    """:func:`file_size`, or for a compressed file a guess at the size of its text
    (:data:`COMPRESSED_GUESS` times its size): a hint for deciding how to read it."""
    size = file_size(source)
    if size is None or not _names_a_file(source):
        return None
    try:
        if not stat.S_ISREG(os.stat(source).st_mode):
            return size  # a pipe is read once: never opened for a look (nor is a device)
        with open(source, "rb") as f:
            head = f.read(6)
    except OSError:
        return size
    return size * COMPRESSED_GUESS if compression(head) else size


def read_pieces(source: Source, chunk_bytes: int):
    """Consecutive pieces of ``source``, each ending at a line end (the last
    one may lack it); one piece for a line longer than ``chunk_bytes``.

    A plain file is read into one buffer that is reused for every piece
    (fresh buffers cost a page fault per 4 KB each time): a yielded
    piece is a view into it, valid until the next one is asked for. A
    compressed file is expanded as it is read (see :func:`file_pieces`).
    """
    if _names_a_file(source):
        from .handover import take

        data = take(source)  # read ahead by the command line: pieces of what was read
        if data is not None:
            yield from split_pieces(data, chunk_bytes, os.fspath(source))
            return
        try:
            f = open(source, "rb", buffering=0)  # noqa: SIM115 (the with below: only the open may fail quietly)
        except OSError:
            pass  # read_source says what is wrong with it
        else:
            with f:
                yield from file_pieces(f, chunk_bytes, os.fspath(source))
                return
    # stdin, bytes and file objects are read whole first
    yield from split_pieces(read_source(source), chunk_bytes)


def split_pieces(data: bytes, chunk_bytes: int, name: str = "<bytes>"):
    """``data`` (read whole) as consecutive pieces of about ``chunk_bytes``, each
    ending at a line end (the last one may lack it): views into ``data``, not copies.
    A line longer than :attr:`ReadLimits.max_line` is an error naming it."""
    view = memoryview(data)
    pos = 0
    bound = read_limits().max_line
    lines = 0  # line ends before pos
    whole = data if isinstance(data, (bytes, bytearray)) else bytes(data)
    while pos < len(data):
        end = data.rfind(b"\n", pos, pos + chunk_bytes) + 1 if pos + chunk_bytes < len(data) else len(data)
        if end <= pos:
            end = data.find(b"\n", pos + chunk_bytes) + 1 or len(data)
        if bound:
            check_lines(whole, name, bound, lines + 1, pos, end)
            if end < len(data):  # (the next piece's first line: no count after the last piece)
                lines += count_newlines(whole, pos, end)
        yield view[pos:end]
        pos = end


def file_pieces(f, chunk_bytes: int, name: str):
    """:func:`read_pieces` of a file already opened (unbuffered, binary), read from
    where it stands: for a file opened with care (without following a link). A
    compressed regular file is expanded as it is read, a step at a time (only a
    piece of what it expands to is held); a compressed pipe is read whole first,
    within the bounds (``name`` names either in errors)."""
    head = f.read(6)
    module = compression(head)
    if module is None:
        yield from _file_pieces(f, head, chunk_bytes, name)
        return
    st = os.fstat(f.fileno())
    if not stat.S_ISREG(st.st_mode):
        yield from split_pieces(expand(head + read_bounded(f, name), name), chunk_bytes, name)
        return
    f.seek(-len(head), os.SEEK_CUR)  # a regular file: its head is read again by the decompressor
    yield from line_pieces(_expanded_steps(f, module, name, st.st_size - f.tell()), chunk_bytes, name)


def line_pieces(steps, chunk_bytes: int, name: str = "<stream>"):
    """Consecutive pieces of the text ``steps`` (an iterable of bytes) make, each of
    at least ``chunk_bytes`` (but the last) and ending at a line end (the last one
    may lack it): :func:`split_pieces` of a text that is not held whole."""
    buf = bytearray()
    bound = read_limits().max_line
    lines = 0  # line ends handed out
    for b in steps:
        buf += b
        if len(buf) >= chunk_bytes:
            cut = buf.rfind(b"\n") + 1
            check_lines(buf, name, bound, lines + 1)  # the unfinished last line too: it is held
            if cut:
                piece = bytes(buf[:cut])
                lines += count_newlines(piece)
                yield piece
                del buf[:cut]
    if buf:
        check_lines(buf, name, bound, lines + 1)
        yield bytes(buf)


def _file_pieces(f, head: bytes, chunk_bytes: int, name: str):
    # no bigger buffer than a regular file needs: a fresh one is zeroed page by
    # page (a pipe, e.g. <(zcat run.gz), says nothing of its size)
    st = os.fstat(f.fileno())
    _refuse_device(f, st.st_mode, name, head)
    regular = stat.S_ISREG(st.st_mode)
    room = st.st_size + 1 if regular else chunk_bytes
    bound = 0 if regular else read_limits().max_input  # /dev/zero never ends, nor holds a line end
    total = len(head)
    max_line = read_limits().max_line
    lines = 0  # line ends handed out
    buf = bytearray(max(min(chunk_bytes, room), 2 * len(head), 64))
    buf[: len(head)] = head
    have = len(head)  # bytes at the start of buf not yet handed out
    while True:
        if have == len(buf):  # one line longer than the buffer: a bigger one
            check_lines(buf, name, max_line, lines + 1, 0, have)  # a file of zeros is not held whole
            bigger = bytearray(2 * len(buf))
            bigger[:have] = buf
            buf = bigger
        with memoryview(buf) as view:
            n = f.readinto(view[have:])
        if not n:
            break
        total += n
        if bound and total > bound:
            raise too_big(getattr(f, "name", "<stream>"), "holds")
        end = have + n
        cut = buf.rfind(b"\n", 0, end) + 1
        if cut == 0:
            have = end
            continue
        check_lines(buf, name, max_line, lines + 1, 0, cut)
        with memoryview(buf) as view, view[:cut] as piece:
            lines += count_newlines(buf, 0, cut)
            yield piece
        buf[: end - cut] = buf[cut:end]  # the unfinished last line moves to the front
        have = end - cut
    if have:
        check_lines(buf, name, max_line, lines + 1, 0, have)
        with memoryview(buf) as view, view[:have] as piece:
            yield piece


def count_newlines(data, start: int = 0, end: int | None = None) -> int:
    """``data.count(b"\\n", start, end)`` (``0 <= start``): by the C scanner's count,
    16 bytes at a time, when it is built (about ten times faster on a big run,
    whose every piece's lines are counted)."""
    end = len(data) if end is None else end
    scanner = _native.extension("scan")
    if scanner is None:
        return data.count(b"\n", start, end)
    return scanner.count_newlines(data, start, end)


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
