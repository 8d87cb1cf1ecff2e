"""Module paths from earlier layouts of the package.

Code written against an earlier layout imports ``trec_eval_py.pipeline``,
``trec_eval_py.parse.run``, ``trec_eval_py.compat_pytrec``,
``trec_eval_py.engine.formats``, ``trec_eval_py.engine.format`` and so on,
and some of it sets module-level switches there (``pipeline.STREAM_MIN_BYTES``). An import under an old name therefore
returns the very module object of the new name: one module, two names, so
a switch set through either name is seen by the engine.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys

#: old module path -> new module path (submodules follow their package)
MOVED = {
    "trec_eval_py.parse": "trec_eval_py.engine.parse",
    "trec_eval_py.join": "trec_eval_py.engine.join",
    "trec_eval_py.measures": "trec_eval_py.engine.measures",
    "trec_eval_py.aggregate": "trec_eval_py.engine.aggregate",
    "trec_eval_py.zscore": "trec_eval_py.engine.standardize",
    "trec_eval_py.format": "trec_eval_py.output.evaluation",
    "trec_eval_py.pipeline": "trec_eval_py.engine.pipeline",
    "trec_eval_py.comparison": "trec_eval_py.tools.compare.comparison",
    "trec_eval_py.significance": "trec_eval_py.tools.compare.significance",
    "trec_eval_py.curves": "trec_eval_py.tools.curves.curves",
    "trec_eval_py.plotting": "trec_eval_py.tools.curves.plotting",
    "trec_eval_py.leaderboard": "trec_eval_py.tools.grading.leaderboard",
    "trec_eval_py.validate": "trec_eval_py.tools.grading.validate",
    "trec_eval_py.diff": "trec_eval_py.tools.compare.diff",
    "trec_eval_py.compat_pytrec": "trec_eval_py.compat.pytrec_eval",
    "trec_eval_py.help": "trec_eval_py.cli.help",
    "trec_eval_py.commands": "trec_eval_py.cli.commands",
    # the stages' own names (input formats, the ranking rule and the joins, -c, -Z, output)
    "trec_eval_py.engine.formats._codiesp": "trec_eval_py.engine.parse.codiesp",
    "trec_eval_py.engine.formats": "trec_eval_py.engine.inputs",
    "trec_eval_py.engine.join.ranking": "trec_eval_py.engine.join.order",
    "trec_eval_py.engine.join.rankings": "trec_eval_py.engine.join.qrels",
    "trec_eval_py.engine.complete": "trec_eval_py.engine.join.empty_topics",
    "trec_eval_py.engine.zscore": "trec_eval_py.engine.standardize",
    "trec_eval_py.engine.format": "trec_eval_py.output.evaluation",
    "trec_eval_py.engine.tables": "trec_eval_py.output.notebook",
}


#: the names under the package that hold something that moved (a quick test for every import)
_TOPS = frozenset(p.split(".")[1] for p in MOVED)
#: the longest old paths first, so that a module that moved out of a moved package wins
_ORDER = sorted(MOVED, key=len, reverse=True)


def new_name(old: str) -> str | None:
    """The current path of module ``old``, or None when ``old`` did not move."""
    if not old.startswith("trec_eval_py.") or old.split(".", 2)[1] not in _TOPS:
        return None
    for prefix in _ORDER:
        if old == prefix or old.startswith(prefix + "."):
            return MOVED[prefix] + old[len(prefix):]
    return None


class _MovedFinder:
    """Answers imports of old paths with the module imported under its new path
    (a meta path finder and loader by protocol: importlib.abc costs an import at start-up)."""

    def __init__(self) -> None:
        self._specs: dict[int, object] = {}

    def find_spec(self, fullname, path=None, target=None):
        if new_name(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        module = importlib.import_module(new_name(spec.name))
        # the import system stamps the alias's spec on the module next; keep the real one
        self._specs[id(module)] = module.__spec__
        return module

    def exec_module(self, module):
        module.__spec__ = self._specs.pop(id(module), module.__spec__)


def install() -> None:
    """Put the finder first, before the path finder could load a second copy of a module."""
    if not any(isinstance(f, _MovedFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _MovedFinder())
