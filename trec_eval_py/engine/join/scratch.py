"""Temporary folders of an evaluation, removed even when the process is stopped.

A run whose topics are interleaved is regrouped through temporary files
(:func:`~trec_eval_py.engine.join.stream.spill_rankings`), written by a reader
thread. When the process is interrupted (Ctrl-C, ``kill``), the main thread
unwinds but that thread may still be writing, and a process that ends at once
(a worker of ``batch``) runs no clean-up of its own: :func:`remove_scratch`
stops every writer at its next file and deletes every folder still in use.
"""
from __future__ import annotations

import contextlib
import shutil
import tempfile
import threading

_LIVE: set[str] = set()
_STOPPED = threading.Event()


class Stopped(BaseException):
    """The process is being stopped: a writer of temporary files gives up (not an error)."""


@contextlib.contextmanager
def scratch_folder(prefix: str = "trec_eval_py-", dir: str | None = None):
    """A new temporary folder, deleted on leaving the block or by :func:`remove_scratch`."""
    check_stopped()
    path = tempfile.mkdtemp(prefix=prefix, dir=dir)
    _LIVE.add(path)
    try:
        yield path
    finally:
        _LIVE.discard(path)
        shutil.rmtree(path, ignore_errors=True)


def check_stopped() -> None:
    """Raise :class:`Stopped` once :func:`remove_scratch` has run."""
    if _STOPPED.is_set():
        raise Stopped()


def remove_scratch() -> None:
    """The process is stopping: no new temporary file from now on, and every
    temporary folder still in use is deleted."""
    _STOPPED.set()
    for path in list(_LIVE):
        _LIVE.discard(path)
        shutil.rmtree(path, ignore_errors=True)


__all__ = ["Stopped", "check_stopped", "remove_scratch", "scratch_folder"]
