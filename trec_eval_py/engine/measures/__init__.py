"""The measure registry: the :class:`Measure` values defined at module level
by every module of this package that does not start with ``_``. The static
index ``_index.py`` says which module defines which measure, so a command
imports only the modules of the measures it computes. Adding a measure means
adding (or editing) its module, then rewriting the index with
``python -m trec_eval_py.engine.measures._write_index`` (a test fails until then).
"""
from ._base import Agg, Kind, Measure, SummaryFold, quiet_numpy, safe_div
from ._params import FloatCutoffs, FloatParams, IntCutoffs, NoParams, PairParams, Params
from ._registry import Registry, in_asked_order, registry

__all__ = [
    "Agg", "Kind", "Measure", "SummaryFold", "quiet_numpy", "safe_div", "Params", "NoParams", "IntCutoffs",
    "FloatCutoffs",
    "FloatParams", "PairParams", "Registry", "in_asked_order", "registry",
]


def measure_specs(measures) -> list[str]:
    """``-m`` specs of what ``evaluate`` was given as measures: one name or ir_measures
    measure object, or an iterable of them (see :func:`._names.measure_specs`)."""
    if isinstance(measures, str):
        return [measures]
    if isinstance(measures, (list, tuple)) and all(isinstance(m, str) for m in measures):
        return list(measures)  # names only: the ir_measures translator is not loaded
    from ._names import measure_specs as specs

    return specs(measures)


def ir_measures_names() -> frozenset[str]:
    """The ir_measures measure names trec_eval_py translates (see :mod:`._names`)."""
    from ._names import ir_measures_names as names

    return names()


def printed_with_options(trec_name: str, overrides: tuple) -> str:
    """trec_eval's name of a value asked for by an ir_measures name that sets
    evaluation options, with those options after it (``P_10_rel=2``; see
    :func:`._names.printed_with_options`)."""
    from ._names import printed_with_options as printed

    return printed(trec_name, overrides)
