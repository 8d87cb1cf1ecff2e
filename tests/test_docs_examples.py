"""Every example of the documentation runs, and prints what the page shows.

The pages are the Markdown files under ``docs/`` (the reference pages are
written from the code and hold no examples). Their code blocks follow one
convention (docs/contributing/architecture.md, "Examples that run"):

```console`` blocks
    ``$ command`` lines (a line ending in ``\\`` continues on the next), each
    followed by the output it prints, standard output and standard error
    together as a terminal shows them. ``trec_eval_py`` is this checkout's
    ``python3 -m trec_eval_py``. The output must match line for line
    (trailing blanks aside); a line ``...`` stands for any number of lines and
    ``...`` inside a line for any text. A command shown without output must
    succeed.
```python`` blocks
    run in turn in one namespace per page.
```pycon`` blocks
    ``>>>`` sessions in the same namespace, their output compared as doctest
    compares it (with ``...`` as above; tabs printed count as the spaces they
    show, as doctest reads the tabs of the output shown).
```bash`` / ```sh`` blocks
    run as scripts (``set -e``).

Each page runs in a new temporary folder holding a copy of ``examples/`` (and
``fixtures/seeds_examples/``, ``fixtures/bc_evaluate/``);
``<!-- docs: cwd=examples/agreement -->`` sets the folder for the blocks after
it. ``<!-- docs: skip REASON -->`` just before a block leaves that block out
(a command that needs a cluster, installs a package...). Blocks in other
languages (``text``, ``json``, ``latex``...) show data and are not run, but
one that begins with ``$`` or ``>>>`` is an error: commands must be runnable.

``python3 tests/test_docs_examples.py --update PAGE.md`` rewrites the outputs
shown in the console blocks of a page with what the commands print now (for
writing a page; review the difference before committing it).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support.paths import ROOT
from support.requirements import extra_requirements, installed_closure

DOCS = ROOT / "docs"
RUN_LANGS = {"console", "python", "pycon", "bash", "sh"}
MARKER = re.compile(r"^\s*<!--\s*docs:\s*(.*?)\s*-->\s*$")
#: the first line of a block that is a command even without a prompt
COMMAND = re.compile(r"^(trec_eval_py|python3?|pip)\b")
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)[^\n]*$")


@dataclass
class Block:
    lang: str
    lines: list[str]
    start: int  # line number of the opening fence (1-based)
    end: int  # line number of the closing fence
    indent: str
    cwd: str = "."
    skip: str | None = None


@dataclass
class Page:
    path: Path
    blocks: list[Block] = field(default_factory=list)


def pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "reference" not in p.relative_to(DOCS).parts
                  and not p.relative_to(DOCS).parts[0].startswith("_"))


def parse(path: Path) -> Page:
    page = Page(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    cwd, skip = ".", None
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            item = m.group(1)
            if item.startswith("cwd="):
                cwd = item[4:].strip()
            elif item.startswith("skip"):
                skip = item[4:].strip()
                assert skip, f"{path}:{i + 1}: say why a block is not run"
            else:
                raise AssertionError(f"{path}:{i + 1}: unknown docs marker {item!r}")
            i += 1
            continue
        f = FENCE.match(lines[i])
        if f:
            indent, fence, lang = f.group(1), f.group(2), f.group(3).lower()
            body = []
            j = i + 1
            closing = re.compile(re.escape(fence[0]) + "{%d,}" % len(fence))
            while j < len(lines) and not closing.fullmatch(lines[j].strip()):
                body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
                j += 1
            assert j < len(lines), f"{path}:{i + 1}: code block never closed"
            page.blocks.append(Block(lang, body, i + 1, j + 1, indent, cwd, skip))
            skip = None
            i = j + 1
            continue
        if lines[i].strip():
            skip = None  # a skip marker applies to the block right after it
        i += 1
    return page


# ---------------------------------------------------------------- console blocks


def commands(block: Block) -> list[tuple[str, list[str], int]]:
    """``(command, shown output lines, line number)`` of each ``$`` command of a console block."""
    out: list[tuple[str, list[str], int]] = []
    lines = block.lines
    i = 0
    while i < len(lines):
        line = lines[i]
        assert line.startswith("$ "), f"line {block.start + 1 + i}: console blocks start each command with '$ '"
        cmd = [line[2:]]
        number = block.start + 1 + i
        while cmd[-1].endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd.append(lines[i])
        i += 1
        shown = []
        while i < len(lines) and not lines[i].startswith("$ "):
            shown.append(lines[i])
            i += 1
        while shown and not shown[-1].strip():
            shown.pop()
        out.append(("\n".join(cmd), shown, number))
    return out


def matches(shown: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` fits ``shown`` (``...`` lines and ``...`` in a line are wildcards)."""
    pattern = []
    for line in shown:
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(".*?".join(re.escape(p) for p in line.rstrip().split("...")) + r"\n")
    return re.fullmatch("".join(pattern), "".join(a.rstrip() + "\n" for a in actual)) is not None


