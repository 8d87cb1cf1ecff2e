"""A submission and how it is read: the records (:class:`Submission`, :class:`Skipped`,
:class:`Found`), files opened without following a link, archives read within bounds."""
from __future__ import annotations

import io
import os
import stat
import zipfile
from typing import Any

from ...._record import field, record, replace
from ....engine.parse.source import (
    BINARY_HEAD,
    binary_reason,
    bound_hint,
    check_expansion,
    compression,
    expand,
    file_pieces,
    read_limits,
    show_size,
    split_pieces,
    too_big,
)
from ....errors import InputError

#: a file in a folder that ``batch --report`` wrote: the folder is never walked as submissions
REPORT_MARKER = ".trec_eval_py-report"
#: archives kept open in one process (members of one archive come one after another)
_OPEN_ARCHIVES = 8


@record
class Skipped:
    """A file or folder found but not graded, and why."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: skipped: {self.reason}"


@record
class Submission:
    """One run to grade: a file, or a member of an archive (perhaps inside archives).

    name : its path as given (``class/alice/run.txt``; ``late.zip/bob/run.txt``
    for a member): unique among the submissions found together
    path : the file on disk (the archive, for a member)
    member : the member's name inside the archive that holds it, or None
    index : the member's position in that archive's listing
    problem : why it cannot be read at all (an archive that does not open)
    """

    name: str
    path: str
    member: str | None = None
    index: int | None = None
    problem: str | None = None
    #: the way to a member from the file on disk, outermost first: (kind of the archive,
    #: member name, index) for each archive on the way (empty for a file of its own)
    inner: tuple = ()
    #: the argument it was found under (a folder or archive given), for naming its student
    root: str | None = None
    #: when it was last changed (a file's mtime, a member's date), for ``--pick latest``
    mtime: float | None = None
    #: a file found in a folder given: (the folder as given, its (st_dev, st_ino), the names
    #: of the folders and the file below it), opened one name at a time from the folder
    beneath: tuple = ()
    #: (st_dev, st_ino) of the file (or archive) as listed: what is opened must be it
    ident: tuple | None = None

    def read(self) -> bytes:
        """The submission's bytes (still compressed if the file is): for a file, read
        without following a link or opening a pipe; for a member, within the bounds."""
        if self.problem is not None:
            raise InputError(self.name, self.problem)
        if self.inner:
            return _not_binary(_read_member(self), self.name)
        if self.path == "-":
            from ....engine.parse.source import read_source

            return read_source("-")
        return _read_file(self)

    @property
    def on_disk(self) -> bool:
        """Whether it is a file of its own (not a member of an archive, not standard input)."""
        return self.problem is None and not self.inner and self.path != "-"

    def pieces(self, chunk_bytes: int):
        """The submission's bytes, decompressed, in pieces of about ``chunk_bytes``
        that end at line ends (views: copy what is kept). A file is read piece by
        piece, opened as :meth:`read` opens it; a member is read whole first."""
        if self.on_disk:
            fd = _open_sub(self)
            with os.fdopen(fd, "rb", buffering=0) as f:
                try:
                    _not_binary(os.pread(fd, BINARY_HEAD, 0), self.name)
                    yield from file_pieces(f, chunk_bytes, self.name)
                except OSError as e:
                    raise InputError(self.name, f"cannot read: {e.strerror or e}") from None
            return
        yield from split_pieces(expand(self.read(), self.name), chunk_bytes, self.name)

    def source(self):
        """What the readers take: the submission's bytes as a stream named after it."""
        stream = io.BytesIO(self.read())
        stream.name = self.name
        return stream


@record(frozen=False)
class Found:
    """What a set of paths stands for: the submissions, and what was left out."""

    submissions: list[Submission] = field(factory=list)
    skipped: list[Skipped] = field(factory=list)
    #: bytes the members of the archives found declare, together (see ReadLimits.max_class)
    expanded: int = 0


