"""Run dicts read in pieces of topics whatever their size, for the tests of that route."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from trec_eval_py.engine import pipeline
from trec_eval_py.engine.parse import python
from trec_eval_py.engine.parse import run as run_module


@contextmanager
def dict_pieces(rows: int) -> Iterator[list[int]]:
    """Within it, every run dict is read a piece of about ``rows`` results at a time
    (the engine does so only for big ones); yields the list of the sizes of the
    pieces read, appended to as they are."""
    seen: list[int] = []
    real = python.iter_run_from_dict

    def spy(obj, name, n):
        for piece in real(obj, name, n):
            seen.append(len(piece[2]))
            yield piece

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(python, "iter_run_from_dict", spy)
        mp.setattr(run_module, "DICT_PIECE_ROWS", (rows, rows))
        mp.setattr(pipeline.POLICY, "dict_stream_min_rows", 1)
        yield seen
