"""Finding the run files of a class: files, folders walked recursively, zips.

Both ``batch`` and ``validate`` take the same arguments and see the same
submissions:

* a file stands for itself and is named as given;
* a folder stands for every file under it, at any depth, in byte order of
  their paths; files and folders whose name starts with ``.`` are skipped
  (editor back-ups, ``.DS_Store``), and a submission is named by its path
  relative to the folder given (``alice/run.txt``), which keeps two students'
  ``run.txt`` apart;
* a ``.zip`` (given or found in a folder) stands for its members, read one by
  one without unpacking anything on disk, named ``archive.zip/member``;
  hidden members and macOS's ``__MACOSX`` folder are skipped. An archive that
  cannot be opened is one submission that fails with the reason.

Nothing is read here except a zip's table of contents: a
:class:`Submission` opens its bytes when asked, so a pool of worker
processes can each open their own.
"""
from __future__ import annotations

import io
import os
import zipfile

from .._record import record
from ..errors import InputError


@record
class Submission:
    """One run to grade: a file, or a member of a zip archive.

    name : what the class sees (relative to the folder given)
    path : the file on disk (the archive, for a member)
    member : the member's name inside the archive, or None
    problem : why it cannot be read at all (an archive that does not open)
    """

    name: str
    path: str
    member: str | None = None
    problem: str | None = None

    def source(self):
        """What the readers take: the path, or the member's bytes as a named stream."""
        if self.problem is not None:
            raise InputError(self.name, self.problem)
        if self.member is None:
            return self.path
        try:
            with zipfile.ZipFile(self.path) as z:
                data = z.read(self.member)
        except (OSError, zipfile.BadZipFile, KeyError, RuntimeError, NotImplementedError) as e:
            raise InputError(self.name, f"cannot read from the zip archive: {e}") from None
        stream = io.BytesIO(data)
        stream.name = self.name
        return stream


def _hidden(part: str) -> bool:
    return part.startswith(".") or part == "__MACOSX"


def _zip_members(path: str, name: str) -> list[Submission]:
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    except (OSError, zipfile.BadZipFile) as e:
        reason = "not a readable zip archive" if isinstance(e, zipfile.BadZipFile) else f"cannot open: {e}"
        return [Submission(name, path, problem=reason)]
    members = sorted(i.filename for i in infos
                     if not i.is_dir() and not any(_hidden(p) for p in i.filename.split("/") if p))
    if not members:
        return [Submission(name, path, problem="the zip archive holds no run file")]
    return [Submission(f"{name}/{m}", path, member=m) for m in members]


def _expand_file(path: str, name: str) -> list[Submission]:
    if path.lower().endswith(".zip") and os.path.isfile(path):
        return _zip_members(path, name)
    return [Submission(name, path)]


def find_submissions(paths) -> list[Submission]:
    """The submissions that ``paths`` (files, folders, zips) stand for, in order."""
    out: list[Submission] = []
    for p in paths:
        p = os.fspath(p)
        if p != "-" and os.path.isdir(p):
            found: list[tuple[bytes, str, str]] = []
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames[:] = [d for d in dirnames if not _hidden(d)]
                for f in filenames:
                    if _hidden(f):
                        continue
                    full = os.path.join(dirpath, f)
                    rel = os.path.relpath(full, p).replace(os.sep, "/")
                    found.append((os.fsencode(rel), rel, full))
            for _, rel, full in sorted(found):
                out += _expand_file(full, rel)
        else:
            out += _expand_file(p, p)
    return out


__all__ = ["Submission", "find_submissions"]
