"""Headless Chromium driven over the DevTools protocol, for the browser tests.

Chromium is Debian's (``chromium`` or ``chromium-browser`` on PATH; .ci/run
installs it, and under ``CI=true`` a test skipped for want of it fails, see
conftest.py). The protocol is a pipe of websocket messages on the loopback
address (websocket-client, a test dependency).
"""
from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import time
import urllib.request

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NO_CHROMIUM = "no Chromium on PATH (.ci/run installs Debian's)"

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
         "--disable-sync", "--disable-component-update", "--mute-audio"]


class DevTools:
    """Just enough of the DevTools protocol: commands, and the events seen meanwhile."""

    def __init__(self, url: str):
        import websocket  # websocket-client, a test dependency

        self.ws = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.next_id = 0
        self.events: list[dict] = []

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                assert "error" not in msg, msg
                return msg.get("result", {})
            self.events.append(msg)
        raise TimeoutError(method)

    def js(self, expression: str):
        res = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in res, res
        return res["result"].get("value")

    def click(self, selector: str) -> None:
        box = self.js(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                      " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        x, y = box
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def wait_loaded(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while self.js("document.readyState") != "complete":
            assert time.monotonic() < deadline, "the page did not finish loading"
            time.sleep(0.02)

    def navigate(self, url: str) -> None:
        """Load ``url`` in this tab and wait until it (images included) has loaded."""
        self.call("Page.navigate", url=url)
        # readyState may still be the previous page's 'complete' for a moment
        deadline = time.monotonic() + 30
        while self.js("document.URL.split('#')[0]") != url.split("#")[0]:
            assert time.monotonic() < deadline, f"{url} was not opened"
            time.sleep(0.02)
        self.wait_loaded()

    def close(self):
        self.ws.close()


@contextlib.contextmanager
def chromium(profile_dir, size: str = "1280,1000"):
    """A headless Chromium; yields its DevTools port."""
    proc = subprocess.Popen([CHROMIUM, *FLAGS, "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                             f"--user-data-dir={profile_dir}", f"--window-size={size}", "about:blank"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        port = None
        deadline = time.monotonic() + 60
        while port is None and time.monotonic() < deadline:
            line = proc.stderr.readline().decode(errors="replace")
            if not line and proc.poll() is not None:
                break
            m = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
        assert port is not None, "Chromium did not open its DevTools port"
        yield port
    finally:
        proc.kill()
        proc.wait(timeout=30)
        proc.stderr.close()


def open_page(port: int, url: str) -> DevTools:
    """A new tab showing ``url``, with its network requests and errors recorded."""
    req = urllib.request.Request(f"http://127.0.0.1:{port}/json/new?{url}", method="PUT")
    with urllib.request.urlopen(req, timeout=30) as r:
        target = json.loads(r.read())
    dt = DevTools(target["webSocketDebuggerUrl"])
    dt.call("Runtime.enable")
    dt.call("Network.enable")
    dt.call("Page.enable")
    dt.call("Page.navigate", url=url)  # again, now that requests are watched
    dt.wait_loaded()
    return dt
