"""trec_eval_py as an ir_measures provider.

ir_measures computes each measure with a *provider* (pytrec_eval, cwl_eval,
ranx...). This module registers one more, ``trec_eval_py``, in ir_measures'
provider registry when it is imported::

    import ir_measures
    from ir_measures import AP, nDCG, P
    from trec_eval_py.compat.ir_measures_provider import provider

    provider.calc_aggregate([AP, nDCG@10, P(rel=2)@5], qrels, run)
    ir_measures.providers.registry["trec_eval_py"]          # the same object

and :func:`use_by_default` puts it first in ir_measures' default pipeline,
so that ``ir_measures.calc_aggregate``, ``ir_measures.iter_calc`` and
everything built on them (PyTerrier's ``pt.Experiment``) compute through
trec_eval_py. ``qrels`` and ``run`` are anything ir_measures takes (dicts of
dicts, DataFrames with its column names, iterables of ``Qrel`` /
``ScoredDoc``) and anything else :func:`~trec_eval_py.engine.pipeline.evaluate`
reads (Parquet files, Arrow tables, polars DataFrames...).

What it computes is ir_measures' own semantics, value for value:

* every measure ir_measures names and trec_eval_py translates (see
  :mod:`trec_eval_py.engine.measures._names`): AP, P, R, RR, nDCG, Rprec,
  Bpref, infAP, the counts, SetP/SetRelP/SetR/SetF/SetAP, Success, IPrec,
  ERR, RBP, with their ``rel=``/``judged_only=``/``gains=``... parameters.
  ``Judged`` is left to ir_measures' own provider: it counts a document
  judged -1 as judged, trec_eval (and so trec_eval_py) as unjudged.
* per topic, the topics with both judgments and results; every judged
  topic the run lacks gets the measure's default (0), as ir_measures' other
  providers give it, so means are over every judged topic (trec_eval's
  ``-c``). trec_eval_py's own ``evaluate`` leaves such topics out unless
  ``complete=True`` is given.
* values are floats (counts too), as ir_measures' pytrec_eval provider
  gives them; ``NumQ`` is 1 per topic, summed.
"""
from __future__ import annotations

from collections.abc import Mapping

import ir_measures
from ir_measures import Metric, providers

from .._versions import DEFAULT_COMPAT
from ..engine.measures import ir_measures_names, measure_specs, registry
from ..engine.parse import Qrels, read_qrels, read_run
from ..engine.parse import python as pyin
from ..engine.parse.python import row_numbers
from ..errors import MeasureError, NoTopicsError

#: ir_measures names whose meaning differs from trec_eval's (see the module docstring)
LEFT_OUT = frozenset({"Judged"})


def _judgments(qrels) -> Qrels | None:
    """The judgments as columns; None when there are none (every measure is then empty,
    where the readers refuse judgments without a line)."""
    if isinstance(qrels, Qrels):
        return qrels if len(qrels) else None
    name = "<qrels>"
    if isinstance(qrels, Mapping):
        q, d, r = pyin.qrels_from_dict(qrels, name)
    elif pyin.is_frame(qrels) or pyin.is_parquet(qrels):
        q, d, r = pyin.qrels_from_table(qrels, name)
    elif pyin.is_records(qrels):
        q, d, r = pyin.qrels_from_records(qrels, name)
    else:
        return read_qrels(qrels)
    return Qrels(q, d, r, row_numbers(len(r)), name) if len(r) else None


class TrecEvalPyEvaluator(providers.Evaluator):
    """Evaluates runs against one set of judgments (parsed once)."""

    def __init__(self, measures, qrels: Qrels | None):
        topics = set() if qrels is None else set(pyin.ids_text(pyin.distinct(qrels.qid)))
        super().__init__(measures, topics)
        self.qrels = qrels
        self.specs = measure_specs(list(measures))
        self._evaluator = None  # the engine's evaluator of these judgments, made at the first run

    def _iter_calc(self, run):
        if self.qrels is None:
            return
        from ..engine.pipeline import Evaluator

        if isinstance(run, Mapping):
            # handed over as it is: a big dict is read a piece of topics at a time
            if pyin.dict_rows(run) == 0:
                return
        else:
            run = read_run(run)
            if len(run) == 0:
                return
        if self._evaluator is None:
            self._evaluator = Evaluator(self.qrels, self.specs)
        try:
            ev = self._evaluator.evaluate(run)
        except NoTopicsError:
            return
        cols = []
        for m, spec in zip(self.measures, self.specs):
            if m.NAME == "NumQ":
                cols.append((m, None))
            else:
                cols.append((m, ev.values[spec].astype(float).tolist()))
        for t, topic in enumerate(ev.topics):
            for m, values in cols:
                yield Metric(query_id=topic, measure=m, value=1.0 if values is None else values[t])


class TrecEvalPyProvider(providers.Provider):
    """trec_eval_py: trec_eval's numbers (9.0.8), under ir_measures' names and averaging.

    https://github.com/usnistgov/trec_eval (reimplemented; no binary needed)
    """

    NAME = "trec_eval_py"
    SUPPORTED_MEASURES: list = []  # decided by supports(): every name trec_eval_py translates

    def supports(self, measure) -> bool:
        try:
            measure.validate_params()
        except AssertionError:
            return False
        name = getattr(measure, "NAME", None)
        if name not in ir_measures_names() or name in LEFT_OUT:
            return False
        try:
            registry().resolve(measure_specs([measure]), DEFAULT_COMPAT, "qrels")
        except MeasureError:
            return False
        return True

    def _evaluator(self, measures, qrels):
        # equal measures (NumRel and NumRel(rel=1) are one: ir_measures compares names) once
        measures = list(dict.fromkeys(measures))
        for m in measures:
            if not self.supports(m):
                raise ValueError(f"unsupported measure {m} (provider {self.NAME})")
        return TrecEvalPyEvaluator(measures, _judgments(qrels))

    def install_instructions(self):
        return "pip install trec_eval_py"


#: the provider, registered with ir_measures as ``trec_eval_py``
provider = TrecEvalPyProvider()
providers.register(provider)


def use_by_default() -> TrecEvalPyProvider:
    """Put trec_eval_py first in ir_measures' default pipeline (``ir_measures.calc_aggregate``,
    ``iter_calc``, ``evaluator``, and PyTerrier's ``pt.Experiment`` on top of them); measures it
    does not compute still go to the providers after it. Returns the provider."""
    chain = ir_measures.DefaultPipeline.providers
    if provider not in chain:
        chain.insert(0, provider)
    return provider


def stop_using_by_default() -> None:
    """Undo :func:`use_by_default`."""
    chain = ir_measures.DefaultPipeline.providers
    while provider in chain:
        chain.remove(provider)
