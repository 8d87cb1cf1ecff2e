"""Where every command writes: standard output, or the file named by ``-o``.

One helper for every command, so that they all behave alike:

* :func:`check_output` runs before any work: a path that is a directory,
  whose folder does not exist or that cannot be written is an
  :class:`~trec_eval_py.errors.OutputError` at once, not after minutes of
  evaluation;
* :func:`write_output` writes text or bytes; a write that fails (a full disk,
  ``> /dev/full``) is an ``OutputError`` naming the file (``<stdout>`` for
  standard output). A file is written whole or not at all
  (:mod:`trec_eval_py.output.files`: a temporary file beside it, renamed
  over it), so a failed write leaves the old file as it was;
* ``-o`` never names a link (it is not followed) nor an input of the command:
  every file a parameter of the running command names is an input
  (:func:`command_inputs`: the qrels, the runs, ``--roster``,
  ``--valid-codes``...), the outputs' own parameters
  (:data:`OUTPUT_PARAMETERS`) aside, and :func:`check_output` compares the
  output with each of them by device and inode; a folder of outputs (a
  report) is checked by :func:`check_output_folder`;
* a reader that goes away (``trec_eval_py -q ... | head -1``) ends the
  command quietly with exit status 0 (:class:`PipeClosed`, handled by the
  entry point).
"""
from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterable

from ..errors import OutputError
from ..output.files import blocks, long_name, write_file

STDOUT = "<stdout>"

Text = str | bytes


class PipeClosed(Exception):
    """Standard output's reader has gone: stop quietly.

    Not an ``OSError``: click would catch it and exit with status 1."""


#: the parameters of a command that name what it writes (every other one that names
#: an existing file is read: an input, see :func:`command_inputs`)
OUTPUT_PARAMETERS = frozenset({"output", "out", "report", "plot", "stats"})


