"""The report written to its folder: checked before grading, written beside what
the folder holds, its own earlier files (listed in its manifest) replaced."""
from __future__ import annotations

import contextlib
import os
import re

from ..board import Leaderboard, render_leaderboard
from ._figures import _topic_columns, class_medians, class_topic_stats, median_curve
from ._pages import _index, _run_page, class_best, feedback_text, grades_csv, short_names, slugs


def check_report(directory) -> None:
    """Raise :class:`~trec_eval_py.errors.OutputError` now if a report cannot be written
    into ``directory`` later (a file or a link in its place, a read-only folder, a name
    too long): before the grading, not after it."""
    from ....output.files import check_folder

    check_folder(os.fspath(directory), SUBFOLDERS)


#: files of its own a report writes at its top (a report written again replaces them)
TOP_FILES = ("index.html", "leaderboard.csv", "leaderboard.md", "grades.csv")
#: the report's subfolders: a page and a feedback file per run
SUBFOLDERS = ("runs", "feedback")


def report_writes(rel: str) -> bool:
    """Whether a report may write the file ``rel`` (a path relative to its folder, ``/``
    separated): its top files, its marker, anything in its subfolders. An input there
    would be overwritten."""
    from ...shared.submissions import REPORT_MARKER

    return rel in TOP_FILES or rel == REPORT_MARKER or rel.split("/", 1)[0] in SUBFOLDERS


#: a line of the manifest that names a page or feedback file (slugs: never a '/' or a leading '.')
_LISTED = re.compile(r"(?:runs|feedback)/[A-Za-z0-9_-][A-Za-z0-9._-]*")
_MANIFEST_HEAD = ("# A report written by trec_eval_py batch --report: never graded as a submission.\n"
                  "# The files it wrote, which a report written again here may replace or delete:\n")
#: the most of a manifest read (a class of 100,000 runs lists about 30 MB)
_MANIFEST_MAX = 64 << 20


def _manifest(out) -> set[str]:
    """The pages and feedback files the report last written in ``out`` (a Folder) listed
    in its marker; empty when there is none (a folder that is no report, a report of an
    older version that kept no list: nothing of them is ever deleted)."""
    from ...shared.submissions import REPORT_MARKER

    try:
        fd = os.open(REPORT_MARKER, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0),
                     dir_fd=out.fd)
    except OSError:
        return set()
    try:
        import stat

        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return set()
        data = os.read(fd, _MANIFEST_MAX)
    except OSError:
        return set()
    finally:
        os.close(fd)
    text = data.decode("utf-8", "replace")
    return {ln for ln in text.splitlines() if _LISTED.fullmatch(ln)}


def _write_manifest(out, listed) -> str:
    from ...shared.submissions import REPORT_MARKER

    return out.write(REPORT_MARKER, [_MANIFEST_HEAD, *(f"{rel}\n" for rel in sorted(listed))])


def write_report(board: Leaderboard, directory, *, title: str = "Leaderboard") -> list[str]:
    """Write the report of ``board`` into ``directory`` (created if needed). Returns the files written.

    Each file is written whole or not at all, never through a link (see
    :mod:`trec_eval_py.output.files`); the folder is marked as a report, so a
    later walk for submissions leaves it out. In a folder already marked, the
    pages and feedback files the last report listed in its manifest and this one does
    not write again (runs no longer on the board) are deleted; nothing else is."""
    from ....output.files import Folder

    check_report(directory)
    slug = slugs([e.path for e in board.entries])
    label = short_names(board)
    tcols = _topic_columns(board)
    stats = {c: class_topic_stats(board, c) for c in tcols}
    med = median_curve(board)
    medians = class_medians(board)
    best = class_best(board)
    n_graded = len(board.graded)
    written = []
    pages = [(f"{sub}/{slug[e.path]}.{ext}", e) for e in board.entries for sub, ext in (("runs", "html"),
                                                                                        ("feedback", "txt"))]
    with Folder(os.fspath(directory)) as out:
        before = _manifest(out)
        # listed first, old and new: a write that stops half-way leaves every file of ours known
        _write_manifest(out, before | {rel for rel, _ in pages})
        written.append(out.write("index.html", [_index(board, slug, title)]))
        written.append(out.write("leaderboard.csv", [render_leaderboard(board, "csv", rounded=True)]))
        written.append(out.write("leaderboard.md", [render_leaderboard(board, "markdown")]))
        written.append(out.write("grades.csv", [grades_csv(board)]))
        for rel, e in pages:
            if rel.startswith("runs/"):
                text = _run_page(board, e, med, stats, title, medians, n_graded, tcols, best, label[e.path])
            else:
                text = feedback_text(board, e, stats, medians, n_graded, tcols)
            written.append(out.write(rel, [text]))
        now = {rel for rel, _ in pages}
        _remove_stale(out, before - now)
        _write_manifest(out, now)
    return written


def _remove_stale(out, stale: set) -> None:
    """Delete the pages and feedback files ``stale`` (names the last report's manifest
    listed: ``runs/NAME`` or ``feedback/NAME``), unlinked through the folder's
    descriptor (a link there is removed, its target untouched; a folder is left)."""
    import stat

    for rel in sorted(stale):
        sub, name = rel.split("/", 1)
        fd = out.subfolder(sub)
        try:
            st = os.lstat(name, dir_fd=fd)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode):
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=fd)
