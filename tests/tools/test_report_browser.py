"""The grading report in a real browser: headless Chromium renders every page,
and a mouse click on a column head sorts the leaderboard.

Runs when a Chromium is on PATH (``chromium`` or ``chromium-browser``; CI
installs Debian's, and under ``CI=true`` a missing Chromium fails the run, see
conftest.py). The click goes through the DevTools protocol (a local
pipe of websocket messages on the loopback address), as a person's would:
a mouse press and release at the column head's position on the page.
"""
from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from support.devtools import CHROMIUM, FLAGS, NO_CHROMIUM, DevTools, chromium, open_page
from support.grading_class import EXPECTED, make_class

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    from trec_eval_py import cli

    root = make_class(tmp_path_factory.mktemp("class"))
    out = root / "report"
    try:
        cli.main(["batch", str(root / "qrels.txt"), str(root / "submissions"), "-m", "map", "-m", "P.10",
                  "-m", "ndcg_cut.10", "--report", str(out), "-o", str(root / "board.txt"), "-j", "1"])
    except SystemExit as e:
        assert e.code == 4  # the class has runs that cannot be graded
    return out


def screenshot(page: Path, png: Path, tmp_path: Path, size="1280,1000") -> None:
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile-shot'}", f"--window-size={size}",
                    f"--screenshot={png}", page.as_uri()],
                   check=True, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)


def ink(png: Path) -> float:
    """Share of pixels that are not (nearly) white."""
    from matplotlib.image import imread

    img = imread(str(png))[..., :3]
    return float((img.min(axis=2) < 0.9).mean())


def test_every_page_renders(report, tmp_path):
    pages = [report / "index.html", *sorted((report / "runs").iterdir())]
    assert len(pages) == 1 + len(EXPECTED)
    for i, page in enumerate([pages[0], pages[1], pages[-1]]):  # the index, a graded and a failed run
        png = tmp_path / f"page{i}.png"
        screenshot(page, png, tmp_path)
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert ink(png) > 0.02, page  # something was drawn, not a blank page


@pytest.fixture
def browser(tmp_path):
    with chromium(tmp_path / "profile") as port:
        yield port


ROWS = ("Array.from(document.querySelectorAll('#board tbody tr'))"
        ".map(r => [r.cells[1].textContent, r.cells[{col}].getAttribute('data-v')])")


def column(dt: DevTools, name: str) -> int:
    heads = dt.js("Array.from(document.querySelectorAll('#board thead th')).map(th => th.textContent)")
    return heads.index(name)


def test_clicking_a_column_head_sorts_the_leaderboard(report, browser):
    index = (report / "index.html").as_uri()
    dt = open_page(browser, index)
    try:
        p10 = column(dt, "P_10")
        before = dt.js(ROWS.format(col=p10))
        # board order: map; a run is named by its path as given
        assert [n for n, _ in before][0].endswith("/submissions/late.zip/hal/run.txt")

        dt.click(f"#board thead th:nth-child({p10 + 1})")
        rows = dt.js(ROWS.format(col=p10))
        vals = [float(v) for _, v in rows if v]
        assert vals == sorted(vals, reverse=True) and len(vals) == 10  # dave.txt has two run ids: not graded
        assert all(not v for _, v in rows[len(vals):])  # runs without a value stay last
        assert dt.js(f"document.querySelectorAll('#board thead th')[{p10}].getAttribute('aria-sort')") == "descending"
        assert sorted(n for n, _ in rows) == sorted(n for n, _ in before)

        dt.click(f"#board thead th:nth-child({p10 + 1})")  # again: reversed
        vals = [float(v) for _, v in dt.js(ROWS.format(col=p10)) if v]
        assert vals == sorted(vals)

        dt.click("#board thead th:nth-child(2)")  # the run names, alphabetically
        names = [n for n, _ in dt.js(ROWS.format(col=1))]
        assert names == sorted(names, key=str.lower) or names == sorted(names)

        rank = column(dt, "rank")
        dt.click(f"#board thead th:nth-child({rank + 1})")  # back to rank order, best first
        ranks = [int(v) for _, v in dt.js(ROWS.format(col=rank)) if v]
        assert ranks == sorted(ranks) and ranks[0] == 1

        # nothing went wrong and nothing was fetched but the page itself
        errors = [e for e in dt.events if e.get("method") == "Runtime.exceptionThrown"]
        assert errors == []
        urls = {e["params"]["request"]["url"] for e in dt.events if e.get("method") == "Network.requestWillBeSent"}
        assert urls <= {index}, urls
    finally:
        dt.close()


def test_links_reach_the_run_pages(report, browser):
    dt = open_page(browser, (report / "index.html").as_uri())
    try:
        hrefs = dt.js("Array.from(document.querySelectorAll('#board tbody a')).map(a => a.href)")
        assert len(hrefs) == len(EXPECTED)
        for h in hrefs:
            assert h.startswith("file://") and os.path.isfile(urllib.request.url2pathname(h[len("file://"):]))
    finally:
        dt.close()


# ---- the report of an LMS class, on a laptop and on a phone ----

from support.lms_class import make_lms_class  # noqa: E402

#: (width, height, mobile): a laptop's window and a phone's screen
SIZES = {"laptop": (1280, 800, False), "phone": (390, 844, True)}


