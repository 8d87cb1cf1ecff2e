"""A teacher's folder of hostile submissions: nothing leaks, nothing is lost, nothing hangs.

The class is built here, case by case: links to the teacher's files, a named
pipe, a socket, zip bombs, duplicate names, members escaping their archive,
long LMS paths, deep folders, outputs aimed at the inputs, and signals sent
to a grading in progress. Each numbered section is one finding of the audit
this suite guards (numbers as in ``docs/guide/grading-safety.md``).
"""
from __future__ import annotations

import gzip
import io
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from support.golden import GOLDEN, run_cli
from support.paths import ROOT
from support.processes import session

from trec_eval_py.errors import InputError, OptionTypeError, OutputError, UsageError
from trec_eval_py.tools.shared.submissions import REPORT_MARKER, Submission, scan_submissions

SECRET = "ghp_SECRETTOKEN0123456789"
QRELS = "".join(f"{t} 0 D{d} {int(d % 3 == 0)}\n" for t in (1, 2) for d in range(12))


def run_text(runid: str, docs=range(10), topics=(1, 2)) -> str:
    return "".join(f"{t} Q0 D{d} {r} {100 - r} {runid}\n" for t in topics for r, d in enumerate(docs, 1))


@pytest.fixture
def home(tmp_path):
    """The teacher's own files, which no student may reach."""
    h = tmp_path / "home"
    (h / ".ssh").mkdir(parents=True)
    (h / ".git-credentials").write_text(f"https://teacher:{SECRET}@github.com\n")
    (h / ".ssh" / "id_rsa").write_text(f"-----BEGIN KEY----- {SECRET}\n")
    (h / "notes.txt").write_text(f"1 Q0 {SECRET} 1 1 leak\n")  # shaped like a run: it would be graded
    return h


@pytest.fixture
def klass(tmp_path, home):
    root = tmp_path / "class"
    (root / "alice").mkdir(parents=True)
    (root / "alice" / "run.txt").write_text(run_text("alice"))
    (tmp_path / "qrels.txt").write_text(QRELS)
    return root


def grade(tmp_path, capsysbinary, *args, fmt="json"):
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", *args, "--format", fmt, "-j", "1"], capsysbinary)
    assert "Traceback" not in err
    return code, (json.loads(out) if fmt == "json" and out else out), err


def names(doc) -> list[str]:
    return [r["run"] for r in doc["runs"]]


def everything_written(out: str, folder: Path | None) -> str:
    texts = [out]
    if folder is not None:
        texts += [p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file()]
    return "\n".join(texts)


# ---- 1. only regular files inside the folder are read ----

def test_links_in_a_class_folder_are_never_followed(tmp_path, klass, home, capsysbinary):
    (klass / "eve").mkdir()
    os.symlink(home / ".git-credentials", klass / "eve" / "run.txt")
    os.symlink(home / "notes.txt", klass / "mallory.txt")
    os.symlink(home / ".ssh", klass / "trudy")  # a linked folder: neither followed nor silently dropped
    os.symlink(home / "notes.txt", klass / "eve.txt.gz")
    report = tmp_path / "report"
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--report", report)
    assert code == 0
    assert names(doc) == [f"{klass}/alice/run.txt"]
    skipped = {s["path"]: s["reason"] for s in doc["skipped"]}
    for link in ("eve/run.txt", "mallory.txt", "trudy", "eve.txt.gz"):
        assert skipped[f"{klass}/{link}"] == "a symbolic link (not followed)"
        assert f"{klass}/{link}: skipped: a symbolic link (not followed)" in err
    assert SECRET not in everything_written(json.dumps(doc), report) + err
    assert "a symbolic link (not followed)" in (report / "index.html").read_text()


def test_a_link_given_on_the_command_line_is_not_followed_either(tmp_path, klass, home, capsysbinary):
    # `batch qrels class/*/` expands to a student's linked folder as an argument of its own
    os.symlink(home / ".ssh", klass / "eve")
    code, doc, err = grade(tmp_path, capsysbinary, f"{klass}/alice/", f"{klass}/eve/", klass / "alice" / "run.txt")
    assert names(doc) == [f"{klass}/alice/run.txt"]
    assert f"{klass}/eve/: skipped: a symbolic link (not followed)" in err
    assert f"{klass}/alice/run.txt: skipped: given twice: graded once" in err
    assert SECRET not in json.dumps(doc) + err


