"""The server's security checks, each one a naive design fails: another student's
submission by id, uploading as someone else, a used sign-in link again, a
cross-site form, the private scores before the reveal (pages, JSON, CSV), the
daily limit under concurrent uploads, the teacher's pages without the teacher."""
from __future__ import annotations

import re
import threading

import pytest
from support.serve_class import Class, csrf_of, make_klass, make_run, needs_serve, upload

needs_serve()


@pytest.fixture
def served(tmp_path):
    return Class(make_klass(tmp_path))


def _api_token(client) -> str:
    page = client.post("/token", data={"csrf": csrf_of(client)})
    return re.search(r'<pre id="token">([^<]+)</pre>', page.text).group(1)


def test_a_student_cannot_fetch_another_students_submission_or_feedback(served):
    alice, bob = served.student("A1"), served.student("B2")
    r = upload(bob, make_run(2), name="bobs-secret-run.txt")
    bobs = int(r.headers["location"].rsplit("/", 1)[1])
    assert bob.get(f"/submissions/{bobs}").status_code == 200
    assert bob.get(f"/submissions/{bobs}/run").content == make_run(2)
    # Alice asks for Bob's id everywhere: the same answer as for an id that does not exist
    for path in (f"/submissions/{bobs}", f"/submissions/{bobs}/run", f"/api/submissions/{bobs}",
                 "/submissions/999", "/api/submissions/999"):
        got = alice.get(path)
        assert got.status_code == 404, path
        assert make_run(2)[:30].decode() not in got.text
    token = _api_token(alice)
    assert served.client().get(f"/api/submissions/{bobs}",
                               headers={"Authorization": f"Bearer {token}"}).status_code == 404
    # her own list holds none of Bob's
    assert alice.get("/api/submissions").json() == []
    assert "bobs-secret-run" not in alice.get("/me").text


def test_a_student_cannot_submit_as_another(served):
    alice = served.student("A1")
    csrf = csrf_of(alice)
    r = alice.post("/submissions", data={"csrf": csrf, "student": "B2", "student_id": str(served.ids["B2"])},
                   files={"run": ("run.txt", make_run(3), "text/plain")})
    assert r.status_code == 303
    (row,) = served.store.submissions()
    assert row["student_id"] == served.ids["A1"]
    # a made-up or another's token is not a student; a session cookie does not upload through the API
    api = served.client()
    for auth in ("Bearer not-a-token", f"Bearer {served.teacher_token}x", ""):
        got = api.post("/api/submissions", headers={"Authorization": auth} if auth else {},
                       files={"run": ("run.txt", make_run(4), "text/plain")})
        assert got.status_code == 401
    assert alice.post("/api/submissions", files={"run": ("run.txt", make_run(5), "text/plain")}).status_code == 401
    assert len(served.store.submissions()) == 1
    # Bob's token uploads as Bob, whoever sends it
    bob = served.student("B2")
    token = _api_token(bob)
    got = api.post("/api/submissions", headers={"Authorization": f"Bearer {token}"},
                   files={"run": ("run.txt", make_run(6), "text/plain")}, data={"student": "A1"})
    assert got.status_code == 201
    assert served.store.submission(got.json()["id"])["student_id"] == served.ids["B2"]


def test_a_used_sign_in_link_does_not_sign_in_again(served):
    token = served.link("A1")
    first = served.client()
    csrf = re.search(r'name="csrf" value="([^"]+)"', first.get(f"/signin/{token}").text).group(1)
    assert first.post("/signin", data={"token": token, "csrf": csrf}).status_code == 303
    again = served.client()
    csrf = re.search(r'name="csrf" value="([^"]+)"', again.get(f"/signin/{token}").text).group(1)
    r = again.post("/signin", data={"token": token, "csrf": csrf})
    assert r.status_code == 403 and "session" not in r.cookies
    assert again.get("/me").status_code == 303  # not signed in
    # an older link stops working when a new one is made; a made-up one never works
    old = served.link("B2")
    served.link("B2")
    for t in (old, "made-up"):
        c = served.client()
        csrf = re.search(r'name="csrf" value="([^"]+)"', c.get(f"/signin/{t}").text).group(1)
        assert c.post("/signin", data={"token": t, "csrf": csrf}).status_code == 403


def test_fetching_a_link_does_not_spend_it(served):
    token = served.link("A1")
    served.client().get(f"/signin/{token}")  # a mail scanner's visit
    assert served.store.use_link(token) is not None


