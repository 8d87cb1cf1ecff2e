"""The evaluation settings: declared once, checked once, read by every stage.

:class:`Settings` holds what the command line's evaluation flags set (``-l``,
``-N``, ``-M``, ``-J``, ``-c``, ``--compat``, ``--order``, ``--valid-codes``)
and checks every value when it is made, so a stage handed one never meets a
value it cannot use (a negative ``-M`` would silently rank nothing, a
``max_docs`` of ``nan`` would evaluate no document). :class:`EvalContext`
(what the joins and measures read) and
:class:`~trec_eval_py.engine.pipeline.Options` (what a caller asks for:
measures and formats as well) both derive from it.

Errors name the Python parameter (``max_docs must be 0 or more``); the
command line shows its flag instead (``-M must be 0 or more``), through
:class:`~trec_eval_py.errors.OptionError`. A value of the wrong type is an
:class:`~trec_eval_py.errors.OptionTypeError`, also a ``TypeError``.
"""
from __future__ import annotations

import operator
import os

from ..._record import record
from ..._versions import COMPAT_VERSIONS, DEFAULT_COMPAT
from ...errors import OptionError, OptionTypeError

#: what ``--order`` may name (the primary keys of :mod:`.order`)
ORDERS = ("score", "rank", "file")
#: the largest value trec_eval's ``long`` counters hold
LONG_MAX = (1 << 63) - 1


def check_compat(compat: str) -> None:
    """Raise :class:`OptionError` unless ``compat`` names a trec_eval version we reproduce."""
    if compat not in COMPAT_VERSIONS:
        raise OptionError("unknown {@compat} {value!r}; choose one of {choices}",
                          value=compat, choices=", ".join(COMPAT_VERSIONS))


def _whole(name: str, value, *, low: int, optional: bool = False):
    """``value`` as a Python int in ``low .. LONG_MAX``; bools, floats and text refused."""
    if value is None and optional:
        return None
    if isinstance(value, bool):
        raise OptionTypeError("{@" + name + "} must be a whole number, not a bool ({value!r})", value=value)
    try:
        number = operator.index(value)  # ints and numpy integers; not 5.0, nan or "5"
    except TypeError:
        kind = "a whole number or None" if optional else "a whole number"
        raise OptionTypeError("{@" + name + "} must be " + kind + ", not {type} {value}",
                              type=type(value).__name__, value=_shown(value)) from None
    if number < low:
        raise OptionError("{@" + name + "} must be {low} or more, not {value}", low=low, value=number)
    if number > LONG_MAX:
        raise OptionError("{@" + name + "} must be at most {top} (a C long), not {value}",
                          top=LONG_MAX, value=_shown(number))
    return number


def _flag(name: str, value) -> bool:
    if isinstance(value, bool):
        return value
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"):
        return bool(value)  # numpy's bool (bool_ before numpy 2), without importing numpy here
    raise OptionTypeError("{@" + name + "} must be True or False, not {value}", value=_shown(value))


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _paths(value) -> tuple[str, ...]:
    if isinstance(value, (str, os.PathLike)):
        value = (value,)
    try:
        items = tuple(value or ())
    except TypeError:
        raise OptionTypeError("{@valid_codes} must be a path or paths, not {value}", value=_shown(value)) from None
    out = []
    for v in items:
        if not isinstance(v, (str, os.PathLike)):
            raise OptionTypeError("{@valid_codes} must be a path or paths, not {value}", value=_shown(v))
        out.append(os.fspath(v))
    return tuple(out)


@record
class Settings:
    """The evaluation settings, each checked when the record is made.

    relevance_level : ``-l``; a judged document is relevant when its level is at least this.
    num_docs_in_coll : ``-N``; collection size, 0 when unknown.
    max_docs : ``-M``; only the top ``max_docs`` documents of each topic count (None: all).
    judged_only : ``-J``; drop unjudged documents from each ranking first.
    complete : ``-c``; topics in the qrels without results are evaluated as empty rankings.
    compat : the trec_eval version whose behaviour to reproduce.
    order : ``--order``: what ranks the documents, ``score`` (trec_eval), ``rank``
            (the rank column) or ``file`` (line order); see :mod:`.order`.
            None: the results format's own, else ``score``.
    valid_codes : ``--valid-codes``: files listing the codes a prediction may carry
            (read by the formats that declare the option, e.g. ``-R codiesp``).
    """

    relevance_level: int = 1
    num_docs_in_coll: int = 0
    max_docs: int | None = None
    judged_only: bool = False
    complete: bool = False
    compat: str = DEFAULT_COMPAT
    order: str | None = None
    valid_codes: tuple[str, ...] = ()

    def __post_init__(self):
        set_ = object.__setattr__
        # trec_eval reads -l and -N as C longs, any sign; -M -1 it reads as "no
        # documents count" without a word: a negative cut is a typo
        set_(self, "relevance_level", _whole("relevance_level", self.relevance_level, low=-LONG_MAX))
        set_(self, "num_docs_in_coll", _whole("num_docs_in_coll", self.num_docs_in_coll, low=-LONG_MAX))
        set_(self, "max_docs", _whole("max_docs", self.max_docs, low=0, optional=True))
        set_(self, "judged_only", _flag("judged_only", self.judged_only))
        set_(self, "complete", _flag("complete", self.complete))
        if not isinstance(self.compat, str):
            raise OptionTypeError("{@compat} must be a version string, not {value}", value=_shown(self.compat))
        check_compat(self.compat)
        if self.order is not None and self.order not in ORDERS:
            raise OptionError("unknown {@order} {value!r}; choose one of {choices}",
                              value=self.order, choices=", ".join(ORDERS))
        set_(self, "valid_codes", _paths(self.valid_codes))


@record
class EvalContext(Settings):
    """The settings the join and the measures read (see :class:`Settings`), plus

    keep_scores : the join keeps each ranked document's score (the run's score
            column: a BioCreative confidence; ``Rankings.scores``, ``TopicBatch.scores``)
            for the measures that read it
            (:attr:`~trec_eval_py.engine.measures.Measure.reads_scores`) and the tools
            that show it (``curves --curve table``); off otherwise, since it costs a
            float per document and the C join.
    keep_docnos : the join keeps the docno of each ranked document and of each
            judgment (``Rankings.docnos``, ``judged_docnos``; ``TopicBatch.docnos``),
            for the tools that name documents (``compare --unit positives`` pairs
            a topic's relevant documents across runs); off otherwise, as ``keep_scores``.
    keep_rows : the join keeps the run row of each ranked document (``Rankings.rows``),
            for a caller that looks at the ranked lines again (the validator's checks
            ride on the evaluation's join); off otherwise.

    ``order`` None ranks by score, trec_eval's rule.
    """

    keep_scores: bool = False
    keep_docnos: bool = False
    keep_rows: bool = False

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "keep_scores", _flag("keep_scores", self.keep_scores))
        object.__setattr__(self, "keep_docnos", _flag("keep_docnos", self.keep_docnos))
        object.__setattr__(self, "keep_rows", _flag("keep_rows", self.keep_rows))

    @property
    def v10(self) -> bool:
        return self.compat == "10.0"

    @property
    def rank_order(self) -> str:
        """What ranks the documents: ``order``, or ``score`` when it is not given."""
        return self.order or "score"
