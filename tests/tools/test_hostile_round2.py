"""A second hostile audit of how ``batch`` and ``validate`` find and read submissions.

Each section is one finding: a race that swaps a folder for a link while the
class is walked or graded, archive entries lost without a word, archives and
streams whose reading has no bound (members, total expansion, listing time),
and lines long enough to make the validator's arrays blow up. The hostile
files are built here, with bounds set small so that each case runs at once;
``benchmarks/bench_hostile.py`` times the full-size ones.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from support.golden import run_cli
from support.paths import ROOT
from trec_eval_py.errors import InputError
from trec_eval_py.tools.submissions import close_archives, scan_submissions

SECRET = "ghp_SECRETTOKEN0123456789"
QRELS = "".join(f"{t} 0 D{d} {int(d % 3 == 0)}\n" for t in (1, 2) for d in range(12))


def run_text(runid: str, docs=range(10), topics=(1, 2)) -> str:
    return "".join(f"{t} Q0 D{d} {r} {100 - r} {runid}\n" for t in topics for r, d in enumerate(docs, 1))


@pytest.fixture
def outside(tmp_path):
    """A folder of the teacher's, outside the class: its run.txt quotes a secret if read."""
    h = tmp_path / "home"
    h.mkdir()
    (h / "run.txt").write_text(f"{SECRET}\n")  # one bad line: its error message would quote it
    return h


@pytest.fixture
def klass(tmp_path):
    root = tmp_path / "class"
    for s in ("alice", "bob"):
        (root / s).mkdir(parents=True)
        (root / s / "run.txt").write_text(run_text(s))
    (tmp_path / "qrels.txt").write_text(QRELS)
    return root


def grade(tmp_path, capsysbinary, *args):
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", *args, "--format", "json", "-j", "1"], capsysbinary)
    assert "Traceback" not in err
    return code, json.loads(out) if out else None, err


# ---- 1. a folder on the path swapped for a link while the class is read ----

def _swap_for_link(folder, target) -> None:
    os.rename(folder, folder.with_name(folder.name + "-moved"))
    os.symlink(target, folder)


def test_a_folder_swapped_for_a_link_during_the_walk_is_not_entered(tmp_path, klass, outside, capsysbinary,
                                                                    monkeypatch):
    real = os.scandir
    swapped = []

    class Listed:
        """The entries of a folder, each looked at (lstat) before the swap: the race's window."""

        def __init__(self, entries):
            self.entries = entries

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def __iter__(self):
            return iter(self.entries)

    def scandir(path="."):
        with real(path) as it:
            entries = list(it)
        for e in entries:
            e.stat(follow_symlinks=False)  # the walk has seen a folder here
        if not swapped and any(e.name == "alice" for e in entries):
            _swap_for_link(klass / "alice", outside)  # ...and now it is a link out of the class
            swapped.append(1)
        return Listed(entries)

    monkeypatch.setattr(os, "scandir", scandir)
    code, doc, err = grade(tmp_path, capsysbinary, klass)
    assert swapped
    assert SECRET not in json.dumps(doc) + err
    assert [r["run"] for r in doc["runs"]] == [f"{klass}/bob/run.txt"]
    skipped = {s["path"]: s["reason"] for s in doc["skipped"]}
    assert skipped[f"{klass}/alice/"] == "a symbolic link (not followed)"


def test_a_folder_swapped_for_a_link_after_the_walk_is_not_read_through(tmp_path, klass, outside):
    found = scan_submissions([klass])
    alice = next(s for s in found.submissions if "/alice/" in s.name)
    _swap_for_link(klass / "alice", outside)
    with pytest.raises(InputError, match=r"alice/ on its path: a symbolic link: not followed") as e:
        alice.read()
    assert SECRET not in str(e.value)
    with pytest.raises(InputError, match="a symbolic link"):
        b"".join(alice.pieces(1 << 16))


def test_a_folder_swapped_for_another_folder_is_not_read(tmp_path, klass):
    found = scan_submissions([klass])
    alice = next(s for s in found.submissions if "/alice/" in s.name)
    os.rename(klass / "alice", tmp_path / "alice-moved")
    os.rename(klass / "bob", klass / "alice")  # a real folder, but not the one listed
    with pytest.raises(InputError, match="changed after it was listed"):
        alice.read()


def test_an_archive_in_a_swapped_folder_is_not_opened(tmp_path, klass, outside, capsysbinary):
    import zipfile

    with zipfile.ZipFile(klass / "alice" / "late.zip", "w") as z:
        z.writestr("run.txt", run_text("late"))
    with zipfile.ZipFile(outside / "late.zip", "w") as z:
        z.writestr("run.txt", f"{SECRET}\n")
    found = scan_submissions([klass])
    late = next(s for s in found.submissions if "late.zip" in s.name)
    close_archives()
    _swap_for_link(klass / "alice", outside)
    with pytest.raises(InputError, match="a symbolic link: not followed"):
        late.read()
