"""Output written in blocks that a tool may have to void and write again.

The organiser tools (``pool``, ``fuse``) write as they read, block by block;
when runs turn out late to list their topics in different orders they start
over (see :mod:`trec_eval_py.tools.shared.runs`). So blocks go to a temporary file
next to the destination (or, for standard output, a temporary file that is
copied out at the end); :meth:`Spool.reset` empties it.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile

from .output import STDOUT, check_output, output_errors


class Spool:
    """``with Spool(path) as out: out.write(text) ... out.reset()``; ``path`` None or ``-``: standard output."""

    def __init__(self, path: str | None):
        check_output(path)
        self.path = None if path in (None, "-") else path

    def __enter__(self):
        with output_errors(self.path):
            if self.path is None:
                self.f = tempfile.TemporaryFile()
            else:
                folder = os.path.dirname(os.path.abspath(self.path))
                fd, self.tmp = tempfile.mkstemp(prefix=".partial-", dir=folder)
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(self.tmp, 0o666 & ~umask)  # as open() would have made it
                self.f = os.fdopen(fd, "w+b")
        return self

    def write(self, text: str) -> None:
        with output_errors(self.path):
            self.f.write(text.encode("utf-8", "surrogateescape"))

    def reset(self) -> None:
        self.f.seek(0)
        self.f.truncate()

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None:
                with output_errors(self.path):
                    if self.path is None:
                        self.f.seek(0)
                        shutil.copyfileobj(self.f, sys.stdout.buffer, 1 << 20)
                        sys.stdout.buffer.flush()
                        self.f.close()
                    else:
                        self.f.close()
                        os.replace(self.tmp, self.path)
                        return
        finally:
            if not self.f.closed:
                self.f.close()
            if self.path is not None and os.path.exists(getattr(self, "tmp", "")):
                os.unlink(self.tmp)


__all__ = ["Spool", "STDOUT"]
