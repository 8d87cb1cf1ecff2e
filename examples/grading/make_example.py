"""Writes the example class of docs/guide/grading.md and grading-safety.md (deterministic runs).

``qrels.txt`` and ``submissions/``: the class the grading tests use
(``tests/support/grading_class.py``): 10 topics, nested folders, a zip of late
submissions, odd but valid runs and every kind of broken one. Its ``.git``
folder (a hidden folder, never graded) is left out: a repository cannot hold
one.

``moodle.zip`` and ``roster.csv``: a "download all submissions" of a Moodle
assignment, one folder per student (``Full Name_id_assignsubmission_file_``),
made of runs of the same class: a student who handed in two versions (the
member dates say which came last), a write-up beside a run, a run with a
header line; and the class list, with a student who handed in nothing.

Run with ``python3 make_example.py`` in this folder.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))

from support.grading_class import make_class  # noqa: E402

#: (full name, Moodle participant id, {file name: (run of the class, run id, member date)})
MOODLE = [
    ("Alice Adams", 20231, {"run.txt": ("alice/run.txt", "alice", (2024, 3, 1, 21, 5, 0))}),
    ("Bob Brown", 20238, {"run.txt": ("bob/submission/run.txt", "bob", (2024, 3, 1, 22, 40, 0))}),
    ("Erin Evans", 20259, {"run.txt": ("erin.txt", "erin", (2024, 3, 1, 23, 10, 0)),
                           "report.pdf": (None, None, (2024, 3, 1, 23, 11, 0))}),
    ("Hal Hill", 20280, {"run_v1.txt": ("late.zip/ida.txt", "hal-v1", (2024, 2, 28, 18, 0, 0)),
                         "run_v2.txt": ("late.zip/hal/run.txt", "hal-v2", (2024, 3, 1, 9, 30, 0))}),
    ("Leo Lane", 20308, {"run.txt": ("leo.txt", "leo", (2024, 3, 1, 23, 58, 0))}),
]
NO_SHOW = ("Nora Noshow", 20315)


def run_bytes(sub: str, name: str, runid: str) -> bytes:
    """The run ``name`` of the class (a file, or a member of late.zip), its run id renamed ``runid``."""
    if name.startswith("late.zip/"):
        with zipfile.ZipFile(os.path.join(sub, "late.zip")) as z:
            data = z.read(name[len("late.zip/"):])
    else:
        with open(os.path.join(sub, name), "rb") as f:
            data = f.read()
    old = data.split()[-1]
    return re.sub(rb" " + re.escape(old) + rb"(\r?)$", b" " + runid.encode() + rb"\1", data, flags=re.M)


def main() -> None:
    sub = os.path.join(HERE, "submissions")
    if os.path.isdir(sub):
        shutil.rmtree(sub)
    make_class(HERE)
    shutil.rmtree(os.path.join(sub, ".git"))
    # the member dates of a zip are in the archive, so "which came last" survives a checkout
    with zipfile.ZipFile(os.path.join(HERE, "moodle.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for name, pid, files in MOODLE:
            for fname, (source, runid, when) in files.items():
                info = zipfile.ZipInfo(f"{name}_{pid}_assignsubmission_file_/{fname}", when)
                info.compress_type = zipfile.ZIP_DEFLATED
                data = b"%PDF-1.4\n% a write-up\n" if source is None else run_bytes(sub, source, runid)
                z.writestr(info, data)
    with open(os.path.join(HERE, "roster.csv"), "w") as f:
        f.write("Identifier,Full name,Email address\n")
        for name, pid in [(n, p) for n, p, _ in MOODLE] + [NO_SHOW]:
            f.write(f"Participant {pid},{name},{name.split()[0].lower()}@example.edu\n")


if __name__ == "__main__":
    main()
