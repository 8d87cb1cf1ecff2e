"""What the renderers of ``output/`` read from the objects they are given.

``output/`` shows the engine's evaluations and the tools' results without
importing the tools (the layers contract in ``pyproject.toml``): each renderer
is typed with one of these protocols, which names every attribute it reads.
The classes that are rendered satisfy them structurally, with no base class:

* :class:`EvaluationResult` and :class:`PrintedColumn`: an evaluation and its
  columns (:class:`~trec_eval_py.engine.results.Evaluation`,
  :class:`~trec_eval_py.engine.results.Column`), read by the text, JSON, CSV,
  Parquet, DataFrame and HTML renderers;
* :class:`ComparisonResult` and :class:`ComparisonRow`: a comparison of runs
  (``compare``'s ``Comparison`` and its ``Row`` records), read by
  :func:`~trec_eval_py.output.notebook.comparison_frame` and
  :func:`~trec_eval_py.output.notebook.comparison_html`;
* :class:`BoardResult` and :class:`BoardEntry`: a leaderboard and its runs
  (``batch``'s ``Leaderboard`` and ``Entry``), read by
  :func:`~trec_eval_py.output.notebook.leaderboard_frame` and
  :func:`~trec_eval_py.output.notebook.leaderboard_html`.

The members are read-only properties, so that frozen records (whose fields
cannot be set) satisfy them; mypy checks that the classes do wherever one is
handed to a renderer. A renderer reads nothing of its object that its protocol
does not name: to show one more thing, add it to the protocol and to the class.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from ..engine.measures import Kind


class MeasureInfo(Protocol):
    """What a renderer reads of the measure behind a column."""

    @property
    def per_topic(self) -> bool:
        """Whether the measure has per-topic values (else only a summary line)."""


class PrintedColumn(Protocol):
    """One printed output of an evaluation and how it is printed."""

    @property
    def name(self) -> str:
        """The name the output was asked for by (``P_10``, ``nDCG@10``)."""

    @property
    def trec_name(self) -> str:
        """The name trec_eval prints for it (``name`` unless asked for by an ir_measures name)."""

    @property
    def prefix(self) -> str:
        """Printed before the padded name (``Z`` under ``-Z``), else ``""``."""

    @property
    def kind(self) -> Kind:
        """The type of its per-topic values."""

    @property
    def summary_kind(self) -> Kind:
        """The type of its summary value."""

    @property
    def identity(self) -> tuple | None:
        """What the value is (measure, the options that differ for it, output), or None:
        two columns with the same identity hold the same numbers and trec_eval's
        text prints them once."""

    @property
    def measure(self) -> MeasureInfo:
        """The measure that computed it."""

    @property
    def asked(self) -> int:
        """Position of the ``-m`` spec that asked for it (the order tools show outputs in)."""


class EvaluationResult(Protocol):
    """One run's evaluation, stored by column (see :class:`~trec_eval_py.engine.results.Evaluation`)."""

    @property
    def topics(self) -> Sequence[str]:
        """The topics, in print order."""

    @property
    def columns(self) -> Sequence[PrintedColumn]:
        """One per printed output, in print order."""

    @property
    def column_values(self) -> Sequence[np.ndarray]:
        """Per column, one value per topic of ``topics``."""

    @property
    def column_summary(self) -> Sequence[Any]:
        """Per column, its summary value, or None for an output without a summary line."""

    @property
    def printable(self) -> np.ndarray:
        """Per topic, whether trec_eval prints it."""

    @property
    def runid(self) -> str:
        """The run's name ("" when it has none)."""

    @property
    def values(self) -> Mapping[str, np.ndarray]:
        """``column_values`` by printed name."""

    @property
    def summary(self) -> Mapping[str, Any]:
        """``column_summary`` by printed name, for the outputs that have a summary line."""


class ComparisonRow(Protocol):
    """One test of one run against its baseline on one measure."""

    @property
    def test(self) -> str: ...
    @property
    def run(self) -> str: ...
    @property
    def measure(self) -> str: ...
    @property
    def baseline_mean(self) -> float: ...
    @property
    def mean(self) -> float: ...
    @property
    def delta(self) -> float: ...
    @property
    def p_value(self) -> float: ...
    @property
    def p_value_corrected(self) -> float: ...
    @property
    def significant(self) -> bool: ...
    @property
    def wins(self) -> int: ...
    @property
    def ties(self) -> int: ...
    @property
    def losses(self) -> int: ...
    @property
    def ci_low(self) -> float | None:
        """The interval's bounds, None when no interval was computed."""

    @property
    def ci_high(self) -> float | None: ...
    @property
    def ci_level(self) -> float:
        """The interval's confidence (0.95)."""


class ComparisonResult(Protocol):
    """Runs compared with significance tests: one row per test, pair of runs and measure."""

    @property
    def rows(self) -> Sequence[ComparisonRow]: ...
    @property
    def baseline(self) -> str:
        """The baseline run's label."""

    @property
    def topics(self) -> Sequence[str]:
        """The topics compared."""

    @property
    def alpha(self) -> float: ...
    @property
    def correction(self) -> str:
        """The correction for multiple tests (``holm``...)."""

    def records(self) -> list[dict]:
        """The rows as dicts, keyed by :meth:`row_fields`."""

    def row_fields(self) -> tuple[str, ...]:
        """The keys of each of :meth:`records`, in order."""


class BoardEntry(Protocol):
    """One run of a leaderboard: graded (``ok``) or failed with an ``error``."""

    @property
    def ok(self) -> bool:
        """Whether the run was graded."""

    @property
    def rank(self) -> int | None: ...
    @property
    def path(self) -> str:
        """The submission's name."""

    @property
    def runid(self) -> str:
        """The run's name ("" for a failed run)."""

    @property
    def error(self) -> str | None:
        """Why a failed run has no evaluation."""

    @property
    def result(self) -> EvaluationResult:
        """The evaluation of a graded run (a failed run raises: read it only when ``ok``)."""


class BoardResult(Protocol):
    """Evaluated runs in leaderboard order."""

    @property
    def columns(self) -> Sequence[str]:
        """The printed measure names, in the order asked for."""

    @property
    def kinds(self) -> Mapping[str, Kind]:
        """Per column, the type of its values."""

    @property
    def entries(self) -> Sequence[BoardEntry]: ...
    @property
    def sort_by(self) -> str | None:
        """The column that orders the board (None: rows in name order)."""
