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


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