def _strings(value) -> list[str]:
    if isinstance(value, (str, os.PathLike)):
        return [os.fspath(value)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


def command_inputs() -> list[str]:
    """Every value of the running command's parameters (its own and the shared flags,
    ``--roster``, ``--valid-codes``, ``-Z``... included) that names an existing file or
    folder, the outputs' parameters (:data:`OUTPUT_PARAMETERS`) aside; nothing outside
    a command of the command line (the Python API names its inputs itself)."""
    click = sys.modules.get("click")
    ctx = click.get_current_context(silent=True) if click is not None else None
    found: list[str] = []
    while ctx is not None:
        for name, value in (ctx.params or {}).items():
            if name in OUTPUT_PARAMETERS:
                continue
            found += [s for s in _strings(value) if s != "-" and os.path.lexists(s)]
        ctx = ctx.parent
    return found


def check_output(path: str | None, inputs=()) -> None:
    """Raise :class:`OutputError` now if ``path`` cannot be written later
    (``None`` and ``-`` mean standard output), or is one of ``inputs`` or of the
    running command's inputs (:func:`command_inputs`)."""
    if path is None or path == "-":
        return
    inputs = [*inputs, *command_inputs()]
    if os.path.islink(path):
        raise OutputError(path, "is a symbolic link: not followed (name the file it points to)")
    if os.path.isdir(path):
        raise OutputError(path, "is a directory")
    part = long_name(path)
    if part is not None:
        raise OutputError(path, f"a name in it is longer than 255 bytes ({part[:40]}...)")
    same = same_file(path, inputs)
    if same is not None:
        raise OutputError(path, f"is an input of this command ({same}): writing would overwrite it")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise OutputError(path, f"no such folder {folder!r}")
    if os.path.exists(path):
        if not os.access(path, os.W_OK):
            raise OutputError(path, "permission denied")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(path, f"cannot create a file in {folder!r}: permission denied")


def same_file(path: str, inputs) -> str | None:
    """The first of ``inputs`` that is the file ``path``, if any."""
    try:
        st = os.stat(path)
    except OSError:
        st = None
    for inp in inputs:
        if inp is None or inp == "-":
            continue
        inp = os.fspath(inp)
        try:
            ist = os.stat(inp)
        except OSError:
            continue
        if st is not None and (st.st_dev, st.st_ino) == (ist.st_dev, ist.st_ino):
            return inp
    return None


def _real(path: str) -> str | None:
    try:
        return os.path.realpath(path) if os.path.lexists(path) else None
    except (OSError, ValueError):
        return None


def _under(path: str, folder: str) -> str | None:
    """``path`` relative to ``folder`` (both real paths) when it is in it, ``.`` for the folder."""
    if path == folder:
        return "."
    head = folder.rstrip(os.sep) + os.sep
    return path[len(head):] if path.startswith(head) else None


def check_output_folder(path: str, owns, walked=(), inputs=()) -> None:
    """Raise :class:`OutputError` now if writing the folder of outputs ``path`` could
    overwrite or mix with what the command reads: ``walked`` (folders and files
    searched for input, such as a class folder) may neither hold it, nor be it, nor be
    in it; any other input (``inputs`` and :func:`command_inputs`) may not be a file
    it writes, ``owns(relative path)`` saying which names the folder writes."""
    folder = os.path.realpath(path)
    walked = [os.fspath(w) for w in walked if w is not None and w != "-"]
    for w in walked:
        real = _real(w)
        if real is None:
            continue
        if _under(folder, real) is not None:
            raise OutputError(path, f"is {'the input' if folder == real else 'inside the input'} {w}: "
                                    "name a folder outside the submissions")
        if _under(real, folder) is not None:
            raise OutputError(path, f"holds the input {w}: name a folder outside the submissions")
    for inp in [*inputs, *command_inputs()]:
        inp = os.fspath(inp)
        real = _real(inp)
        rel = None if real is None else _under(real, folder)
        if rel is not None and rel != "." and owns(rel.replace(os.sep, "/")):
            raise OutputError(path, f"would overwrite {inp}, an input of this command")


@contextlib.contextmanager
def output_errors(path: str | None):
    """Turn an ``OSError`` raised while writing ``path`` into :class:`OutputError`
    (a closed pipe on standard output into :class:`PipeClosed`)."""
    to_stdout = path is None or path == "-"
    shown = STDOUT if to_stdout or path is None else path
    try:
        yield
    except BrokenPipeError:
        if to_stdout:
            raise PipeClosed() from None
        raise OutputError(shown, "broken pipe") from None
    except OSError as e:
        if to_stdout and e.errno == errno.EPIPE:
            raise PipeClosed() from None
        raise OutputError(shown, e.strerror or str(e)) from None


def write_output(content: Text | Iterable[Text], path: str | None = None) -> None:
    """Write ``content`` (text, bytes or an iterable of pieces) to ``path``
    or standard output, in blocks of about 64 KB."""
    pieces = [content] if isinstance(content, (str, bytes)) else content
    with output_errors(path):
        if path is None or path == "-":
            _write_blocks(pieces, sys.stdout.buffer)
        else:
            write_file(path, pieces)


def _write_blocks(pieces: Iterable[Text], out) -> None:
    for block in blocks(pieces):
        out.write(block)
    out.flush()


def silence_stdout() -> None:
    """After a failed or abandoned write: let the interpreter's final flush of
    standard output do nothing (it would print a second error)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass
    with contextlib.suppress(OSError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (stands for standard output until the process ends)


def tell(message: str) -> None:
    """One line on standard error, ``trec_eval_py: message``, its control characters
    made visible: what a check that says no (exit 3) or a partial result (exit 4)
    tells a log that keeps only standard error (the output may be in a file)."""
    from ..output.names import printable

    sys.stderr.write(f"trec_eval_py: {printable(message)}\n")


def tell_skipped(skipped) -> None:
    """Name on standard error each file found but not read (hidden ones as a count:
    every Mac archive holds some), one line each; names are made printable."""
    from ..output.names import printable

    hidden = [k for k in skipped if k.reason.startswith("a hidden ")]
    for k in skipped:
        if not k.reason.startswith("a hidden "):
            sys.stderr.write(f"trec_eval_py: {printable(str(k))}\n")
    if hidden:
        folders = sum(k.reason == "a hidden folder" for k in hidden)
        files = len(hidden) - folders
        counts = [f"{n} hidden {what}{'s' * (n != 1)}" for n, what in ((files, "file"), (folders, "folder")) if n]
        sys.stderr.write(f"trec_eval_py: skipped {' and '.join(counts)} (names starting with '.', and __MACOSX)\n")