def test_pipes_sockets_and_devices_are_skipped_not_opened(tmp_path, klass):
    os.mkfifo(klass / "fifo.txt")  # reading it would wait for a writer forever
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(klass / "sock.txt"))
    os.symlink("/dev/zero", klass / "zero.txt")
    try:
        # a separate process, so that a hang fails the test instead of stopping the suite
        p = subprocess.run([sys.executable, "-m", "trec_eval_py", "batch", str(tmp_path / "qrels.txt"), str(klass),
                            "--format", "json"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    finally:
        s.close()
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert names(doc) == [f"{klass}/alice/run.txt"]
    skipped = {s["path"]: s["reason"] for s in doc["skipped"]}
    assert skipped[f"{klass}/fifo.txt"].startswith("a named pipe (never opened")
    assert skipped[f"{klass}/sock.txt"].startswith("a socket")
    assert skipped[f"{klass}/zero.txt"] == "a symbolic link (not followed)"
    p = subprocess.run([sys.executable, "-m", "trec_eval_py", "validate", str(klass)],
                       capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0 and "fifo.txt: skipped: a named pipe" in p.stderr, p.stderr


def test_a_file_swapped_for_a_link_after_the_walk_is_not_read(tmp_path, klass, home):
    found = scan_submissions([klass])
    (sub,) = found.submissions
    os.unlink(sub.path)
    os.symlink(home / ".git-credentials", sub.path)
    with pytest.raises(InputError, match="a symbolic link: not followed"):
        sub.read()
    os.unlink(sub.path)
    os.mkfifo(sub.path)
    with pytest.raises(InputError, match="named pipe"):
        sub.read()  # O_NONBLOCK: no writer, yet no wait


def test_devices_named_directly_are_refused_at_once(tmp_path, capsysbinary):
    code, out, err = run_cli([GOLDEN / "inputs" / "qrels.test", "/dev/zero"], capsysbinary)
    assert code == 2 and err == "trec_eval_py: /dev/zero: is a device, not a file\n"
    code, out, err = run_cli(["diff", "/dev/urandom", GOLDEN / "inputs" / "qrels.test"], capsysbinary)
    assert code == 2 and err == "trec_eval_py: /dev/urandom: is a device, not a file\n"


# ---- 4. --hide-judgments hides every document, judged or not ----

def _probe_class(tmp_path, judged: list[str], label: str):
    """A probe run listing candidates twice (a duplicate-docno finding for each), a tab-separated
    broken line quoting a candidate, and judgments on ``judged``."""
    (tmp_path / f"qrels-{label}").write_text("".join(f"1 0 {d} 1\n" for d in judged) + "2 0 X9 1\n")
    c = tmp_path / f"class-{label}"
    c.mkdir()
    cands = ["CAND1", "CAND2", "CAND3", "CAND4"]
    lines = [f"1 Q0 {d} {r} {10 - r} probe" for r, d in enumerate(cands + cands, 1)]
    (c / "probe.txt").write_text("\n".join(lines) + "\n")
    (c / "tabs.txt").write_text("1\tQ0\tCAND1\t1\t1.0\tx\n1\tQ0\tCAND2\t2\tbad\tx\n")
    (c / "header.txt").write_text("topic Q0 CAND3 rank score CAND4\n1 Q0 CAND3 1 1 x\n")
    return c, cands


def test_hide_judgments_hides_every_docno_and_tells_nothing_by_which(tmp_path, capsysbinary):
    seen = []
    for label, judged in (("a", ["CAND1", "CAND2"]), ("b", ["CAND3", "CAND4"])):
        c, cands = _probe_class(tmp_path, judged, label)
        report = tmp_path / f"report-{label}"
        code, out, err = run_cli(["batch", tmp_path / f"qrels-{label}", c, "--hide-judgments", "-j", "1",
                                  "--format", "json", "--report", report], capsysbinary)
        text = everything_written(out, report)
        for d in cands:
            assert d not in text, d
        assert "[hidden]" in text
        # without the option the same class does show them (the check above can fail)
        code, plain, _ = run_cli(["batch", tmp_path / f"qrels-{label}", c, "-j", "1", "--format", "json"],
                                 capsysbinary)
        assert "CAND1" in plain and "CAND3" in plain
        doc = json.loads(out)
        seen.append([(r["run"].rsplit("/", 1)[1], r["error"], r["warnings"]) for r in doc["runs"]])
    # which candidates are judged changes the scores, never the messages
    assert any(w for _, _, w in seen[0]) and any(e for _, e, _ in seen[0])
    assert sorted((n, e, tuple(w)) for n, e, w in seen[0]) == sorted((n, e, tuple(w)) for n, e, w in seen[1])


# ---- 6. every submission has a name of its own ----

def test_same_file_names_in_many_folders_get_pages_of_their_own(tmp_path, capsysbinary):
    subs = tmp_path / "submissions"
    for k, who in enumerate(["ann", "ben", "cat"]):
        (subs / who).mkdir(parents=True)
        (subs / who / "run.txt").write_text(run_text(who, docs=range(k, 10 + k)))
    for sec in ("sec1", "sec2"):  # two sections with a student of the same name
        (tmp_path / sec / "dan").mkdir(parents=True)
        (tmp_path / sec / "dan" / "run.txt").write_text(run_text(sec, docs=range(3 if sec == "sec1" else 6, 15)))
    (tmp_path / "qrels.txt").write_text(QRELS)
    report = tmp_path / "report"
    folders = [f"{subs}/{w}/" for w in ("ann", "ben", "cat")] + [tmp_path / "sec1", tmp_path / "sec2"]
    code, doc, err = grade(tmp_path, capsysbinary, *folders, "--report", report)
    got = names(doc)
    assert sorted(got) == sorted([f"{subs}/{w}/run.txt" for w in ("ann", "ben", "cat")]
                                 + [f"{tmp_path}/sec{i}/dan/run.txt" for i in (1, 2)])
    assert len({r["runid"] for r in doc["runs"]}) == 5
    pages = list((report / "runs").iterdir())
    feedback = sorted((report / "feedback").iterdir())
    assert len(pages) == len(feedback) == 5
    # each feedback file is its own run's
    assert sorted(f.read_text().splitlines()[0] for f in feedback) == sorted(f"Run: {n}" for n in got)


def test_duplicate_zip_members_are_both_graded_each_once(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    z = tmp_path / "late.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("bob/run.txt", run_text("first", docs=range(0, 10)))
        with pytest.warns(UserWarning, match="Duplicate name"):
            zf.writestr("bob/run.txt", run_text("second", docs=range(1, 11)))
    code, doc, err = grade(tmp_path, capsysbinary, z)
    runs = {r["run"]: r for r in doc["runs"]}
    assert set(runs) == {f"{z}/bob/run.txt", f"{z}/bob/run.txt (2)"}
    assert runs[f"{z}/bob/run.txt"]["runid"] == "first" and runs[f"{z}/bob/run.txt (2)"]["runid"] == "second"


def remove_tree_iteratively(root: Path) -> None:
    """Remove ``root`` and everything under it with a stack of folders, not
    recursion: ``shutil.rmtree`` (and Python 3.11's ``os.walk``) recurse once per
    level and fail on a tree deeper than the recursion limit, as pytest's clean-up
    of old temporary folders would at exit. A folder is removed once it is empty;
    anything a command left inside it goes first."""
    stack = [os.fspath(root)] if os.path.lexists(root) else []
    while stack:
        path = stack[-1]
        folders = []
        with os.scandir(path) as entries:
            for e in entries:
                if e.is_dir(follow_symlinks=False):
                    folders.append(e.path)
                else:
                    os.unlink(e.path)
        if folders:
            stack += folders
        else:
            os.rmdir(path)
            stack.pop()


def test_a_deep_tree_is_removed_without_recursion(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("kept")
    root = tmp_path / "deep"
    d = root
    root.mkdir()
    for k in range(1100):
        d = d / "d"
        d.mkdir()
        if k % 500 == 0:
            (d / "file.txt").write_text("x")
            (d / "sibling").mkdir()
            os.symlink(outside, d / "link")  # removed as a link, never followed
    import shutil

    # the premise: the standard removal recurses once per level and gives up (at Python's
    # default limit: a test run may have raised it, as Hypothesis does while it runs)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        with pytest.raises(RecursionError):
            shutil.rmtree(root)
    finally:
        sys.setrecursionlimit(limit)
    remove_tree_iteratively(root)
    assert not root.exists() and (outside / "keep.txt").read_text() == "kept"
    remove_tree_iteratively(root)  # nothing there: nothing to do


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def test_long_lms_paths_and_deep_folders(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    lms = tmp_path / "lms"
    long_names = []
    for k in range(2):  # LMS downloads: 'Lastname, Firstname_12345_assignsubmission_file_...' nested twice
        d = lms / (f"Student {k} " + "x" * 200) / ("assignsubmission_file_" + "y" * 200)
        d.mkdir(parents=True)
        (d / "run.txt").write_text(run_text(f"s{k}"))
        long_names.append(str(d / "run.txt"))
    deep = tmp_path / "deep"
    d = deep
    report = tmp_path / "report"
    # a SIGTERM (a timeout's kill) while the tree exists unwinds through the finally
    # below instead of ending the process and leaving the tree to pytest's clean-up
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:  # built and graded inside the try: whatever exists of the tree is removed below
        deep.mkdir()
        for _ in range(1100):  # deeper than Python's recursion limit (os.makedirs cannot make it)
            d = d / "d"
            d.mkdir()
        (d / "run.txt").write_text(run_text("deep"))
        code, doc, err = grade(tmp_path, capsysbinary, lms, deep, "--report", report)
    finally:  # shutil.rmtree (pytest's clean-up) recurses once per level: removed here, without recursion
        try:
            remove_tree_iteratively(deep)
        finally:
            signal.signal(signal.SIGTERM, previous)
    assert not deep.exists()
    assert code == 0, err
    assert sorted(names(doc)) == sorted(long_names + [str(d / "run.txt")])
    assert all(len(p.name.encode()) <= 255 for p in report.rglob("*"))
    assert len(list((report / "runs").iterdir())) == 3


# ---- 7. outputs: whole or not at all, never over an input, never through a link ----

def test_o_never_names_an_input_or_a_link(tmp_path, klass, home, capsysbinary):
    qrels = tmp_path / "qrels.txt"
    before = qrels.read_bytes()
    for target in (qrels, klass / "alice" / "run.txt"):
        code, out, err = run_cli(["batch", qrels, klass, "-o", target], capsysbinary)
        assert code == 1 and "is an input of this command" in err and len(err.splitlines()) == 1
    assert qrels.read_bytes() == before and (klass / "alice" / "run.txt").read_text() == run_text("alice")
    os.symlink(home / "notes.txt", tmp_path / "board.txt")
    code, out, err = run_cli(["batch", qrels, klass, "-o", tmp_path / "board.txt"], capsysbinary)
    assert code == 1 and "is a symbolic link" in err
    assert (home / "notes.txt").read_text().startswith("1 Q0 ")


def test_a_failed_write_leaves_the_old_file(tmp_path, klass, capsysbinary, monkeypatch):
    out_file = tmp_path / "board.txt"
    out_file.write_text("last week's board\n")
    import trec_eval_py.output.files as files

    def full(fd, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "_write_fd", full)
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "-o", out_file], capsysbinary)
    assert code == 1 and err == f"trec_eval_py: cannot write {out_file}: No space left on device\n"
    assert out_file.read_text() == "last week's board\n"
    # no temporary left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.txt", "class", "home", "qrels.txt"]


def test_report_writes_never_follow_a_link_out_of_the_folder(tmp_path, klass, home, capsysbinary):
    report = tmp_path / "report"
    (report / "runs").mkdir(parents=True)
    victim = home / "notes.txt"
    before = victim.read_text()
    os.symlink(victim, report / "index.html")
    os.symlink(victim, report / "leaderboard.csv")
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "--report", report], capsysbinary)
    assert code == 0, err
    assert victim.read_text() == before
    assert not (report / "index.html").is_symlink() and "<!DOCTYPE html>" in (report / "index.html").read_text()
    # a linked subfolder is refused before any grading
    import shutil

    shutil.rmtree(report / "feedback")
    os.symlink(home, report / "feedback")
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "--report", report], capsysbinary)
    assert code == 1 and out == "" and err == f"trec_eval_py: cannot write {report}/feedback: is a symbolic link: " \
        "an output folder is never reached through one\n"
    assert sorted(p.name for p in home.iterdir()) == [".git-credentials", ".ssh", "notes.txt"]


