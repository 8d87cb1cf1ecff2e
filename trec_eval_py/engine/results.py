"""What an evaluation returns: :class:`Evaluation` (per-topic values and the summary of
one run, stored by column), its :class:`Column` records and the :class:`ByName` view
that reads them by printed name.

:func:`~trec_eval_py.engine.pipeline.evaluate` and
:meth:`~trec_eval_py.engine.pipeline.Evaluator.evaluate` make them; ``output/``
renders them (trec_eval's text, Parquet, DataFrames, HTML).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .._record import field, record
from ..errors import MeasureError
from ..output.evaluation import trec_lines
from .join.empty_topics import counted_values
from .measures import Kind, Measure
from .options import Options


@record
class Column:
    """One printed measure name (e.g. ``P_5``) and how to print it."""

    name: str
    measure: Measure
    index: int
    kind: Kind
    summary_kind: Kind
    prefix: str = ""  # printed before the padded name ("Z" under -Z)
    printed: str | None = None  # trec_eval's name when ``name`` is an ir_measures label
    source: int = 0  # which requested measure (position in the resolved selection) computed it
    #: what the value is (measure, its options, the output's parameters): two columns with
    #: the same identity hold the same numbers (``-m AP -m map``); trec_eval's text prints it once
    identity: tuple | None = None
    #: position of the ``-m`` spec that asked for it (tools show columns in that
    #: order: :func:`~trec_eval_py.engine.measures.in_asked_order`)
    asked: int = 0

    @property
    def trec_name(self) -> str:
        """The name trec_eval prints for this value."""
        return self.name if self.printed is None else self.printed


class ByName(Mapping):
    """Read-only ``{printed name: value}`` view of an evaluation's columns.

    Two columns can share a printed name (``-m iprec_at_recall.0.999,1`` prints
    ``iprec_at_recall_1.00`` twice, as trec_eval does); asking for such a name
    raises :class:`~trec_eval_py.errors.MeasureError` instead of picking one.
    """

    def __init__(self, pairs) -> None:
        self._data: dict[str, object] = {}
        self._twice: set[str] = set()
        for name, value in pairs:
            if name in self._data:
                self._twice.add(name)
            else:
                self._data[name] = value

    def __getitem__(self, name: str):
        if name in self._twice:
            raise MeasureError(
                f"two outputs are named {name!r} (their parameters print alike); "
                "read them by column (Evaluation.columns, column_values, column_summary)"
            )
        return self._data[name]

    def __contains__(self, name) -> bool:
        return name in self._data

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        # a dict's repr, so that a notebook or the REPL shows the values; a name two
        # outputs share shows no value, as reading it raises
        shown = {n: _NamedTwice() if n in self._twice else v for n, v in self._data.items()}
        return f"ByName({shown!r})"


class _NamedTwice:
    def __repr__(self) -> str:
        return "<two outputs: read them by column>"


@record(frozen=False)
class Evaluation:
    """Per-topic values and the summary of one run, stored by column.

    What :func:`evaluate` and :meth:`Evaluator.evaluate` return. ``columns[j]``
    is one printed output; ``column_values[j][i]`` is its value for
    ``topics[i]`` and ``column_summary[j]`` its ``all`` value (None for outputs
    without a summary line). ``values[name]`` and ``summary[name]`` read the
    same by printed name (see :class:`ByName`): trec_eval's name (``P_10``), or
    the ir_measures name a measure was asked for by (``nDCG@10``).

    Attributes
    ----------
    topics : list of str
        The topics printed, in trec_eval's order (byte order of their ids);
        empty for a summary-only evaluation (``per_topic=False``).
    columns : list of Column
        One per printed output, in print order.
    column_values : list of numpy.ndarray
        Per column, one value per topic of ``topics``.
    column_summary : list
        Per column, its summary value (a number, a text for a text output), or
        None for an output without a summary line (``relstring``).
    filled : numpy.ndarray of bool
        Per topic, whether it had no results and was filled in by ``-c``.
    printable : numpy.ndarray of bool
        Per topic, whether trec_eval prints it (9.0.8 does not print the
        topics ``-c`` fills in).
    runid : str
        The run's name (the sixth field of its results), "" for a run given as
        a dict.
    options : Options
        The options it was computed with.

    Examples
    --------
    >>> import trec_eval_py as te
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d1": 1}}
    >>> run = {"q1": {"d1": 2.0, "d2": 1.5, "d3": 0.5}, "q2": {"d9": 1.0, "d1": 0.5}}
    >>> ev = te.evaluate(qrels, run, ["map", "P.2"])
    >>> ev.topics, ev.values["map"].tolist()
    (['q1', 'q2'], [0.8333333333333333, 0.5])
    >>> ev.summary
    ByName({'map': 0.6666666666666666, 'P_2': 0.5})
    >>> ev.per_topic()["q2"]
    {'map': 0.5, 'P_2': 0.5}
    >>> ev.to_text().splitlines()
    ['map                   \\tall\\t0.6667', 'P_2                   \\tall\\t0.5000']
    """

    topics: list[str]
    columns: list[Column]
    column_values: list[np.ndarray]
    column_summary: list[Any]  # a number, a text (a text output's), or None: the column's kind says
    filled: np.ndarray
    printable: np.ndarray
    runid: str
    options: Options = field(factory=Options)

    @property
    def values(self) -> ByName:
        """``{name: per-topic array}``."""
        return ByName((c.name, v) for c, v in zip(self.columns, self.column_values))

    @property
    def summary(self) -> ByName:
        """``{name: summary value}`` for the outputs that have a summary line."""
        return ByName((c.name, v) for c, v in zip(self.columns, self.column_summary) if v is not None)

    @property
    def averaged_over(self) -> tuple[str, int | None]:
        """Which topics the summary's means (and totals) are over, and how many.

        ``("judged topics", n)`` under ``complete`` (``-c``): every topic of the
        judgments, one the run has no results for counting as an empty ranking
        (as ir_measures and ``batch`` average); ``("topics with results", n)``
        otherwise, trec_eval's default: the judged topics the run has results
        for. ``n`` is ``num_q``; None for a summary-only evaluation
        (``per_topic=False``) that did not ask for ``num_q``.
        """
        # the settings' -c: also on for a judgment format that always averages over every judged topic
        complete = self.options.context.complete
        over = "judged topics" if complete else "topics with results"
        if self.topics:
            return over, len(self.topics) if complete else int(np.count_nonzero(~self.filled))
        num_q = self.summary.get("num_q")
        return over, None if num_q is None else int(num_q)

    def counted_values(self) -> list[np.ndarray]:
        """``column_values`` as the summary counts them: under 9.0.8's ``-c`` a
        topic without results counts 0 (see :func:`.join.empty_topics.counted_values`)."""
        return counted_values(self.columns, self.column_values, self.printable)

    def per_topic(self) -> dict[str, dict[str, object]]:
        """``{topic: {measure: value}}`` for the measures that have per-topic values."""
        cols = [(c, v) for c, v in zip(self.columns, self.column_values) if c.measure.per_topic]
        names = ByName((c.name, None) for c, _ in cols)
        for c, _ in cols:
            names[c.name]  # two outputs printed alike cannot share one key
        out: dict[str, dict[str, object]] = {}
        for t, qid in enumerate(self.topics):
            out[qid] = {c.name: _py(v[t], c.kind) for c, v in cols}
        return out

    def lines(self, *, query: bool = False, summary: bool = True) -> Iterable[str]:
        """trec_eval's output lines, one at a time (see :meth:`to_text`)."""
        return trec_lines(self, query=query, summary=summary)

    def to_text(self, *, query: bool = False, summary: bool = True) -> str:
        """What trec_eval prints for this evaluation, byte for byte.

        Parameters
        ----------
        query : bool
            Print each topic's values first, as ``-q`` does.
        summary : bool
            Print the summary (``all``) lines.

        Returns
        -------
        str
            Tab-separated lines, each ending in a newline.
        """
        return "".join(trec_lines(self, query=query, summary=summary, blocks=True))

    def of_asked(self, positions: Iterable[int]) -> Evaluation:
        """The evaluation of the ``-m`` specs at ``positions`` only (their place among
        those asked for): what evaluating just those measures gives, since every
        column is computed and summarised on its own. One evaluation of a board's
        measures and a curve's gives both this way."""
        wanted = set(positions)
        keep = [j for j, c in enumerate(self.columns) if c.asked in wanted]
        return Evaluation(self.topics, [self.columns[j] for j in keep], [self.column_values[j] for j in keep],
                          [self.column_summary[j] for j in keep], self.filled, self.printable, self.runid,
                          self.options)

    def to_dataframe(self, per_topic: bool = True, *, wide: bool = False):
        """A pandas DataFrame: long (run, topic, measure, value) or ``wide`` (a row per
        topic); per-topic values, or with ``per_topic=False`` the summary."""
        from ..output.notebook import evaluation_frame

        return evaluation_frame(self, per_topic=per_topic, wide=wide)

    def to_parquet(self, path, *, per_topic: bool = True, summary: bool = True) -> None:
        """Write the long table ``runid, topic, measure, value`` as Parquet (the main
        command's ``--format parquet``; needs the ``parquet`` extra)."""
        from ..output.evaluation import evaluation_parquet

        evaluation_parquet(self, query=per_topic, summary=summary, path=path)

    def __repr__(self) -> str:
        # outside a notebook an evaluation shows as trec_eval's summary lines
        return self.to_text() if any(v is not None for v in self.column_summary) else self.to_text(query=True)

    def _repr_html_(self) -> str:
        from ..output.notebook import evaluation_html

        return evaluation_html(self)


def _py(v, kind: Kind):
    if kind is Kind.FLOAT:
        return float(v)
    if kind is Kind.INT:
        return int(v)
    return v
