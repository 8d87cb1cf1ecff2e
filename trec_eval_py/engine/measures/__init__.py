"""The measure registry: every module in this package that does not start
with ``_`` is imported and the :class:`Measure` values it defines at module
level are registered. Adding a measure means adding (or editing) its module.
"""
from ._base import Agg, Kind, Measure, safe_div
from ._params import FloatCutoffs, FloatParams, IntCutoffs, NoParams, PairParams, Params
from ._registry import Registry, registry

__all__ = [
    "Agg", "Kind", "Measure", "safe_div", "Params", "NoParams", "IntCutoffs", "FloatCutoffs",
    "FloatParams", "PairParams", "Registry", "registry",
]
