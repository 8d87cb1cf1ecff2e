"""Exceptions raised for bad input, bad options and unknown measures.

Every error is a ``ValueError`` subclass so callers of the Python API can catch
them broadly; the CLI turns each one into a single line on stderr and a
non-zero exit code. Input errors always point at the offending file and line.
"""
from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import re

SHOWN_CHARS = 120


class ExitCode(IntEnum):
    """The exit status of every command, main command and subcommands alike
    (:data:`EXIT_CODES` says what each means). A usage error never shares its
    code with a result: 1 is only ever "the command line cannot be carried out"."""

    OK = 0
    USAGE = 1
    INPUT = 2
    FAILED = 3
    INCOMPLETE = 4
    CLUSTER = 5
    NO_TOPICS = 7
    INTERNAL = 70
    INTERRUPTED = 130
    TERMINATED = 143


#: ``(code, name, meaning)`` of every exit status, in the order of the codes
EXIT_CODES: tuple[tuple[int, str, str], ...] = (
    (ExitCode.OK, "ok", "done; for a check (diff, validate, compare --fail-if): it passed"),
    (ExitCode.USAGE, "usage", "the command line cannot be carried out: an unknown or bad option, flags that "
                              "contradict each other, an unknown measure, an output that cannot be written"),
    (ExitCode.INPUT, "input", "an input file cannot be read as its format requires (the message names the "
                              "file, the line and the text)"),
    (ExitCode.FAILED, "failed", "the check ran and says no: diff found differences, validate found errors "
                                "(with --strict, warnings), compare --fail-if found a significant regression"),
    (ExitCode.INCOMPLETE, "incomplete", "the output was written, but some runs could not be used (batch: "
                                        "their rows say why)"),
    (ExitCode.CLUSTER, "cluster", "--engine dask: the cluster failed the command (the scheduler lost, no "
                                  "worker left or able to run a task within --cluster-timeout, workers dying "
                                  "on one task: killed, or over their memory limit); the message says which"),
    (ExitCode.NO_TOPICS, "no topics", "no topic has both judgments and results"),
    (ExitCode.INTERNAL, "internal", "a bug: an error the program did not foresee (one line; set "
                                    "TREC_EVAL_PY_TRACEBACK=1 for the traceback)"),
    (ExitCode.INTERRUPTED, "interrupted", "stopped by Ctrl-C (SIGINT; 128 + the signal's number)"),
    (ExitCode.TERMINATED, "terminated", "stopped by SIGTERM (a job scheduler's kill, a CI timeout); "
                                        "temporary files are removed"),
)


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` cut to ``limit`` characters (ending in ``...``) for a message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _input_message(path: str, reason: str, line: int | None, text: str | None) -> str:
    """The message of an :class:`InputError` or :class:`InputWarning`: file, line, reason, text."""
    where = path if line is None else f"{path}, line {line}"
    msg = f"{where}: {reason}"
    if text is not None:
        msg += f": {quoted(shorten(text))}"
    return msg


def quoted(text: str) -> str:
    """``text`` quoted as Python's ``repr`` does, a byte that is not UTF-8 (read with
    ``surrogateescape``) shown as ``\\xff``, as the terminal output shows it, not ``\\udcff``."""
    import re

    # an escape, not a backslash of the text followed by 'udc..' (repr doubles those)
    return re.sub(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])", r"\1\\x\2", repr(text))


class TrecEvalError(ValueError):
    """Base class of every error this package raises on purpose."""

    exit_code = ExitCode.INPUT

    def __reduce__(self):
        # an error crosses processes (a dask worker's reaches the client): it is
        # rebuilt from its message and attributes, since the arguments of the
        # subclasses' __init__ are not what Exception keeps in ``args``
        return (_rebuilt, (type(self), self.args, self.__dict__))


def _rebuilt(cls: type, args: tuple, state: dict) -> TrecEvalError:
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class InputError(TrecEvalError):
    """A qrels, run or other input file cannot be read as its format requires.

    Attributes
    ----------
    path : str
        The file's name as given by the user (``-`` for stdin).
    line : int or None
        1-based line number of the offending line, when there is one.
    text : str or None
        The offending line (or field), shortened for display.
    reason : str
        What is wrong, in a few words.
    rows_before : object or None
        Set by the run and qrels readers for an error at a line: what the
        lines before it hold (a ``Run`` or ``Qrels``), so that the join can
        still report a duplicate docno there, an earlier bad line.
    fields_before : object or None
        Set by the field scanner for an error at a line: the wanted columns
        of the lines before it (a ``Fields``), from which the readers make
        ``rows_before``.
    """

    def __init__(self, path: str, reason: str, line: int | None = None, text: str | None = None):
        self.path = str(path)
        self.line = line
        self.text = text
        self.reason = reason
        # Any: the records of the layers above this module (Run, Qrels, Fields...)
        self.rows_before: Any = None
        self.fields_before: Any = None
        super().__init__(self._message())

    def _message(self) -> str:
        return _input_message(self.path, self.reason, self.line, self.text)


class InputWarning(UserWarning):
    """Something in an input file that is allowed but probably not meant (for
    instance BioCreative confidences that rise with the rank). Issued with
    :func:`warnings.warn`; the CLI prints each as one line on stderr and goes
    on. Same attributes and message layout as :class:`InputError`."""

    def __init__(self, path: str, reason: str, line: int | None = None, text: str | None = None):
        self.path = str(path)
        self.line = line
        self.text = text
        self.reason = reason
        super().__init__(_input_message(self.path, self.reason, self.line, self.text))


class InputTypeError(InputError, TypeError):
    """An input given through the Python API holds a value of the wrong type
    (a relevance that is not an integer, a score that is not a number, a key
    that is not a string): both an :class:`InputError` and a ``TypeError``."""


class OutputError(TrecEvalError):
    """The output (standard output or a file named by ``-o``) cannot be written."""

    exit_code = ExitCode.USAGE

    def __init__(self, path: str, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"cannot write {self.path}: {reason}")


class MeasureError(TrecEvalError):
    """An unknown measure name, or parameters a measure cannot accept."""

    exit_code = ExitCode.USAGE


class UsageError(TrecEvalError):
    """Options that do not fit together, or a missing argument."""

    exit_code = ExitCode.USAGE


class MissingExtraError(UsageError):
    """An optional dependency (an "extra": pandas, matplotlib...) is not
    installed; the message names the extra that brings it
    (``pip install 'trec_eval_py[pandas]'``)."""


class OptionError(UsageError):
    """A parameter with a value it cannot take, or parameters that do not fit together.

    The message names each parameter as Python spells it (``max_docs``); the
    command line shows the flag a user typed instead (``-M``), from the flag
    table, through :meth:`render`. The message is a template in which
    ``{@name}`` stands for parameter ``name`` alone and ``{@name=}`` for the
    parameter followed by a value (``name=`` in Python, ``-M `` on the command
    line); the other ``{fields}`` are filled from ``values``, so text from the
    user (a file name, a bad value) never passes for a template.

    Attributes: ``params``, the parameters named, in order; ``template`` and
    ``values``.
    """

    _PARAM: re.Pattern[str] | None = None

    @staticmethod
    def _param() -> re.Pattern[str]:
        # compiled when the first OptionError is made, not when this module is imported
        if OptionError._PARAM is None:
            import re

            OptionError._PARAM = re.compile(r"\{@(\w+)(=?)\}")
        return OptionError._PARAM

    def __init__(self, template: str, **values):
        self.template = template
        self.values = values
        self.params = tuple(dict.fromkeys(m.group(1) for m in OptionError._param().finditer(template)))
        super().__init__(self.render({}))

    def render(self, flags) -> str:
        """The message with each parameter shown as ``flags[name]`` (a flag such as
        ``-M``) where ``flags`` has it, else as its Python name."""
        def name(m):
            flag = flags.get(m.group(1))
            if flag is None:
                return m.group(1) + m.group(2)
            return flag + (" " if m.group(2) else "")

        text = OptionError._param().sub(lambda m: name(m).replace("{", "{{").replace("}", "}}"), self.template)
        return text.format(**self.values)


class OptionTypeError(OptionError, TypeError):
    """A parameter given a value of the wrong type through the Python API
    (``max_docs="5"``): both an :class:`OptionError` and a ``TypeError``."""


class ClusterError(TrecEvalError):
    """A dask cluster failed the command: its scheduler was lost, no worker was
    left (or none could run a task) for longer than the timeout, or workers
    died running one task (killed, or over their memory limit)."""

    exit_code = ExitCode.CLUSTER


class NoTopicsError(TrecEvalError):
    """No topic has both relevance judgments and results."""

    exit_code = ExitCode.NO_TOPICS
