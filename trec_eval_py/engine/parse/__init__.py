"""Parsing: input files to flat columns (the first stage of the pipeline).

The readers are imported on first use: the command line imports the numpy-free
modules of this package (:mod:`.layouts`, :mod:`.readahead`) before numpy."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ... import _lazy_attributes

__all__ = ["Qrels", "Run", "read_qrels", "read_run"]

_LAZY = {"Qrels": ".qrels", "read_qrels": ".qrels", "Run": ".run", "read_run": ".run"}

if TYPE_CHECKING:
    from .qrels import Qrels, read_qrels
    from .run import Run, read_run

__getattr__ = _lazy_attributes(__name__, _LAZY)


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
