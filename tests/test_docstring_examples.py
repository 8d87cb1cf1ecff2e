"""The public Python names document themselves in numpydoc sections, and the
``Examples`` of their docstrings run and print what they show.

The examples read the bundled ``examples/`` files by relative path, as a user
in a checkout types them: they run from the repository's root.
"""
from __future__ import annotations

import doctest
import importlib

import pytest
from support.paths import ROOT

#: the modules whose docstring examples are run (the public API's)
MODULES = [
    "trec_eval_py.engine.pipeline",
    "trec_eval_py.engine.parse.qrels",
    "trec_eval_py.engine.parse.run",
    "trec_eval_py.engine.measures._base",
    "trec_eval_py.engine.measures._registry",
    "trec_eval_py.tools.compare.comparison",
    "trec_eval_py.tools.grading.leaderboard",
]

#: public names and the numpydoc sections their docstrings have
DOCUMENTED = {
    "trec_eval_py.evaluate": ("Parameters", "Returns", "Raises", "Examples"),
    "trec_eval_py.Evaluator": ("Parameters", "Raises", "Examples"),
    "trec_eval_py.Evaluator.evaluate": ("Parameters", "Returns", "Raises", "Examples"),
    "trec_eval_py.Evaluation": ("Attributes", "Examples"),
    "trec_eval_py.Options": ("Attributes", "Raises", "Examples"),
    "trec_eval_py.read_qrels": ("Parameters", "Returns", "Raises", "Examples"),
    "trec_eval_py.read_run": ("Parameters", "Returns", "Raises", "Examples"),
    "trec_eval_py.Qrels": ("Attributes", "Examples"),
    "trec_eval_py.Run": ("Attributes", "Examples"),
    "trec_eval_py.engine.measures.Measure": ("Attributes", "Examples"),
    "trec_eval_py.engine.measures.registry": ("Returns", "Examples"),
    "trec_eval_py.tools.compare.comparison.compare_runs": ("Parameters", "Returns", "Raises", "Examples"),
    "trec_eval_py.tools.grading.leaderboard.build_leaderboard": ("Parameters", "Returns", "Raises", "Examples"),
}


def _resolve(dotted: str):
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


@pytest.mark.parametrize("name", sorted(DOCUMENTED))
def test_public_names_have_numpydoc_sections(name):
    import inspect

    doc = inspect.getdoc(_resolve(name)) or ""
    for section in DOCUMENTED[name]:
        assert f"\n{section}\n{'-' * len(section)}\n" in doc, (name, section)


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run(module, monkeypatch):
    monkeypatch.chdir(ROOT)
    mod = importlib.import_module(module)
    tests = doctest.DocTestFinder().find(mod, module)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    for test in tests:
        runner.run(test, out=out.append)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0, f"{module} has no example"
    assert results.failed == 0, "".join(out)
