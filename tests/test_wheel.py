"""The release: ``python -m build`` makes a source package and, from it, a wheel
that carries the compiled C extensions, so that a user without a compiler gets
the C path and not, silently, the numpy one.

The checkout's sources (what .gitignore does not leave out) are built once for
the module; the wheel is installed into a fresh venv whose PATH has no C
compiler and whose ``CC`` names a program that does not exist. The venv sees
the machine's numpy, typer and click (``--system-site-packages``), so nothing
is downloaded, but its own copy of the package is the one imported.
"""
from __future__ import annotations

import fnmatch
import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from support.paths import ROOT

import trec_eval_py

pytestmark = pytest.mark.slow

#: the README's first command, after the install
EXAMPLE = ["examples/qrels.txt", "examples/run_a.txt"]

#: the checks a release wheel passes, run by the installed Python (the release workflow runs it too)
CHECK = ROOT / "dev" / "check_wheel.py"


def _ext_modules() -> list[str]:
    """The C extensions pyproject.toml declares (``trec_eval_py._native._scan``...)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [ext["name"] for ext in config["tool"]["setuptools"]["ext-modules"]]


def _gitignored(root: Path):
    """A copytree ``ignore`` leaving out what .gitignore names (build output, caches,
    compiled extensions) and .git: the sources a clean clone would have."""
    patterns = [line.strip().rstrip("/") for line in (root / ".gitignore").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]

    def ignore(folder, names):
        rel = Path(folder).relative_to(root).as_posix()
        left_out = set()
        for name in names:
            path = name if rel == "." else f"{rel}/{name}"
            if name == ".git" or any(fnmatch.fnmatch(path if "/" in p else name, p) for p in patterns):
                left_out.add(name)
        return left_out
    return ignore


def _without_compiler(venv: Path) -> dict[str, str]:
    """An environment with only the venv's scripts on PATH and CC naming no program."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CC", "CXX", "LDSHARED")}
    env.update(PATH=str(venv / "bin"), CC=str(venv / "no-such-compiler"), CXX=str(venv / "no-such-compiler"))
    for compiler in ("cc", "gcc", "clang", env["CC"]):
        assert shutil.which(compiler, path=env["PATH"]) is None, compiler
    return env


def _install(wheel: Path, venv: Path) -> subprocess.CompletedProcess:
    """``wheel`` installed into a new venv at ``venv`` with no compiler at hand; dev/check_wheel.py's verdict."""
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True)
    env = _without_compiler(venv)
    python = str(venv / "bin" / "python")
    # the machine's pip (a system site package) installs into the venv; --ignore-installed:
    # the checkout's own editable install outside the venv is neither used nor removed
    p = subprocess.run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed",
                        "--no-compile", "--disable-pip-version-check", str(wheel)],
                       capture_output=True, text=True, env=env, cwd=venv)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    return subprocess.run([python, "-I", str(CHECK), str(ROOT)], capture_output=True, text=True, env=env, cwd=venv)


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    """(sdist, wheel) built by ``python -m build`` from a clean copy of the checkout."""
    pytest.importorskip("build")
    compiler = os.environ.get("CC", "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}): the C extensions would not be built")
    tmp = tmp_path_factory.mktemp("release")
    src, out = tmp / "src", tmp / "dist"
    shutil.copytree(ROOT, src, ignore=_gitignored(ROOT), symlinks=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # the sdist first, then the wheel from the unpacked sdist: the sdist must hold all the build needs
    p = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(src)],
                       capture_output=True, text=True, env=env, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return sdist, wheel


def test_the_sdist_holds_the_sources_and_leaves_out_the_tests(release):
    sdist, _ = release
    version = trec_eval_py.__version__
    assert sdist.name == f"trec_eval_py-{version}.tar.gz"
    top = f"trec_eval_py-{version}/"
    with tarfile.open(sdist) as tar:
        members = {m.name.removeprefix(top) for m in tar.getmembers() if m.isfile()}
    package = {p.relative_to(ROOT).as_posix() for p in (ROOT / "trec_eval_py").rglob("*")
               if p.is_file() and p.suffix in (".py", ".c", ".typed")}
    assert {p for p in package if p.endswith(".c")}, "no C sources in the checkout"
    needed = package | {"pyproject.toml", "README.md", "CHANGELOG.md", "LICENSE", "MANIFEST.in"}
    assert not needed - members, sorted(needed - members)
    # the tests need their fixtures and support modules: they run from a clone, not from the sdist
    extra = {m for m in members if m.split("/")[0] in ("tests", "fixtures", "examples", "benchmarks", "docs", "dev")}
    assert not extra, sorted(extra)[:10]
    assert not [m for m in members if m.endswith((".so", ".pyd"))]


def test_the_wheel_holds_the_compiled_extensions_and_the_metadata(release):
    _, wheel = release
    version = trec_eval_py.__version__
    assert wheel.name.startswith(f"trec_eval_py-{version}-")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        metadata = z.read(f"trec_eval_py-{version}.dist-info/METADATA").decode()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    compiled = {ext.replace(".", "/") + suffix for ext in _ext_modules()}
    assert len(compiled) == 5 and not compiled - names, sorted(compiled - names)
    assert "trec_eval_py/py.typed" in names
    assert re.search(rf"^Version: {re.escape(version)}$", metadata, re.MULTILINE)
    assert re.search(r"^License-Expression: MIT$", metadata, re.MULTILINE)
    assert f"trec_eval_py-{version}.dist-info/licenses/LICENSE" in names


def test_the_wheel_installed_without_a_compiler_runs_the_c_path(release, tmp_path):
    _, wheel = release
    venv = tmp_path / "venv"
    check = _install(wheel, venv)
    assert check.returncode == 0, check.stderr
    site = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    assert check.stdout.splitlines()[:2] == [f"trec_eval_py {trec_eval_py.__version__} from {site / 'trec_eval_py'}",
                                             "C extensions in use: scan, joinrank, cmath, kernels, pyin"]
    env = _without_compiler(venv)
    # the README's first command, by the installed script, from the checkout
    installed = subprocess.run([str(venv / "bin" / "trec_eval_py"), *EXAMPLE], capture_output=True, env=env, cwd=ROOT)
    assert installed.returncode == 0, installed.stderr.decode()
    here = subprocess.run([sys.executable, "-m", "trec_eval_py", *EXAMPLE], capture_output=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert here.returncode == 0, here.stderr.decode()
    assert installed.stdout == here.stdout and installed.stdout.startswith(b"runid")
    version = subprocess.run([str(venv / "bin" / "trec_eval_py"), "--version"], capture_output=True, text=True,
                             env=env, cwd=ROOT)
    assert version.stdout.split()[:2] == ["trec_eval_py", trec_eval_py.__version__]
    assert version.stdout.splitlines()[1] == "C extensions: scan, joinrank, cmath, kernels, pyin"


def test_a_wheel_without_the_compiled_extensions_is_refused(release, tmp_path):
    # what a build without a compiler would give (the extensions are optional): the check above must see it
    _, wheel = release
    stripped = tmp_path / wheel.name
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(stripped, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            if not item.filename.endswith((".so", ".pyd")):
                dst.writestr(item, src.read(item))
    check = _install(stripped, tmp_path / "venv")
    assert check.returncode == 1
    not_built = "check_wheel: C extensions not in the installed wheel: scan, joinrank, cmath, kernels, pyin"
    assert not_built in check.stderr.splitlines(), check.stderr
