"""What the command line imports to evaluate trec_eval's small example
(``-q -m all_trec qrels.test results.test``): a fresh interpreter runs the
command, then lists its modules. Anything the evaluation does not use (the
tools, the pytrec_eval drop-in, typer, the preference and jg judgment
formats, z-scores...) must not be among them; the output must still be
trec_eval's, byte for byte."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib

from support.golden import GOLDEN
from support.paths import ROOT

#: module names (and their submodules) the small evaluation must not import
UNUSED = (
    "trec_eval_py.tools", "trec_eval_py.compat.pytrec_eval", "trec_eval_py.cli.commands", "trec_eval_py.cli.help",
    # judgment and results formats other than qrels and trec_results, and their readers and joins
    "trec_eval_py.engine.inputs.prefs", "trec_eval_py.engine.inputs.qrels_jg",
    "trec_eval_py.engine.inputs.biocreative", "trec_eval_py.engine.inputs.codiesp",
    "trec_eval_py.engine.inputs.codiesp_x", "trec_eval_py.engine.parse.prefs", "trec_eval_py.engine.parse.qrels_jg",
    "trec_eval_py.engine.parse.biocreative", "trec_eval_py.engine.join.prefs", "trec_eval_py.engine.join.qrels_jg",
    # -Z, ir_measures names, the numpy fallback's number parsing
    "trec_eval_py.engine.parse.zscores", "trec_eval_py.engine.standardize", "trec_eval_py.engine.measures._names",
    "trec_eval_py.engine.parse.numbers",
    # measures outside all_trec
    "trec_eval_py.engine.measures.prefs_simp", "trec_eval_py.engine.measures.map_avgjg",
    "trec_eval_py.engine.measures.dcg", "trec_eval_py.engine.measures.err",
    "typer", "click", "rich", "matplotlib", "scipy", "pandas", "pytrec_eval",
    # the scale-out engine and sharded datasets: only when asked for
    "dask", "distributed", "pyarrow", "trec_eval_py.engine.join.dataset", "trec_eval_py.engine.join.ranges",
    # a big run's piecewise joins (read in pieces, regrouped by topic): a small run is read whole
    "trec_eval_py.engine.join.stream",
    # value classes are records (trec_eval_py._record): dataclasses compiles methods at start-up
    "dataclasses",
    # the readers of inputs held in Python (dicts, tables, ir_measures records), and columns
    # written back to Python or files: files need only what a source is (parse.python._columns)
    "trec_eval_py.engine.parse.python._dicts", "trec_eval_py.engine.parse.python._tables",
    "trec_eval_py.engine.parse.python._records", "trec_eval_py.engine.parse.python._writing",
    # the handlers of SIGINT and SIGTERM are set through the C module _signal: signal builds enums
    "signal",
)

_CODE = """\
import json, os, sys
from trec_eval_py.cli import main
main(sys.argv[1:])
sys.stdout.flush()
sys.stderr.write(json.dumps({"modules": sorted(sys.modules),
                             "blas": os.environ.get("OPENBLAS_NUM_THREADS")}))
"""


def _run(env_extra=None):
    inputs = GOLDEN / "inputs"
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")}
    env.update(env_extra or {})
    p = subprocess.run([sys.executable, "-c", _CODE, "-q", "-m", "all_trec",
                        str(inputs / "qrels.test"), str(inputs / "results.test")],
                       capture_output=True, env=env)
    assert p.returncode == 0, p.stderr.decode()
    return p.stdout, json.loads(p.stderr.decode().splitlines()[-1])


def _under(modules, prefixes):
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes))


def test_small_evaluation_imports_only_what_it_uses():
    out, seen = _run()
    assert out == (GOLDEN / "expected" / "9.0.8" / "te_aq.out").read_bytes()
    assert _under(seen["modules"], UNUSED) == []


def test_blas_starts_with_one_thread_unless_the_user_says_otherwise():
    assert _run()[1]["blas"] == "1"
    assert _run({"OPENBLAS_NUM_THREADS": "2"})[1]["blas"] == "2"
    assert _run({"OMP_NUM_THREADS": "2"})[1]["blas"] is None


_GC_PROBE = """\
import gc, runpy, sys
from trec_eval_py import cli
import trec_eval_py.engine.pipeline as pipeline

seen = []
main, evaluate = cli.main, pipeline.evaluate

def watch_main(*a, **k):
    seen.append(("main", gc.isenabled(), gc.get_freeze_count() > 0))
    return main(*a, **k)

def watch_evaluate(*a, **k):
    seen.append(("evaluate", gc.isenabled(), gc.get_freeze_count() > 0))
    return evaluate(*a, **k)

cli.main, pipeline.evaluate = watch_main, watch_evaluate
try:
    runpy.run_module("trec_eval_py", run_name="__main__")  # python -m trec_eval_py
