"""The version is written once, as ``trec_eval_py.__version__`` in the package's
``__init__.py``: the build reads it from there (pyproject.toml's dynamic version),
the command line prints it (with the C extensions in use), and the changelog's
newest entry names it. The Pythons the release wheels are built for are the
ones the package's metadata names."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib

import pytest
from support.golden import run_cli
from support.paths import ROOT

import trec_eval_py

#: a release number as PEP 440 writes it (1.2.3, 1.2.3rc1, 1.2.3.post1, 1.2.3.dev4)
_RELEASE = re.compile(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?")


def _literal_assignments(path, name):
    """The string literals assigned to ``name`` at the top level of the module at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [node.value.value for node in tree.body
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]


def test_pyproject_takes_the_version_from_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in config["project"], "a second version in pyproject.toml"
    assert "version" in config["project"]["dynamic"]
    assert config["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "trec_eval_py.__version__"}


def test_the_version_is_one_literal_the_build_reads_without_importing():
    # setuptools reads a literal assignment from the source; anything else would make it
    # import the package (and numpy) to build it
    assert _literal_assignments(ROOT / "trec_eval_py" / "__init__.py", "__version__") == [trec_eval_py.__version__]
    assert _RELEASE.fullmatch(trec_eval_py.__version__), trec_eval_py.__version__
    others = [path.relative_to(ROOT).as_posix() for path in (ROOT / "trec_eval_py").rglob("*.py")
              if path != ROOT / "trec_eval_py" / "__init__.py" and _literal_assignments(path, "__version__")]
    assert others == [], f"modules writing a version of their own: {others}"


def test_the_command_line_prints_the_version():
    # ndeval spells the flag as NIST's ndeval does
    for command in (["--version"], ["ndeval", "-version"]):
        p = subprocess.run([sys.executable, "-m", "trec_eval_py", *command],
                           capture_output=True, text=True, cwd=ROOT)
        assert p.returncode == 0, p.stderr
        assert p.stdout.split()[:2] == ["trec_eval_py", trec_eval_py.__version__], p.stdout


def test_the_changelog_names_the_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\] - (.+)$", text, re.MULTILINE)
    assert releases, "the changelog has no release entry"
    newest, when = releases[0]
    assert newest == trec_eval_py.__version__, (newest, trec_eval_py.__version__)
    # a date once released (Keep a Changelog's ISO dates), Unreleased until then
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}|Unreleased", when.strip()), when


@pytest.mark.parametrize("missing, line", [
    ((), "C extensions: scan, joinrank, cmath, kernels, pyin"),
    (("joinrank", "pyin"), "C extensions: scan, cmath, kernels (not built: joinrank, pyin)"),
    (("scan", "joinrank", "cmath", "kernels", "pyin"), "C extensions: none built; numpy code, same results, slower"),
])
def test_the_version_says_which_c_extensions_run(missing, line, monkeypatch, capsysbinary):
    # a build without a C compiler gives a package without them: --version is where a user sees it
    from trec_eval_py import _native

    monkeypatch.setattr(_native, "built", lambda name: None if name in missing else object())
    code, out, _ = run_cli(["--version"], capsysbinary)
    assert code == 0
    assert out.splitlines()[1] == line


def test_the_version_says_the_c_extensions_are_turned_off(monkeypatch, capsysbinary):
    from trec_eval_py import _native

    monkeypatch.setattr(_native, "USE_C", False)
    code, out, _ = run_cli(["--version"], capsysbinary)
    assert code == 0
    assert out.splitlines()[1] == "C extensions: off (TREC_EVAL_PY_NO_C); numpy code, same results, slower"


def test_the_pythons_the_wheels_are_built_for_are_the_ones_the_metadata_names():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    built = sorted(tuple(map(int, (b[2], b[3:b.index("-")]))) for b in config["tool"]["cibuildwheel"]["build"])
    named = sorted(tuple(map(int, c.rsplit(" ", 1)[1].split("."))) for c in config["project"]["classifiers"]
                   if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert built == named and built, (built, named)
    assert config["project"]["requires-python"] == f">={built[0][0]}.{built[0][1]}"
