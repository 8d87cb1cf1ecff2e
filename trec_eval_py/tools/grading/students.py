"""Whose run is it? Students from the names a learning-management system gives.

An LMS "download all submissions" puts each student's files in a folder (or a
file name) that names the student:

``moodle``
    ``Alice Adams_20231_assignsubmission_file_/run.txt`` (full name, participant id)
``canvas``
    ``adamsalice_20231_884211_run.txt``, ``adamsalice_late_20231_884211_run.txt``
    (login, user id, submission id, the file's own name)
``blackboard``
    ``Assignment 1_aadams_attempt_2024-03-01-23-59-59_run.txt`` (user name)

:func:`student_of` finds the student in a submission's name by one of these
patterns, a regular expression of the caller's (its group ``student``, or its
first group; a group ``id`` for the id), ``folder`` (the first folder under
the folder or archive given) or ``auto`` (the three patterns in turn, then the
folder). Only the top-level entry (what the student handed in: the LMS's folder,
file or zip) names the student: a name inside it, which the student chose,
never does. A roster (:func:`read_roster`, a CSV such as the LMS's grading
worksheet) maps students to its rows: a row is a student's when one of its
cells is the student's id (``20231`` or ``Participant 20231``) or full name.

When a student hands in several files, :func:`pick` keeps ``all`` of them or
the ``latest`` (the one changed last; a zip member's date counts), and says
which it left out.
"""
from __future__ import annotations

import csv
import io
import re
import unicodedata
import warnings

from ..._record import record
from ...errors import InputError, InputWarning, UsageError

#: the built-in patterns, by LMS
PATTERNS = {
    "moodle": r"(?:^|/)(?P<student>[^/]+?)_(?P<id>\d+)_(?:assignsubmission|onlinetext)_[a-z]*_?(?:/|$)",
    "canvas": r"(?:^|/)(?P<student>[a-z][a-z0-9-]*?)(?:_late|_LATE)?_(?P<id>\d+)_\d+_[^/]+$",
    "blackboard": r"(?:^|/)[^/]*?_(?P<student>[^_/]+)_attempt_\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d(?:_[^/]*)?$",
}
CHOICES = ("auto", "folder", "none", *PATTERNS)
PICKS = ("all", "latest")


@record
class Student:
    """A student as the submission names them: a name, and an id when the LMS gives one."""

    name: str
    id: str | None = None

    @property
    def key(self) -> str:
        """What tells students apart: the LMS's id, else the name in NFC, case ignored."""
        return self.id or same_name(self.name)


def same_name(name: str) -> str:
    """``name`` as names are compared: in Unicode's NFC (a macOS folder's NFD ``Zoë`` is
    the roster's NFC ``Zoë``), case ignored, spaces around it dropped."""
    return unicodedata.normalize("NFC", name).strip().casefold()


def compile_pattern(spec: str | None) -> re.Pattern | str | None:
    """The pattern ``spec`` names (a built-in, ``auto``, ``folder``, ``none`` or a regular expression)."""
    if spec is None or spec in ("none", ""):
        return None
    if spec in ("auto", "folder"):
        return spec
    if spec in PATTERNS:
        return re.compile(PATTERNS[spec])
    try:
        rx = re.compile(spec)
    except re.error as e:
        raise UsageError(f"--student-from {spec!r}: not a regular expression ({e})") from None
    if rx.groups == 0:
        raise UsageError(f"--student-from {spec!r}: the pattern needs a group, (?P<student>...), that is the student")
    return rx


def _match(rx: re.Pattern, name: str) -> Student | None:
    m = rx.search(name)
    if m is None:
        return None
    groups = m.groupdict()
    who = groups.get("student") or m.group(1)
    if not who:
        return None
    return Student(who.strip(), groups.get("id"))


def _nfc(st: Student) -> Student:
    return Student(unicodedata.normalize("NFC", st.name), st.id)


def _entries(sub) -> list[tuple[str, str]]:
    """The entries a submission's name passes through, from the top, as ``(its path,
    kind)`` (``folder``, ``archive`` or ``file``): the first is the top-level entry, what
    a student handed in (a Moodle folder, a Canvas or Blackboard file or zip); a file or
    archive given by itself is its own top-level entry (then the archive's members follow)."""
    from ..shared.submissions import archive_kind

    name = sub.name.replace("\\", "/")
    root = (sub.root or "").replace("\\", "/").rstrip("/")
    if sub.root is None or name == root:  # a file given by itself: its own entry
        return [(name, "file")]
    out: list[tuple[str, str]] = []
    if sub.root == "." or root in ("", "."):
        prefix, rest = "", name if root == "." else ""
    elif name.startswith(root + "/"):
        prefix, rest = root, name[len(root) + 1:]
        if archive_kind(root) is not None:  # an archive given: its own name first (a student's zip)
            out.append((root, "archive"))
    else:
        return [(name, "file")]
    parts = [p for p in rest.split("/") if p]
    for i, part in enumerate(parts):
        prefix = f"{prefix}/{part}" if prefix else part
        kind = "file" if i == len(parts) - 1 else "archive" if archive_kind(part) is not None else "folder"
        out.append((prefix, kind))
    return out