@pytest.fixture(scope="module")
def lms_report(tmp_path_factory):
    from trec_eval_py import cli

    root = make_lms_class(tmp_path_factory.mktemp("lms"))
    out = root / "report"
    try:
        cli.main(["batch", str(root / "qrels.txt"), str(root / "download"), "-m", "map", "-m", "P.10",
                  "-m", "ndcg_cut.10", "--report", str(out), "-o", str(root / "board.txt"), "-j", "1"])
    except SystemExit as e:
        assert e.code == 4  # incomplete: the broken runs are listed, not graded
    return out


def at_size(dt: DevTools, size: str) -> None:
    w, h, mobile = SIZES[size]
    dt.call("Emulation.setDeviceMetricsOverride", width=w, height=h, deviceScaleFactor=1, mobile=mobile)
    dt.call("Page.reload")
    deadline = time.monotonic() + 30
    while dt.js("document.readyState") != "complete" or dt.js("window.innerWidth") != w:
        assert time.monotonic() < deadline
        time.sleep(0.05)


VISIBLE = ("(() => {{ const r = document.querySelector({sel}).getBoundingClientRect();"
           " return [r.left, r.top, r.right, r.bottom, window.innerWidth, window.innerHeight]; }})()")


def visible(dt: DevTools, selector: str) -> bool:
    left, top, right, bottom, w, h = dt.js(VISIBLE.format(sel=json.dumps(selector)))
    return left >= 0 and right <= w and top >= 0 and bottom <= h


@pytest.mark.parametrize("size", SIZES)
def test_the_index_fits_and_shows_scores_first(lms_report, browser, size):
    dt = open_page(browser, (lms_report / "index.html").as_uri())
    try:
        at_size(dt, size)
        # no sideways scroll of the page: the board scrolls in its own box if it must
        assert dt.js("document.documentElement.scrollWidth") <= dt.js("window.innerWidth")
        # the first student's first score is on the first screen
        assert visible(dt, "#board tbody tr:first-child td:nth-child(3)")
        first = dt.js("document.querySelector('#board tbody tr:first-child td:nth-child(3)').textContent")
        assert first.startswith("0.")
        if size == "phone":  # the board fits the phone's width: no sideways scroll inside its box either
            box = "document.querySelector('#board').parentElement"
            assert dt.js(f"{box}.scrollWidth") <= dt.js(f"{box}.clientWidth"), dt.js(
                "Array.from(document.querySelectorAll('#board thead th')).map(th => [th.textContent, th.offsetWidth])")
            assert dt.js("document.querySelector('#board').getBoundingClientRect().right") <= 390
        if size == "laptop":  # with the LMS's long names, the whole board fits the window
            assert dt.js("document.querySelector('#board').getBoundingClientRect().right") <= 1280
            full = dt.js("document.querySelector('#board tbody td.name a').title")
            assert full.endswith("_assignsubmission_file_/run.txt")
        # sorting works here too, offline
        dt.click("#board thead th:nth-child(3)")
        vals = [float(v) for v in dt.js("Array.from(document.querySelectorAll('#board tbody tr'))"
                                        ".map(r => r.cells[2].getAttribute('data-v')).filter(v => v)")]
        assert vals == sorted(vals) or vals == sorted(vals, reverse=True)
        urls = {e["params"]["request"]["url"] for e in dt.events if e.get("method") == "Network.requestWillBeSent"}
        assert urls <= {(lms_report / "index.html").as_uri()}, urls
    finally:
        dt.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_student_page_starts_with_the_verdict_and_the_scores(lms_report, browser, size):
    pages = sorted((lms_report / "runs").iterdir())
    graded = next(p for p in pages if "Aaron_Abbot" in p.name)
    failed = next(p for p in pages if "Quinn_Quade" in p.name)
    dt = open_page(browser, graded.as_uri())
    try:
        at_size(dt, size)
        assert dt.js("document.documentElement.scrollWidth") <= dt.js("window.innerWidth")
        assert visible(dt, "#scores td.first")
        # the verdict comes first, before the scores and every chart; its findings collapsed
        assert visible(dt, "#verdict")
        assert dt.js("document.querySelector('#verdict').getBoundingClientRect().bottom") <= \
            dt.js("document.querySelector('#scores').getBoundingClientRect().top")
        assert dt.js("Array.from(document.querySelectorAll('details.finding')).every(d => !d.open)")
        # figures scale to the width; the per-topic chart labels its 50 topics
        assert dt.js("Math.max(...Array.from(document.querySelectorAll('svg')).map("
                     "s => s.getBoundingClientRect().right))") <= dt.js("window.innerWidth")
        assert dt.js("document.querySelectorAll('figure.topics text.topic').length") == 50
        dt.call("Page.navigate", url=failed.as_uri())
        deadline = time.monotonic() + 30
        while dt.js("location.href") != failed.as_uri() or dt.js("document.readyState") != "complete":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert visible(dt, "#verdict") and "the iter ('Q0') column is missing" in dt.js(
            "document.querySelector('#verdict').textContent")
        assert dt.js("document.documentElement.scrollWidth") <= dt.js("window.innerWidth")
    finally:
        dt.close()
