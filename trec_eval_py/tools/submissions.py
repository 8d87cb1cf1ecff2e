"""Finding the run files of a class: files, folders walked recursively, zips.

Both ``batch`` and ``validate`` take the same arguments and see the same
submissions. A class folder comes from students, so it is walked as
:mod:`tarfile`'s ``data`` filter extracts an archive: only regular files
inside the folder given are read, and nothing found there is ever followed
out of it.

* a file stands for itself; an archive (``.zip``, ``.tar``, ``.tar.gz``,
  ``.tgz``, ``.tar.bz2``, ``.tar.xz``...; given or found in a folder) stands
  for its members, read without unpacking anything on disk, and an archive
  among them for its own members in turn (one nested more than
  :data:`NESTED_MAX` deep is not opened);
* a folder stands for every regular file under it, at any depth, in byte
  order of their paths;
* every submission is named by its path as given (``class/alice/run.txt``,
  ``late.zip/bob/run.txt``; the files under ``.`` as ``alice/run.txt``), so
  two names never collide: two students'
  ``run.txt`` in two folders, two sections' folders of the same name; two
  members of one archive with the same name are told apart by their order
  (``run.txt``, ``run.txt (2)``); a file reached twice (given twice, or given
  and inside a folder given) is graded once.

What is not graded is listed as :class:`Skipped` with the reason and never
opened (nor quoted): symbolic links (a link in a student's folder may point
at any file of the teacher's: it is not followed, neither to a file nor to a
folder, and neither is a link given on the command line), named pipes,
sockets and devices (a pipe never ends: reading one hangs; ``/dev/zero``
never ends either), hidden files and folders (a name starting with ``.``:
editor back-ups, ``.DS_Store``; macOS's ``__MACOSX``), folders that cannot
be listed, a report folder written by ``batch --report`` (and any folder or
file the caller excludes: this run's own outputs), archive members whose
name leaves the archive (an absolute path or ``..``) and members that are
links or devices. A member whose name starts with ``./`` is read under the
name without it.

A file is opened without following a link (``O_NOFOLLOW``) and without
waiting on a pipe (``O_NONBLOCK``), and the open file is checked to be a
regular one, so a file swapped for a link or a pipe after the walk is not
read either. What an archive member expands to is bounded
(:class:`~trec_eval_py.engine.parse.source.ReadLimits`): by its declared
sizes before reading it, and again while reading it.

Nothing is read here except an archive's table of contents: a :class:`Submission`
reads its bytes when asked, so a pool of worker processes can each read
their own; each process opens an archive once for all its members.
"""
from __future__ import annotations

import io
import os
import stat
import zipfile

from .._record import field, record
from ..engine.parse.source import check_expansion, expand, file_pieces, read_limits, split_pieces
from ..errors import InputError

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
    """One run to grade: a file, or a member of a zip archive.

    name : its path as given (``class/alice/run.txt``; ``late.zip/bob/run.txt``
    for a member): unique among the submissions found together
    path : the file on disk (the archive, for a member)
    member : the member's name inside the archive, or None
    index : the member's position in the archive's table of contents
    problem : why it cannot be read at all (an archive that does not open)
    """

    name: str
    path: str
    member: str | None = None
    index: int | None = None
    problem: str | None = None
    #: archives inside the member (or file), outermost first: (member name, index) in each
    inner: tuple = ()
    #: the argument it was found under (a folder or archive given), for naming its student
    root: str | None = None
    #: when it was last changed (a file's mtime, a member's date), for ``--pick latest``
    mtime: float | None = None

    def read(self) -> bytes:
        """The submission's bytes (still compressed if the file is): for a file, read
        without following a link or opening a pipe; for a member, within the bounds."""
        if self.problem is not None:
            raise InputError(self.name, self.problem)
        if self.member is None and not self.inner:
            if self.path == "-":
                from ..engine.parse.source import read_source

                return read_source("-")
            return _read_file(self.path, self.name)
        if not self.inner:
            return _read_member(self)
        return _read_nested(self)

    @property
    def on_disk(self) -> bool:
        """Whether it is a file of its own (not a member of an archive, not standard input)."""
        return self.problem is None and self.member is None and not self.inner and self.path != "-"

    def pieces(self, chunk_bytes: int):
        """The submission's bytes, decompressed, in pieces of about ``chunk_bytes``
        that end at line ends (views: copy what is kept). A file is read piece by
        piece, opened as :meth:`read` opens it; a member is read whole first."""
        if self.on_disk:
            fd = _open_regular(self.path, self.name)
            with os.fdopen(fd, "rb", buffering=0) as f:
                try:
                    yield from file_pieces(f, chunk_bytes, self.name)
                except OSError as e:
                    raise InputError(self.name, f"cannot read: {e.strerror or e}") from None
            return
        yield from split_pieces(expand(self.read(), self.name), chunk_bytes)

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


