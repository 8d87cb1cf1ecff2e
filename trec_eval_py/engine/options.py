"""What a caller asks for: :class:`Options`, the evaluation's settings and the formats
and measures to read and compute (the CLI's flags, as values).

:func:`~trec_eval_py.engine.pipeline.evaluate` and
:class:`~trec_eval_py.engine.pipeline.Evaluator` take them as keywords; every
:class:`~trec_eval_py.engine.results.Evaluation` keeps the ones it was computed with.
"""
from __future__ import annotations

from .._record import fields, record
from ..errors import OptionError, OptionTypeError
from .inputs import judgment_format, results_format
from .join import EvalContext
from .join.context import Settings


@record
class Options(Settings):
    """Everything that changes what is computed (the CLI's flags, as values).

    The evaluation settings of :class:`~trec_eval_py.engine.join.context.Settings`
    (``relevance_level``, ``max_docs``, ``judged_only``, ``complete``,
    ``compat``..., checked there) and the fields below. :func:`evaluate` and
    :class:`Evaluator` take them as keywords.

    Attributes
    ----------
    measures : tuple of str or None
        ``-m`` specs (names, nicknames, ir_measures names); None: the judgment
        format's own default set (``official`` for qrels).
    rel_format, results_format : str
        ``-R`` and ``-T``, registered format names (``qrels``, ``trec_results``).
    zscore_file : str or None
        ``-Z``, a file of per-topic means and deviations.
    max_cells : int or None
        Bound on a batch's size (testing and tuning).

    Raises
    ------
    OptionTypeError
        A field of the wrong type (a format name that is not text, a level
        that is not a whole number).
    OptionError
        Fields that contradict each other (``valid_codes`` for a format
        without codes, results of a format that needs other judgments).

    Examples
    --------
    >>> from trec_eval_py import Options
    >>> opts = Options(relevance_level=2)
    >>> opts.relevance_level, opts.measure_specs
    (2, ('official',))
    """

    measures: tuple[str, ...] | None = None
    rel_format: str = "qrels"
    results_format: str = "trec_results"
    zscore_file: str | None = None
    max_cells: int | None = None

    def __post_init__(self):
        super().__post_init__()
        for name in ("rel_format", "results_format"):
            if not isinstance(getattr(self, name), str):
                raise OptionTypeError("{@" + name + "} must be a format name, not {value!r}",
                                      value=getattr(self, name))
        fmt = judgment_format(self.rel_format)
        res = results_format(self.results_format)
        if self.valid_codes and "valid_codes" not in fmt.options:
            raise OptionError("{@valid_codes} applies to judgment formats that read codes, not '{@rel_format=}{got}'",
                              got=self.rel_format)
        if res.requires is not None and res.requires != self.rel_format:
            raise OptionError("'{@results_format=}{res}' results are evaluated with '{@rel_format=}{req}' "
                              "judgments, not '{@rel_format=}{got}'",
                              res=self.results_format, req=res.requires, got=self.rel_format)
        if self.max_cells is not None:
            object.__setattr__(self, "max_cells", int(self.max_cells))

    @property
    def measure_specs(self) -> tuple[str, ...]:
        """The measures asked for, or the judgment format's default set."""
        if self.measures is not None:
            return tuple(self.measures)
        return judgment_format(self.rel_format).default_measures

    @property
    def measures_for(self) -> str:
        """The judgment format measures must accept to read this format's batches."""
        return judgment_format(self.rel_format).measures_for

    @property
    def context(self) -> EvalContext:
        """The settings as the join and the measures read them: the format's own
        order where none is given, and ``-c`` for a format that always averages
        over every judged topic."""
        shared = {f: getattr(self, f) for f in fields(Settings)}
        shared.update(complete=self.complete or judgment_format(self.rel_format).complete,
                      order=self.ranking_order)
        return EvalContext(**shared)

    @property
    def ranking_order(self) -> str:
        """``order``, or when it is not given the results format's own (else ``score``)."""
        return self.order or results_format(self.results_format).order or "score"

