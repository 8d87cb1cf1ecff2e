"""The class's state and rules: the store (schema version, secrets hashed at rest,
the teacher's token), the numbers (those of the main command on each part's
judgments), finals, the deadline, grades.csv and --export."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from support.paths import ROOT
from support.serve_class import PUBLIC, TOPICS, Class, csrf_of, make_klass, make_run, needs_serve, upload

needs_serve()


@pytest.fixture
def served(tmp_path):
    return Class(make_klass(tmp_path))


def _cli(*args, cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "trec_eval_py", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd)


def _part(qrels, topics, out):
    with open(qrels) as f, open(out, "w") as o:
        o.writelines(line for line in f if line.split()[0] in topics)
    return out


def _main_command(qrels, run_bytes, tmp_path, name) -> dict:
    run = tmp_path / f"{name}.run"
    run.write_bytes(run_bytes)
    out = _cli("-c", "-m", "map", "-m", "P.10", qrels, run).stdout
    return {line.split()[0]: line.split()[2] for line in out.splitlines()}


def test_scores_are_the_main_commands_on_each_part(served, tmp_path):
    qrels = tmp_path / "qrels.txt"
    alice = served.student("A1")
    runs = [make_run(21), make_run(22, topics=TOPICS[:6])]  # the second leaves out two private topics
    for data in runs:
        upload(alice, data)
    pub = _part(qrels, set(PUBLIC), tmp_path / "qrels.public")
    priv = _part(qrels, set(TOPICS) - set(PUBLIC), tmp_path / "qrels.private")
    for row, data in zip(served.store.submissions(), runs):
        for part, q in (("public", pub), ("private", priv)):
            want = _main_command(q, data, tmp_path, f"{row['id']}{part}")
            got = json.loads(row[part])
            assert f"{got['map']:.4f}" == want["map"] and f"{got['P_10']:.4f}" == want["P_10"], part
    # the page shows the public numbers as the main command prints them
    row = served.store.submissions()[0]
    page = alice.get(f"/submissions/{row['id']}").text
    assert _main_command(pub, runs[0], tmp_path, "again")["map"] in page


def test_findings_are_validates(served, tmp_path):
    alice = served.student("A1")
    bad = make_run(3).replace(b" Q0 ", b",Q0,", 3)
    r = upload(alice, bad, name="bad.txt")
    row = served.store.submissions()[0]
    assert row["status"] == "failed" and row["public"] is None and row["private"] is None
    (tmp_path / "bad.txt").write_bytes(bad)
    out = _cli("validate", "--qrels", tmp_path / "qrels.txt", "bad.txt", cwd=tmp_path)
    shown = alice.get(r.headers["location"]).text
    for f in json.loads(row["findings"]):
        assert f"[{f['code']}]" in out.stdout + out.stderr
        assert f["message"].split("'")[0].strip() in out.stdout + out.stderr
        assert f"[{f['code']}]" in shown


def test_the_store_keeps_secrets_hashed_and_the_teachers_token_private(served):
    alice = served.student("A1")
    csrf_of(alice)
    token = served.link("B2")
    api = alice.post("/token", data={"csrf": csrf_of(alice)}).text
    db = Path(served.store.root, "state.sqlite3").read_bytes()
    wal = Path(served.store.root, "state.sqlite3-wal")
    db += wal.read_bytes() if wal.exists() else b""
    assert token.encode() not in db and served.teacher_token.encode() not in db
    assert "Bearer" in api
    path = os.path.join(served.store.root, "teacher-token")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert Path(path).read_text().strip() == served.teacher_token
    assert served.store.teacher_token() is None  # printed once: a second start makes none
    assert stat.S_IMODE(os.stat(served.store.root).st_mode) == 0o700


def test_the_schema_is_versioned_and_a_newer_one_refused(tmp_path):
    from trec_eval_py.errors import UsageError
    from trec_eval_py.serve.store import MIGRATIONS, Store

    s = Store(str(tmp_path / "st"))
    assert s.db().execute("SELECT version FROM schema_version").fetchone()[0] == len(MIGRATIONS)
    assert s.db().execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert Store(str(tmp_path / "st")).migrate() == len(MIGRATIONS)  # again: nothing to do
    with s.transaction() as db:
        db.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(UsageError, match="newer"):
        Store(str(tmp_path / "st"))


def test_another_qrels_is_refused_on_a_later_start(tmp_path):
    from trec_eval_py.errors import UsageError
    from trec_eval_py.serve.service import open_class

    qrels, roster, public, state = make_klass(tmp_path)
    open_class(str(qrels), str(roster), str(state), public_topics=str(public), tell=lambda t: None)
    qrels.write_text(qrels.read_text().replace(" 1\n", " 0\n", 1))
    with pytest.raises(UsageError, match="not the qrels"):
        open_class(str(qrels), str(roster), str(state), tell=lambda t: None)


def test_a_seeded_split_is_the_same_each_time_and_leaves_both_parts(tmp_path):
    from trec_eval_py.serve.grading import split_topics

    a = split_topics(TOPICS, None, 0.5, 3)
    assert a == split_topics(TOPICS, None, 0.5, 3) and len(a) == 4
    assert a != split_topics(TOPICS, None, 0.5, 4) or a != split_topics(TOPICS, None, 0.5, 5)


def test_finals_default_to_the_best_public_and_can_be_marked(tmp_path):
    served = Class(make_klass(tmp_path), finals=1)
    alice = served.student("A1")
    for seed in (31, 32, 33):
        upload(alice, make_run(seed))
    rows = served.store.submissions()
    best = max(rows, key=lambda r: json.loads(r["public"])["map"])
    from trec_eval_py.serve.export import board, finals_of

    assert [r["id"] for r in finals_of(served.store, served.ids["A1"], 1)] == [best["id"]]
    other = next(r for r in rows if r["id"] != best["id"])
    assert alice.post("/finals", data={"csrf": csrf_of(alice), "final": [str(other["id"])]}).status_code == 200
    assert [r["id"] for r in finals_of(served.store, served.ids["A1"], 1)] == [other["id"]]
    (row,) = board(served.store, "private", 1)
    assert row["scores"]["map"] == json.loads(other["private"])["map"]
    # at most K; never another's run
    ids = [str(r["id"]) for r in rows[:2]]
    assert alice.post("/finals", data={"csrf": csrf_of(alice), "final": ids}).status_code == 400
    bob = served.student("B2")
    assert bob.post("/finals", data={"csrf": csrf_of(bob), "final": [ids[0]]}).status_code == 400
    assert [r["id"] for r in finals_of(served.store, served.ids["A1"], 1)] == [other["id"]]


def test_after_the_deadline_runs_are_kept_marked_late_and_not_ranked(tmp_path):
    import time

    served = Class(make_klass(tmp_path), deadline=time.time() - 60)
    alice = served.student("A1")
    r = upload(alice, make_run(41))
    row = served.store.submissions()[0]
    assert row["late"] == 1 and row["status"] == "graded"
    assert "late" in alice.get(r.headers["location"]).text
    from trec_eval_py.serve.export import board

    assert board(served.store, "public", 2) == []


def test_grades_csv_is_batchs_of_the_finals_on_the_private_topics(served, tmp_path):
    alice, chen = served.student("A1"), served.student("C3")
    upload(alice, make_run(51))
    upload(alice, make_run(52))
    upload(chen, make_run(53))
    teacher = served.teacher()
    text = teacher.get("/teacher/grades.csv").text
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Student ID", "Full name", "Email", "map", "P_10", "rank", "run", "note"]
    by_id = {r[0]: r for r in rows[1:]}
    assert by_id["B2"][-1] == "no submission"
    priv = _part(tmp_path / "qrels.txt", set(TOPICS) - set(PUBLIC), tmp_path / "qrels.private")
    best = max(_main_command(priv, make_run(s), tmp_path, f"g{s}")["map"] for s in (51, 52))
    assert by_id["A1"][3] == best and by_id["A1"][-1] == "best of 2 runs"
    assert by_id["C3"][3] == _main_command(priv, make_run(53), tmp_path, "g53")["map"]


@pytest.mark.slow
def test_export_writes_the_same_without_the_server(served, tmp_path):
    alice = served.student("A1")
    upload(alice, make_run(61), name="mine.txt")
    teacher = served.teacher()
    web = teacher.get("/teacher/grades.csv").text
    out = tmp_path / "out"
    p = _cli("serve", tmp_path / "qrels.txt", "--state", served.store.root, "--export", out)
    assert p.returncode == 0, p.stderr
    assert (out / "grades.csv").read_text() == web
    with zipfile.ZipFile(out / "submissions.zip") as z:
        names = z.namelist()
        assert "submissions.csv" in names
        (run,) = [n for n in names if n.endswith("mine.txt")]
        assert z.read(run) == make_run(61) and run.startswith("A1/")
    board = (out / "board.csv").read_text()
    assert board.startswith("board,rank,student,map,P_10,runs") and "private" in board
    # an export folder is written again; a folder of other files is refused
    assert _cli("serve", tmp_path / "qrels.txt", "--state", served.store.root, "--export", out).returncode == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    p = _cli("serve", tmp_path / "qrels.txt", "--state", served.store.root, "--export", other)
    assert p.returncode != 0 and "other files" in p.stderr and (other / "notes.txt").read_text() == "mine"


def test_sign_in_links_csv_from_the_command(tmp_path):
    qrels, roster, public, state = make_klass(tmp_path)
    out = tmp_path / "links.csv"
    p = _cli("serve", qrels, "--roster", roster, "--state", state, "--public-topics", public, "--links", out,
             "--base-url", "https://lb.example.edu")
    assert p.returncode == 0, p.stderr
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert [r[0] for r in rows[1:]] == ["A1", "B2", "C3"]
    assert all(r[2].startswith("https://lb.example.edu/signin/") for r in rows[1:])
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    p = _cli("serve", qrels, "--state", state, "--links", out)  # never over an existing file
    assert p.returncode != 0 and "exists" in p.stderr


def test_a_submission_page_gives_the_batch_reports_feedback(served):
    alice, chen = served.student("A1"), served.student("C3")
    upload(chen, make_run(71))
    r = upload(alice, make_run(72, topics=[t for t in TOPICS if t != PUBLIC[0]]), name="partial.txt")
    page = alice.get(r.headers["location"]).text
    feedback = re.search(r'<pre id="feedback">(.*?)</pre>', page, re.S).group(1)
    assert feedback.startswith("Run: partial.txt\nStudent: Alice Adams (A1)\nRun id: myrun\nRank: ")
    assert re.search(r"^Rank: [12] of 2 \(by map\)$", feedback, re.M)
    assert "Topics answered: 3 of 4 (every judged topic counts" in feedback
    assert "Findings (validate gives the same):" in feedback and "[topic-not-in-run]" in feedback
    # a run not graded: the reason, then the findings
    r = upload(alice, b"not a run\n", name="broken.txt")
    feedback = re.search(r'<pre id="feedback">(.*?)</pre>', alice.get(r.headers["location"]).text, re.S).group(1)
    assert "Not graded: " in feedback and "[fields]" in feedback


def test_a_state_folder_of_an_older_schema_is_brought_up_to_date(tmp_path):
    import sqlite3

    from trec_eval_py.serve.store import MIGRATIONS, Store

    folder = tmp_path / "old"
    folder.mkdir()
    db = sqlite3.connect(folder / "state.sqlite3")
    db.executescript(MIGRATIONS[0] + "; CREATE TABLE schema_version (version INTEGER NOT NULL);"
                     "INSERT INTO schema_version VALUES (1);"
                     "INSERT INTO students (key, name) VALUES ('A1', 'Alice');"
                     "INSERT INTO submissions (student_id, filename, sha256, size, received, day) "
                     "VALUES (1, 'r.txt', 'ab', 3, 0, '2026-01-01');")
    db.commit()
    db.close()
    s = Store(str(folder))
    assert s.db().execute("SELECT version FROM schema_version").fetchone()[0] == len(MIGRATIONS) > 1
    (row,) = s.submissions()
    assert row["filename"] == "r.txt" and row["answered"] is None


_WITHOUT_STARLETTE = """\
import sys