def _open_regular(path: str, name: str) -> int:
    """A file descriptor of ``path``, which must be a regular file reached without
    following a link in its last component (a pipe is not waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(name, "no such file") from None
    except OSError as e:
        if os.path.islink(path):
            raise InputError(name, "a symbolic link: not followed") from None
        raise InputError(name, f"cannot open: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        what = kind_of(st.st_mode)
        if what is not None or not stat.S_ISREG(st.st_mode):
            raise InputError(name, what or "a folder, not a file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_file(path: str, name: str) -> bytes:
    fd = _open_regular(path, name)
    with os.fdopen(fd, "rb") as f:
        try:
            return f.read()
        except OSError as e:
            raise InputError(name, f"cannot read: {e.strerror or e}") from None


# ---- zip archives ----

_ARCHIVES: dict[str, tuple[int, tuple, zipfile.ZipFile]] = {}  # path -> (pid, stamp, archive)


def _stamp(st: os.stat_result) -> tuple:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _open_archive(path: str, name: str) -> tuple[tuple, zipfile.ZipFile]:
    fd = _open_regular(path, name)
    f = os.fdopen(fd, "rb")
    try:
        return _stamp(os.fstat(f.fileno())), zipfile.ZipFile(f)
    except BaseException:
        f.close()
        raise


def _archive(path: str, name: str) -> zipfile.ZipFile:
    """The archive at ``path``, opened once per process (a forked worker opens its own:
    the parent's file offset is shared with it)."""
    pid = os.getpid()
    held = _ARCHIVES.get(path)
    if held is not None and held[0] == pid:
        return held[2]
    if held is not None and held[0] != pid:
        _ARCHIVES.pop(path)  # the parent's: its file is left to the parent
    while len(_ARCHIVES) >= _OPEN_ARCHIVES:
        old = _ARCHIVES.pop(next(iter(_ARCHIVES)))
        if old[0] == pid:
            old[2].close()
    stamp, z = _open_archive(path, name)
    _ARCHIVES[path] = (pid, stamp, z)
    return z


def close_archives() -> None:
    """Close the archives this process holds open."""
    pid = os.getpid()
    for path in list(_ARCHIVES):
        held = _ARCHIVES.pop(path)
        if held[0] == pid:
            held[2].close()


#: what can go wrong reading a member: a corrupt stream, an unknown method, a password
_MEMBER_ERRORS = (OSError, EOFError, zipfile.BadZipFile, KeyError, RuntimeError, NotImplementedError, ValueError)


def _read_member(sub: Submission) -> bytes:
    import lzma
    import zlib

    try:
        z = _archive(sub.path, sub.name)
        infos = z.infolist()
        info = infos[sub.index] if sub.index is not None and sub.index < len(infos) else None
        if info is None or info.filename != sub.member:
            raise InputError(sub.name, "the archive changed after it was listed")
        problem = member_problem(info)
        if problem is not None:
            raise InputError(sub.name, problem)
        limits = read_limits()
        parts, have = [], 0
        with z.open(info) as f:
            while True:
                b = f.read(1 << 20)
                if not b:
                    break
                parts.append(b)
                have += len(b)
                check_expansion(sub.name, have, info.compress_size, limits)
        return b"".join(parts)
    except InputError:
        raise
    except (*_MEMBER_ERRORS, zlib.error, lzma.LZMAError) as e:
        raise InputError(sub.name, f"cannot read from the zip archive: {e}") from None
    except MemoryError:
        raise InputError(sub.name, "too big to read into memory") from None


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


def _list_zip(z: zipfile.ZipFile, name: str, found: Found) -> list[_Entry]:
    import time

    def mtime(info) -> float | None:
        try:
            return time.mktime(info.date_time + (0, 0, -1))
        except (OverflowError, ValueError):
            return None

    return _listing(((i.filename, i.is_dir(), _member_kind(i), mtime(i)) for i in z.infolist()), name, found)


def _list_tar(t, name: str, found: Found) -> list[_Entry]:
    def what(m) -> str | None:
        if m.isreg():
            return None
        return "a symbolic link" if m.issym() or m.islnk() else "not a regular file"

    return _listing(((m.name, m.isdir(), what(m), float(m.mtime)) for m in t.getmembers()), name, found)


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


def _open_tar(fileobj):
    import tarfile

    return tarfile.open(fileobj=fileobj, mode="r:*")


_ARCHIVE_ERRORS = (OSError, zipfile.BadZipFile, ValueError, EOFError, KeyError, RuntimeError, NotImplementedError)


def _archive_members(path: str, name: str, found: Found, inner: tuple = (), data: bytes | None = None,
                     kind: str = "zip", root: str | None = None) -> None:
    """The members of the archive ``path`` (or, nested, of ``data``: the bytes of the
    member reached by ``inner``) as submissions, archives among them opened in turn."""
    import tarfile

    def failed(reason: str) -> None:
        found.submissions.append(Submission(name, path, problem=reason, root=root))

    try:
        if data is None:
            if kind == "zip":
                with _open_archive(path, name)[1] as z:
                    listed = _list_zip(z, name, found)
            else:
                fd = _open_regular(path, name)
                with os.fdopen(fd, "rb") as f, _open_tar(f) as t:
                    listed = _list_tar(t, name, found)
        elif kind == "zip":
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                listed = _list_zip(z, name, found)
        else:
            with _open_tar(io.BytesIO(data)) as t:
                listed = _list_tar(t, name, found)
    except InputError as e:
        failed(e.reason)
        return
    except (tarfile.TarError, *_ARCHIVE_ERRORS) as e:
        if isinstance(e, OSError) and not isinstance(e, tarfile.TarError):
            failed(f"cannot open: {e.strerror or e}")
        else:
            failed(f"not a readable {kind} archive")
        return
    if not listed:
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
        nested = archive_kind(m.shown)
        step = (m.raw, m.index)
        if data is None:
            sub = Submission(full, path, member=m.raw, index=m.index, root=root, mtime=m.mtime) \
                if kind == "zip" else Submission(full, path, inner=(("tar", *step),), root=root, mtime=m.mtime)
        else:
            sub = Submission(full, path, member=None, inner=inner + ((kind, *step),), root=root, mtime=m.mtime)
        if nested is not None:
            if len(sub.inner) + (sub.member is not None) >= NESTED_MAX:
                found.skipped.append(Skipped(full, f"an archive nested more than {NESTED_MAX} deep: not opened"))
                continue
            try:
                inner_data = sub.read()
            except InputError as err:
                found.submissions.append(Submission(full, path, problem=err.reason, root=root))
                continue
            chain = sub.inner if sub.member is None else (("zip", sub.member, sub.index),)
            _archive_members(path, full, found, chain, inner_data, nested, root)
            continue
        found.submissions.append(sub)
    if not taken:
        failed(f"the {kind} archive holds no run file")


def _zip_members(path: str, name: str, found: Found, root: str | None = None) -> None:
    _archive_members(path, name, found, kind="zip", root=root)


def _read_nested(sub: Submission) -> bytes:
    """The bytes of a member inside archives inside the file (or member) ``sub.path``,
    each step within the bounds."""
    import tarfile

    # a zip on disk: its member first (the archive stays open); a tar on disk: the first step
    data = _read_member(Submission(sub.name, sub.path, sub.member, sub.index)) if sub.member is not None else None
    for kind, raw, index in sub.inner:
        try:
            if data is None:
                if kind == "zip":
                    data = _read_member(Submission(sub.name, sub.path, raw, index))
                    continue
                fd = _open_regular(sub.path, sub.name)
                with os.fdopen(fd, "rb") as f, _open_tar(f) as t:
                    data = _tar_member(t, raw, index, sub.name, os.fstat(f.fileno()).st_size)
                continue
            if kind == "zip":
                with zipfile.ZipFile(io.BytesIO(data)) as z:
                    infos = z.infolist()
                    info = infos[index] if index < len(infos) else None
                    if info is None or info.filename != raw:
                        raise InputError(sub.name, "the archive changed after it was listed")
                    problem = member_problem(info)
                    if problem is not None:
                        raise InputError(sub.name, problem)
                    data = _bounded(z.open(info), sub.name, info.compress_size)
            else:
                with _open_tar(io.BytesIO(data)) as t:
                    data = _tar_member(t, raw, index, sub.name, len(data))
        except InputError:
            raise
        except (tarfile.TarError, *_MEMBER_ERRORS) as e:
            raise InputError(sub.name, f"cannot read from the archive: {e}") from None
    assert data is not None  # read() comes here for a submission with a step inside archives
    return data


def _tar_member(t, raw: str, index: int, name: str, packed: int) -> bytes:
    members = t.getmembers()
    m = members[index] if index < len(members) else None
    if m is None or m.name != raw or not m.isreg():
        raise InputError(name, "the archive changed after it was listed")
    check_expansion(name, m.size, packed)
    f = t.extractfile(m)
    if f is None:
        raise InputError(name, "the member is not a regular file")
    return _bounded(f, name, packed)


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


# ---- walking folders ----

def _walk(root: str, prefix: str, exclude: set, found: Found) -> list[tuple[bytes, str, str, os.stat_result]]:
    """Every regular file under the folder ``root`` (without recursion: a deep tree is no
    problem), as ``(sort key, name, path, stat)``; the rest goes to ``found.skipped``."""
    files = []
    stack = [(root, prefix)]
    while stack:
        folder, shown = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError as e:
            found.skipped.append(Skipped(shown + "/", f"cannot list the folder: {e.strerror or e}"))
            continue
        for entry in entries:
            name = f"{shown}/{entry.name}" if shown else entry.name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as e:
                found.skipped.append(Skipped(name, f"cannot read: {e.strerror or e}"))
                continue
            is_dir = stat.S_ISDIR(st.st_mode)
            if _hidden(entry.name):
                found.skipped.append(Skipped(name + "/" * is_dir, f"a hidden {'folder' if is_dir else 'file'}"))
                continue
            if (st.st_dev, st.st_ino) in exclude:
                found.skipped.append(Skipped(name + "/" * is_dir, "written by this command (an output)"))
                continue
            if is_dir:
                if os.path.lexists(os.path.join(entry.path, REPORT_MARKER)):
                    found.skipped.append(Skipped(name + "/", "a report written by trec_eval_py batch"))
                    continue
                stack.append((entry.path, name))
                continue
            what = kind_of(st.st_mode)
            if what is not None:
                found.skipped.append(Skipped(name, what))
                continue
            files.append((os.fsencode(name), name, entry.path, st))
    return files


def _identity(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def scan_submissions(paths, *, exclude=()) -> Found:
    """The submissions ``paths`` (files, folders, zips, ``-``) stand for, in order, and
    what was found but not graded. ``exclude`` names files or folders never to take
    (the outputs of the command, such as its report folder)."""
    found = Found()
    excluded = {i for i in (_identity(os.fspath(p)) for p in exclude if p is not None) if i is not None}
    seen_names: set[str] = set()
    seen_files: dict[tuple, str] = {}

    root: str | None = None

    def take(name: str, path: str, st: os.stat_result | None) -> None:
        if name in seen_names:
            found.skipped.append(Skipped(name, "given twice: graded once"))
            return
        seen_names.add(name)
        if st is not None:
            key = (st.st_dev, st.st_ino)
            if key in seen_files:
                found.skipped.append(Skipped(name, f"the same file as {seen_files[key]}: graded once"))
                return
            seen_files[key] = name
        kind = archive_kind(path) if st is not None else None
        if kind is not None:
            _archive_members(path, name, found, kind=kind, root=root)
        else:
            found.submissions.append(Submission(name, path, root=root, mtime=st.st_mtime if st else None))

    for p in paths:
        p = os.fspath(p)
        root = p
        if p == "-":
            take(p, p, None)
            continue
        # the last component is looked at, not followed ("class/eve/" with eve a link included)
        bare = p.rstrip("/" + os.sep) or p
        try:
            st = os.lstat(bare)
        except FileNotFoundError:
            found.submissions.append(Submission(p, p, problem="no such file"))
            continue
        except OSError as e:
            found.submissions.append(Submission(p, p, problem=f"cannot read: {e.strerror or e}"))
            continue
        if (st.st_dev, st.st_ino) in excluded:
            found.skipped.append(Skipped(p, "written by this command (an output)"))
        elif stat.S_ISDIR(st.st_mode):
            if os.path.lexists(os.path.join(bare, REPORT_MARKER)):
                found.skipped.append(Skipped(p, "a report written by trec_eval_py batch"))
                continue
            _refuse_dataset(p)
            start = len(found.skipped)
            # '.' stands for the files under it named from here: alice/run.txt, not ./alice/run.txt
            for _, name, full, fst in sorted(_walk(bare, "" if bare == "." else bare, excluded, found)):
                why = not_a_run(name)
                if why is not None:  # a README or a write-up beside the run: listed, not graded
                    found.skipped.append(Skipped(name, why))
                    continue
                take(name, full, fst)
            found.skipped[start:] = sorted(found.skipped[start:], key=lambda s: os.fsencode(s.path))
        elif stat.S_ISREG(st.st_mode):
            take(p, p, st)
        else:
            found.skipped.append(Skipped(p, kind_of(st.st_mode) or "not a regular file"))
    return found


def _refuse_dataset(path: str) -> None:
    """A sharded run (a folder made by ``trec_eval_py shard``) given where run files
    are taken: its Parquet files would each be read as a text run (and found
    binary). A usage error saying what it is and what to do instead."""
    from ..engine.join.dataset import dataset_source

    source = dataset_source(path)
    if source is None:
        return
    from ..errors import UsageError

    raise UsageError(f"{path} is a sharded run dataset made by trec_eval_py shard, not a folder of run files: "
                     f"evaluate it with 'trec_eval_py QRELS {path}'; to check or grade the run, give the run "
                     f"file it was made from{': ' + source if source else ''}")


def find_submissions(paths, *, exclude=()) -> list[Submission]:
    """The submissions ``paths`` (files, folders, zips) stand for, in order (see
    :func:`scan_submissions` for what is left out)."""
    return scan_submissions(paths, exclude=exclude).submissions


__all__ = ["ARCHIVE_SUFFIXES", "Found", "NESTED_MAX", "REPORT_MARKER", "Skipped", "Submission", "archive_kind",
           "close_archives", "find_submissions", "kind_of", "member_problem", "not_a_run", "scan_submissions"]
