"""The package's shape, checked: stages import downwards only, no import cycles,
no private name used outside the package that owns it, the linters' rules and
the type checker's; and the tests' shape: laid out like the package.

The layers are declared once, in pyproject.toml's import-linter contract
(parse -> join -> measures -> aggregate -> pipeline -> tools -> cli); this
test runs that contract, so `lint-imports` and the test suite agree.
"""
from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

PKG = ROOT / "trec_eval_py"
TESTS = ROOT / "tests"


def _modules():
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        yield path, ".".join(parts), is_pkg


def _imports(path: Path, module: str, is_pkg: bool):
    """(line, imported module, imported name or None) for every import in ``path``."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if is_pkg else module.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                yield node.lineno, target, a.name


def _owner(dotted: str) -> str | None:
    """The package a private name belongs to: the parent of its first ``_`` part."""
    parts = dotted.split(".")
    for i, p in enumerate(parts):
        if p.startswith("_") and not (p.startswith("__") and p.endswith("__")):
            return ".".join(parts[:i])
    return None


def test_no_private_name_is_used_outside_its_package():
    bad = []
    for path, module, is_pkg in _modules():
        for line, target, name in _imports(path, module, is_pkg):
            if not target.startswith("trec_eval_py"):
                continue
            dotted = target if name is None or name == "*" else f"{target}.{name}"
            owner = _owner(dotted)
            if owner is not None and not (module == owner or module.startswith(owner + ".")):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {dotted}")
    assert bad == []


def _calls(tree: ast.AST, name: str):
    """The calls of a function or method called ``name`` in ``tree`` (``f(...)`` or ``x.f(...)``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name):
                yield node


def test_one_loop_reads_a_run_in_pieces_and_one_module_regroups_it():
    """A run read in pieces is regrouped into whole topics by one loop
    (``engine/join/stream.whole_topics``: a piece's last topic waits for the next,
    found as ``run_starts(...)[-1]``), and through temporary files only by the
    spills beside it (``scratch_folder``): a second reader of pieces would be a
    second memory policy and a second place for its bugs."""
    carry, spill = [], []
    for path, module, _ in _modules():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Name) and node.value.func.id == "run_starts"
                    and isinstance(node.slice, ast.UnaryOp) and isinstance(node.slice.op, ast.USub)):
                carry.append(f"{module}:{node.lineno}")
        if module != "trec_eval_py.engine.join.scratch":
            spill += [f"{module}:{c.lineno}" for c in _calls(tree, "scratch_folder")]
    assert [c.split(":")[0] for c in carry] == ["trec_eval_py.engine.join.stream"], carry
    assert {c.split(":")[0] for c in spill} == {"trec_eval_py.engine.join.stream"}, spill


def test_the_sizes_that_decide_how_a_run_is_read_live_in_one_record():
    """Whole, in pieces, or regrouped through temporary files: every size that
    decides it is a field of ``engine/join/policy.POLICY``. A module-level
    ``NAME = N << 20`` (or ``N_000``) with a streaming word in its name
    elsewhere would be a second policy that the others do not follow."""
    words = ("STREAM", "WHOLE", "SPILL", "RANGE_", "REGROUP", "READ_AHEAD", "BLOCK_ROWS")
    found = []
    for path, module, _ in _modules():
        if module == "trec_eval_py.engine.join.policy":
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AnnAssign) else []
            for t in targets:
                if isinstance(t, ast.Name) and t.id.isupper() and any(w in t.id for w in words):
                    found.append(f"{module}.{t.id}")
    assert not found, found


def test_no_tool_keeps_state_in_a_module_level_dict():
    """What a tool sets up for its runs (judgments, an evaluator, settings) lives in
    an object made for it, not in a module's dict that every caller shares."""
    found = []
    for path, module, _ in _modules():
        if not module.startswith(("trec_eval_py.tools", "trec_eval_py.cli", "trec_eval_py.compat")):
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if isinstance(value, ast.Dict) and not value.keys or (
                    isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"
                    and not value.args and not value.keywords):
                found.append(f"{module}:{node.lineno}")
    assert not found, found


def test_stages_import_downwards_only():
    pytest.importorskip("importlinter")
    exe = shutil.which("lint-imports") or os.path.join(os.path.dirname(sys.executable), "lint-imports")
    res = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]



#: the most lines a module of the package has: one a newcomer reads through, split
#: along its seams (a package of private modules re-exporting its names) past that
MAX_MODULE_LINES = 800
#: engine modules allowed past it for now, each with why (only the engine's)
LONG_MODULES: dict[str, str] = {}