@pytest.fixture(scope="module")
def shim(tmp_path_factory) -> dict:
    """An environment whose ``trec_eval_py`` is this checkout's."""
    bin_dir = tmp_path_factory.mktemp("bin")
    script = bin_dir / "trec_eval_py"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m trec_eval_py "$@"\n')
    script.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(ROOT), "COLUMNS": "80", "NO_COLOR": "1"}
    for k in ("TERMINAL_WIDTH", "FORCE_COLOR", "CI"):
        env.pop(k, None)
    return env


def run_command(cmd: str, cwd: Path, env: dict) -> tuple[int, list[str]]:
    proc = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          stdin=subprocess.DEVNULL, timeout=300)
    text = proc.stdout.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return proc.returncode, lines


def run_session(cmds: list[str], cwd: Path, env: dict) -> list[tuple[int, list[str]]]:
    """Run ``cmds`` one after another in one shell, as typed at a terminal (``cd``, variables
    and ``$?`` carry over); each command's exit status and output lines."""
    mark = f"--docs-{uuid.uuid4().hex}--"
    # the status is set again after the mark is printed, for a command that reads $?
    script = "".join(f"{cmd}\n_docs_status=$?\nprintf '\\n{mark}%d\\n' $_docs_status\n(exit $_docs_status)\n"
                     for cmd in cmds)
    code, lines = run_command(script, cwd, env)
    out: list[tuple[int, list[str]]] = []
    current: list[str] = []
    for line in lines:
        if line.startswith(mark):
            # the mark's own leading newline: drop the empty line it made after a complete last line
            if current and current[-1] == "":
                current.pop()
            out.append((int(line[len(mark):]), current))
            current = []
        else:
            current.append(line)
    assert len(out) == len(cmds), f"the shell stopped early (status {code}):\n" + "\n".join(current)
    return out


#: the folders of the repository a page's commands may read (copied for each page)
SHARED = ("examples", "fixtures/seeds_examples", "fixtures/bc_evaluate")


