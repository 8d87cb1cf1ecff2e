"""Where the readers find what the command line's read-ahead already did.

:mod:`.readahead` reads and scans the command's files on a thread of its own;
the readers ask here for the result instead of doing the work again:
:func:`take` in place of reading a file whole (:mod:`.source`), :func:`scanned`
in place of scanning the same bytes (:mod:`.fields`). Outside a command that
reads ahead (the Python API, any other thread) both answer None at once.
This module imports nothing of the readers, which import it.
"""
from __future__ import annotations

import contextvars
import os
from typing import Any

#: the read-ahead of the command running in this context (a ReadAhead), or None
CURRENT: contextvars.ContextVar[Any] = contextvars.ContextVar("trec_eval_py_readahead", default=None)


def take(source) -> bytes | None:
    """What :func:`~.source.read_source` would return for ``source`` if it was read
    ahead (each file once), else None: the caller reads it."""
    ahead = CURRENT.get()
    if ahead is None or not isinstance(source, (str, os.PathLike)):
        return None
    return ahead.take(os.fspath(source))


def scanned(data, args: tuple) -> tuple | None:
    """The C scanner's answer for ``data`` and ``args`` if the read-ahead scanned
    exactly these, else None: the caller scans."""
    ahead = CURRENT.get()
    return None if ahead is None else ahead.scanned(data, args)