def test_a_report_inside_the_class_folder_is_not_graded_next_time(tmp_path, klass, capsysbinary):
    # written elsewhere, then moved into the class folder: the marker keeps it out of the walk
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--report", tmp_path / "report")
    assert names(doc) == [f"{klass}/alice/run.txt"]
    assert (tmp_path / "report" / REPORT_MARKER).is_file()
    os.rename(tmp_path / "report", klass / "report")
    code, _, err = grade(tmp_path, capsysbinary, klass, "--report", tmp_path / "report2", "-o",
                         klass / "board.json")
    doc = json.loads((klass / "board.json").read_text())
    assert names(doc) == [f"{klass}/alice/run.txt"]
    assert {s["path"]: s["reason"] for s in doc["skipped"]}[f"{klass}/report/"] == \
        "a report written by trec_eval_py batch"
    # a board (-o) in the class folder is a file like any other: written again, it is refused as an input
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "-o", klass / "board.json"], capsysbinary)
    assert code == 1 and "is an input of this command" in err


def test_the_report_folder_may_not_be_the_class_folder(tmp_path, klass, capsysbinary):
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "--report", klass], capsysbinary)
    assert code == 1 and out == "" and err == f"trec_eval_py: cannot write {klass}: is the input {klass}: " \
        "name a folder outside the submissions\n"


@pytest.mark.parametrize("where", ["holds the class", "inside the class", "holds a run file"])
def test_the_report_folder_and_the_class_never_overlap(tmp_path, capsysbinary, monkeypatch, where):
    # `batch Q runs --report .` twice emptied a class folder named runs/: the clean-up took it for its pages
    import trec_eval_py.tools.grading.leaderboard as lb

    monkeypatch.chdir(tmp_path)
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "alice.txt").write_text(run_text("alice"))
    (tmp_path / "feedback").mkdir()
    (tmp_path / "feedback" / "bob.txt").write_text(run_text("bob"))
    run, report = {"holds the class": ("runs", "."), "inside the class": ("runs", "runs/report"),
                   "holds a run file": ("feedback/bob.txt", ".")}[where]
    monkeypatch.setattr(lb, "_run_all", lambda *a, **k: pytest.fail("graded before the report folder was checked"))
    for _ in range(2):
        code, out, err = run_cli(["batch", "qrels.txt", run, "--report", report], capsysbinary)
        assert code == 1 and out == "" and len(err.splitlines()) == 1, err
        assert f"cannot write {report}: " in err and f"the input {run}" in err
    assert (tmp_path / "runs" / "alice.txt").read_text() == run_text("alice")
    assert (tmp_path / "feedback" / "bob.txt").read_text() == run_text("bob")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["feedback", "qrels.txt", "runs"]


def test_a_report_deletes_only_the_files_it_wrote(tmp_path, klass, capsysbinary):
    report = tmp_path / "report"
    (klass / "bob").mkdir()
    (klass / "bob" / "run.txt").write_text(run_text("bob"))
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--report", report)
    assert code == 0, err
    bob_page = next(p.name for p in (report / "runs").iterdir() if "bob" in p.name)
    # the teacher's own files beside the pages, and a page of a report that kept no manifest
    (report / "runs" / "notes.html").write_text("mine")
    (report / "feedback" / "mine.txt").write_text("mine")
    code, doc, err = grade(tmp_path, capsysbinary, klass / "alice", "--report", report)
    assert code == 0, err
    pages = sorted((p.name for p in (report / "runs").iterdir()), key=lambda n: n == "notes.html")
    assert len(pages) == 2 and pages[0].endswith("class_alice_run.html") and pages[1] == "notes.html"
    assert bob_page not in pages
    assert (report / "runs" / "notes.html").read_text() == "mine"
    assert (report / "feedback" / "mine.txt").read_text() == "mine"
    listed = (report / REPORT_MARKER).read_text().splitlines()
    assert [ln for ln in listed if not ln.startswith("#")] == [f"feedback/{pages[0][:-5]}.txt", f"runs/{pages[0]}"]
    # a manifest naming what the report never wrote deletes nothing outside its pages
    (report / REPORT_MARKER).write_text("runs/notes.html\n../class/alice/run.txt\nruns/../../x\n")
    code, doc, err = grade(tmp_path, capsysbinary, klass / "alice", "--report", report)
    assert (klass / "alice" / "run.txt").read_text() == run_text("alice")


@pytest.mark.parametrize("command,flag", [("batch", "--roster"), ("batch", "--valid-codes"),
                                          ("compare", "--valid-codes"), ("fuse", None)])
def test_no_output_overwrites_an_input_of_any_flag(tmp_path, klass, capsysbinary, command, flag):
    # -o naming the roster (or any file a flag reads) used to overwrite it
    precious = tmp_path / "precious.txt"
    precious.write_text(run_text("alice"))
    before = precious.read_bytes()
    args = {"batch": [tmp_path / "qrels.txt", klass], "compare": [tmp_path / "qrels.txt", klass / "alice" / "run.txt"],
            "fuse": [klass / "alice" / "run.txt"]}[command]
    code, out, err = run_cli([command, *args, *([flag] if flag else []), precious, "-o", precious], capsysbinary)
    assert code == 1 and out == "" and len(err.splitlines()) == 1, err
    assert f"cannot write {precious}: is an input of this command ({precious})" in err
    assert precious.read_bytes() == before