def long_modules(pkg: Path, limit: int, allowed) -> list[str]:
    """The modules under ``pkg`` longer than ``limit`` lines and not ``allowed``, and
    the allowed ones that are no longer long or not in the engine (so the list stays short)."""
    found = []
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(pkg.parent).as_posix()
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > limit and rel not in allowed:
            found.append(f"{rel}: {n} lines (at most {limit}: split it along its seams)")
    for rel in sorted(allowed):
        path = pkg.parent / rel
        if not rel.startswith(f"{pkg.name}/engine/"):
            found.append(f"{rel}: only engine modules may be exempt")
        elif not path.is_file() or len(path.read_text(encoding="utf-8").splitlines()) <= limit:
            found.append(f"{rel}: exempt but not over {limit} lines (drop it from the list)")
    return found


def test_no_module_is_longer_than_a_newcomer_reads():
    assert long_modules(PKG, MAX_MODULE_LINES, LONG_MODULES) == []


def test_the_length_check_finds_what_is_too_long(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "tools").mkdir()
    (pkg / "tools" / "big.py").write_text("x = 1\n" * 11)
    (pkg / "tools" / "fits.py").write_text("x = 1\n" * 10)
    (pkg / "engine" / "big.py").write_text("x = 1\n" * 11)
    (pkg / "engine" / "short.py").write_text("x = 1\n")
    assert long_modules(pkg, 10, {"pkg/engine/big.py": "why"}) == [
        "pkg/tools/big.py: 11 lines (at most 10: split it along its seams)"]
    allowed = {"pkg/engine/big.py": "why", "pkg/tools/big.py": "why", "pkg/engine/short.py": "why"}
    assert long_modules(pkg, 10, allowed) == [
        "pkg/engine/short.py: exempt but not over 10 lines (drop it from the list)",
        "pkg/tools/big.py: only engine modules may be exempt"]


def _contract(name_start: str) -> dict:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (found,) = [c for c in contracts if c["name"].startswith(name_start)]
    return found


def test_every_family_of_tools_is_in_the_families_contract():
    """A folder added under tools/ is a family the contract places (a layer of its
    own or beside one), so that no family escapes the rule by being new."""
    contract = _contract("the tools' families")
    assert contract["containers"] == ["trec_eval_py.tools"]
    named = {part.strip() for layer in contract["layers"] for part in layer.split("|")}
    families = {p.parent.name for p in (PKG / "tools").glob("*/__init__.py")}
    assert families and named == families


def test_the_families_contract_refuses_an_arrow_back_up(tmp_path):
    """The contract as declared catches shared importing a family, and compare
    importing grading: lint-imports run on a copy of the package with one such import."""
    pytest.importorskip("importlinter")
    import shutil as sh

    exe = shutil.which("lint-imports") or os.path.join(os.path.dirname(sys.executable), "lint-imports")
    sh.copytree(PKG, tmp_path / "trec_eval_py", ignore=sh.ignore_patterns("__pycache__", "*.so"))
    sh.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    for module, line in [("shared/runs.py", "from ..grading import students  # noqa: F401\n"),
                         ("compare/diff.py", "from ..grading import report  # noqa: F401\n")]:
        path = tmp_path / "trec_eval_py" / "tools" / module
        original = path.read_text()
        path.write_text(original + line)
        res = subprocess.run([exe, "--no-cache"], cwd=tmp_path, capture_output=True, text=True, env=env)
        path.write_text(original)
        assert res.returncode == 1 and "families import downwards only" in res.stdout and "BROKEN" in res.stdout, \
            res.stdout[-2000:]


def test_no_import_cycles():
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("trec_eval_py")
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for m in sorted(graph.modules):
        if m not in index:
            visit(m)
    assert cycles == []


def test_ruff_finds_nothing():
    pytest.importorskip("ruff")
    res = subprocess.run([sys.executable, "-m", "ruff", "check", "trec_eval_py", "tests", "benchmarks"],
                         cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:]


def test_ruff_holds_lines_to_the_configured_length(tmp_path):
    # line-length is not only configured but checked (E501): a line one character over is found
    pytest.importorskip("ruff")
    import tomllib

    limit = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["line-length"]
    module = tmp_path / "long.py"
    module.write_text("x = 1\n" + "y = '" + "a" * (limit - 6) + "'\n" + "z = '" + "a" * (limit - 5) + "'\n")
    res = subprocess.run([sys.executable, "-m", "ruff", "check", "--config", str(ROOT / "pyproject.toml"),
                          "--output-format", "concise", str(module)], capture_output=True, text=True)
    assert res.returncode == 1 and re.findall(r":(\d+):\d+: E501", res.stdout) == ["3"], res.stdout


def test_ruff_checks_the_house_rules():
    # the rule families the contributor guide promises are selected, and no file is let off a
    # whole family: per-file ignores name single rules
    import tomllib

    lint = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    assert {"F", "E", "W", "I", "UP", "B", "SIM"} <= set(lint["select"]), lint["select"]
    families = {"F", "E", "W", "I", "UP", "B", "SIM"}
    let_off = {f: rules for f, rules in lint.get("per-file-ignores", {}).items() if families & set(rules)}
    assert let_off == {}, let_off


