"""A class as an LMS delivers it (tests/support/lms_class.py: 30 students in Moodle's folders,
14 kinds of mistakes) graded in one command: one finding per real problem, the
right diagnosis for each, the same verdicts from validate and batch, students
named, several files resolved, archives inside archives, grades ready for import."""
from __future__ import annotations

import csv
import io
import json

import pytest
from support.golden import run_cli
from support.lms_class import BROKEN, FAILING, GOOD, STUDENTS, folder, make_lms_class, make_lms_zip


@pytest.fixture(scope="module")
def lms(tmp_path_factory):
    root = make_lms_class(tmp_path_factory.mktemp("lms"))
    make_lms_zip(root)
    return root


def board(lms, capsysbinary, *extra, source="download"):
    code, out, err = run_cli(["batch", lms / "qrels.txt", lms / source, "--format", "json", "-j", "1", *extra],
                             capsysbinary)
    assert code == 4 and "Traceback" not in err, err  # incomplete: some runs are not graded
    return json.loads(out), err


def by_student(doc):
    out: dict = {}
    for r in doc["runs"]:
        out.setdefault(r["student"], []).append(r)
    return out


def test_every_student_is_named_and_every_mistake_diagnosed(lms, capsysbinary):
    doc, err = board(lms, capsysbinary)
    runs = by_student(doc)
    assert set(runs) == set(STUDENTS)
    for name in GOOD:
        (r,) = runs[name]
        assert r["error"] is None and r["errors"] == 0, (name, r["findings"])
        # ordinary runs: nothing, or one tie finding where the tie-break changes a value
        assert {f["code"] for f in r["findings"]} <= {"tie"}, (name, r["findings"])
    for name, (what, code) in BROKEN.items():
        rows = runs[name]
        if code is None:  # CRLF, tabs, a zipped folder, two files: graded without a finding about it
            assert all(r["error"] is None for r in rows) and all(
                {f["code"] for f in r["findings"]} <= {"tie"} for r in rows), (name, rows)
            continue
        (r,) = rows
        assert r["findings"][0]["code"] == code, (name, what, r["findings"])
        assert (r["error"] is not None) == (name in FAILING), (name, r["error"])
        # one finding per real problem: no check twice, and nothing else but a tie finding
        codes = [f["code"] for f in r["findings"]]
        assert len(codes) == len(set(codes)) and set(codes) <= {code, "tie", "unjudged"}, (name, codes)


@pytest.mark.parametrize("student,words", [
    ("Quinn Quade", "every one of the 5000 lines: the iter ('Q0') column is missing"),
    ("Rosa Reyes", "docno 'DOC0236' already listed for topic '401' on line 4"),
    ("Sam Stone", "remove the prefix 'q'"),
    ("Tara Tran", "no result lines: the file holds nothing"),
    ("Wei Wang", "a header line ('qid Q0 docno rank score runid'), unlike every other line"),
    ("Zoe Zhang", "50 topics of 50 list more than the 1000 documents allowed (up to 1500)"),
    ("Bella Berg", "the fields are separated by commas"),
    ("Carl Cruz", "2 run ids ('carl', 'carl-v2')"),
])
def test_the_diagnosis_names_the_real_problem(lms, capsysbinary, student, words):
    doc, _ = board(lms, capsysbinary)
    (r,) = by_student(doc)[student]
    assert words in r["error"], r["error"]
    assert "header" not in r["error"] or student == "Wei Wang"  # no wrong advice


def test_warnings_stand_out(lms, capsysbinary):
    doc, _ = board(lms, capsysbinary)
    runs = by_student(doc)
    (aaron,) = runs["Aaron Abbot"]
    assert aaron["findings"][0]["code"] == "reversed-scores" and aaron["findings"][0]["count"] == 50
    (xena,) = runs["Xena Xu"]
    assert xena["findings"][0]["code"] == "topic-not-in-run" and xena["topics"] == 20
    # an ordinary run has at most one warning
    assert max(len(runs[n][0]["findings"]) for n in GOOD) <= 1


def test_validate_and_batch_give_one_verdict(lms, capsysbinary):
    doc, _ = board(lms, capsysbinary)
    code, out, err = run_cli(["validate", lms / "download", "--qrels", lms / "qrels.txt", "--format", "json"],
                             capsysbinary)
    assert code == 3  # failed: some files have errors
    files = {f["path"]: f for f in json.loads(out)["files"]}
    assert set(files) == {r["run"] for r in doc["runs"]}
    for r in doc["runs"]:
        v = files[r["run"]]
        assert r["findings"] == v["findings"] and r["counts"] == v["counts"], r["run"]
        assert (r["error"] is None) == v["ok"], r["run"]
    assert sum(not f["ok"] for f in files.values()) == len(FAILING) == sum(r["error"] is not None for r in doc["runs"])


def test_non_run_files_are_listed_not_failed(lms, capsysbinary):
    doc, err = board(lms, capsysbinary)
    top = f"{lms / 'download'}/"
    skipped = {s["path"][len(top):]: s["reason"] for s in doc["skipped"]}
    vic = f"{folder('Victor Vega')}/submission.zip"
    assert skipped[f"{vic}/victor/README.txt"] == "not a run file (a README file)"
    assert skipped[f"{folder('Chloe Chen')}/report.pdf"] == "not a run file (a .pdf file)"
    assert f"{vic}/__MACOSX/" in skipped and ".DS_Store" in skipped
    assert not any("README" in r["run"] or r["run"].endswith(".pdf") for r in doc["runs"])
    (victor,) = by_student(doc)["Victor Vega"]
    assert victor["run"].endswith(f"{vic}/victor/run.txt") and victor["error"] is None