def test_the_report_never_overwrites_an_input(tmp_path, klass, capsysbinary):
    report = tmp_path / "report"
    report.mkdir()
    roster = report / "grades.csv"  # last term's grades, kept as this term's roster
    roster.write_text("Identifier,Full name\nParticipant 1,Alice Adams\n")
    before = roster.read_bytes()
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "--roster", roster, "--report", report],
                             capsysbinary)
    assert code == 1 and out == "" and err == f"trec_eval_py: cannot write {report}: would overwrite {roster}, " \
        "an input of this command\n"
    assert roster.read_bytes() == before
    # a roster the report does not write is read from the report's folder as any file
    os.rename(roster, report / "roster.csv")
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "--roster", report / "roster.csv",
                              "--report", report], capsysbinary)
    assert code == 0, err
    # -o naming one of the report's files would be overwritten by the report
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "-o", report / "index.html",
                              "--report", report], capsysbinary)
    assert code == 1 and "is a file the report writes" in err


# ---- 8. --report is checked before the grading; the board is written first ----

@pytest.mark.parametrize("case,words", [
    ("a file", "is not a folder"),
    ("a long name", "longer than 255 bytes"),
    ("under a file", "Not a directory"),
])
def test_bad_report_folders_fail_before_grading(tmp_path, klass, capsysbinary, monkeypatch, case, words):
    import trec_eval_py.tools.grading.leaderboard as lb

    if case == "a file":
        target = tmp_path / "report"
        target.write_text("a file")
    elif case == "a long name":
        target = tmp_path / ("r" * 300)
    else:
        (tmp_path / "afile").write_text("x")
        target = tmp_path / "afile" / "report"
    monkeypatch.setattr(lb, "_run_all", lambda *a, **k: pytest.fail("graded before the report folder was checked"))
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "--report", target], capsysbinary)
    assert code == 1 and out == "" and len(err.splitlines()) == 1 and words in err, err


def test_the_board_is_written_even_when_the_report_fails(tmp_path, klass, capsysbinary, monkeypatch):
    import trec_eval_py.output.files as files

    real = files.Folder.write

    def failing(self, rel, pieces):
        if rel.startswith("runs/"):
            raise OutputError(os.path.join(self.path, rel), "No space left on device")
        return real(self, rel, pieces)

    monkeypatch.setattr(files.Folder, "write", failing)
    board = tmp_path / "board.csv"
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "--report", tmp_path / "report",
                              "-o", board, "--format", "csv"], capsysbinary)
    assert code == 1 and "No space left on device" in err and len(err.splitlines()) == 1
    assert f"{klass}/alice/run.txt" in board.read_text()


# ---- 9. signals: no orphans, no temporary files, one line ----

_SLOW_GRADING = """
import os, sys, time
import trec_eval_py.tools.grading.leaderboard as lb
ready = sys.argv[1]
def slow(sub, *rest):
    open(os.path.join(ready, str(os.getpid())), "w").close()
    time.sleep(120)
lb._grade_unhidden = slow
sys.argv = ["trec_eval_py"] + sys.argv[2:]
from trec_eval_py.cli import entry
entry()
"""

#: the same on a dask cluster: each run's task (batch), or each range of topics (the
#: main command), sleeps on its worker; defined in the script, it travels by value
_SLOW_DASK = """
import os, sys, time
import trec_eval_py.engine._ranged as ranged
import trec_eval_py.tools.grading.leaderboard as lb
ready = sys.argv[1]
def slow(*args, **kwargs):
    open(os.path.join(ready, str(os.getpid())), "w").close()
    time.sleep(120)
lb._grade_task = slow
ranged.measure_range = slow
sys.argv = ["trec_eval_py"] + sys.argv[2:]
from trec_eval_py.cli import entry
entry()
"""

#: the signal comes as the command's own cluster starts: its workers are being spawned
_DASK_STARTING = """
import os, sys
import trec_eval_py.tools.shared.cluster as cluster
ready = sys.argv[1]
real = cluster.local_cluster
def starting(*args, **kwargs):
    open(os.path.join(ready, "starting"), "w").close()
    return real(*args, **kwargs)
cluster.local_cluster = starting
sys.argv = ["trec_eval_py"] + sys.argv[2:]
from trec_eval_py.cli import entry
entry()
"""

#: the command called inside another program (as the test suite calls it), which
#: catches its exit and would go on: a SIGTERM must still end that program
_SLOW_GRADING_IN_PROCESS = """
import os, sys, time
import trec_eval_py.tools.grading.leaderboard as lb
ready = sys.argv[1]
def slow(sub, *rest):
    open(os.path.join(ready, str(os.getpid())), "w").close()
    time.sleep(120)
lb._grade_unhidden = slow
from trec_eval_py import cli
try:
    cli.main(sys.argv[2:])
except SystemExit as e:
    print("went on after exit status", e.code, flush=True)
time.sleep(120)
print("went on", flush=True)
"""

