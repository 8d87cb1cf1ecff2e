"""The evaluation options that measures and the join stage need."""
from __future__ import annotations

from ..._record import record
from ...errors import UsageError

COMPAT_VERSIONS = ("9.0.8", "10.0")


def check_compat(compat: str) -> None:
    """Raise :class:`UsageError` unless ``compat`` names a trec_eval version we reproduce."""
    if compat not in COMPAT_VERSIONS:
        raise UsageError(f"unknown --compat {compat!r}; choose one of {', '.join(COMPAT_VERSIONS)}")


@record
class EvalContext:
    """Settings that change what a measure computes.

    relevance_level : ``-l``; a judged document is relevant when its level is at least this.
    num_docs_in_coll : ``-N``; collection size, 0 when unknown.
    max_docs : ``-M``; only the top ``max_docs`` documents of each topic count (None: all).
    judged_only : ``-J``; drop unjudged documents from each ranking first.
    complete : ``-c``; topics in the qrels without results are evaluated as empty rankings.
    compat : the trec_eval version whose behaviour to reproduce.
    order : ``--order``: what ranks the documents, ``score`` (trec_eval), ``rank``
            (the rank column) or ``file`` (line order); see :mod:`.order`.
    valid_codes : ``--valid-codes``: files listing the codes a prediction may carry
            (read by the formats that declare the option, e.g. ``-R codiesp``).
    keep_scores : the join keeps each ranked document's score (the run's score
            column: a BioCreative confidence; ``Rankings.scores``, ``TopicBatch.scores``)
            for the measures that read it
            (:attr:`~trec_eval_py.engine.measures.Measure.reads_scores`) and the tools
            that show it (``curves --curve table``); off otherwise, since it costs a
            float per document and the C join.
    """

    relevance_level: int = 1
    num_docs_in_coll: int = 0
    max_docs: int | None = None
    judged_only: bool = False
    complete: bool = False
    compat: str = "9.0.8"
    order: str = "score"
    keep_scores: bool = False
    valid_codes: tuple[str, ...] = ()

    @property
    def v10(self) -> bool:
        return self.compat == "10.0"