@pytest.mark.slow  # about 30 s of CPU without mypy's cache (a fresh checkout), 3 s with it
def test_mypy_finds_nothing(monkeypatch):
    """``python3 -m mypy`` is clean: the package, as pyproject.toml's ``[tool.mypy]`` configures it."""
    api = pytest.importorskip("mypy.api")
    # the configuration's paths ("files", the cache) are the checkout's
    monkeypatch.chdir(ROOT)
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, stdout[-6000:] + stderr[-2000:]


#: a test module imported by another (``from test_curves import run_cli``)
_TEST_IMPORT = re.compile(r"^\s*(?:from\s+test_\w+\s+import|import\s+test_\w+)", re.MULTILINE)


def layout_problems(tests: Path, pkg: Path) -> list[str]:
    """What keeps ``tests`` from being laid out like the package ``pkg``.

    Every folder under ``tests`` but ``support/`` (the helpers) stands for the
    package folder at the same place (``tests/engine/measures`` for
    ``trec_eval_py/engine/measures``); a test file sits in such a folder or at
    the top; a module that is not a test (nor ``conftest.py``) is a helper and
    lives in ``support/``. The test folders are not packages (pytest imports a
    test file by its name), so no two test files share a name.
    """
    problems = []
    named: dict[str, Path] = {}
    for path in sorted(tests.rglob("*")):
        rel = path.relative_to(tests)
        if any(p == "__pycache__" or p.startswith(".") for p in rel.parts) or rel.parts[0] == "support":
            continue
        if path.is_dir():
            if not (pkg / rel / "__init__.py").is_file():
                problems.append(f"tests/{rel.as_posix()}/: no package folder {pkg.name}/{rel.as_posix()}/ to mirror "
                                "(helpers go in tests/support/)")
            continue
        if path.suffix != ".py":
            continue
        if path.name == "__init__.py":
            problems.append(f"tests/{rel.as_posix()}: test folders are not packages (test file names are unique)")
        elif path.name == "conftest.py" and rel.parent == Path("."):
            continue
        elif not path.name.startswith("test_"):
            problems.append(f"tests/{rel.as_posix()}: not a test; helpers go in tests/support/")
        elif path.name in named:
            problems.append(f"tests/{rel.as_posix()} and tests/{named[path.name].as_posix()}: two test files named "
                            "alike (test folders are not packages)")
        else:
            named[path.name] = rel
        if path.name.startswith("test_") and _TEST_IMPORT.search(path.read_text(encoding="utf-8")):
            problems.append(f"tests/{rel.as_posix()}: imports a test module; shared helpers go in tests/support/")
    support = tests / "support"
    if not (support / "__init__.py").is_file():
        problems.append("tests/support/: the helpers' package has no __init__.py")
    problems += [f"tests/{p.relative_to(tests).as_posix()}: a test among the helpers"
                 for p in sorted(support.rglob("test_*.py"))]
    return problems


def test_tests_are_laid_out_like_the_package():
    assert layout_problems(TESTS, PKG) == []


def test_the_layout_check_finds_what_is_out_of_place(tmp_path):
    pkg, tests = tmp_path / "pkg", tmp_path / "tests"
    for d in ("", "engine", "engine/measures"):
        (pkg / d).mkdir(exist_ok=True)
        (pkg / d / "__init__.py").write_text("")
    for f in ("conftest.py", "test_top.py", "engine/test_a.py", "engine/measures/test_b.py", "support/__init__.py",
              "support/paths.py", "support/data/x.txt"):
        (tests / f).parent.mkdir(parents=True, exist_ok=True)
        (tests / f).write_text("")
    (tests / "engine" / "__pycache__").mkdir()
    assert layout_problems(tests, pkg) == []
    for f in ("stray/test_c.py", "engine/joins/test_d.py", "engine/measures/helper.py", "engine/__init__.py",
              "engine/measures/test_a.py", "support/test_e.py"):
        (tests / f).parent.mkdir(parents=True, exist_ok=True)
        (tests / f).write_text("")
    (tests / "empty").mkdir()
    (tests / "engine" / "test_a.py").write_text("from test_top import helper\n")
    assert layout_problems(tests, pkg) == [
        "tests/empty/: no package folder pkg/empty/ to mirror (helpers go in tests/support/)",
        "tests/engine/__init__.py: test folders are not packages (test file names are unique)",
        "tests/engine/joins/: no package folder pkg/engine/joins/ to mirror (helpers go in tests/support/)",
        "tests/engine/measures/helper.py: not a test; helpers go in tests/support/",
        "tests/engine/test_a.py and tests/engine/measures/test_a.py: two test files named alike "
        "(test folders are not packages)",
        "tests/engine/test_a.py: imports a test module; shared helpers go in tests/support/",
        "tests/stray/: no package folder pkg/stray/ to mirror (helpers go in tests/support/)",
        "tests/support/test_e.py: a test among the helpers",
    ]
