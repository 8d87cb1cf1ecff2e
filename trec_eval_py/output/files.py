"""Writing output files safely: whole or not at all, and never through a link.

Every file a command writes (``-o FILE``, the pages of a report) is written
to a new temporary file in the folder it belongs in, then renamed over its
name in one step: a failed or interrupted write leaves the old file as it
was (never a truncated one), and a reader never sees half a file. The
temporary file is created exclusively and without following a link, and
the rename replaces a name, not what a link there points to, so a link
planted in an output folder (``report/runs/x.html -> ~/.bashrc``) is
replaced, its target untouched. The files of a folder (a report) are
written through a descriptor of the folder opened without following a
link, so the folder cannot be swapped for a link half-way either.
"""
from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Iterator

from ..errors import OutputError

Text = str | bytes

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
#: longest file name most file systems take, in bytes
NAME_MAX = 255


def encode(s: Text) -> bytes:
    return s if isinstance(s, bytes) else s.encode("utf-8", "surrogateescape")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def long_name(path: str) -> str | None:
    """The first component of ``path`` longer than :data:`NAME_MAX` bytes, if any."""
    for part in os.fspath(path).split(os.sep):
        if len(os.fsencode(part)) > NAME_MAX:
            return part
    return None


#: bytes gathered before a write: few system calls for many small lines, little held at once
BLOCK_BYTES = 1 << 16


def blocks(pieces: Iterable[Text]) -> Iterator[bytes]:
    """``pieces`` (text as UTF-8 with surrogateescape, or bytes) joined into blocks
    of a little over :data:`BLOCK_BYTES` (a piece is never split), the last one
    possibly shorter or empty: the one way every output, a file or standard
    output, is written."""
    buf: list[bytes] = []
    size = 0
    for s in pieces:
        b = encode(s)
        buf.append(b)
        size += len(b)
        if size > BLOCK_BYTES:
            yield b"".join(buf)
            buf, size = [], 0
    yield b"".join(buf)


def _write_all(fd: int, pieces: Iterable[Text]) -> None:
    for block in blocks(pieces):
        _write_fd(fd, block)


