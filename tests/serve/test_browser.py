"""The class server in a real browser (headless Chromium, as the report's tests):
a student signs in with a link, uploads a run, sees the findings and the
scores, marks a final; the teacher reveals the private board; on a laptop's
window and on a phone's screen.

Runs when a Chromium is on PATH (see tests/support/devtools.py; under
``CI=true`` a missing Chromium fails the run). The server is the real one
(uvicorn in a process of its own, on the loopback address).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from support.devtools import CHROMIUM, NO_CHROMIUM, DevTools, chromium, open_page
from support.serve_class import Server, free_port, make_klass, make_run, needs_serve

needs_serve()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)

#: (width, height, mobile): a laptop's window and a phone's screen
SIZES = {"laptop": (1280, 800, False), "phone": (390, 844, True)}
#: who signs in at each size
STUDENT = {"laptop": "A1", "phone": "C3"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from trec_eval_py.serve.service import open_class

    root = tmp_path_factory.mktemp("served")
    qrels, roster, public, state = make_klass(root)
    store, _ = open_class(str(qrels), str(roster), str(state), public_topics=str(public), tell=lambda t: None)
    run = root / "run.txt"
    run.write_bytes(make_run(5).replace(b"401 Q0 D401-", b"401 Q0 D401-", 1))
    s = Server(qrels, state, free_port(), "--title", "IR 2026: assignment 2")
    try:
        s.wait_up()
        s.store, s.run = store, run
        s.teacher_token = (Path(state) / "teacher-token").read_text().strip()
        yield s
    finally:
        s.stop()


@pytest.fixture
def browser(tmp_path):
    with chromium(tmp_path / "profile") as port:
        yield port


def at_size(dt: DevTools, size: str) -> None:
    w, h, mobile = SIZES[size]
    dt.call("Emulation.setDeviceMetricsOverride", width=w, height=h, deviceScaleFactor=1, mobile=mobile)
    dt.call("Page.reload")
    wait_for(dt, f"document.readyState === 'complete' && window.innerWidth === {w}")


def wait_for(dt: DevTools, condition: str, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while True:
        try:
            if dt.js(f"!!({condition})"):
                return
        except AssertionError:  # the page was being replaced
            pass
        assert time.monotonic() < end, (condition, dt.js("location.href + ' ' + document.body.innerText.slice(0, 800)"))
        time.sleep(0.05)


def fits(dt: DevTools) -> bool:
    """No sideways scroll of the page (a wide table scrolls in its own box)."""
    return dt.js("document.documentElement.scrollWidth") <= dt.js("window.innerWidth")


def shot(dt: DevTools, name: str) -> None:
    folder = os.environ.get("TREC_EVAL_PY_SCREENSHOTS")
    if folder:
        import base64

        png = base64.b64decode(dt.call("Page.captureScreenshot", format="png")["data"])
        Path(folder, f"{name}.png").write_bytes(png)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_a_student_signs_in_uploads_and_marks_a_final_then_the_teacher_reveals(server, browser, size):
    shown_before = bool(server.store.setting("revealed", False))  # the laptop's run revealed it already
    ((_, token),) = server.store.new_links([s["id"] for s in server.store.students() if s["key"] == STUDENT[size]])
    dt = open_page(browser, f"{server.url}/signin/{token}")
    try:
        at_size(dt, size)
        assert fits(dt)
        dt.click("#signin")
        wait_for(dt, "location.pathname === '/me' && document.readyState === 'complete'")
        assert fits(dt)
        # the upload: a file chosen in the form, then the button
        doc = dt.call("DOM.getDocument")["root"]["nodeId"]
        node = dt.call("DOM.querySelector", nodeId=doc, selector="input[type=file]")["nodeId"]
        dt.call("DOM.setFileInputFiles", nodeId=node, files=[str(server.run)])
        dt.click("#upload")
        wait_for(dt, "location.pathname.startsWith('/submissions/')")
        wait_for(dt, "document.querySelector('#scores') !== null", 60)  # the page reloads until graded
        assert fits(dt)
        scores = dt.js("Array.from(document.querySelectorAll('#scores tbody tr')).map(r => r.cells[1].textContent)")
        assert len(scores) == 2 and all(s.startswith("0.") for s in scores)
        # the private column only once revealed
        assert dt.js("document.querySelectorAll('#scores thead th').length") == (4 if shown_before else 3)
        assert "Findings (validate gives the same)" in dt.js("document.querySelector('#feedback').textContent")
        shot(dt, f"serve-feedback-{size}")
        # marking the final
        dt.call("Page.navigate", url=f"{server.url}/me")
        wait_for(dt, "location.pathname === '/me' && document.readyState === 'complete'")
        dt.click("input[name=final]")
        assert dt.js("document.querySelector('input[name=final]').checked")
        dt.click("#save-finals")
        wait_for(dt, "document.querySelector('#flash') !== null")
        assert "Finals saved" in dt.js("document.querySelector('#flash').textContent")
        assert dt.js("document.querySelector('input[name=final]').checked")
        assert fits(dt)
        shot(dt, f"serve-student-{size}")
        # the board: public only, the private one hidden
        dt.call("Page.navigate", url=f"{server.url}/")
        wait_for(dt, "document.readyState === 'complete' && document.querySelector('table.board') !== null")
        revealed = dt.js("document.querySelector('#private-hidden') === null")
        assert revealed == shown_before
        assert dt.js("document.querySelectorAll('table.board').length") == (2 if revealed else 1)
        assert fits(dt)
        # the teacher signs in and reveals
        dt.call("Page.navigate", url=f"{server.url}/teacher/login")
        wait_for(dt, "document.readyState === 'complete' && document.querySelector('input[name=token]') !== null")
        dt.js(f"document.querySelector('input[name=token]').value = {server.teacher_token!r}")
        dt.click("form[action='/teacher/login'] button")
        wait_for(dt, "location.pathname === '/teacher' && document.readyState === 'complete'")
        assert fits(dt)
        if not revealed:
            shot(dt, f"serve-teacher-{size}")
            dt.click("#reveal")
            wait_for(dt, "document.querySelector('#revealed') !== null")
        dt.call("Page.navigate", url=f"{server.url}/")
        wait_for(dt, "document.readyState === 'complete' && document.querySelectorAll('table.board').length === 2")
        private = dt.js("Array.from(document.querySelectorAll('table.board')[1].querySelectorAll('tbody tr'))"
                        ".map(r => r.cells[2].textContent)")
        assert private and all(v.startswith("0.") for v in private)
        assert fits(dt)
        shot(dt, f"serve-board-{size}")
        errors = [e for e in dt.events if e.get("method") == "Runtime.exceptionThrown"]
        assert errors == []
    finally:
        dt.close()