def test_a_cross_site_form_post_is_refused(served):
    alice = served.student("A1")
    # no CSRF token (what another site's form sends along with the cookie)
    r = alice.post("/submissions", files={"run": ("run.txt", make_run(1), "text/plain")})
    assert r.status_code == 403
    r = alice.post("/submissions", data={"csrf": "guessed"}, files={"run": ("run.txt", make_run(1), "text/plain")})
    assert r.status_code == 403
    assert served.store.submissions() == []
    # the right token, sent from another origin
    r = alice.post("/submissions", data={"csrf": csrf_of(alice)}, headers={"Origin": "https://evil.example"},
                   files={"run": ("run.txt", make_run(1), "text/plain")})
    assert r.status_code == 403 and served.store.submissions() == []
    assert alice.post("/token", data={}).status_code == 403
    assert alice.post("/finals", data={"final": "1"}).status_code == 403
    assert alice.post("/signout", data={}).status_code == 403
    teacher = served.teacher()
    assert teacher.post("/teacher/reveal", data={}).status_code == 403
    assert teacher.post("/teacher/links", data={}).status_code == 403
    assert served.store.setting("revealed", False) is False
    # a sign-in form posted without the browser's own sign-in cookie (login CSRF)
    token = served.link("C3")
    assert served.client().post("/signin", data={"token": token, "csrf": "x"}).status_code == 403
    assert served.store.use_link(token) is not None  # not spent by the refused post


def _private_texts(served, row) -> list[str]:
    import json

    v = json.loads(row["private"])["map"]
    return [f"{v:.4f}", repr(v)]


def test_private_scores_stay_hidden_until_the_reveal(served):
    alice = served.student("A1")
    sid = int(upload(alice, make_run(11)).headers["location"].rsplit("/", 1)[1])
    row = served.store.submission(sid)
    assert row["status"] == "graded"
    hidden = _private_texts(served, row)
    public = [f"{__import__('json').loads(row['public'])['map']:.4f}"]
    assert not set(hidden) & set(public)  # the check below can tell them apart
    token = _api_token(alice)
    api = served.client()
    bearer = {"Authorization": f"Bearer {token}"}
    # every view a student has: the pages, the JSON API (cookie and token), the CSV, an upload's answer
    before = [alice.get("/").text, alice.get(f"/submissions/{sid}").text, alice.get("/me").text,
              alice.get("/api/board").text, alice.get(f"/api/submissions/{sid}").text,
              alice.get("/api/submissions").text, alice.get("/board.csv").text,
              api.get("/api/board", headers=bearer).text, api.get(f"/api/submissions/{sid}", headers=bearer).text,
              api.post("/api/submissions", headers=bearer, files={"run": ("b.txt", make_run(12), "text/plain")}).text]
    assert all(p in before[0] for p in public)
    rows = served.store.submissions()
    assert len(rows) == 2 and all(r["status"] == "graded" for r in rows)
    every_hidden = [h for r in rows for h in _private_texts(served, r)]
    every_public = {f"{__import__('json').loads(r['public'])['map']:.4f}" for r in rows}
    assert not set(every_hidden) & every_public
    for text in before:
        for h in every_hidden:
            assert h not in text
    assert "private" not in alice.get("/api/board").json()
    assert "private" not in alice.get(f"/api/submissions/{sid}").json()
    assert alice.get("/teacher").status_code == 303 and alice.get("/teacher/grades.csv").status_code in (303, 401)
    # the teacher sees them, then reveals
    teacher = served.teacher()
    assert hidden[0] in teacher.get(f"/submissions/{sid}").text
    r = teacher.post("/teacher/reveal", data={"csrf": csrf_of(teacher, "/teacher")})
    assert r.status_code == 303
    after = alice.get(f"/submissions/{sid}").text + alice.get(f"/api/submissions/{sid}").text
    assert hidden[0] in after and hidden[1] in after
    assert "private" in alice.get("/api/board").json() and "private" in alice.get("/board.csv").text


