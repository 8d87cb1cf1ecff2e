"""trec_eval_py: a byte-exact, columnar reimplementation of NIST's trec_eval."""
__version__ = "0.1.0"

from .compat import moved as _moved  # noqa: E402

_moved.install()  # imports of the earlier module paths reach the same modules

from .errors import InputError, MeasureError, TrecEvalError, UsageError  # noqa: E402
from .engine.parse import Qrels, Run, read_qrels, read_run  # noqa: E402
from .engine.pipeline import Evaluation, Options, evaluate  # noqa: E402

__all__ = [
    "__version__", "evaluate", "Evaluation", "Options", "read_qrels", "read_run", "Qrels", "Run",
    "TrecEvalError", "InputError", "MeasureError", "UsageError",
]


def __getattr__(name):
    # the pytrec_eval drop-in loads the measure registry, so only on first use
    if name == "RelevanceEvaluator":
        from .compat.pytrec_eval import RelevanceEvaluator

        return RelevanceEvaluator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