sys.modules["starlette"] = sys.modules["uvicorn"] = None  # a core install: not there
from trec_eval_py.cli import main
main(sys.argv[1:])
"""


def test_without_the_extra_the_command_says_what_to_install(tmp_path):
    qrels, roster, _, state = make_klass(tmp_path)
    p = subprocess.run([sys.executable, "-c", _WITHOUT_STARLETTE, "serve", str(qrels), "--roster", str(roster),
                        "--state", str(state)], capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 1
    assert p.stderr.strip() == ("trec_eval_py: serve needs starlette, uvicorn: "
                                "python3 -m pip install 'trec_eval_py[serve]'")
    assert not state.exists()


def test_the_feedback_is_batchs_on_the_public_topics(served, tmp_path):
    alice, chen = served.student("A1"), served.student("C3")
    runs = {"a.txt": make_run(81), "c.txt": make_run(82, topics=TOPICS[1:])}
    where = {name: (who, upload(who, data, name=name).headers["location"])
             for (name, data), who in zip(runs.items(), (alice, chen))}
    pages = {name: re.search(r'<pre id="feedback">(.*?)</pre>', who.get(url).text, re.S).group(1)
             for name, (who, url) in where.items()}
    klass = tmp_path / "class"
    klass.mkdir()
    for name, data in runs.items():
        (klass / name).write_bytes(data)
    pub = _part(tmp_path / "qrels.txt", set(PUBLIC), tmp_path / "qrels.public")
    p = _cli("batch", pub, "class", "-m", "map", "-m", "P.10", "--report", "rep", "-o", "board.txt",
             "--student-from", "none", "-j", "1", cwd=tmp_path)
    assert p.returncode == 0, p.stderr

    def parts(text: str) -> list[str]:
        # the rank, topics, scores and weakest topics; not the run's name, the student, the findings
        # (the batch above validates against the public topics' judgments only)
        keep = re.split(r"\n(?=Findings)|\n(?=Weakest)", text[text.index("Rank:"):])
        return [k for k in keep if not k.startswith("Findings")]

    for name, text in pages.items():
        batch = (tmp_path / "rep" / "feedback" / f"class_{name[0]}.txt").read_text()
        from html import unescape

        assert parts(unescape(text)) == parts(batch)
        assert "Weakest topics by map" in text


def test_the_teacher_downloads_every_submission_and_new_links(served):
    alice = served.student("A1")
    upload(alice, make_run(91), name="first.txt")
    upload(alice, b"broken\n", name="second.txt")
    teacher = served.teacher()
    r = teacher.get("/teacher/submissions.zip")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        names = sorted(z.namelist())
        assert names == ["A1/1-first.txt", "A1/2-second.txt", "submissions.csv"]
        assert z.read("A1/1-first.txt") == make_run(91)
        listing = list(csv.reader(io.StringIO(z.read("submissions.csv").decode())))
        assert [row[5] for row in listing[1:]] == ["graded", "failed"]
    assert not os.listdir(os.path.join(served.store.root, "tmp"))  # the zip was written for this answer only
    r = teacher.post("/teacher/links", data={"csrf": csrf_of(teacher, "/teacher"), "student": str(served.ids["C3"])})
    rows = list(csv.reader(io.StringIO(r.text)))
    assert [row[0] for row in rows] == ["student_id", "C3"]
    token = rows[1][2].rsplit("/", 1)[1]
    assert served.store.use_link(token) == served.ids["C3"]
