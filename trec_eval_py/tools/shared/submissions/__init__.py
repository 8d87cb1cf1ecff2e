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
read either. What an archive holds is bounded
(:class:`~trec_eval_py.engine.parse.source.ReadLimits`): its number of
entries, what its members expand to together (checked from the sizes they
declare, before their data is read), and each member by its declared sizes
before reading it and again while reading it; the archives of one scan are
bounded together too. An archive past a bound, and a tar's members after a
damaged header, are a failed row with the reason.

Nothing is read here except what lists an archive (a zip's table of contents, a tar
once through): a :class:`Submission` reads its bytes when asked, so a pool of worker
processes can each read their own; each process opens an archive once for all its
members, an archive inside an archive too.
"""
from __future__ import annotations

from ._read import (
                    ARCHIVE_SUFFIXES,
                    NESTED_MAX,
                    REPORT_MARKER,
                    Found,
                    Skipped,
                    Submission,
                    archive_kind,
                    close_archives,
                    kind_of,
                    member_problem,
                    not_a_run,
)

# the names of files that are not runs, and a folder opened without following a link
from ._read import NOT_RUN_NAMES as NOT_RUN_NAMES
from ._read import NOT_RUN_SUFFIXES as NOT_RUN_SUFFIXES
from ._read import open_folder as open_folder
from ._walk import find_submissions, scan_submissions

__all__ = ["ARCHIVE_SUFFIXES", "Found", "NESTED_MAX", "REPORT_MARKER", "Skipped", "Submission", "archive_kind",
           "close_archives", "find_submissions", "kind_of", "member_problem", "not_a_run", "scan_submissions"]
