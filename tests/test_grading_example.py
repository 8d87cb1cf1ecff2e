"""The example class of the grading guides (examples/grading) is the class the grading tests
build (tests/support/grading_class.py), and its Moodle download is made of that class's runs: a
change to one that is not carried to the other fails here (regenerate with
``python3 examples/grading/make_example.py``)."""
from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

from support.grading_class import make_class
from support.paths import ROOT

EXAMPLE = ROOT / "examples" / "grading"


def content(path: Path) -> dict:
    """What a file holds, archives by member and compressed files expanded (their dates aside)."""
    data = path.read_bytes()
    if path.suffix in (".zip", ".docx") and zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            return {i.filename: z.read(i) for i in z.infolist()}
    if path.suffix == ".gz":
        return {"": gzip.decompress(data)}
    return {"": data}


def files(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): content(p) for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def test_the_example_class_is_the_tests_class(tmp_path):
    made = make_class(tmp_path)
    assert (EXAMPLE / "qrels.txt").read_bytes() == (made / "qrels.txt").read_bytes()
    assert files(EXAMPLE / "submissions") == files(made / "submissions")


def test_the_moodle_download_holds_runs_of_the_class():
    ex = files(EXAMPLE / "submissions")
    with zipfile.ZipFile(EXAMPLE / "moodle.zip") as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    runs = [m for m in members if m.endswith(".txt")]
    assert len(runs) == 6 and all("_assignsubmission_file_/" in m for m in runs)
    # each run is a run of the class under another run id: the same documents and scores, line by line
    pool = {tuple(tuple(line.split()[:5]) for line in d.splitlines()) for c in ex.values() for d in c.values()
            if d.startswith((b"401", b"qid"))}
    for m in runs:
        lines = members[m].splitlines()
        assert tuple(tuple(line.split()[:5]) for line in lines) in pool, m
        assert len({line.split()[5] for line in lines if not line.startswith(b"qid")}) == 1, m