def workdir(tmp: Path) -> Path:
    for folder in SHARED:
        shutil.copytree(ROOT / folder, tmp / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return tmp


#: the Python of a page, in a process of its own (a block may change sys.modules or the
#: working folder): reads one JSON request a line, answers one JSON line
WORKER = r"""
import doctest, json, os, sys, traceback

class Checker(doctest.OutputChecker):
    # doctest's comparison, blanks at the ends of lines aside (pandas pads its tables); the
    # parser expanded the tabs of the output shown, so the output printed gets the same
    # (trec_eval's text is tab-separated)
    def check_output(self, want, got, optionflags):
        strip = lambda text: "\n".join(line.rstrip() for line in text.split("\n"))
        return super().check_output(strip(want), strip(got.expandtabs()), optionflags)

namespace = {"__name__": "__docs__"}
answer = sys.stdout
sys.stdout = sys.stderr  # what the blocks print is not the answer
for line in sys.stdin:
    req = json.loads(line)
    os.chdir(req["cwd"])
    problem = None
    if req["lang"] == "python":
        try:
            exec(compile(req["source"], f"{req['where']}:{req['line']}", "exec"), namespace)
        except BaseException as e:
            problem = "".join(traceback.format_exception_only(type(e), e)).strip()
    else:
        test = doctest.DocTestParser().get_doctest(req["source"], namespace, req["where"], req["where"], req["line"])
        out = []
        runner = doctest.DocTestRunner(Checker(), optionflags=doctest.ELLIPSIS)
        sys.stdout = answer  # doctest captures the examples' output itself
        try:
            runner.run(test, out=out.append, clear_globs=False)
        finally:
            sys.stdout = sys.stderr
        if runner.failures:
            problem = "\n" + "".join(out)
    answer.write(json.dumps({"problem": problem}) + "\n")
    answer.flush()
"""


class _Worker:
    def __init__(self, env: dict):
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, text=True)

    def run(self, lang: str, source: str, cwd: str, where: str, line: int) -> str | None:
        self.proc.stdin.write(json.dumps({"lang": lang, "source": source, "cwd": cwd, "where": where,
                                          "line": line}) + "\n")
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline()
        assert reply, f"{where}:{line}: the page's Python process died"
        return json.loads(reply)["problem"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


# ---------------------------------------------------------------- the test


def run_page(page: Page, tmp: Path, env: dict, update: bool = False) -> list[str]:
    """Run every block of ``page``; the problems found (or, with ``update``, rewrite the outputs)."""
    root = workdir(tmp)
    worker = None  # the page's Python, started at its first Python block
    problems: list[str] = []
    rewrites: list[tuple[Block, list[str]]] = []
    where = page.path.relative_to(ROOT) if page.path.is_relative_to(ROOT) else page.path
    for block in page.blocks:
        first = next((line for line in block.lines if line.strip()), "")
        if block.lang not in RUN_LANGS:
            if first.startswith(("$ ", ">>> ")) or (COMMAND.match(first) and not block.skip):
                problems.append(f"{where}:{block.start}: a command in a '{block.lang or 'plain'}' block: "
                                f"use a console or pycon block (or mark it <!-- docs: skip REASON -->)")
            continue
        if block.skip:
            continue
        cwd = (root / block.cwd).resolve()
        if block.lang == "console":
            new_lines = []
            cmds = commands(block)
            results = run_session([cmd for cmd, _shown, _n in cmds], cwd, env)
            for (cmd, shown, number), (code, actual) in zip(cmds, results):
                new_lines += ["$ " + cmd.split("\n")[0], *cmd.split("\n")[1:], *actual]
                if shown and not matches(shown, actual):
                    problems.append(f"{where}:{number}: $ {cmd}\n--- shown\n" + "\n".join(shown)
                                    + "\n--- printed\n" + "\n".join(actual))
                elif not shown and (code != 0 or actual):
                    problems.append(f"{where}:{number}: $ {cmd}\nexit status {code}, printed:\n" + "\n".join(actual))
            if not any("..." in line for line in block.lines if not line.startswith("$ ")):
                rewrites.append((block, new_lines))
        elif block.lang in ("bash", "sh"):
            code, actual = run_command("set -e\n" + "\n".join(block.lines), cwd, env)
            if code != 0:
                problems.append(f"{where}:{block.start}: script failed ({code}):\n" + "\n".join(actual))
        else:
            if worker is None:
                worker = _Worker(env)
            problem = worker.run(block.lang, "\n".join(block.lines) + "\n", str(cwd), str(where), block.start)
            if problem:
                problems.append(f"{where}:{block.start}: {problem}")
    if worker is not None:
        worker.close()
    if update:
        text = page.path.read_text(encoding="utf-8").split("\n")
        for block, new_lines in reversed(rewrites):
            text[block.start:block.end - 1] = [block.indent + line if line else line for line in new_lines]
        page.path.write_text("\n".join(text), encoding="utf-8")
    return problems


@pytest.mark.parametrize("path", pages(), ids=lambda p: str(p.relative_to(DOCS)))
@pytest.mark.slow
def test_examples_run_and_print_what_is_shown(path, shim, tmp_path):
    problems = run_page(parse(path), tmp_path, shim)
    assert not problems, "\n\n".join(problems)


def test_the_convention_is_used(tmp_path):
    # the checks themselves: a wrong output, a failing command and a hidden command are found
    page = tmp_path / "page.md"
    page.write_text("```console\n$ echo one\ntwo\n```\n\n```console\n$ false\n```\n\n```text\n$ echo hidden\n```\n"
                    "\n```console\n$ printf 'a\\nb\\nc\\n'\na\n...\nc\n```\n"
                    "\n```pycon\n>>> print('map\\tall')\nmap\tall\n>>> print('map\\tall')\nmap all\n```\n")
    env = {**os.environ}
    work = tmp_path / "work"
    work.mkdir()
    problems = run_page(parse(page), work, env)
    assert len(problems) == 4, problems
    assert "--- shown\ntwo\n--- printed\none" in problems[0]
    assert "exit status 1" in problems[1]
    assert "a command in a 'text' block" in problems[2]
    # a tab shown matches a tab printed; a blank does not
    assert problems[3].count("Failed example") == 1 and "map all" in problems[3], problems[3]


if __name__ == "__main__":
    import argparse
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--update", action="store_true", help="rewrite the outputs shown with what is printed now")
    ap.add_argument("pages", nargs="+", type=Path)
    args = ap.parse_args()
    bin_dir = Path(tempfile.mkdtemp())
    (bin_dir / "trec_eval_py").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m trec_eval_py "$@"\n')
    (bin_dir / "trec_eval_py").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": str(ROOT),
           "COLUMNS": "80", "NO_COLOR": "1"}
    for name in ("TERMINAL_WIDTH", "FORCE_COLOR", "CI"):
        env.pop(name, None)
    failed = 0
    for p in args.pages:
        with tempfile.TemporaryDirectory() as tmp:
            problems = run_page(parse(p.resolve()), Path(tmp), env, update=args.update)
        for problem in problems:
            print(problem, end="\n\n")
        failed += bool(problems)
    sys.exit(1 if failed and not args.update else 0)


