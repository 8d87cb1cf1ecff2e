"""Parsing: input files to flat columns (the first stage of the pipeline)."""
from .qrels import Qrels, read_qrels
from .run import Run, read_run

__all__ = ["Qrels", "Run", "read_qrels", "read_run"]