finally:
    sys.stdout.flush()
    sys.stderr.write(repr(seen + [("exit", gc.isenabled(), gc.get_freeze_count() > 0)]))
"""


def test_the_command_pauses_the_cycle_collector_only_for_start_up():
    # python -m trec_eval_py runs entry(): collector off while modules load, back on (start-up objects
    # frozen out of its sweeps) before anything is read, everything frozen at exit
    inputs = GOLDEN / "inputs"
    p = subprocess.run([sys.executable, "-c", _GC_PROBE, "-q", "-m", "all_trec",
                        str(inputs / "qrels.test"), str(inputs / "results.test")], capture_output=True)
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout == (GOLDEN / "expected" / "9.0.8" / "te_aq.out").read_bytes()
    assert p.stderr.decode().splitlines()[-1] == repr(
        [("main", False, False), ("evaluate", True, True), ("exit", True, True)])


_END_PROBE = """\
import atexit, os, sys
real_exit = os._exit

def early_exit(code):
    os.write(2, b"ended early %d\\n" % code)
    real_exit(code)

os._exit = early_exit
atexit.register(lambda: print("atexit ran"))
{setup}
from trec_eval_py.cli import entry
entry()
print("after entry")
"""


def _end_probe(setup=""):
    inputs = GOLDEN / "inputs"
    return subprocess.run([sys.executable, "-c", _END_PROBE.format(setup=setup), "-q", "-m", "all_trec",
                           str(inputs / "qrels.test"), str(inputs / "results.test")], capture_output=True)


def test_the_command_ends_its_process_without_the_interpreter_teardown():
    # the program is the command (its main module imports entry, as python -m trec_eval_py and
    # the installed script do): the process ends as the evaluation does, output flushed and the
    # atexit functions run first
    p = _end_probe()
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout == (GOLDEN / "expected" / "9.0.8" / "te_aq.out").read_bytes() + b"atexit ran\n"
    assert p.stderr.decode().splitlines()[-1] == "ended early 0"


def test_a_profiled_command_ends_through_python_s_own_exit():
    # a profiler (or coverage, a tracer) writes its report at exit: the teardown is left to Python
    p = _end_probe("sys.setprofile(lambda *a: None)")
    assert p.returncode == 0, p.stderr.decode()
    assert p.stdout.endswith(b"after entry\natexit ran\n")
    assert b"ended early" not in p.stderr


def test_main_inside_another_program_leaves_the_collector_alone(capsys):
    import gc

    from trec_eval_py.cli import main

    inputs = GOLDEN / "inputs"
    frozen = gc.get_freeze_count()
    main(["-m", "map", str(inputs / "qrels.test"), str(inputs / "results.test")])
    assert "map" in capsys.readouterr().out
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_the_installed_command_starts_through_entry():
    from importlib.metadata import entry_points

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "trec_eval_py"]
    assert script.value == "trec_eval_py.cli:entry", "stale install: pip install -e . refreshes the script"


def _import_name(requirement: str) -> str:
    """The top-level module a requirement of pyproject.toml installs (``scikit-learn>=1.2`` -> ``sklearn``)."""
    name = re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower().replace("-", "_")
    return {"scikit_learn": "sklearn", "pytrec_eval_terrier": "pytrec_eval", "python_terrier": "pyterrier",
            "websocket_client": "websocket", "python_multipart": "multipart"}.get(name, name)


_DOCS_PROBE = """\
import importlib, pkgutil, sys

BLOCKED = set(sys.argv[1].split(","))

class Block:
    # another extra's package is not there: as in a fresh install of the [docs] extra
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Block())
import trec_eval_py.tools as tools
# what docs/_ext/reference.py imports to write the reference pages
for module in ["trec_eval_py", "trec_eval_py.cli", "trec_eval_py.cli.commands", "trec_eval_py.compat.pytrec_eval"] + [
        i.name for i in pkgutil.walk_packages(tools.__path__, "trec_eval_py.tools.")
        if (not i.ispkg or i.name.count(".") > 2) and not any(p.startswith("_") for p in i.name.split("."))]:
    importlib.import_module(module)
"""


def test_the_docs_extra_installs_what_the_documentation_site_imports():
    # python3 -m pip install ".[docs]" then python3 -m sphinx -W docs OUT (the README's command):
    # the reference pages import every tools module, so what those import must come with [docs]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    installed = {_import_name(r) for r in project["dependencies"] + extras["docs"]}
    others = {_import_name(r) for name, reqs in extras.items() if name != "docs" for r in reqs} - installed
    p = subprocess.run([sys.executable, "-c", _DOCS_PROBE, ",".join(sorted(others))],
                       capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr[-2000:]
