"""The measure registry: the :class:`Measure` values defined at module level
by every module of this package that does not start with ``_``. The static
index ``_index.py`` says which module defines which measure, so a command
imports only the modules of the measures it computes. Adding a measure means
adding (or editing) its module, then rewriting the index with
``python -m trec_eval_py.engine.measures._write_index`` (a test fails until then).
"""
from ._base import Agg, Kind, Measure, SummaryFold, quiet_numpy, safe_div
from ._params import FloatCutoffs, FloatParams, IntCutoffs, NoParams, PairParams, Params
from ._registry import Registry, registry

__all__ = [
    "Agg", "Kind", "Measure", "SummaryFold", "quiet_numpy", "safe_div", "Params", "NoParams", "IntCutoffs", "FloatCutoffs",
    "FloatParams", "PairParams", "Registry", "registry",
]