# ---- opening without following ----

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def kind_of(mode: int) -> str | None:
    """What a file that is not a regular file or a folder is, for a message; None for those two."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symbolic link (not followed)"
    if stat.S_ISFIFO(mode):
        return "a named pipe (never opened: reading one waits forever)"
    if stat.S_ISSOCK(mode):
        return "a socket (never opened)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device (never opened)"
    return "not a regular file"


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | _NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def _identity_of(st: os.stat_result) -> tuple:
    return (st.st_dev, st.st_ino)


def _not_opened(e: OSError, name: str, shown: str, dir_fd: int | None = None) -> InputError:
    """The error of an ``os.open`` of ``name`` (in ``dir_fd``) that failed: a link is
    named as such (O_NOFOLLOW refused it), anything else by its ``strerror``."""
    if isinstance(e, FileNotFoundError):
        return InputError(shown, "no such file")
    try:
        link = stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        link = False
    if link:
        return InputError(shown, "a symbolic link: not followed")
    return InputError(shown, f"cannot open: {e.strerror or e}")


def open_folder(name: str, shown: str, ident: tuple | None, dir_fd: int | None = None) -> int:
    """A descriptor of the folder ``name`` (in the folder ``dir_fd``), opened without
    following a link and checked to be the folder listed (``ident``: its st_dev, st_ino)."""
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError as e:
        err = _not_opened(e, name, shown, dir_fd)
        if "symbolic link" not in err.reason:
            err = InputError(shown, "not a folder any more: changed after it was listed"
                             if isinstance(e, NotADirectoryError) else f"cannot list the folder: {e.strerror or e}")
        raise err from None
    if ident is not None and _identity_of(os.fstat(fd)) != ident:
        os.close(fd)
        raise InputError(shown, "changed after it was listed (another folder in its place): not read")
    return fd


def _open_beneath(beneath: tuple, name: str) -> int:
    """A descriptor of the file ``beneath`` names, opened one name at a time from its
    folder, each without following a link: a folder on its path swapped for a link
    (by a student writing to the class folder while it is graded) is refused, not followed."""
    root, root_ident, parts = beneath
    fd = open_folder(root, name, root_ident)
    try:
        for i, part in enumerate(parts[:-1]):
            try:
                sub = open_folder(part, name, None, fd)
            except InputError as e:
                where = "/".join(parts[: i + 1])
                raise InputError(name, f"{where}/ on its path: {e.reason}") from None
            os.close(fd)
            fd = sub
        try:
            return os.open(parts[-1], _FILE_FLAGS, dir_fd=fd)
        except OSError as e:
            raise _not_opened(e, parts[-1], name, fd) from None
    finally:
        os.close(fd)


def _open_regular(path: str, name: str, beneath: tuple = (), ident: tuple | None = None) -> int:
    """A file descriptor of ``path``, which must be a regular file reached without
    following a link (in its last component; in every component below the folder
    given, with ``beneath``), a pipe not waited on, and, with ``ident``, the very
    file that was listed."""
    if beneath:
        fd = _open_beneath(beneath, name)
    else:
        try:
            fd = os.open(path, _FILE_FLAGS)
        except OSError as e:
            raise _not_opened(e, path, name) from None
    try:
        st = os.fstat(fd)
        what = kind_of(st.st_mode)
        if what is not None or not stat.S_ISREG(st.st_mode):
            raise InputError(name, what or "a folder, not a file")
        if ident is not None and _identity_of(st) != ident:
            raise InputError(name, "changed after it was listed (another file in its place): not read")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_sub(sub: Submission) -> int:
    return _open_regular(sub.path, sub.name, sub.beneath, sub.ident)


def _not_binary(data: bytes, name: str) -> bytes:
    """``data`` (or its head), unless it is a binary file (told by its head: the rest is
    never read, nor searched for a line end; compressed data is told once expanded)."""
    reason = None if compression(data[:6]) else binary_reason(data[:BINARY_HEAD])
    if reason is not None:
        raise InputError(name, reason)
    return data


def _read_file(sub: Submission) -> bytes:
    fd = _open_sub(sub)
    # unbuffered: the whole file is then read in one call into a buffer of its size
    # (a buffered read of the rest gathers chunks and joins them, then the head is joined on)
    with os.fdopen(fd, "rb", buffering=0) as f:
        try:
            # a binary file is told by its head: not read whole first (a sparse file of gigabytes)
            _not_binary(f.read(BINARY_HEAD), sub.name)
            f.seek(0)
            return f.readall()
        except OSError as e:
            raise InputError(sub.name, f"cannot read: {e.strerror or e}") from None


# ---- archives ----

#: what can go wrong reading a member: a corrupt stream, an unknown method, a password
_MEMBER_ERRORS = (OSError, EOFError, zipfile.BadZipFile, KeyError, RuntimeError, NotImplementedError, ValueError)
#: the most bytes of a tar's extended header (a long name, pax records): tarfile reads one whole
_TAR_HEADER_MAX = 1 << 20


def _errors() -> tuple:
    import lzma
    import tarfile
    import zlib

    return (*_MEMBER_ERRORS, zlib.error, lzma.LZMAError, tarfile.TarError)


def _check_total(name: str, total: int, packed: int, limits) -> None:
    """Raise when the members of an archive of ``packed`` bytes declare ``total`` bytes past
    the bounds: :attr:`ReadLimits.max_archive`, and the ratio a member must keep too (an
    archive whose members share one compressed stream expands far past its own size)."""
    if limits.max_archive and total > limits.max_archive:
        raise InputError(name, f"its members expand to more than {show_size(limits.max_archive)} in all: not "
                               f"opened (raise the bound with {bound_hint('max_archive')})")
    check_expansion(name, total, packed, replace(limits, max_input=0))


def _too_many(name: str, limits) -> InputError:
    return InputError(name, f"holds more than {limits.max_members:,} members: not opened (raise the bound with "
                            f"{bound_hint('max_members')})")


class _Archive:
    """An archive opened for its members: its listing (``entries``: ``(name, is a folder,
    what it is when not a regular file, mtime)`` in archive order) and the bytes of each.

    Opening it reads it once, within the bounds (:class:`ReadLimits`): a zip's table of
    contents (the number of entries and the sizes they declare are checked before any
    member is read); a tar from start to end, each header checked before the member's
    data is read (a header declaring a terabyte stops the listing, its data unread), the
    regular members' bytes kept in a temporary file (in memory while small) so that each
    is then read without a second pass. ``damage`` says why a tar's members after a
    damaged header (or a cut) cannot be listed; ``total`` is what the members declare."""

    def __init__(self, kind: str, name: str, f, packed: int):
        self.kind, self.name, self.packed = kind, name, packed
        self.damage: str | None = None
        self.limits = read_limits()
        self._file = f
        self._zip: zipfile.ZipFile | None = None
        self._spool: Any = None  # a SpooledTemporaryFile: a tar's regular members, one after another
        self._where: dict[int, tuple[int, int]] = {}  # tar member index -> (offset in the spool, size)
        try:
            if kind == "zip":
                self._open_zip(f)
            else:
                self._open_tar(f)
        except BaseException:
            self.close()
            raise

    def _open_zip(self, f) -> None:
        import time

        def mtime(info) -> float | None:
            try:
                return time.mktime(info.date_time + (0, 0, -1))
            except (OverflowError, ValueError):
                return None

        z = self._zip = zipfile.ZipFile(f)
        infos = z.infolist()
        if self.limits.max_members and len(infos) > self.limits.max_members:
            raise _too_many(self.name, self.limits)
        # zipfile yields no more than a member's declared size: the declared total bounds it all
        # (a member whose own sizes fail the bounds is never read: its row says so)
        self.total = sum(i.file_size for i in infos if member_problem(i) is None)
        _check_total(self.name, self.total, self.packed, self.limits)
        self.entries = [(i.filename, i.is_dir(), _member_kind(i), mtime(i)) for i in infos]

    def _open_tar(self, f) -> None:
        import tarfile
        import tempfile

        limits, name = self.limits, self.name

        class Header(tarfile.TarInfo):
            """tarfile ends a listing at a damaged header without a word: the damage is noted;
            an extended header (read whole by tarfile) is bounded."""

            @classmethod
            def fromtarfile(cls, tar):
                try:
                    return super().fromtarfile(tar)
                except (tarfile.InvalidHeaderError, tarfile.TruncatedHeaderError,
                        tarfile.SubsequentHeaderError) as e:
                    tar.damage = f"a damaged header at byte {tar.offset} ({e})"
                    raise

            def _proc_member(self, tar):
                if self.type in (tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE,
                                 tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK) \
                        and self.size > _TAR_HEADER_MAX:
                    raise tarfile.InvalidHeaderError(f"an extended header of {self.size:,} bytes")
                if self.type == tarfile.GNUTYPE_SPARSE:
                    # tarfile reads a sparse member's map block after block, however many it
                    # declares, before any bound sees a byte: no run is a sparse file
                    raise tarfile.InvalidHeaderError("a sparse member")
                return super()._proc_member(tar)

            def _proc_gnusparse_10(self, next, pax_headers, tarfile_):
                raise tarfile.InvalidHeaderError("a sparse member")  # (its map: as many blocks as declared)

        self.entries, self.total = [], 0
        spool = self._spool = tempfile.SpooledTemporaryFile(max_size=64 << 20)  # noqa: SIM115 (closed by close())
        # a stream, read once from start to end: no seek back, nothing decompressed twice
        # (t reads f, which close() closes; it holds no file of its own)
        t = tarfile.open(fileobj=f, mode="r|*", tarinfo=Header)  # noqa: SIM115
        last = None
        try:
            while True:
                m = t.next()
                if m is None:
                    break
                if limits.max_members and len(self.entries) >= limits.max_members:
                    raise _too_many(name, limits)
                self.total += max(m.size, 0)
                _check_total(name, self.total, self.packed, limits)  # before its data is read
                index = len(self.entries)
                what = None if m.isreg() else \
                    "a symbolic link" if m.issym() or m.islnk() else "not a regular file"
                self.entries.append((m.name, m.isdir(), what, float(m.mtime)))
                last = m.name
                if m.isreg() and (not limits.max_input or m.size <= limits.max_input):
                    src = t.extractfile(m)
                    start = spool.tell()
                    while src is not None:
                        b = src.read(1 << 20)
                        if not b:
                            break
                        spool.write(b)
                    self._where[index] = (start, spool.tell() - start)
        except InputError:
            raise
        except (*_errors(), MemoryError, IndexError) as e:  # (tarfile's reading of a cut header)
            if not self.entries:
                raise InputError(name, "not a readable tar archive") from None
            self.damage = f"the tar archive is damaged after {last!r} ({e})"
        else:
            damage = getattr(t, "damage", None)
            if damage is not None:
                self.damage = f"the tar archive has {damage}"
        if self.damage is not None:
            self.damage += ": the members after it are not read"

    def read(self, raw: str, index: int, name: str) -> bytes:
        """The bytes of the member ``raw``, ``index``-th of the listing (``name`` names the
        submission in errors), within the bounds."""
        entry = self.entries[index] if 0 <= index < len(self.entries) else None
        if entry is None or entry[0] != raw:
            raise InputError(name, "the archive changed after it was listed")
        try:
            if self._zip is not None:
                info = self._zip.infolist()[index]
                problem = member_problem(info)
                if problem is not None:
                    raise InputError(name, problem)
                return _bounded(self._zip.open(info), name, info.compress_size)
            where = self._where.get(index)
            if where is None:
                if entry[2] is not None:
                    raise InputError(name, f"the member is {entry[2]}")
                raise too_big(name, "expands to", self.limits)  # its size alone passes the bound
            check_expansion(name, where[1], self.packed, self.limits)
            self._spool.seek(where[0])
            return self._spool.read(where[1])
        except InputError:
            raise
        except _errors() as e:
            raise InputError(name, f"cannot read from the {self.kind} archive: {e}") from None
        except MemoryError:
            raise InputError(name, "too big to read into memory") from None

    def close(self) -> None:
        for f in (self._zip, self._spool, self._file):
            if f is not None:
                f.close()


class _OpenArchives:
    """The archives this process holds open, the most recently used last, at most
    :data:`_OPEN_ARCHIVES` of them: an archive is opened once for all its members,
    and once per process (a forked worker opens its own: the parent's file offset
    is shared with it, so the parent's entries are dropped there, never closed)."""

    def __init__(self) -> None:
        # (path on disk, steps to the archive inside it) -> (process id, the archive opened)
        self.held: dict[tuple, tuple[int, _Archive]] = {}

    def get(self, key: tuple) -> _Archive | None:
        held = self.held.pop(key, None)
        if held is None or held[0] != os.getpid():
            return None  # (another process's: its file is left to it)
        self.held[key] = held  # the most recently used goes last
        return held[1]

    def add(self, key: tuple, opened: _Archive) -> None:
        pid = os.getpid()
        while len(self.held) >= _OPEN_ARCHIVES:
            old = self.held.pop(next(iter(self.held)))
            if old[0] == pid:
                old[1].close()
        self.held[key] = (pid, opened)

    def close(self) -> None:
        pid = os.getpid()
        for key in list(self.held):
            held = self.held.pop(key)
            if held[0] == pid:
                held[1].close()


_open_archives = _OpenArchives()


def _archive(path: str, name: str, steps: tuple, kind: str, beneath: tuple = (),
             ident: tuple | None = None) -> _Archive:
    """The archive of ``kind`` at ``path`` (``steps`` empty) or in the member ``steps``
    lead to inside it, opened once per process (see :class:`_OpenArchives`); ``name``
    names it in errors."""
    key = (path, steps)
    held = _open_archives.get(key)
    if held is not None:
        return held
    if steps:
        outer = steps[-1]
        data = _archive(path, name, steps[:-1], outer[0], beneath, ident).read(outer[1], outer[2], name)
        f: Any = io.BytesIO(data)
        packed = len(data)
    else:
        f = os.fdopen(_open_regular(path, name, beneath, ident), "rb")
        packed = os.fstat(f.fileno()).st_size
    try:
        opened = _Archive(kind, name, f, packed)
    except InputError:
        raise
    except (*_errors(), MemoryError) as e:
        f.close()
        if isinstance(e, OSError) and not isinstance(e, zipfile.BadZipFile) and e.strerror:
            raise InputError(name, f"cannot open: {e.strerror}") from None
        raise InputError(name, f"not a readable {kind} archive") from None
    _open_archives.add(key, opened)
    return opened


def close_archives() -> None:
    """Close the archives this process holds open."""
    _open_archives.close()


def _read_member(sub: Submission) -> bytes:
    kind, raw, index = sub.inner[-1]
    return _archive(sub.path, sub.name, sub.inner[:-1], kind, sub.beneath, sub.ident).read(raw, index, sub.name)


def _bounded(f, name: str, packed: int) -> bytes:
    limits = read_limits()
    parts, have = [], 0
    with f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            parts.append(b)
            have += len(b)
            check_expansion(name, have, packed, limits)
    return b"".join(parts)


def member_problem(info: zipfile.ZipInfo) -> str | None:
    """Why a member cannot be read, from its entry in the table of contents alone
    (a password, or declared sizes past the bounds), else None."""
    if info.flag_bits & 0x1:
        return "the member is encrypted (a password is needed): hand in the run file without a password"
    try:
        check_expansion("", info.file_size, info.compress_size)
    except InputError as e:
        return e.reason
    return None


def _member_kind(info: zipfile.ZipInfo) -> str | None:
    mode = info.external_attr >> 16
    if info.create_system == 3 and mode and stat.S_IFMT(mode):  # written on Unix: the file type is known
        what = kind_of(mode)
        if what is not None:
            return what.replace(" (not followed)", "")
    return None


def _hidden(part: str) -> bool:
    return part.startswith(".") or part == "__MACOSX"


#: file name endings of what students hand in beside a run: write-ups, slides, images, code
NOT_RUN_SUFFIXES = (".pdf", ".doc", ".docx", ".odt", ".rtf", ".md", ".pptx", ".ppt", ".odp", ".xlsx", ".xls",
                    ".ods", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".html", ".htm", ".py", ".ipynb", ".java",
                    ".c", ".cpp", ".h", ".rs", ".go", ".js", ".sh", ".r", ".m", ".tex", ".bib", ".log")
#: names (before any extension) of companion files
NOT_RUN_NAMES = ("readme", "license", "licence", "notes", "changelog", "requirements")
#: archive name endings whose members are taken for submissions
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
#: archives inside archives are opened this deep (a zip that holds itself stops here)
NESTED_MAX = 3


def not_a_run(name: str) -> str | None:
    """Why a file found in a folder or an archive is taken for no run (a README, a
    write-up, an image, code), from its name; None for a possible run."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].lower()
    stem = base.split(".", 1)[0]
    if stem in NOT_RUN_NAMES:
        return f"not a run file (a {stem.upper() if stem == 'readme' else stem} file)"
    for suffix in NOT_RUN_SUFFIXES:
        if base.endswith(suffix):
            return f"not a run file (a {suffix} file)"
    return None


def archive_kind(name: str) -> str | None:
    """``zip`` or ``tar`` for a name that ends as an archive's, else None."""
    low = name.lower()
    if low.endswith(".zip"):
        return "zip"
    if any(low.endswith(s) for s in ARCHIVE_SUFFIXES):
        return "tar"
    return None


@record
class _Entry:
    """A regular file in an archive's listing."""

    raw: str  # its name in the archive
    shown: str  # its name as a submission's (without './', '/' separated)
    index: int
    mtime: float | None


def _listing(members, name: str, found: Found) -> list[_Entry]:
    """The regular files among an archive's ``members``: ``(name in the archive, is a
    folder, what it is when not a regular file or None, mtime)`` in archive order.
    Names that leave the archive, hidden files and other kinds go to ``found.skipped``."""
    listed: list[_Entry] = []
    hidden_folders: set[str] = set()
    for index, (raw, is_dir, what, mtime) in enumerate(members):
        if is_dir:
            continue
        shown = _member_name(raw, name, found, hidden_folders)
        if shown is None:
            continue
        if what is not None:
            found.skipped.append(Skipped(f"{name}/{shown}", f"the member is {what}"))
            continue
        listed.append(_Entry(raw, shown, index, mtime))
    return listed


def _member_name(raw: str, name: str, found: Found, hidden_folders: set) -> str | None:
    """A member's name as shown, or None (and a line in ``found.skipped``) for one
    that is not taken: a name leaving the archive, a hidden file or folder."""
    parts = raw.replace("\\", "/").split("/")
    if raw.startswith(("/", "\\")) or ".." in parts or (parts and parts[0].endswith(":")):
        found.skipped.append(Skipped(f"{name}/{raw}", "its name leaves the archive (an absolute path or '..')"))
        return None
    parts = [p for p in parts if p not in ("", ".")]
    if not parts:
        return None
    hidden = next((i for i, p in enumerate(parts) if _hidden(p)), None)
    if hidden is not None:
        if hidden < len(parts) - 1:  # one line for a hidden folder, not one per file in it
            folder = "/".join(parts[: hidden + 1]) + "/"
            if folder not in hidden_folders:
                hidden_folders.add(folder)
                found.skipped.append(Skipped(f"{name}/{folder}", "a hidden folder"))
        else:
            found.skipped.append(Skipped(f"{name}/{'/'.join(parts)}", "a hidden file"))
        return None
    return "/".join(parts)


def _archive_members(path: str, name: str, found: Found, steps: tuple = (), kind: str = "zip",
                     root: str | None = None, beneath: tuple = (), ident: tuple | None = None) -> None:
    """The members of the archive ``path`` (or of the archive in the member ``steps``
    lead to inside it) as submissions, archives among them opened in turn; what an
    archive holds past the bounds, or after a damaged header, is a failed row."""

    def failed(reason: str, label: str = name) -> None:
        found.submissions.append(Submission(label, path, problem=reason, root=root))

    try:
        archive = _archive(path, name, steps, kind, beneath, ident)
    except InputError as e:
        failed(e.reason)
        return
    limits = archive.limits
    if not steps:  # a nested archive's members are counted in the member that holds it
        found.expanded += archive.total
        if limits.max_class and found.expanded > limits.max_class:
            failed(f"the archives read together expand to more than {show_size(limits.max_class)}: not "
                   f"opened (raise the bound with {bound_hint('max_class')})")
            return
    listed = _listing(archive.entries, name, found)
    if archive.damage is not None:
        failed(archive.damage)
    if not listed:
        if archive.damage is None:
            failed(f"the {kind} archive holds no run file")
        return
    listed.sort(key=lambda e: os.fsencode(e.shown))
    seen: dict[str, int] = {}
    taken = 0
    for m in listed:
        n = seen[m.shown] = seen.get(m.shown, 0) + 1
        label = m.shown if n == 1 else f"{m.shown} ({n})"  # the same name twice: both are graded
        full = f"{name}/{label}"
        why = not_a_run(m.shown)
        if why is not None:
            found.skipped.append(Skipped(full, why))
            continue
        taken += 1
        inner = steps + ((kind, m.raw, m.index),)
        nested = archive_kind(m.shown)
        if nested is not None:
            if len(inner) >= NESTED_MAX:
                found.skipped.append(Skipped(full, f"an archive nested more than {NESTED_MAX} deep: not opened"))
                continue
            _archive_members(path, full, found, inner, nested, root, beneath, ident)
            continue
        found.submissions.append(Submission(full, path, member=m.raw, index=m.index, inner=inner, root=root,
                                            mtime=m.mtime, beneath=beneath, ident=ident))
    if not taken and archive.damage is None:
        failed(f"the {kind} archive holds no run file")