_SLOW_SPILL = """
import os, sys, time
import trec_eval_py.engine.pipeline as pipeline
import trec_eval_py.engine.join.stream as stream
pipeline.POLICY.stream_min_bytes = 0
stream.POLICY.spill_bytes = 1 << 10
ready = sys.argv[1]
real = stream._write_rows
def slow(f, part):
    real(f, part)
    f.flush()
    open(os.path.join(ready, "spilling"), "w").close()
    time.sleep(120)
stream._write_rows = slow
sys.argv = ["trec_eval_py"] + sys.argv[2:]
from trec_eval_py.cli import entry
entry()
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _stop(tmp_path, script, args, sig, wait_for, group=False, delay=0.0):
    """Run ``script`` (the command, made slow), send it ``sig`` once ``wait_for`` of its
    processes are at work (and ``delay`` seconds more): (exit status, stderr, the processes that wrote a ready file
    and outlived it, the temporary files left, the processes left in its session)."""
    ready = tmp_path / "ready"
    ready.mkdir()
    scratch = tmp_path / "tmpdir"
    scratch.mkdir()
    env = dict(os.environ, TMPDIR=str(scratch), PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-c", script, str(ready), *map(str, args)], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(list(ready.iterdir())) < wait_for:
        assert p.poll() is None, p.communicate()
        assert time.monotonic() < deadline, "the work never started"
        time.sleep(0.05)
    time.sleep(delay)
    workers = [int(x.name) for x in ready.iterdir() if x.name.isdigit()]
    if group:  # Ctrl-C on a terminal reaches the whole process group
        os.killpg(p.pid, sig)
    else:
        p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        pytest.fail("the command did not stop")
    time.sleep(0.2)
    orphans = [w for w in workers if _alive(w)]
    for w in orphans:
        os.kill(w, signal.SIGKILL)
    deadline = time.monotonic() + 5  # a process killed as the command ends is gone a moment later
    while session(p.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = session(p.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return p.returncode, err.decode(), orphans, sorted(os.listdir(scratch)), left


@pytest.mark.parametrize("sig,code,word,group", [
    (signal.SIGINT, 130, "interrupted", False), (signal.SIGINT, 130, "interrupted", True),
    (signal.SIGTERM, 143, "terminated", False), (signal.SIGTERM, 143, "terminated", True),
])
def test_batch_stops_cleanly_with_its_workers(tmp_path, klass, sig, code, word, group):
    for k in range(6):
        (klass / f"r{k}.txt").write_text(run_text(f"r{k}"))
    rc, err, orphans, left, in_session = _stop(tmp_path, _SLOW_GRADING,
                                               ["batch", tmp_path / "qrels.txt", klass, "-j", "2"],
                                               sig, wait_for=2, group=group)
    assert (rc, err, orphans, left, in_session) == (code, f"trec_eval_py: {word}\n", [], [], [])


#: Ctrl-C on a terminal (SIGINT to the process group: every worker hears it too) and
#: SIGTERM to the command alone (its cluster is then its to stop)
_DASK_STOPS = [(signal.SIGINT, 130, "interrupted", True), (signal.SIGTERM, 143, "terminated", False)]


@pytest.mark.slow
@pytest.mark.parametrize("sig,code,word,group", _DASK_STOPS)
def test_batch_on_dask_stops_cleanly_with_its_cluster(tmp_path, klass, sig, code, word, group):
    pytest.importorskip("distributed")
    for k in range(6):
        (klass / f"r{k}.txt").write_text(run_text(f"r{k}"))
    rc, err, orphans, left, in_session = _stop(
        tmp_path, _SLOW_DASK, ["batch", "--engine", "dask", "--workers", "2", tmp_path / "qrels.txt", klass],
        sig, wait_for=2, group=group)
    assert (rc, err, orphans, left, in_session) == (code, f"trec_eval_py: {word}\n", [], [], [])


@pytest.mark.slow
@pytest.mark.parametrize("sig,code,word,group", _DASK_STOPS)
def test_an_evaluation_on_dask_stops_cleanly_with_its_cluster(tmp_path, sig, code, word, group):
    pytest.importorskip("distributed")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{t} 0 D{d} {d % 2}\n" for t in range(1, 41) for d in range(10)))
    run = tmp_path / "run.txt"
    run.write_text("".join(f"{t} Q0 D{d} {d} {10 - d} r\n" for t in range(1, 41) for d in range(10)))
    rc, err, orphans, left, in_session = _stop(
        tmp_path, _SLOW_DASK, ["--engine", "dask", "--workers", "2", qrels, run], sig, wait_for=2, group=group)
    assert (rc, err, orphans, left, in_session) == (code, f"trec_eval_py: {word}\n", [], [], [])


@pytest.mark.slow
@pytest.mark.parametrize("sig,code,word,group", _DASK_STOPS)
def test_a_command_stopped_while_its_cluster_starts_stops_it(tmp_path, klass, sig, code, word, group):
    # Ctrl-C reaches workers still starting (each printed a traceback); SIGTERM comes
    # while the cluster is being made (the start ends, then the cluster is stopped).
    # The stop comes 0.2 s into the start (starting two worker processes takes longer):
    # a second let a quiet machine start the cluster and grade the class first (status 0)
    pytest.importorskip("distributed")
    rc, err, orphans, left, in_session = _stop(
        tmp_path, _DASK_STARTING, ["batch", "--engine", "dask", "--workers", "2", tmp_path / "qrels.txt", klass],
        sig, wait_for=1, group=group, delay=0.2)
    assert (rc, err, left, in_session) == (code, f"trec_eval_py: {word}\n", [], [])


def test_a_sigterm_stops_a_program_that_runs_the_command_inside_it(tmp_path, klass):
    # the program catches SystemExit (as the test suite's run_cli does): the stop must not
    # become an exit status it goes on after; the signal is given back to its handler
    # (here the default: the program ends by SIGTERM, status 143 to a shell)
    started = time.monotonic()
    rc, err, orphans, left, in_session = _stop(tmp_path, _SLOW_GRADING_IN_PROCESS,
                                               ["batch", tmp_path / "qrels.txt", klass, "-j", "1"],
                                               signal.SIGTERM, wait_for=1)
    assert (rc, err, left, in_session) == (-signal.SIGTERM, "trec_eval_py: terminated\n", [], [])
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("sig,code,word", [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")])
def test_a_stopped_spill_leaves_no_temporary_file(tmp_path, sig, code, word):
    run = tmp_path / "interleaved.run"
    # topics take turns line by line: read in pieces, the run is regrouped through temporary files
    run.write_text("".join(f"{t} Q0 D{r} {r} {100 - r} x\n" for r in range(1, 200) for t in range(1, 40)))
    qrels = tmp_path / "q"
    qrels.write_text("".join(f"{t} 0 D{d} 1\n" for t in range(1, 40) for d in range(1, 5)))
    rc, err, orphans, left, in_session = _stop(tmp_path, _SLOW_SPILL, [qrels, run], sig, wait_for=1)
    assert (rc, err, left, in_session) == (code, f"trec_eval_py: {word}\n", [], [])


# ---- 10. bounded reading, and bounded time ----

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_submission_graded_too_slowly_is_one_failed_row(tmp_path, klass, capsysbinary, monkeypatch, jobs):
    import trec_eval_py.tools.grading.leaderboard as lb

    real = lb._grade_unhidden

    def slow_for_one(sub, g):
        if "stuck" in sub.name:
            time.sleep(60)
        return real(sub, g)

    monkeypatch.setattr(lb, "_grade_unhidden", slow_for_one)
    for name in ("bob", "stuck", "carol"):
        (klass / f"{name}.txt").write_text(run_text(name))
    started = time.monotonic()
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "--format", "json", "-j", jobs,
                              "--max-seconds", "1"], capsysbinary)
    assert time.monotonic() - started < 10
    rows = {r["run"]: r for r in json.loads(out)["runs"]}
    assert rows[f"{klass}/stuck.txt"]["error"] == (
        "took longer than 1 s (raise the bound with --max-seconds or TREC_EVAL_PY_MAX_SECONDS)")
    graded = [name for name, r in rows.items() if r["rank"] is not None]
    assert sorted(graded) == [f"{klass}/alice/run.txt", f"{klass}/bob.txt", f"{klass}/carol.txt"]
    assert code == 4 and "Traceback" not in err


def test_the_time_bound_comes_from_the_environment_and_0_lifts_it(tmp_path, monkeypatch):
    from trec_eval_py.engine.parse.source import DEFAULT_MAX_SECONDS, read_limits, set_read_limits

    monkeypatch.delenv("TREC_EVAL_PY_MAX_SECONDS", raising=False)
    assert read_limits().max_seconds == DEFAULT_MAX_SECONDS == 120
    monkeypatch.setenv("TREC_EVAL_PY_MAX_SECONDS", "2.5")
    assert read_limits().max_seconds == 2.5
    with set_read_limits(max_seconds=0):
        assert read_limits().max_seconds == 0
    monkeypatch.setenv("TREC_EVAL_PY_MAX_SECONDS", "soon")
    with pytest.raises(UsageError, match="TREC_EVAL_PY_MAX_SECONDS"):
        read_limits()


def _bomb(path: Path, size: int, name="run.txt") -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z, z.open(name, "w", force_zip64=True) as f:
        block = b"\0" * (1 << 20)
        for _ in range(size >> 20):
            f.write(block)


def test_a_zip_bomb_is_one_failed_row_at_once(tmp_path, klass, capsysbinary):
    _bomb(klass / "bomb.zip", 48 << 20)  # 48 MiB of zeros in about 50 KB
    assert (klass / "bomb.zip").stat().st_size < 1 << 18
    code, doc, err = grade(tmp_path, capsysbinary, klass)
    row = {r["run"]: r for r in doc["runs"]}[f"{klass}/bomb.zip/run.txt"]
    assert row["rank"] is None and "a decompression bomb?" in row["error"] and "--max-ratio" in row["error"]
    assert code == 4 and doc["runs"][0]["run"] == f"{klass}/alice/run.txt"  # board written, a run not graded


def test_a_member_that_lies_about_its_size_is_stopped_while_read(tmp_path):
    z = tmp_path / "liar.zip"
    _bomb(z, 32 << 20)
    sub = scan_submissions([z]).submissions[0]
    from trec_eval_py.engine.parse.source import set_read_limits

    with (set_read_limits(max_input="1G", max_ratio=0),  # the declared sizes pass...
          set_read_limits(max_input="8M"),  # ...the bytes read do not
          pytest.raises(InputError, match="more than 8 MiB")):
        sub.read()


def test_compressed_files_and_endless_streams_are_bounded(tmp_path, capsysbinary, monkeypatch):
    bomb = tmp_path / "run.gz"
    bomb.write_bytes(gzip.compress(b"\0" * (64 << 20)))
    qrels = GOLDEN / "inputs" / "qrels.test"
    code, out, err = run_cli([qrels, bomb], capsysbinary)
    assert code == 2 and "expands more than 100 times" in err and len(err.splitlines()) == 1
    code, out, err = run_cli(["batch", qrels, bomb, "--max-ratio", "0", "--max-input", "16M"], capsysbinary)
    assert code == 4 and "expands to more than 16 MiB" in out  # the board is written, a run is not graded
    p = subprocess.run(f"yes | {sys.executable} -m trec_eval_py {qrels} -", shell=True, cwd=ROOT,
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, TREC_EVAL_PY_MAX_INPUT="4M"))
    assert p.returncode == 2 and p.stderr == "trec_eval_py: -: holds more than 4 MiB, the limit for data of " \
        "unknown size (raise it with --max-input or TREC_EVAL_PY_MAX_INPUT)\n"


def test_an_archive_is_opened_once_for_all_its_members(tmp_path, monkeypatch):
    z = tmp_path / "many.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for k in range(200):
            zf.writestr(f"s{k:03d}/run.txt", run_text(f"s{k}"))
    opened = []
    real = zipfile.ZipFile.__init__

    def counting(self, *a, **k):
        opened.append(1)
        real(self, *a, **k)

    monkeypatch.setattr(zipfile.ZipFile, "__init__", counting)
    from trec_eval_py.tools.shared.submissions import close_archives

    subs = scan_submissions([z]).submissions
    assert len(subs) == 200 and len(opened) == 1  # the table of contents
    data = [s.read() for s in subs]
    close_archives()
    assert len(opened) == 2 and data[7] == run_text("s7").encode()


# ---- 11. one line naming the file, never a traceback ----

def test_corrupt_members_fail_alone(tmp_path, klass, capsysbinary):
    z = tmp_path / "corrupt.zip"
    good = run_text("good", docs=range(300)).encode()
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("a_deflate.txt", good, zipfile.ZIP_DEFLATED)
        zf.writestr("b_lzma.txt", good, zipfile.ZIP_LZMA)
        zf.writestr("c_good.txt", good, zipfile.ZIP_DEFLATED)
    data = bytearray(z.read_bytes())
    with zipfile.ZipFile(z) as zf:
        for info in zf.infolist()[:2]:  # scribble over the middle of the first two members' data
            start = info.header_offset + 30 + len(info.filename) + len(info.extra)
            mid = start + info.compress_size // 2
            data[mid:mid + 16] = b"\xff" * 16
    z.write_bytes(bytes(data))
    code, out, err = run_cli(["validate", z], capsysbinary)
    assert code == 3 and "Traceback" not in err  # members failed validation
    assert f"{z}/a_deflate.txt: error: cannot read from the zip archive:" in out
    assert f"{z}/b_lzma.txt: error: cannot read from the zip archive:" in out
    assert f"{z}/c_good.txt: ok: 0 errors" in out


def test_api_options_of_the_wrong_type(tmp_path):
    from trec_eval_py import evaluate
    from trec_eval_py.tools.compare.comparison import compare_runs

    q, r = GOLDEN / "inputs" / "qrels.test", GOLDEN / "inputs" / "results.test"
    for kw in ({"max_docs": "5"}, {"max_docs": float("nan")}, {"relevance_level": 1.5}, {"judged_only": "yes"},
               {"measures": [None]}, {"max_docs": True}):
        with pytest.raises(OptionTypeError) as e:
            evaluate(q, r, **kw)
        assert isinstance(e.value, TypeError) and isinstance(e.value, UsageError)
    with pytest.raises(UsageError, match="must be at most 9223372036854775807"):
        evaluate(q, r, num_docs_in_coll=10**30)
    with pytest.raises(OptionTypeError, match="permutations must be a whole number, not '1000'"):
        compare_runs(q, [r, r], permutations="1000")
    assert evaluate(q, r, ["num_ret"], max_docs=5).summary["num_ret"] == 15  # a whole number still works


def test_command_line_numbers_out_of_range(capsysbinary, tmp_path):
    q, r = GOLDEN / "inputs" / "qrels.test", GOLDEN / "inputs" / "results.test"
    other = tmp_path / "other.run"
    other.write_text(r.read_text().replace("STANDARD", "other").replace(" 0.", " 1."))
    code, out, err = run_cli(["compare", "--test", "randomization", q, r, other, "--permutations", str(10**12)],
                             capsysbinary)
    assert code == 1 and err.startswith("trec_eval_py: --permutations must be at most 10,000,000 (not ")
    code, out, err = run_cli(["-N", str(10**30), "-m", "all_trec", q, r], capsysbinary)
    assert code == 1 and "-N must be at most" in err and len(err.splitlines()) == 1


def test_diff_of_deep_json(tmp_path, capsysbinary):
    deep = tmp_path / "deep.json"
    deep.write_text('{"summary": ' + "[" * 50000 + "]" * 50000 + "}")
    code, out, err = run_cli(["diff", deep, deep], capsysbinary)
    assert code == 2 and err == f"trec_eval_py: {deep}: JSON nested too deeply: not an output of trec_eval_py " \
        "--format json\n"


# ---- 12. nothing vanishes without a word ----

def test_zip_member_names_that_leave_the_archive_or_start_with_dot_slash(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    z = tmp_path / "odd.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("./dot/run.txt", run_text("dot"))
        zf.writestr("../escape.txt", run_text("escape"))
        zf.writestr("/abs.txt", run_text("abs"))
        link = zipfile.ZipInfo("link.txt")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/home/teacher/.git-credentials")
    code, doc, err = grade(tmp_path, capsysbinary, z)
    assert names(doc) == [f"{z}/dot/run.txt"]
    skipped = {s["path"]: s["reason"] for s in doc["skipped"]}
    assert skipped == {f"{z}/../escape.txt": "its name leaves the archive (an absolute path or '..')",
                       f"{z}//abs.txt": "its name leaves the archive (an absolute path or '..')",
                       f"{z}/link.txt": "the member is a symbolic link"}


def test_unlistable_folders_are_named(tmp_path, klass, capsysbinary, monkeypatch):
    (klass / "locked").mkdir()
    (klass / "locked" / "run.txt").write_text(run_text("locked"))
    real = os.scandir

    def scandir(path="."):  # root reads any folder: a permission error is simulated
        # folders are listed through descriptors: the folder a descriptor stands for
        where = os.readlink(f"/proc/self/fd/{path}") if isinstance(path, int) else os.fspath(path)
        if where.endswith("locked"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, doc, err = grade(tmp_path, capsysbinary, klass)
    assert f"{klass}/locked/: skipped: cannot list the folder: Permission denied" in err
    assert {s["path"] for s in doc["skipped"]} == {f"{klass}/locked/"}


def test_validate_an_empty_folder_is_an_error(tmp_path, capsysbinary):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / ".DS_Store").write_bytes(b"\0")
    code, out, err = run_cli(["validate", tmp_path / "empty"], capsysbinary)
    assert code == 1 and out == ""
    assert err.splitlines() == ["trec_eval_py: skipped 1 hidden file (names starting with '.', and __MACOSX)",
                                f"trec_eval_py: no run files found in {tmp_path / 'empty'}"]


# ---- names printed on a terminal ----

def test_names_with_terminal_escapes_are_printed_escaped(tmp_path, capsysbinary):
    c = tmp_path / "c"
    c.mkdir()
    evil = "run\x1b]0;pwned\x07\u202e.txt"
    (c / evil).write_text("not a run\n")
    (tmp_path / "qrels.txt").write_text(QRELS)
    for argv in (["validate", c], ["batch", tmp_path / "qrels.txt", c, "-j", "1"]):
        code, out, err = run_cli(argv, capsysbinary)
        assert code == (3 if argv[0] == "validate" else 4)  # failed / not every run graded
        assert "\x1b" not in out + err and "\u202e" not in out + err and "\x07" not in out + err
        assert "run\\x1b]0;pwned\\x07\\u202e.txt" in out + err


# ---- the readers' limits apply to submissions given as values too ----

def test_submission_values_keep_their_names(tmp_path, klass):
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard

    sub = Submission("alice's", str(klass / "alice" / "run.txt"))
    board = build_leaderboard(io.BytesIO(QRELS.encode()), [sub], ["map"])
    assert [e.path for e in board.entries] == ["alice's"] and board.entries[0].ok


# ---- 13. a byte-order mark ----

def test_a_bom_in_a_trec_run_is_read_as_trec_eval_reads_it_and_validate_says_so(tmp_path, capsysbinary):
    # trec_eval (9.0.8 and 10.0) keeps the mark in the first topic id: the first line then
    # belongs to a topic no judgments have (the golden byte-exact rule); validate says so
    q, r = GOLDEN / "inputs" / "qrels.test", GOLDEN / "inputs" / "results.test"
    marked = tmp_path / "bom.run"
    marked.write_bytes(b"\xef\xbb\xbf" + r.read_bytes())
    from trec_eval_py import evaluate

    lines = r.read_bytes().splitlines(keepends=True)
    rest = tmp_path / "rest.run"
    rest.write_bytes(b"".join(lines[1:]))
    assert evaluate(q, marked, ["num_ret", "map"]).summary == evaluate(q, rest, ["num_ret", "map"]).summary
    code, out, err = run_cli(["validate", marked, "--qrels", q], capsysbinary)
    first = out.splitlines()[0]
    assert first.startswith(f"{marked}:1: warning: the file starts with a UTF-8 byte-order mark: trec_eval reads it "
                            "as part of the first topic id ('\\ufeff301')") and first.endswith("[bom]")


# ---- 14. who a submission belongs to ----

def _zip(path: Path, members: dict, when=(2099, 12, 31, 23, 59, 58)) -> None:
    with zipfile.ZipFile(path, "w") as z:
        for name, text in members.items():
            z.writestr(zipfile.ZipInfo(name, date_time=when), text)


def _grades(report: Path) -> dict:
    import csv

    return {r["Full name"]: r for r in csv.DictReader(io.StringIO((report / "grades.csv").read_text()))}


@pytest.mark.parametrize("lms", ["canvas", "blackboard"])
def test_a_name_inside_a_students_zip_never_makes_it_another_students(tmp_path, capsysbinary, lms):
    # Eve hands in a zip holding a file named as Bob's, dated in the future: with --pick latest
    # Bob's own run was dropped and his grade was Eve's forged run; Eve had "no submission"
    (tmp_path / "qrels.txt").write_text(QRELS)
    klass = tmp_path / "class"
    klass.mkdir()
    if lms == "canvas":
        bob, eve = "bobbrown_20238_884211_run.txt", "evaevans_20259_884300_mine.zip"
        forged = "bobbrown_20238_884299_run.txt"
        roster = "Full name,Identifier,Login\nBob Brown,20238,bobbrown\nEva Evans,20259,evaevans\n"
    else:
        bob, eve = "Assignment 1_bbrown_attempt_2024-03-01-23-59-59_run.txt", \
            "Assignment 1_eevans_attempt_2024-03-01-22-00-00_mine.zip"
        forged = "Assignment 1_bbrown_attempt_2099-12-31-23-59-58_run.txt"
        roster = "Full name,Identifier,Login\nBob Brown,1,bbrown\nEva Evans,2,eevans\n"
    (klass / bob).write_text(run_text("bob"))
    _zip(klass / eve, {forged: run_text("forged", docs=range(11, 21))})
    (tmp_path / "roster.csv").write_text(roster)
    report = tmp_path / "report"
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--pick", "latest", "--roster", tmp_path / "roster.csv",
                           "--report", report)
    assert code == 0, err
    owner = {r["run"]: r["student"] for r in doc["runs"]}
    assert owner == {f"{klass}/{bob}": "bobbrown" if lms == "canvas" else "bbrown",
                     f"{klass}/{eve}/{forged}": "evaevans" if lms == "canvas" else "eevans"}
    assert doc["skipped"] == []  # neither run is dropped for the other
    grades = _grades(report)
    maps = {r["run"]: f"{r['summary']['map']:.4f}" for r in doc["runs"]}
    assert maps[f"{klass}/{bob}"] != maps[f"{klass}/{eve}/{forged}"]
    assert grades["Bob Brown"]["run"] == f"{klass}/{bob}" and grades["Bob Brown"]["map"] == maps[f"{klass}/{bob}"]
    assert grades["Eva Evans"]["run"] == f"{klass}/{eve}/{forged}" and grades["Eva Evans"]["note"] == ""


def test_a_folder_names_its_student_whatever_the_files_in_it_are_called(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    klass = tmp_path / "class"
    (klass / "eve").mkdir(parents=True)
    (klass / "eve" / "bobbrown_20238_884211_run.txt").write_text(run_text("eve"))
    (klass / "eve" / "inner.zip").write_bytes(b"")
    _zip(klass / "eve" / "inner.zip", {"Bob Brown_20238_assignsubmission_file_/run.txt": run_text("eve2")})
    _zip(klass / "late.zip", {"hal/run.txt": run_text("hal")})  # the teacher's zip: its folders name students
    code, doc, err = grade(tmp_path, capsysbinary, klass)
    assert {r["run"].removeprefix(f"{klass}/"): r["student"] for r in doc["runs"]} == {
        "eve/bobbrown_20238_884211_run.txt": "eve",
        "eve/inner.zip/Bob Brown_20238_assignsubmission_file_/run.txt": "eve",
        "late.zip/hal/run.txt": "hal"}


def test_names_are_compared_in_nfc_and_two_spellings_are_never_merged_silently(tmp_path, capsysbinary):
    import unicodedata

    (tmp_path / "qrels.txt").write_text(QRELS)
    klass = tmp_path / "class"
    nfd = unicodedata.normalize("NFD", "Zoë")  # as macOS writes a folder's name
    for who in ("Bob", "bob", nfd):
        (klass / who).mkdir(parents=True)
        (klass / who / "run.txt").write_text(run_text(who.lower()))
    (tmp_path / "roster.csv").write_text("Full name,Identifier\nBob,1\nZo\u00eb,2\n")
    report = tmp_path / "report"
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--roster", tmp_path / "roster.csv", "--report", report)
    assert code == 0, err
    warned = [ln for ln in err.splitlines() if "warning" in ln]
    assert warned == [f"trec_eval_py: warning: {klass}/bob: taken for the same student as {klass}/Bob ('Bob' and "
                      "'bob': names are compared in NFC, case ignored)"]
    grades = _grades(report)
    assert grades["Bob"]["note"] == "best of 2 runs"
    assert grades["Zo\u00eb"]["run"] == f"{klass}/{nfd}/run.txt" and grades["Zo\u00eb"]["map"] != ""
    assert {r["student"] for r in doc["runs"]} == {"Bob", "bob", "Zo\u00eb"}  # shown as handed in, in NFC


def test_two_students_with_one_lms_id_are_an_error_naming_both(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    klass = tmp_path / "class"
    for who in ("Alice Adams", "Bob Brown", "Carl Cruz"):  # a download whose ids all came out the same
        folder = klass / f"{who}_20231_assignsubmission_file_"
        folder.mkdir(parents=True)
        (folder / "run.txt").write_text(run_text(who.split()[0].lower()))
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", klass, "-j", "1"], capsysbinary)
    assert code == 2 and out == "" and err == (
        f"trec_eval_py: {klass}/Bob Brown_20231_assignsubmission_file_: has the id 20231 of another student, "
        f"{klass}/Alice Adams_20231_assignsubmission_file_: an id names one student (check the download, or "
        "name the students otherwise with --student-from)\n")


# ---- 15. what students read: no path of the teacher's, no escapes, no formulas ----

def test_the_judgments_are_never_named_by_their_path_in_what_students_read(tmp_path, capsysbinary):
    qrels = tmp_path / "final_exam_judgments_2024.txt"
    qrels.write_text(QRELS)
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "ned.txt").write_text(run_text("ned", topics=("q1", "q2")))  # no topic in common
    (klass / "ola.txt").write_text(run_text("ola", topics=(1, 2, 9)))  # a topic the judgments lack
    report = tmp_path / "report"
    code, out, err = run_cli(["batch", qrels, klass, "--report", report, "-j", "1"], capsysbinary)
    assert code == 4, err
    pages = [p.read_text() for p in report.rglob("*") if p.is_file()]
    assert not any("final_exam" in text for text in pages) and "final_exam" not in out
    feedback = (report / "feedback").glob("*ned*")
    assert "no topic of the run is in the judgments" in next(feedback).read_text()


def test_feedback_files_show_terminal_escapes_never_send_them(tmp_path, klass, capsysbinary):
    (klass / "eve.txt").write_text(run_text("eve\x1b]0;pwned\x07\x1b[2J"))
    report = tmp_path / "report"
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--report", report)
    text = next((report / "feedback").glob("*eve*")).read_text()
    assert "\x1b" not in text and "\x07" not in text
    assert "Run id: eve\\x1b]0;pwned\\x07\\x1b[2J\n" in text


LOOKALIKES = "\uff1d\uff0b\uff0d\uff20\ufe62\ufe63\u2212"  # ＝ ＋ － ＠ ﹢ ﹣ −


@pytest.mark.parametrize("sign", list(LOOKALIKES))
def test_lookalikes_of_formula_signs_get_the_prefix(sign):
    from trec_eval_py.output.table import Column, Table, csv_rows, render, spreadsheet_safe, spreadsheet_text

    cell = f"{sign}HYPERLINK(\"http://x\")"
    assert spreadsheet_safe(cell) == "'" + cell and spreadsheet_text("'" + cell) == cell
    assert csv_rows([["a"], [cell]]).splitlines()[1].startswith(("'", "\"'"))
    table = Table([Column("run", "text")], [[cell]])
    for fmt in ("csv", "tsv"):
        assert render(table, fmt).splitlines()[1].lstrip('"').startswith("'"), fmt
    assert spreadsheet_safe("Zo\u00eb") == "Zo\u00eb"  # other letters are left as they are


def test_a_runid_of_lookalike_signs_is_safe_in_every_csv_of_the_report(tmp_path, klass, capsysbinary):
    (klass / "\uff20eve").mkdir()  # a student named by her folder, ＠eve
    (klass / "\uff20eve" / "run.txt").write_text(run_text("\uff1dcmd|calc"))
    report = tmp_path / "report"
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--report", report)
    for name, texts in (("leaderboard.csv", ("\uff1dcmd|calc", "\uff20eve")), ("grades.csv", ("\uff20eve",))):
        cells = [c for line in (report / name).read_text().splitlines() for c in line.split(",")]
        for text in texts:
            assert "'" + text in cells and text not in cells, name


# ---- 16. one clear line, the documented status ----

def test_compare_and_correlate_on_an_empty_folder(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "empty").mkdir()
    (tmp_path / "run.txt").write_text(run_text("a"))
    for args in (["compare", tmp_path / "qrels.txt", tmp_path / "run.txt", tmp_path / "empty"],
                 ["correlate", "--qrels", tmp_path / "qrels.txt", "-m", "map", "-m", "P.5", tmp_path / "empty"]):
        code, out, err = run_cli(args, capsysbinary)
        assert (code, out, err) == (1, "", f"trec_eval_py: no run files found in {tmp_path / 'empty'}\n"), args


def test_correlate_and_compare_exit_alike_when_no_topic_is_judged(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "a.txt").write_text(run_text("a"))
    (tmp_path / "b.txt").write_text(run_text("b", topics=(7, 8)))
    want = (7, "", f"trec_eval_py: {tmp_path / 'b.txt'}: no topic has both judgments and results\n")
    code, out, err = run_cli(["compare", tmp_path / "qrels.txt", tmp_path / "a.txt", tmp_path / "b.txt"], capsysbinary)
    assert (code, out, err) == want
    code, out, err = run_cli(["correlate", "--qrels", tmp_path / "qrels.txt", "-m", "map", "-m", "P.5",
                              tmp_path / "a.txt", tmp_path / "b.txt"], capsysbinary)
    assert (code, out, err) == want


def test_diff_shows_bytes_that_are_not_utf8_as_the_terminal_does(tmp_path, capsysbinary):
    (tmp_path / "a.out").write_bytes(b"map\tall\t0.5\n")
    (tmp_path / "b.out").write_bytes(b"map\tall\t0.5\nmap\tall\t0.\xff\n")
    code, out, err = run_cli(["diff", tmp_path / "a.out", tmp_path / "b.out"], capsysbinary)
    assert code == 2 and out == ""
    assert err == f"trec_eval_py: {tmp_path / 'b.out'}, line 2: map for topic all: '0.\\xff' is not a number: " \
        "'map\\tall\\t0.\\xff'\n"


def test_shard_of_a_missing_file(tmp_path, capsysbinary):
    code, out, err = run_cli(["shard", tmp_path / "nosuch.txt", "-o", tmp_path / "out"], capsysbinary)
    assert (code, out, err) == (2, "", f"trec_eval_py: {tmp_path / 'nosuch.txt'}: no such file\n")


@pytest.mark.parametrize("given", [".", "./"])
def test_the_class_folder_given_as_dot_or_dot_slash_names_the_same_students(tmp_path, capsysbinary, monkeypatch,
                                                                            given):
    (tmp_path / "qrels.txt").write_text(QRELS)
    klass = tmp_path / "class"
    for who in ("alice", "bob"):
        (klass / who).mkdir(parents=True)
        (klass / who / "run.txt").write_text(run_text(who))
    monkeypatch.chdir(klass)
    code, doc, err = grade(tmp_path, capsysbinary, given)
    assert sorted(r["student"] for r in doc["runs"]) == ["alice", "bob"]