# ---------------------------------------------------------------- the README's set-up section


def _set_up_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("\n## Set up\n")
    return text[start:text.index("\n## ", start + 1)]


def test_the_set_up_section_says_what_the_test_install_costs():
    section = _set_up_section()
    flat = " ".join(section.split())
    # two commands: install and evaluate the example; install and run the tests
    assert re.findall(r"^```\n(.+)\n```$", section, re.MULTILINE) == [
        'python3 -m pip install ".[all]" && trec_eval_py examples/qrels.txt examples/run_a.txt',
        'python3 -m pip install -e ".[test]" && python3 -m pytest']
    # the quick run it offers leaves out a marker pytest knows
    quick = re.search(r'`python3 -m pytest -m "not (\w+)"`', flat)
    assert quick, "the set-up section names no quick run"
    import tomllib

    markers = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert any(m.split(":")[0].strip() == quick[1] for m in markers["markers"])
    assert re.search(r"\d+ to \d+ minutes", flat), "the set-up section does not say how long the suite takes"
    # the number of packages it states is the test extra's, within a fifth
    stated = re.search(r"about (\d+) packages", flat)
    assert stated, "the set-up section does not say how many packages the test extra pulls"
    closure, missing = installed_closure(extra_requirements("test"))
    closure |= {"trec-eval-py"}  # (the package itself, installed by the command too)
    if missing:
        pytest.skip(f"the test extra is not wholly installed here ({', '.join(sorted(missing))})")
    assert abs(int(stated[1]) - len(closure)) <= len(closure) / 5, (int(stated[1]), len(closure))
