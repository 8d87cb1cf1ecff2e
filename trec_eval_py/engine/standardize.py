"""Z-score stage (``-Z``): per-topic values to standard scores, before aggregation.

With a reference file of per-topic means and standard deviations (see
:mod:`trec_eval_py.engine.parse.zscores`), each per-topic value ``v`` of output
``name`` becomes ``(v - mean) / stddev`` using the file's line for that topic
and ``name``. The summary is then taken over these z-scores exactly as over
raw values (means are means of z-scores, sums are sums of z-scores).
This follows trec_eval's ``-Z`` (``convert_zscores.c`` and its use in
``trec_eval.c``):

* no line for the topic and output, or a deviation of 0 with a value other
  than the mean: the value becomes ``-1000000`` (trec_eval's marker for a
  missing z-score); a deviation of 0 with the value equal to the mean gives 0;
* geometric-mean outputs (``gm_map``, ``gm_bpref``) are converted in log space
  (trec_eval stores ``log(max(v, 0.00001))`` per topic), and their summary is
  ``exp`` of the mean of those z-scores;
* text outputs (``runid``, ``relstring``) are left alone and keep their names;
  every other output is printed as a real number (``%6.4f``, counts included)
  under its name prefixed with ``Z`` (``Zmap``; ``num_q`` too, still counting
  topics);
* only the topics trec_eval evaluates are converted: 9.0.8 never evaluates
  the topics ``-c`` fills in, so their values are left as they are (see
  :mod:`trec_eval_py.engine.join.empty_topics`);
* two outputs printed alike (``iprec_at_recall.0.999,1``) are two columns,
  each converted with the file's line for that name.

Columns in :class:`~trec_eval_py.engine.results.Evaluation` keep their plain names
(``values["map"]`` holds the z-scores); only printing adds the ``Z``.
"""
from __future__ import annotations

import math

import numpy as np

from .._record import replace
from .aggregate import MIN_GEO_MEAN
from .measures import Agg, Kind
from .parse.zscores import ZScores

#: what trec_eval reports when it cannot compute a z-score
MISSING_ZSCORE = -1000000.0

#: summaries that do not come from per-topic values
_NOT_FROM_VALUES = (Agg.NUM_Q, Agg.RUNID)


def zscores(value: np.ndarray, mean: np.ndarray, sd: np.ndarray, found: np.ndarray) -> np.ndarray:
    """Elementwise z-score with trec_eval's rules for missing and zero deviations."""
    value = np.asarray(value, dtype=np.float64)
    out = np.full(value.shape, MISSING_ZSCORE)
    spread = found & (sd != 0)
    out[spread] = (value[spread] - mean[spread]) / sd[spread]
    out[found & (sd == 0) & (value == mean)] = 0.0
    return out


def apply_zscores(table: ZScores, columns: list, values: list[np.ndarray], qids: list[str],
                  evaluated: np.ndarray) -> tuple[list, list[np.ndarray]]:
    """The pipeline's ``-Z`` stage: new ``(columns, values)`` holding z-scores.

    ``columns`` are the pipeline's :class:`~trec_eval_py.engine.results.Column`
    values and ``values[j]`` is column j's per-topic array, topics in the
    order of ``qids``; ``evaluated`` marks the topics trec_eval computed.
    Neither input is modified.
    """
    keys = np.array([q.encode("utf-8", "surrogateescape") for q in qids], dtype="S") if qids else np.zeros(0, "S1")
    convert = np.asarray(evaluated, dtype=bool)
    new_columns, new_values = [], list(values)
    for j, c in enumerate(columns):
        if c.kind is Kind.STR:
            new_columns.append(c)
            continue
        measure = c.measure
        if measure.aggregate not in _NOT_FROM_VALUES:
            raw = np.asarray(values[j], dtype=np.float64)
            if measure.aggregate is Agg.GMEAN:
                # C's log (libm), value by value, so the logs are trec_eval's to the last bit
                raw = np.array([math.log(max(v, MIN_GEO_MEAN)) for v in raw.tolist()], dtype=np.float64)
                measure = replace(measure, aggregate=Agg.GMEAN_LOGS)
            mean, sd, found = table.lookup(getattr(c, "trec_name", c.name), keys)
            new_values[j] = np.where(convert, zscores(raw, mean, sd, found), raw)
        new_columns.append(replace(c, measure=measure, kind=Kind.FLOAT, summary_kind=Kind.FLOAT, prefix="Z"))
    return new_columns, new_values
