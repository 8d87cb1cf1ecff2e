"""trec_eval_py: a byte-exact, columnar reimplementation of NIST's trec_eval."""
__version__ = "0.1.0"

from .errors import InputError, MeasureError, TrecEvalError, UsageError  # noqa: E402

__all__ = [
    "__version__", "evaluate", "Evaluator", "Evaluation", "Options", "read_qrels", "read_run", "Qrels", "Run",
    "TrecEvalError", "InputError", "MeasureError", "UsageError",
]

#: public names imported on first use, and their modules: the command line
#: (``trec_eval_py.cli``) starts without numpy or the engine, so that it can
#: set up numpy's start (see ``cli.main``) and skip what a command never uses
_LAZY = {
    "evaluate": ".engine.pipeline", "Evaluator": ".engine.pipeline", "Evaluation": ".engine.results",
    "Options": ".engine.options",
    "read_qrels": ".engine.parse", "read_run": ".engine.parse", "Qrels": ".engine.parse", "Run": ".engine.parse",
    # the pytrec_eval drop-in loads the measure registry
    "RelevanceEvaluator": ".compat.pytrec_eval",
    # a run cut to its first documents per topic, by the ranking rule
    "top_ranked": ".engine.join.order",
}


def _lazy_attributes(package: str, names: dict[str, str]):
    """A module ``__getattr__`` for ``package`` (set as its ``__getattr__``):
    each of ``names`` is imported from its module (relative to ``package``) when
    first asked for, then kept as a global of the package, so that a name
    costs its module's import only where it is used; any other name is an
    ``AttributeError``, as for a module without one."""

    def __getattr__(name: str):
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib
        import sys

        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


__getattr__ = _lazy_attributes(__name__, _LAZY)


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
