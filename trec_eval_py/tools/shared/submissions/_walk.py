"""Walking what was given: folders walked without following a link, archives listed,
every submission named by its path (:func:`scan_submissions`, :func:`find_submissions`)."""
from __future__ import annotations

import os
import stat

from ....errors import InputError
from ._read import (
    REPORT_MARKER,
    Found,
    Skipped,
    Submission,
    _archive_members,
    _hidden,
    _identity_of,
    archive_kind,
    close_archives,
    kind_of,
    not_a_run,
    open_folder,
)

#: folders of a walk kept open at once (the last ones of the path walked: a deep tree
#: does not run out of file descriptors, and going one folder deeper opens one)
_OPEN_FOLDERS = 32


class _Folders:
    """The folders of one walk, each opened from its parent's descriptor without
    following a link and checked to be the folder listed: a folder swapped for a link
    (or for another folder) between the listing and the opening is never entered."""

    def __init__(self, root_fd: int):
        self.root_fd = root_fd
        self.chain: list[tuple[tuple, int]] = []  # (names below the root, descriptor): a path's last folders
        self.idents: dict[tuple, tuple] = {}  # names below the root -> (st_dev, st_ino) as listed

    def open(self, parts: tuple, shown: str) -> int:
        chain = self.chain
        while chain and parts[: len(chain[-1][0])] != chain[-1][0]:
            os.close(chain.pop()[1])
        have, fd = chain[-1] if chain else ((), self.root_fd)
        for i in range(len(have), len(parts)):
            fd = open_folder(parts[i], shown, self.idents[parts[: i + 1]], fd)
            chain.append((parts[: i + 1], fd))
            if len(chain) > _OPEN_FOLDERS:
                os.close(chain.pop(0)[1])
        return fd

    def close(self) -> None:
        for _, fd in self.chain:
            os.close(fd)
        self.chain.clear()
        os.close(self.root_fd)


def _walk(root: str, root_ident: tuple, prefix: str, exclude: set, found: Found) -> list[tuple]:
    """Every regular file under the folder ``root`` (without recursion: a deep tree is no
    problem), as ``(sort key, name, path, stat, names below root)``; the rest goes to
    ``found.skipped``. Every folder is listed and opened through descriptors (see
    :class:`_Folders`), so nothing outside ``root`` is ever listed."""
    files: list[tuple] = []
    try:
        folders = _Folders(open_folder(root, prefix or root, root_ident))
    except InputError as e:
        found.skipped.append(Skipped((prefix or root) + "/", e.reason))
        return files
    try:
        stack: list[tuple[tuple, str]] = [((), prefix)]
        while stack:
            parts, shown = stack.pop()
            try:
                fd = folders.open(parts, shown + "/")
                with os.scandir(fd) as it:
                    entries = list(it)
            except InputError as e:
                found.skipped.append(Skipped(shown + "/", e.reason.replace("a symbolic link: not followed",
                                                                            "a symbolic link (not followed)")))
                continue
            except OSError as e:
                found.skipped.append(Skipped(shown + "/", f"cannot list the folder: {e.strerror or e}"))
                continue
            if parts and any(e.name == REPORT_MARKER for e in entries):
                found.skipped.append(Skipped(shown + "/", "a report written by trec_eval_py batch"))
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
                if _identity_of(st) in exclude:
                    found.skipped.append(Skipped(name + "/" * is_dir, "written by this command (an output)"))
                    continue
                below = parts + (entry.name,)
                if is_dir:
                    folders.idents[below] = _identity_of(st)
                    stack.append((below, name))
                    continue
                what = kind_of(st.st_mode)
                if what is not None:
                    found.skipped.append(Skipped(name, what))
                    continue
                files.append((os.fsencode(name), name, os.path.join(root, *below), st, below))
    finally:
        folders.close()
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
    try:
        return _scan(paths, exclude)
    finally:
        close_archives()  # each process that reads the members opens the archives again, once


def _scan(paths, exclude) -> Found:
    found = Found()
    excluded = {i for i in (_identity(os.fspath(p)) for p in exclude if p is not None) if i is not None}
    seen_names: set[str] = set()
    seen_files: dict[tuple, str] = {}

    root: str | None = None

    def take(name: str, path: str, st: os.stat_result | None, beneath: tuple = ()) -> None:
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
        ident = _identity_of(st) if st is not None else None
        if kind is not None:
            _archive_members(path, name, found, kind=kind, root=root, beneath=beneath, ident=ident)
        else:
            found.submissions.append(Submission(name, path, root=root, mtime=st.st_mtime if st else None,
                                                beneath=beneath, ident=ident))

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
            ident = _identity_of(st)
            # '.' stands for the files under it named from here: alice/run.txt, not ./alice/run.txt
            for _, name, full, fst, below in sorted(_walk(bare, ident, "" if bare == "." else bare, excluded, found),
                                                    key=lambda f: f[0]):
                why = not_a_run(name)
                if why is not None:  # a README or a write-up beside the run: listed, not graded
                    found.skipped.append(Skipped(name, why))
                    continue
                take(name, full, fst, (bare, ident, below))
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
    from ....engine.join.dataset import dataset_source

    source = dataset_source(path)
    if source is None:
        return
    from ....errors import UsageError

    raise UsageError(f"{path} is a sharded run dataset made by trec_eval_py shard, not a folder of run files: "
                     f"evaluate it with 'trec_eval_py QRELS {path}'; to check or grade the run, give the run "
                     f"file it was made from{': ' + source if source else ''}")


def find_submissions(paths, *, exclude=()) -> list[Submission]:
    """The submissions ``paths`` (files, folders, zips) stand for, in order (see
    :func:`scan_submissions` for what is left out)."""
    return scan_submissions(paths, exclude=exclude).submissions