def _write_fd(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def write_in(folder_fd: int | None, name: str, pieces: Iterable[Text], *, shown: str | None = None,
             folder: str = ".") -> None:
    """Write ``pieces`` to ``name`` in the folder ``folder_fd`` (None: ``name`` is a path)
    through a temporary file renamed over it. ``shown`` names the file in errors."""
    shown = shown or name
    where = {} if folder_fd is None else {"dir_fd": folder_fd}
    base = os.path.basename(name)
    tmp_dir = os.path.dirname(name)
    mode = 0o666 & ~_umask()
    try:
        old = os.lstat(name, **where)
        if stat.S_ISREG(old.st_mode):
            mode = stat.S_IMODE(old.st_mode)  # a file written again keeps its permissions
        elif stat.S_ISDIR(old.st_mode):
            raise OutputError(shown, "is a directory")
    except FileNotFoundError:
        pass
    except OSError as e:
        raise OutputError(shown, e.strerror or str(e)) from None
    tmp = None
    for k in range(100):
        # hidden, so that a folder walked for submissions never takes it
        cand = os.path.join(tmp_dir, f".{base[:100]}.{os.getpid()}.{k}.part")
        try:
            fd = os.open(cand, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
                         mode, **where)
        except FileExistsError:
            continue
        except OSError as e:
            raise OutputError(shown, e.strerror or str(e)) from None
        tmp = cand
        break
    if tmp is None:
        raise OutputError(shown, "cannot create a temporary file beside it")
    try:
        try:
            os.fchmod(fd, mode)
            _write_all(fd, pieces)
        finally:
            os.close(fd)
        if folder_fd is None:
            os.replace(tmp, name)
        else:
            os.replace(tmp, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp, **where)
        if isinstance(e, OSError) and not isinstance(e, BrokenPipeError):
            raise OutputError(shown, e.strerror or str(e)) from None
        raise


def write_file(path: str, pieces: Iterable[Text]) -> None:
    """Write ``pieces`` to the file ``path``, whole or not at all (see the module's docstring)."""
    write_in(None, os.fspath(path), pieces)


class Folder:
    """An output folder: created if needed, opened without following a link; its
    files are written whole (:meth:`write`) into it or its subfolders (:meth:`subfolder`)."""

    def __init__(self, path: str, *, create: bool = True):
        self.path = os.fspath(path)
        if create:
            try:
                os.makedirs(self.path, exist_ok=True)
            except FileExistsError:
                raise OutputError(self.path, "is not a folder") from None
            except OSError as e:
                raise OutputError(self.path, e.strerror or str(e)) from None
        self.fd: int | None = self._open(None, self.path)
        self._subs: dict[str, int] = {}

    def _open(self, parent: int | None, name: str) -> int:
        where = {} if parent is None else {"dir_fd": parent}
        shown = name if parent is None else os.path.join(self.path, name)
        try:
            return os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0), **where)
        except OSError as e:
            try:
                st = os.lstat(name, **where)
            except OSError:
                st = None
            if st is not None and stat.S_ISLNK(st.st_mode):
                raise OutputError(shown, "is a symbolic link: an output folder is never reached through one") from None
            if st is not None and not stat.S_ISDIR(st.st_mode):
                raise OutputError(shown, "is not a folder") from None
            raise OutputError(shown, e.strerror or str(e)) from None

    def subfolder(self, name: str) -> int:
        """A descriptor of the subfolder ``name`` (created if needed; a link there is refused)."""
        if name not in self._subs:
            try:
                os.mkdir(name, dir_fd=self.fd)
            except FileExistsError:
                pass
            except OSError as e:
                raise OutputError(os.path.join(self.path, name), e.strerror or str(e)) from None
            self._subs[name] = self._open(self.fd, name)
        return self._subs[name]

    def write(self, rel: str, pieces: Iterable[Text]) -> str:
        """Write the file ``rel`` (``name`` or ``sub/name``) whole; returns its path."""
        sub, _, name = rel.rpartition("/")
        fd = self.subfolder(sub) if sub else self.fd
        path = os.path.join(self.path, rel)
        write_in(fd, name, pieces, shown=path)
        return path

    def close(self) -> None:
        for fd in self._subs.values():
            os.close(fd)
        self._subs.clear()
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def check_folder(path: str, subfolders: Iterable[str] = ()) -> None:
    """Raise :class:`OutputError` now if the folder ``path`` (and its ``subfolders``)
    cannot be written later: a file or a link in its place, no permission, a name too long."""
    path = os.fspath(path)
    part = long_name(path)
    if part is not None:
        raise OutputError(path, f"a name in it is longer than {NAME_MAX} bytes ({part[:40]}...)")
    bare = path.rstrip(os.sep) or path
    try:
        st = os.lstat(bare)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(path, e.strerror or str(e)) from None
    if st is None:
        parent = os.path.dirname(os.path.abspath(bare))
        while not os.path.exists(parent):  # makedirs creates the missing ones
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            raise OutputError(path, f"{parent!r} is not a folder")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise OutputError(path, f"cannot create a folder in {parent!r}: permission denied")
        return
    if stat.S_ISLNK(st.st_mode):
        raise OutputError(path, "is a symbolic link: an output folder is never reached through one")
    if not stat.S_ISDIR(st.st_mode):
        raise OutputError(path, "is not a folder")
    if not os.access(bare, os.W_OK | os.X_OK):
        raise OutputError(path, "permission denied")
    for sub in subfolders:
        full = os.path.join(bare, sub)
        try:
            sst = os.lstat(full)
        except FileNotFoundError:
            continue
        except OSError as e:
            raise OutputError(full, e.strerror or str(e)) from None
        if stat.S_ISLNK(sst.st_mode):
            raise OutputError(full, "is a symbolic link: an output folder is never reached through one")
        if not stat.S_ISDIR(sst.st_mode):
            raise OutputError(full, "is not a folder")
        if not os.access(full, os.W_OK | os.X_OK):
            raise OutputError(full, "permission denied")


__all__ = ["Folder", "NAME_MAX", "check_folder", "long_name", "write_file", "write_in"]
