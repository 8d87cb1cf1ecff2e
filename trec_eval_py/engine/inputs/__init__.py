"""Input formats by registration: judgments (``-R``) and results (``-T``).

Every module in this package whose name does not start with ``_`` is
imported, and the :class:`JudgmentFormat` and :class:`ResultsFormat` values
it defines at module level are registered under their ``name`` (the word
after ``-R`` / ``-T``). Names must be unique. Adding a format means adding a
module here; nothing else in the engine names formats. A format defined in
the module of its own name (``qrels``, ``trec_results``...) is found by
importing that module alone; any other name imports them all.

A judgment format (``-R NAME``) declares

``read(source)``
    the parse stage: a path, ``-``, a file object or bytes (and, with
    ``dicts=True``, ``{topic: {docno: level}}``) to the parsed judgments;
    an already parsed value of the same type is returned as it is.
``join(judgments, run, ctx)``
    the join stage: parsed judgments and a :class:`~trec_eval_py.engine.parse.Run`
    to the evaluated topics, ranked with :class:`~trec_eval_py.engine.join.order.RankRule`.
    The result (a *joined* value) offers ``qids`` (topics in byte order of
    their ids), ``num_topics``, ``filled`` (bool per topic: no results, ``-c``),
    ``runid``, ``ctx``, and for the one batching loop
    (:func:`~trec_eval_py.engine.join.batch.iter_batches`):
    ``batch_sizes()`` -> ``(rows, width)``, int arrays per topic (a batch
    of topics costs ``max(width) * sum(rows)`` cells) and ``batch(lo, hi)``
    -> the batch of topics ``lo .. hi-1`` that its measures' kernels read.
``totals(judgments)``
    ``(topics with judgments, positive judgments)``: what the ``-c``
    summaries divide by and what ``num_rel``'s ``-c`` summary counts.
``stream(judgments, pieces, ctx)`` and ``spill(judgments, pieces, ctx, size_hint=)`` (optional)
    joined values for groups of complete topics of a big run read in
    ``pieces`` (consecutive :class:`Run` values): ``stream`` raises
    :class:`~trec_eval_py.engine.join.policy.Interleaved` when a topic comes
    back, and the pipeline starts again with ``spill``, which regroups the
    topics (through temporary files) in bounded memory.
``help``
    what ``trec_eval_py -h -R NAME`` prints about the format.

``dicts`` (default False)
    whether ``read`` takes a dict ``{topic: {docno: level}}``.
``feeds`` (optional)
    the name of a format whose measures can read this one's batches (a
    format joined by the qrels join says ``qrels``). Measures name the
    formats that can feed them in
    :attr:`~trec_eval_py.engine.measures.Measure.rel_formats`.
``options`` (default empty)
    the format-specific evaluation options its join reads from the context
    (``valid_codes``: ``--valid-codes``); giving one to a format that does
    not declare it is a :class:`~trec_eval_py.errors.UsageError`.
``complete`` (default False)
    every judged topic is averaged over, as if ``-c`` were given (a
    campaign that scores every gold document).
``scores_unmatched`` (default False)
    under ``-c`` (given or implied), a run none of whose topics is judged is
    scored, every judged topic an empty ranking, as the campaign's own script
    scores it (0); trec_eval, and every other format, stops with
    :class:`~trec_eval_py.errors.NoTopicsError`.

A results format (``-T NAME``) declares ``read(source, rank_column=False)``
-> :class:`Run` (``rank_column``: keep the rank column, for ``--order rank``),
optionally ``read_pieces(source)`` -> iterator of :class:`Run` (consecutive
lines, for big files), ``help``, ``requires``: the one judgment format its
values can be joined with (when they are not a :class:`Run`), and ``order``:
the ranking its files prescribe when ``--order`` is not given (a key of
:data:`~trec_eval_py.engine.join.order.PRIMARY_KEYS`, e.g. ``rank`` for
campaigns that evaluate the ranks submitted; None means trec_eval's
``score``). A format with ``order="rank"`` fills :attr:`Run.rank` whatever
``rank_column`` says.
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TypeVar

from ...errors import UsageError
from ._base import JudgmentFormat, ResultsFormat

_F = TypeVar("_F", JudgmentFormat, ResultsFormat)


@lru_cache(maxsize=1)
def _discover() -> tuple[dict[str, JudgmentFormat], dict[str, ResultsFormat]]:
    import pkgutil

    judgments: dict[str, JudgmentFormat] = {}
    results: dict[str, ResultsFormat] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(mod).values():
            table = judgments if isinstance(value, JudgmentFormat) else \
                results if isinstance(value, ResultsFormat) else None
            if table is None:
                continue
            if value.name in table and table[value.name] is not value:
                raise RuntimeError(f"two formats are named {value.name!r}")
            table[value.name] = value
    return judgments, results


def judgment_formats() -> dict[str, JudgmentFormat]:
    """Every judgment format (``-R``) by name."""
    return _discover()[0]


def results_formats() -> dict[str, ResultsFormat]:
    """Every results format (``-T``) by name."""
    return _discover()[1]


def _own_module(name: str, kind: type[_F]) -> _F | None:
    """The format of type ``kind`` named ``name`` in the module ``name``, if there is one."""
    if _discover.cache_info().currsize or not name.isidentifier() or name.startswith("_"):
        return None
    module = f"{__name__}.{name}"
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
        return None
    return next((v for v in vars(mod).values() if isinstance(v, kind) and v.name == name), None)


def judgment_format(name: str) -> JudgmentFormat:
    """The judgment format ``-R name``; :class:`UsageError` when there is none."""
    found = _own_module(name, JudgmentFormat)
    if found is not None:
        return found
    table = judgment_formats()
    if name not in table:
        raise UsageError(f"unknown judgments format '-R {name}'; choose one of {', '.join(sorted(table))}")
    return table[name]


def results_format(name: str) -> ResultsFormat:
    """The results format ``-T name``; :class:`UsageError` when there is none."""
    found = _own_module(name, ResultsFormat)
    if found is not None:
        return found
    table = results_formats()
    if name not in table:
        raise UsageError(f"unknown results format '-T {name}'; choose one of {', '.join(sorted(table))}")
    return table[name]


__all__ = ["JudgmentFormat", "ResultsFormat", "judgment_format", "judgment_formats", "results_format",
           "results_formats"]
