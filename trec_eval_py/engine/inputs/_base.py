"""What a judgment format and a results format declare (see the package docstring)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from ..._record import record
from ...errors import UsageError


@record
class JudgmentFormat:
    """A judgment format (``-R name``): its reader, its join and its help text."""

    name: str
    help: str
    read: Callable[[Any], Any]
    join: Callable[[Any, Any, Any], Any]
    totals: Callable[[Any], tuple[int, int]]
    stream: Callable[[Any, Iterable, Any], Iterator] | None = None
    spill: Callable[..., Iterator] | None = None
    dicts: bool = False
    feeds: str | None = None
    #: format-specific evaluation options its join reads (e.g. ``valid_codes``);
    #: giving one to a format that does not declare it is a usage error
    options: frozenset = frozenset()
    #: every judged topic is averaged over, as if ``-c`` were given
    complete: bool = False
    #: the measures computed when none are asked for (``-m`` not given): a set
    #: this format's judgments can feed (trec_eval itself stops on ``official``
    #: for the formats that cannot feed it)
    default_measures: tuple[str, ...] = ("official",)
    #: under ``-c``, a run that matches no judged topic still has a summary: every
    #: judged topic is an empty ranking (a campaign's script scores such a
    #: submission 0), where trec_eval stops with "no topic"
    scores_unmatched: bool = False

    @property
    def measures_for(self) -> str:
        """The format name measures list in ``rel_formats`` to accept this format's
        batches: ``feeds`` (a format whose batches this one's join also builds,
        e.g. ``qrels`` for a format joined into ordinary rankings), else ``name``."""
        return self.feeds or self.name

    def read_judgments(self, source):
        """Parse ``source`` (or pass through what this format already parsed)."""
        if isinstance(source, Mapping) and not self.dicts:
            raise UsageError(f"'-R {self.name}' judgments must be given as a file, a stream or bytes, not a dict")
        return self.read(source)


@record
class ResultsFormat:
    """A results format (``-T name``): its reader(s), its help text and the
    ranking its files prescribe (``order``: what ranks the documents when
    ``--order`` is not given; None for trec_eval's score order)."""

    name: str
    help: str
    #: ``read(source, rank_column=False)`` -> a parsed run
    read: Callable[..., Any]
    #: ``read_pieces(source)`` -> parsed runs of consecutive lines (some take ``chunk_bytes=``)
    read_pieces: Callable[..., Iterator] | None = None
    #: the judgment format (``-R``) these results can only be evaluated with, if any
    requires: str | None = None
    order: str | None = None