def test_the_daily_limit_holds_under_concurrent_uploads(tmp_path):
    served = Class(make_klass(tmp_path), daily_limit=3, grade=False)
    alice = served.student("A1")
    token = _api_token(alice)
    codes: list[int] = []
    start = threading.Barrier(10)

    def one(i: int) -> None:
        c = served.client()
        start.wait()
        r = c.post("/api/submissions", headers={"Authorization": f"Bearer {token}"},
                   files={"run": (f"run{i}.txt", make_run(100 + i), "text/plain")})
        codes.append(r.status_code)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201] * 3 + [429] * 7
    assert len(served.store.submissions()) == 3
    # the store's own check, from many threads at once, without the app
    start2 = threading.Barrier(8)
    got = []

    def direct(i: int) -> None:
        from trec_eval_py.serve.store import LimitReached

        start2.wait()
        try:
            got.append(served.store.add_submission(served.ids["B2"], "r.txt", make_run(200 + i), daily_limit=2,
                                                   deadline=None))
        except LimitReached:
            got.append(None)

    threads = [threading.Thread(target=direct, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(x is not None for x in got) == 2


def test_the_teachers_pages_need_the_teachers_credential(served):
    alice = served.student("A1")
    anonymous = served.client()
    for c in (alice, anonymous):
        assert c.get("/teacher").headers["location"] == "/teacher/login"
        assert c.get("/teacher/grades.csv").status_code in (303, 401)
        assert c.get("/teacher/submissions.zip").status_code in (303, 401)
        assert c.get(f"/teacher/students/{served.ids['B2']}").status_code == 303
    assert alice.post("/teacher/reveal", data={"csrf": csrf_of(alice)}).status_code in (303, 401)
    assert served.store.setting("revealed", False) is False
    c = served.client()
    csrf = re.search(r'name="csrf" value="([^"]+)"', c.get("/teacher/login").text).group(1)
    assert c.post("/teacher/login", data={"token": "wrong", "csrf": csrf}).status_code == 403
    # the teacher's token as a bearer works for the downloads (a script of the teacher's)
    bearer = {"Authorization": f"Bearer {served.teacher_token}"}
    assert served.client().get("/teacher/grades.csv", headers=bearer).status_code == 200


def test_the_qrels_and_the_state_are_never_served(served):
    alice, teacher = served.student("A1"), served.teacher()
    qrels = (served.store.root + "/qrels")
    with open(qrels) as f:
        first_line = f.readline().strip()
    for c in (alice, teacher, served.client()):
        for path in ("/qrels", "/state/qrels", "/runs", "/state.sqlite3", "/teacher-token", "/static/../qrels",
                     "/submissions/..%2Fqrels", "/submissions/0/run"):
            r = c.get(path)
            assert r.status_code in (303, 404, 405), path
            assert first_line not in r.text


def test_uploads_are_bounded(tmp_path):
    served = Class(make_klass(tmp_path), max_upload=10_000)
    alice = served.student("A1")
    big = make_run(1) * 3
    assert len(big) > 10_000
    r = upload(alice, big)
    assert r.status_code == 413 and "larger than" in r.text
    token = _api_token(alice)
    r = served.client().post("/api/submissions", headers={"Authorization": f"Bearer {token}"},
                             files={"run": ("run.txt", big, "text/plain")})
    assert r.status_code == 413
    assert served.store.submissions() == []


def test_every_page_escapes_what_students_and_runs_bring(served):
    bob = served.student("B2")
    hostile = make_run(5, name="<img src=x onerror=alert(1)>").replace(b"401 Q0", b"401 Q0", 1)
    r = upload(bob, hostile, name="<script>alert('x')</script>.txt")
    page = bob.get(r.headers["location"]).text
    teacher = served.teacher().get("/teacher").text
    for text in (page, teacher, bob.get("/me").text, bob.get("/").text):
        assert "<script>alert" not in text and "<img src=x" not in text
    assert "Bob &lt;script&gt;alert(1)&lt;/script&gt;" in teacher


def test_session_cookies_are_httponly_samesite_and_secure_over_https(tmp_path):
    served = Class(make_klass(tmp_path))
    token = served.link("A1")
    c = served.client()
    csrf = re.search(r'name="csrf" value="([^"]+)"', c.get(f"/signin/{token}").text).group(1)
    r = c.post("/signin", data={"token": token, "csrf": csrf})
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie
    from trec_eval_py.serve.app import Settings

    s = Settings(base_url="https://leaderboard.example.edu")
    assert s.secure and s.cookie == "__Host-session"


def test_an_upload_without_a_length_is_refused_before_it_is_read(served):
    alice = served.student("A1")
    token = _api_token(alice)
    read = []

    def body():  # a body sent in chunks, with no Content-Length: it could go on for ever
        for _ in range(3):
            read.append(1)
            yield b"x" * 1000

    r = served.client().post("/api/submissions", headers={"Authorization": f"Bearer {token}",
                                                          "Content-Type": "multipart/form-data; boundary=b"},
                             content=body())
    assert r.status_code == 411
    assert served.store.submissions() == []
