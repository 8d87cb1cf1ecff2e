"""The documentation site: built with warnings as errors, complete against the
registries, saying what ``-h`` says, and walked in a browser.

The site is built once per run (Sphinx, ``-W``) into a temporary folder; its
reference pages are written from the code by ``docs/_ext/reference.py``. The
tests here do not trust that generator: they list the measures, formats,
flags and public names from the code themselves and look for each in the
built HTML. The last test serves the site on the loopback address and opens
every page in headless Chromium: every internal link reaches a page that
exists and an anchor on it, every image has loaded.
"""
from __future__ import annotations

import functools
import html
import os
import re
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import pytest
from support.devtools import CHROMIUM, NO_CHROMIUM, chromium, open_page
from support.paths import ROOT
from support.requirements import extra_requirements, installed_closure

# every test here works on the built site (minutes to build): a quick run leaves them out
pytestmark = pytest.mark.slow

DOCS = ROOT / "docs"


def _sphinx_missing() -> str | None:
    for module in ("sphinx", "myst_parser", "furo"):
        try:
            __import__(module)
        except ImportError:
            return f"could not import {module} (the test extra installs it)"
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    missing = _sphinx_missing()
    if missing:
        pytest.skip(missing)
    tmp = tmp_path_factory.mktemp("site")
    out = tmp / "html"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # python3 -m sphinx -b html -W ..., noting the modules the build imported (see
    # test_the_docs_extra_installs_what_the_build_imports)
    proc = subprocess.run([sys.executable, "-c", _BUILD, str(tmp / "modules.json"), "-b", "html", "-W", "--keep-going",
                           "-q", "-d", str(tmp / "doctrees"), str(DOCS), str(out)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, f"the site does not build cleanly:\n{proc.stderr}{proc.stdout}"
    return out


_BUILD = """
import json, sys
before = set(sys.modules)
from sphinx.cmd.build import main
rc = main(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    json.dump(sorted(set(sys.modules) - before), f)
sys.exit(rc)
"""


def page_text(path: Path) -> str:
    """The visible text of a page, whitespace collapsed."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    # block elements part words; inline ones (code, links, emphasis) do not
    text = re.sub(r"</?(p|div|li|td|th|tr|br|h[1-6]|pre|dt|dd|table|section|ul|ol|dl|span class=\"w\")\b[^>]*>",
                  " ", text)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())


def words(text: str) -> str:
    return " ".join(text.split())


def ids(path: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', path.read_text(encoding="utf-8")))


def pre_blocks(path: Path) -> list[str]:
    """The text of every <pre> of a page, as shown."""
    raw = path.read_text(encoding="utf-8")
    return [html.unescape(re.sub(r"<[^>]+>", "", b)) for b in re.findall(r"<pre\b[^>]*>(.*?)</pre>", raw, flags=re.S)]


# ---------------------------------------------------------------- completeness


def test_every_measure_has_its_page(site):
    from trec_eval_py.engine.measures import _names, registry
    from trec_eval_py.engine.measures._base import VERSIONS

    reg = registry()
    pages = {p.stem for p in (site / "reference" / "measures").glob("*.html")} - {"index"}
    assert pages == {m.name for m in reg}
    index = page_text(site / "reference" / "measures" / "index.html")
    ir_of = {}
    for alias in _names.ALIASES.values():
        for trec in (alias.trec, alias.trec_at):
            if trec is not None:
                ir_of.setdefault(trec, set()).add(alias.name)
    for m in reg:
        text = page_text(site / "reference" / "measures" / f"{m.name}.html")
        assert words(m.help) in text, m.name
        assert m.name in index
        for nick in m.nicknames:
            assert nick in text, (m.name, nick)
        versions = VERSIONS[VERSIONS.index(m.since):] if m.since in VERSIONS else ()
        if versions:
            assert re.search("trec_eval versions ?: " + re.escape(" and ".join(versions)), text), m.name
        else:
            assert re.search("trec_eval versions ?: none: a measure trec_eval does not have", text), m.name
        for out in m.output_names(m.params.parse(m.name, None)):
            assert out in text, (m.name, out)
        for ir in ir_of.get(m.name, ()):
            assert ir in text, (m.name, ir)
    # the formula (drawn by MathJax: the page holds its TeX), the trec_eval name and the source
    from trec_eval_py.engine.measures._base import VERSIONS as _V

    for m in reg:
        raw = (site / "reference" / "measures" / f"{m.name}.html").read_text(encoding="utf-8")
        maths = [html.unescape(b) for b in re.findall(r'<div class="math[^"]*">(.*?)</div>', raw, flags=re.S)]
        assert any(words(m.formula) in words(b) for b in maths), m.name
        text = page_text(site / "reference" / "measures" / f"{m.name}.html")
        assert re.search(r"trec_eval name ?: " + (re.escape(m.name) if m.since in _V else "none"), text), m.name
        assert re.search(r"Source ?: \S", text), m.name
    assert "Notation" in index
    # the definition: each measure module's docstring, first sentence
    import importlib

    from trec_eval_py.engine.measures._index import INDEX

    for name, (module, _since, _nicks) in INDEX.items():
        doc = importlib.import_module(f"trec_eval_py.engine.measures.{module}").__doc__ or ""
        first = words(doc.split("\n\n")[0]).replace("``", "")
        assert first in page_text(site / "reference" / "measures" / f"{name}.html"), name


def test_every_format_has_its_section(site):
    from trec_eval_py.engine.inputs import judgment_formats, results_formats

    page = site / "reference" / "formats.html"
    text, found = page_text(page), ids(page)
    for kind, table in (("r", judgment_formats()), ("t", results_formats())):
        assert table
        for name, f in table.items():
            assert f"format-{kind}-{name.replace('_', '-')}" in found, name
            assert words(f.help) in text, name


def _commands():
    import typer.main

    from trec_eval_py import cli
    from trec_eval_py.cli import commands

    yield "trec_eval_py", [], typer.main.get_command(cli.app)
    for name in commands.names():
        yield name, [name], typer.main.get_command(commands.load(name))


def test_every_flag_has_its_row(site):
    from trec_eval_py.cli.flags import FLAGS

    seen_shared = set()
    for name, _argv, command in _commands():
        text = page_text(site / "reference" / "cli" / f"{name}.html")
        assert command.params, name
        for p in command.params:
            for opt in getattr(p, "opts", ()):
                if opt.startswith("-"):
                    assert opt in text, (name, opt)
            if p.help:
                assert words(p.help) in text, (name, p.name)
        for f in FLAGS.values():
            if any(f.decls[0] in getattr(p, "opts", ()) for p in command.params):
                seen_shared.add(f.field)
    assert seen_shared == set(FLAGS)  # every shared flag is taken by some command, and shown there


def test_pages_show_what_dash_h_prints(site):
    for name, argv, _command in _commands():
        # (click keeps help spellings in a set: their order follows the string hash seed)
        env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
        env.pop("TERMINAL_WIDTH", None)
        shown = subprocess.run([sys.executable, "-m", "trec_eval_py", *argv, "-h"], capture_output=True, text=True,
                               env=env, cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL)
        assert shown.returncode == 0, shown.stderr
        expected = "\n".join(line.rstrip() for line in shown.stdout.split("\n")).strip("\n")
        blocks = ["\n".join(line.rstrip() for line in b.split("\n")).strip("\n")
                  for b in pre_blocks(site / "reference" / "cli" / f"{name}.html")]
        if expected not in blocks:
            import difflib

            diff = "\n".join(difflib.unified_diff(blocks[0].split("\n") if blocks else [], expected.split("\n"),
                                                   "page", "-h", lineterm=""))
            raise AssertionError(f"{name}: the page does not show what -h prints:\n{diff}")


def test_every_public_name_is_documented(site):
    import importlib
    import pkgutil

    import trec_eval_py
    import trec_eval_py.tools as tools

    found = ids(site / "reference" / "api" / "trec_eval_py.html")
    for n in trec_eval_py.__all__:
        if n != "__version__":
            assert f"trec_eval_py.{n}" in found, n
    found = ids(site / "reference" / "api" / "trec_eval_py.compat.pytrec_eval.html")
    assert "trec_eval_py.compat.pytrec_eval.RelevanceEvaluator" in found
    assert "trec_eval_py.compat.pytrec_eval.RelevanceEvaluator.evaluate" in found
    modules = [i.name for i in pkgutil.walk_packages(tools.__path__, "trec_eval_py.tools.")
               # a family's modules and packages (grading.validate), not the family nor a private module
               if (not i.ispkg or i.name.count(".") > 2) and not any(p.startswith("_") for p in i.name.split("."))]
    assert "trec_eval_py.tools.grading.validate" in modules and "trec_eval_py.tools.shared.runs" in modules
    for module in modules:
        mod = importlib.import_module(module)
        names = getattr(mod, "__all__", None) or [
            n for n, v in vars(mod).items() if not n.startswith("_") and callable(v)
            and getattr(v, "__module__", None) == module]
        found = ids(site / "reference" / "api" / f"{module}.html")
        for n in names:
            assert f"{module}.{n}" in found, (module, n)


MATH_FACTS = """(() => (window.MathJax && MathJax.startup ? MathJax.startup.promise : Promise.resolve())
  .then(() => ({
    shown: document.querySelectorAll('mjx-container').length,
    errors: Array.from(document.querySelectorAll('mjx-merror'))
      .map(e => e.getAttribute('data-mjx-error') || e.textContent),
  })))()"""


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
def test_every_formula_is_drawn_in_a_browser(site, served, tmp_path):
    """MathJax (served by the site itself) draws every measure's formula without a TeX error."""
    from trec_eval_py.engine.measures import registry

    bad = {}
    with chromium(tmp_path / "profile") as port:
        dt = open_page(port, served + "reference/measures/index.html")
        try:
            facts = dt.js(MATH_FACTS)
            assert facts["shown"] > 0 and facts["errors"] == []  # the notation's symbols
            for m in registry():
                dt.navigate(served + f"reference/measures/{m.name}.html")
                facts = dt.js(MATH_FACTS)
                if facts["shown"] < 1 or facts["errors"]:
                    bad[m.name] = facts
            failed = [e["params"] for e in dt.events if e.get("method") == "Network.loadingFailed"
                      and not e["params"].get("canceled")]
        finally:
            dt.close()
    assert bad == {}
    assert failed == []


#: distributions the build imports when they are installed, and does without
#: (beautifulsoup4, furo's, tries lxml as its parser)
_OPTIONAL_FOR_THE_BUILD = {"lxml"}


def test_the_docs_extra_installs_what_the_build_imports(site):
    """``pip install .[docs]`` is enough to build the site: every distribution a module
    of the build comes from is the package's own dependency or the docs extra's (or one
    of theirs)."""
    import json
    from importlib import metadata

    closure, _ = installed_closure(extra_requirements("docs"))
    imported = json.loads((site.parent / "modules.json").read_text(encoding="utf-8"))
    tops = {m.split(".")[0] for m in imported} - set(sys.stdlib_module_names)
    owners = metadata.packages_distributions()
    needed = {re.sub(r"[-_.]+", "-", d).lower() for top in tops if not top.startswith("_")
              for d in owners.get(top, ())} - {"trec-eval-py"}
    assert needed, "no module of the build was found"
    assert needed - closure - _OPTIONAL_FOR_THE_BUILD == set()


def test_every_guide_is_in_the_navigation(site):
    nav = (site / "index.html").read_text(encoding="utf-8")
    for md in (DOCS / "guide").glob("*.md"):
        assert f'href="guide/{md.stem}.html"' in nav, md.name


# ---------------------------------------------------------------- in a browser


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def served(site):
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


PAGE_FACTS = """(() => ({
  ids: Array.from(document.querySelectorAll('[id]')).map(e => e.id)
         .concat(Array.from(document.querySelectorAll('a[name]')).map(e => e.name)),
  links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
  images: Array.from(document.images).map(i => [i.currentSrc || i.src, i.complete && i.naturalWidth > 0]),
}))()"""


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
def test_every_page_links_and_images_resolve_in_a_browser(site, served, tmp_path):
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html") if "_static" not in p.parts)
    assert "index.html" in pages and len(pages) > 100
    anchors: dict[str, set[str]] = {}
    links: list[tuple[str, str]] = []
    broken_images: list[tuple[str, str]] = []
    with chromium(tmp_path / "profile") as port:
        dt = open_page(port, served + "index.html")
        try:
            for page in pages:
                dt.navigate(served + page)
                facts = dt.js(PAGE_FACTS)
                anchors[page] = set(facts["ids"])
                links += [(page, href) for href in facts["links"]]
                broken_images += [(page, src) for src, ok in facts["images"] if not ok]
            # (a request the next navigation cancels is no failure)
            failed = [e["params"] for e in dt.events if e.get("method") == "Network.loadingFailed"
                      and not e["params"].get("canceled")]
            bad_status = [(e["params"]["response"]["url"], e["params"]["response"]["status"]) for e in dt.events
                          if e.get("method") == "Network.responseReceived"
                          and e["params"]["response"]["status"] >= 400
                          and not e["params"]["response"]["url"].endswith("/favicon.ico")]  # asked by the browser
            errors = [e["params"] for e in dt.events if e.get("method") == "Runtime.exceptionThrown"]
        finally:
            dt.close()
    assert broken_images == []
    assert failed == [] and bad_status == []
    assert errors == []
    broken = []
    for page, href in links:
        url, fragment = urldefrag(href)
        if not url.startswith(served):
            assert urlparse(url).scheme in ("http", "https", "mailto"), (page, href)
            continue  # the site reaches no other host; outside links are not followed
        target = unquote(url[len(served):]) or "index.html"
        if target.endswith("/"):
            target += "index.html"
        if target not in anchors:
            if not (site / target).is_file():
                broken.append((page, href))
            continue
        if fragment and unquote(fragment) not in anchors[target]:
            broken.append((page, href))
    assert broken == []