def test_a_download_all_zip_holding_a_students_zip(lms, capsysbinary):
    doc, _ = board(lms, capsysbinary, source="all.zip")
    folder_doc, _ = board(lms, capsysbinary)
    runs, same = by_student(doc), by_student(folder_doc)
    (victor,) = runs["Victor Vega"]
    assert victor["run"].endswith("all.zip/" + folder("Victor Vega") + "/submission.zip/victor/run.txt")
    assert victor["error"] is None
    for name in STUDENTS:  # the zip grades as the folder does
        assert [r["summary"] if r["error"] is None else r["error"] for r in runs[name]] == \
            [r["summary"] if r["error"] is None else r["error"] for r in same[name]], name


def test_pick_latest_grades_one_file_per_student(lms, capsysbinary):
    doc, err = board(lms, capsysbinary, "--pick", "latest")
    (dana,) = by_student(doc)["Dana Diaz"]
    assert dana["run"].endswith("run_v2.txt") and dana["runid"] == "dana-v2"
    assert "run_v1.txt: skipped: Dana Diaz handed in a later file" in err
    doc, _ = board(lms, capsysbinary, "--pick", "all")
    assert len(by_student(doc)["Dana Diaz"]) == 2


def test_skip_header_grades_the_file_without_it(lms, capsysbinary):
    doc, _ = board(lms, capsysbinary, "--skip-header")
    (wei,) = by_student(doc)["Wei Wang"]
    assert wei["error"] is None and wei["findings"][0]["code"] == "header"
    assert wei["findings"][0]["severity"] == "warning" and "skipped (--skip-header)" in wei["findings"][0]["message"]
    # its scores are those of the file without the header line
    data = (lms / "download" / folder("Wei Wang") / "run.txt").read_bytes()
    plain = lms / "wei-without-header.txt"
    plain.write_bytes(data.split(b"\n", 1)[1])
    code, out, _ = run_cli(["-c", "-m", "map", "-m", "P.10", "--format", "json", lms / "qrels.txt", plain],
                           capsysbinary)
    assert code == 0 and json.loads(out)["summary"] == wei["summary"]


def test_ignore_a_check_in_both_commands(lms, capsysbinary):
    doc, _ = board(lms, capsysbinary, "--ignore", "runid,tie")
    (carl,) = by_student(doc)["Carl Cruz"]
    assert carl["error"] is None and carl["findings"] == []
    code, out, _ = run_cli(["validate", lms / "download" / folder("Carl Cruz"), "--qrels", lms / "qrels.txt",
                            "--ignore", "runid", "--ignore", "tie", "-q"], capsysbinary)
    assert code == 0 and out.endswith(": ok: 0 errors, 0 warnings (5000 results, 50 topics)\n")


def test_quiet_validate_counts_each_check(lms, capsysbinary):
    code, out, _ = run_cli(["validate", lms / "download", "--qrels", lms / "qrels.txt", "-q"], capsysbinary)
    zoe = next(ln for ln in out.splitlines() if folder("Zoe Zhang") in ln)
    assert ": FAILED: 1 error, " in zoe and "[too-many-docs: 50 topics" in zoe
    assert out.splitlines()[-1].startswith("files per check: empty 1, separator 1, fields 1, header 1, ")


def test_grades_csv_from_the_roster(lms, capsysbinary, tmp_path):
    report = tmp_path / "report"
    code, out, err = run_cli(["batch", lms / "qrels.txt", lms / "download", "--pick", "latest", "--roster",
                              lms / "roster.csv", "--report", report, "-o", tmp_path / "board.txt", "-j", "1"],
                             capsysbinary)
    assert code == 4, err
    rows = list(csv.DictReader(io.StringIO((report / "grades.csv").read_text())))
    assert [r["Full name"] for r in rows] == STUDENTS + ["Nora Noshow"]
    by = {r["Full name"]: r for r in rows}
    assert by["Nora Noshow"]["note"] == "no submission" and by["Nora Noshow"]["map"] == ""
    assert by["Wei Wang"]["map"] == "" and by["Wei Wang"]["note"].startswith("not graded: line 1: a header line")
    alice = by["Alice Adams"]
    assert alice["Identifier"] == "Participant 20231" and len(alice["map"]) == 6 and alice["map"].startswith("0.")
    assert by["Dana Diaz"]["run"].endswith("run_v2.txt")
    board_rows = list(csv.DictReader(io.StringIO((report / "leaderboard.csv").read_text())))
    assert {"student", "student_id", "topics", "topics_total"} <= set(board_rows[0])
    assert all(len(r["map"]) == 6 for r in board_rows if r["map"])  # as shown: 0.4440, not 0.4439999999999999


def test_a_report_written_again_keeps_no_stale_pages(lms, capsysbinary, tmp_path):
    report = tmp_path / "report"
    args = ["batch", lms / "qrels.txt", "-o", tmp_path / "board.txt", "-j", "1", "--report", report]
    run_cli([*args, lms / "download"], capsysbinary)
    pages = {p.name for p in (report / "runs").iterdir()}
    assert len(pages) == 31
    one = lms / "download" / folder("Alice Adams")
    code, _, _ = run_cli([*args, one], capsysbinary)
    assert code == 0
    assert len(list((report / "runs").iterdir())) == 1 and len(list((report / "feedback").iterdir())) == 1
    # a folder that is not a report keeps what it holds
    other = tmp_path / "mine"
    (other / "runs").mkdir(parents=True)
    (other / "runs" / "notes.html").write_text("mine")
    run_cli(["batch", lms / "qrels.txt", one, "-o", tmp_path / "b2.txt", "--report", other], capsysbinary)
    assert (other / "runs" / "notes.html").read_text() == "mine"
