"""A small class for the server's tests (tests/serve/): judgments of 8 topics, a roster of three
students (one with markup in the name), runs made to order, and a client per
person (each with its own cookies)."""
from __future__ import annotations

import contextlib
import random
import re

import pytest

TOPICS = [str(401 + i) for i in range(8)]
PUBLIC = TOPICS[:4]


def write_qrels(path) -> None:
    rnd = random.Random(7)
    with open(path, "w") as f:
        for t in TOPICS:
            for d in range(30):
                f.write(f"{t} 0 D{t}-{d} {int(rnd.random() < 0.3)}\n")


def make_run(seed: int, name: str = "myrun", topics=TOPICS) -> bytes:
    rnd = random.Random(seed)
    lines = []
    for t in topics:
        docs = rnd.sample(range(40), 20)
        for rank, d in enumerate(docs, 1):
            lines.append(f"{t} Q0 D{t}-{d} {rank} {100 - rank}.{rnd.randrange(1000):03d} {name}\n")
    return "".join(lines).encode()


def needs_serve() -> None:
    """Skip a test module when the [serve] extra (and httpx, for the test client) is not installed."""
    for m in ("starlette", "jinja2", "multipart", "httpx", "uvicorn"):
        pytest.importorskip(m)


def make_klass(tmp_path):
    """(qrels path, roster path, public topics file, state folder)."""
    qrels = tmp_path / "qrels.txt"
    write_qrels(qrels)
    roster = tmp_path / "roster.csv"
    roster.write_text("Student ID,Full name,Email\nA1,Alice Adams,alice@example.edu\n"
                      "B2,Bob <script>alert(1)</script>,bob@example.edu\nC3,Chen Cao,chen@example.edu\n")
    public = tmp_path / "public.txt"
    public.write_text("\n".join(PUBLIC) + "\n")
    return qrels, roster, public, tmp_path / "state"


class Class:
    """A served class in this process: the store, the grading, the app, and helpers."""

    def __init__(self, klass, *, daily_limit=5, finals=2, deadline=None, grade=True, max_upload=1 << 20):
        import warnings

        with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx still works
            warnings.simplefilter("ignore")
            from starlette.testclient import TestClient

        from trec_eval_py.serve.app import Settings, create_app
        from trec_eval_py.serve.service import open_class

        qrels, roster, public, state = klass
        self.store, self.grading = open_class(str(qrels), str(roster), str(state), public_topics=str(public),
                                              tell=lambda t: None)
        self.settings = Settings(base_url="http://testserver", daily_limit=daily_limit, finals=finals,
                                 deadline=deadline, max_upload=max_upload, wait_seconds=0)
        self.grade_now = grade
        self.app = create_app(self.store, self.grading, self.settings, self)
        self.TestClient = TestClient
        self.teacher_token = self.store.teacher_token()
        self.ids = {s["key"]: s["id"] for s in self.store.students()}

    def wake(self) -> None:  # the pool's part: grade at once, in this process
        if self.grade_now:
            self.grade_pending()

    def grade_pending(self) -> None:
        for r in self.store.pending():
            self.store.record_grade(r["id"], self.grading.grade(self.store.run_path(r["sha256"]), r["filename"]))

    def client(self):
        return self.TestClient(self.app, base_url="http://testserver", follow_redirects=False)

    def link(self, key: str) -> str:
        (row, token), = self.store.new_links([self.ids[key]])
        return token

    def student(self, key: str):
        """A client signed in as student ``key`` through a one-time link."""
        c = self.client()
        token = self.link(key)
        page = c.get(f"/signin/{token}")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
        r = c.post("/signin", data={"token": token, "csrf": csrf})
        assert r.status_code == 303 and r.headers["location"] == "/me", r.text
        return c

    def teacher(self):
        c = self.client()
        page = c.get("/teacher/login")
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
        r = c.post("/teacher/login", data={"token": self.teacher_token, "csrf": csrf})
        assert r.status_code == 303, r.text
        return c


def csrf_of(client, path="/me") -> str:
    return re.search(r'name="csrf" value="([^"]+)"', client.get(path).text).group(1)


def upload(client, data: bytes, name="run.txt"):
    csrf = csrf_of(client)
    return client.post("/submissions", data={"csrf": csrf}, files={"run": (name, data, "text/plain")})



class Server:
    """``trec_eval_py serve`` in a process of its own (a session of its own, so that
    ``kill()`` takes its grading processes too, as a crash of the machine would)."""

    def __init__(self, qrels, state, port: int, *extra) -> None:
        import os
        import subprocess
        import sys

        from support.paths import ROOT

        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-m", "trec_eval_py", "serve", str(qrels), "--state", str(state),
                                     "--port", str(port), "--daily-limit", "0", *map(str, extra)],
                                    env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    start_new_session=True)

    def wait_up(self, seconds: float = 60) -> None:
        import time

        import httpx

        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(self.proc.stderr.read().decode())
            try:
                httpx.get(self.url + "/signin", timeout=2)
                return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        """``kill -9`` of the server and its workers."""
        import os
        import signal

        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.proc.stderr.close()

    def stop(self) -> None:
        import os
        import signal

        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except Exception:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        if not self.proc.stderr.closed:
            self.proc.stderr.close()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def crashing_grade(path: str, name: str) -> dict:
    """What a grading process runs (``grade_stored``), except that a run named ``crash.txt``
    kills its process, as a run past the memory bound or a crash of the engine would (the
    others take half a second more: they are still being graded when it does)."""
    import os
    import time

    from trec_eval_py.serve.grading import grade_stored

    if name == "crash.txt":
        os._exit(1)
    time.sleep(0.5)
    return grade_stored(path, name)