def _last(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _named_by(sub, pattern) -> tuple[Student, str] | None:
    """The student of ``sub`` as its entry spells it, and that entry's path (see :func:`student_of`)."""
    if isinstance(pattern, re.Pattern):
        patterns = [pattern]
    else:
        patterns = [re.compile(rx) for rx in PATTERNS.values()] if pattern == "auto" else []
    for path, kind in _entries(sub):
        for rx in patterns:
            found = _match(rx, path)
            if found is not None:
                return found, path
        if kind == "folder" and pattern in ("auto", "folder"):
            return Student(_last(path)), path
        if kind == "file":
            return None
    return None


def student_of(sub, pattern) -> Student | None:
    """The student of submission ``sub`` (its ``name`` and ``root``) by ``pattern``
    (:func:`compile_pattern`), or None.

    The student is whoever handed in the top-level entry (the first file, folder or
    archive under the folder or archive given): the pattern is matched on the path up
    to that entry, and a name inside it never changes whose it is (a member of Alice's
    zip named like Bob's file is Alice's). Only an entry that names nobody (a folder or
    archive the teacher made, such as ``late.zip``) is looked into, its entries then
    taken as top-level ones. ``folder`` names the student by a folder that is such an
    entry (``alice/run.txt``, ``late.zip/hal/run.txt``); a file names no one by it."""
    if pattern is None:
        return None
    found = _named_by(sub, pattern)
    return None if found is None else _nfc(found[0])


def name_students(subs: list, pattern) -> dict:
    """``{submission name: Student or None}`` for ``subs`` (:func:`student_of`), names in NFC.

    Two different entries that name one student by names spelt differently (``Bob``
    and ``bob``; ``Zoë`` in NFC and in NFD) are one student, with an
    :class:`~trec_eval_py.errors.InputWarning` naming both; two students (different
    names) with one LMS id are an :class:`~trec_eval_py.errors.InputError` naming both:
    an id names one student, and the class would be merged into one row."""
    out: dict = {}
    first: dict[str, tuple[str, str]] = {}  # key -> (spelling, entry)
    by_id: dict[str, tuple[str, str]] = {}  # id -> (name as compared, entry)
    if pattern is None:
        return {s.name: None for s in subs}
    for sub in subs:
        found = _named_by(sub, pattern)
        if found is None:
            out[sub.name] = None
            continue
        raw, entry = found
        st = out[sub.name] = _nfc(raw)
        if st.id is not None:
            other = by_id.setdefault(st.id, (same_name(st.name), entry))
            if other[0] != same_name(st.name):
                raise InputError(entry, f"has the id {st.id} of another student, {other[1]}: an id names one "
                                        "student (check the download, or name the students otherwise with "
                                        "--student-from)")
        seen = first.setdefault(st.key, (raw.name, entry))
        if seen[0] != raw.name and seen[1] != entry:
            warnings.warn(InputWarning(entry, f"taken for the same student as {seen[1]} ({seen[0]!r} and "
                                              f"{raw.name!r}: names are compared in NFC, case ignored)"), stacklevel=1)
            first[st.key] = (raw.name, entry)  # each new spelling said once
    return out


def pick(subs: list, students: dict, rule: str = "all") -> tuple[list, list]:
    """The submissions kept under ``rule`` (``all`` or ``latest``: each student's file
    changed last) and, as :class:`~trec_eval_py.tools.shared.submissions.Skipped`, those left out."""
    from ..shared.submissions import Skipped

    if rule not in PICKS:
        raise UsageError(f"--pick {rule}: choose one of {', '.join(PICKS)}")
    if rule == "all":
        return list(subs), []
    by: dict[str, list] = {}
    for s in subs:
        st = students.get(s.name)
        if st is not None and s.problem is None:
            by.setdefault(st.key, []).append(s)
    dropped: dict[str, str] = {}
    for group in by.values():
        if len(group) < 2:
            continue
        keep = max(group, key=lambda s: (s.mtime or 0.0, s.name))
        for s in group:
            if s is not keep:
                dropped[s.name] = f"{students[s.name].name} handed in a later file, {keep.name} (--pick latest)"
    return [s for s in subs if s.name not in dropped], [Skipped(n, why) for n, why in dropped.items()]


@record
class Roster:
    """A class list: its header and rows, as read."""

    name: str
    header: list
    rows: list

    def row_of(self, student: Student | None) -> int | None:
        """The index of ``student``'s row, or None."""
        if student is None:
            return None
        want_id = student.id
        want_name = same_name(student.name)
        for i, row in enumerate(self.rows):
            for cell in row:
                c = cell.strip()
                if want_id and (c == want_id or re.sub(r"\D", "", c) == want_id and re.search(r"\d", c)):
                    return i
                if same_name(c) == want_name:
                    return i
        return None


def read_roster(source) -> Roster:
    """A roster CSV (a header row, then a row per student; UTF-8, with or without a BOM)."""
    from ...engine.parse.source import read_source, source_name

    data = read_source(source)
    name = source_name(source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(name, "the roster is not UTF-8 text") from None
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if len(rows) < 2:
        raise InputError(name, "the roster needs a header row and a row per student")
    return Roster(name, rows[0], rows[1:])


__all__ = ["CHOICES", "PATTERNS", "PICKS", "Roster", "Student", "compile_pattern", "name_students", "pick",
           "read_roster", "same_name", "student_of"]
