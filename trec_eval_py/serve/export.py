"""The boards, and what the teacher takes away: ``grades.csv``, every submission.

The **public board** ranks each student by their best public score over their
graded runs handed in before the deadline (a late run is kept, shown to its
student and the teacher, and ranked nowhere). The **private board** ranks each
student by their best private score over their finals: the runs they marked,
else their ``finals`` best public ones (as a shared task scores the runs a
team picks, so that the private topics judge choices made without seeing
them). Rows share a rank when their values are equal; a student without a
graded run is not on a board. Before the reveal the private board is the
teacher's alone (see :mod:`.app`).

The same is written without the server by ``trec_eval_py serve ... --export
OUT`` (:func:`export`): ``OUT/grades.csv`` (``batch --roster``'s, of the finals
on the private topics), ``OUT/board.csv`` (both boards) and
``OUT/submissions.zip`` (every upload, by student).
"""
from __future__ import annotations

import json
import os
import zipfile

from ..output.table import csv_rows


def _value(row, part: str, col: str):
    scores = row[part]
    if scores is None:
        return None
    v = json.loads(scores).get(col)
    return None if v is None else float(v)


def _best_first(value):
    return (1, 0.0) if value is None or value != value else (0, -value)


def finals_of(store, student_id: int, most: int) -> list:
    """A student's finals: the graded on-time runs they marked, else their ``most`` best public ones."""
    sort_by = store.setting("sort_by")
    rows = [r for r in store.submissions(student_id) if r["status"] == "graded" and not r["late"]]
    marked = [r for r in rows if r["final"]]
    if marked:
        return marked
    rows.sort(key=lambda r: (_best_first(_value(r, "public", sort_by)), r["id"]))
    return rows[:most]


def board(store, part: str, most: int) -> list[dict]:
    """The ``public`` or ``private`` board: a dict a row (rank, student, submission id, the scores
    of each column, runs), best first."""
    columns, sort_by = store.setting("columns"), store.setting("sort_by")
    by_student: dict[int, list] = {}
    for r in store.submissions():
        if r["status"] == "graded" and not r["late"]:
            by_student.setdefault(r["student_id"], []).append(r)
    names = {s["id"]: s["name"] for s in store.students()}
    rows = []
    for sid, subs in by_student.items():
        pool = subs if part == "public" else finals_of(store, sid, most)
        if not pool:
            continue
        best = min(pool, key=lambda r: (_best_first(_value(r, part, sort_by)), r["id"]))
        rows.append({"student_id": sid, "student": names.get(sid, "?"), "submission": best["id"],
                     "runs": len(subs), "scores": {c: _value(best, part, c) for c in columns}})
    rows.sort(key=lambda x: (_best_first(x["scores"].get(sort_by)), x["student"]))
    for i, x in enumerate(rows):
        same = i > 0 and x["scores"].get(sort_by) == rows[i - 1]["scores"].get(sort_by)
        x["rank"] = rows[i - 1]["rank"] if same else i + 1
    return rows


def show(v) -> str:
    """A score as trec_eval prints it (4 decimals)."""
    if v is None:
        return ""
    return f"{v:.4f}" if isinstance(v, float) else str(v)


def board_csv(store, parts: tuple[str, ...], most: int) -> str:
    """The boards of ``parts`` as CSV (each field safe for a spreadsheet), full precision."""
    columns = store.setting("columns")
    out = [["board", "rank", "student", *columns, "runs"]]
    for part in parts:
        for x in board(store, part, most):
            out.append([part, x["rank"], x["student"], *[repr(x["scores"][c]) if x["scores"][c] is not None
                                                         else "" for c in columns], x["runs"]])
    return csv_rows(out)


def grades(store, grading, most: int) -> str:
    """``grades.csv`` as ``batch --roster`` writes it: the finals graded on the private topics."""
    from .grading import grades_csv_of

    finals = []
    for s in store.students():
        for r in finals_of(store, s["id"], most):
            finals.append((s["key"], s["name"], store.run_path(r["sha256"]), f"{s['key']}/{r['id']}-{r['filename']}"))
    return grades_csv_of(grading, os.path.join(store.root, "roster.csv"), finals)


def write_submissions_zip(store, buf) -> None:
    """Every upload as ``STUDENT/ID-NAME`` in a zip written to the binary file ``buf`` (each run
    streamed from the state folder: the class is never in memory at once), with
    ``submissions.csv`` (who, when, late, status, hash) beside them."""
    keys = {s["id"]: s["key"] for s in store.students()}
    listing = [["id", "student", "file", "received_utc", "late", "status", "sha256", "error"]]
    import datetime as dt

    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for r in store.submissions():
            safe = _safe_name(keys.get(r["student_id"], "unknown"))
            name = f"{safe}/{r['id']}-{_safe_name(r['filename'])}"
            z.write(store.run_path(r["sha256"]), name)
            when = dt.datetime.fromtimestamp(r["received"], dt.UTC).isoformat(timespec="seconds")
            listing.append([r["id"], keys.get(r["student_id"], ""), name, when, r["late"], r["status"],
                            r["sha256"], r["error"] or ""])
        z.writestr("submissions.csv", csv_rows(listing))


def _safe_name(name: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9._@-]+", "_", name).strip("._") or "file"


#: what --export writes into its folder, and the mark that the folder is one
EXPORT_FILES = ("grades.csv", "board.csv", "submissions.zip")
EXPORT_MARKER = ".trec_eval_py-serve-export"


def export(store, grading, out: str, most: int) -> list[str]:
    """Write :data:`EXPORT_FILES` into ``out`` (made if missing; a folder that holds other
    files must be one an earlier export wrote): the paths written."""
    from ..errors import OutputError

    if os.path.islink(out):
        raise OutputError(out, "is a symbolic link: give the folder itself")
    if os.path.exists(out):
        if not os.path.isdir(out):
            raise OutputError(out, "is not a folder")
        others = set(os.listdir(out)) - {*EXPORT_FILES, EXPORT_MARKER}
        if others and not os.path.exists(os.path.join(out, EXPORT_MARKER)):
            raise OutputError(out, "holds other files: give a new or empty folder")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, EXPORT_MARKER), "wb") as marker:
        marker.write(b"written by trec_eval_py serve --export\n")
    contents = {"grades.csv": lambda f: f.write(grades(store, grading, most).encode("utf-8")),
                "board.csv": lambda f: f.write(board_csv(store, ("public", "private"), most).encode("utf-8")),
                "submissions.zip": lambda f: write_submissions_zip(store, f)}
    written = []
    for name in EXPORT_FILES:
        path = os.path.join(out, name)
        if os.path.islink(path):
            raise OutputError(path, "is a symbolic link: not written through")
        tmp = path + ".part"
        with open(tmp, "wb") as f:
            contents[name](f)
        os.replace(tmp, path)
        written.append(path)
    return written
