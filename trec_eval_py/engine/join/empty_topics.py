"""What ``-c`` (average over every judged topic) means in each trec_eval version.

A topic that has judgments but no results is *filled in* under ``-c``. The
two versions treat it differently, and each difference is one rule here:

* **9.0.8 never evaluates it.** The summary divides by the number of judged
  topics, so the topic adds 0 to sums and means (and the floor ``1e-5`` to
  geometric means); it is not printed with ``-q`` and ``-Z`` does not convert
  it. Its per-topic values are those of an empty ranking (what the Python API
  reports), but no summary reads them; :func:`counted_values` gives the 0
  the summary counts instead, for tools that put every judged topic in
  their own averages and tests (compare, batch, plots).
* **10.0 evaluates it on a placeholder ranking**: one document, scored 1, whose
  docno is in no pool, added to the run before the join (:func:`with_placeholders`,
  as trec_eval adds its own placeholder result before its join), so the join's one
  ``-M``/``-J`` rule applies to it: ``-J`` drops that document (it is unjudged)
  and ``-M 0`` drops it too, leaving an empty ranking. Every measure is computed on that
  ranking as on any other, and then exactly the outputs *printed* as
  ``num_ret``, ``relstring``, ``rbp_resid``, ``utility`` or any name beginning
  with ``unj`` are reset (to 0, or to an empty string); outputs with
  parameters in their names (``utility_2,-1,0,0``, ``relstring_3``) keep what
  the placeholder gave them. The topic is printed with ``-q``, converted by
  ``-Z`` and counted by the summary like any other, so 10.0 prints a result
  even when no judged topic has results.

The placeholder's docno is in no pool whatever the judgments say: it holds a NUL
byte, which no judgment can (the readers refuse NUL in files and in dicts).
trec_eval's placeholder is a fixed docno that a qrels file could in principle
judge (see README, "Where we deliberately differ from trec_eval").

Source: trec_eval 9.0.8 and 10.0 ``trec_eval.c`` (the main loop and, in 10.0,
its placeholder ranking and the clean-up after it).
"""
from __future__ import annotations

import numpy as np

from ..parse.run import Run

#: the placeholder document's docno: the NUL keeps it out of every pool (and
#: numpy keeps it, since it is not trailing)
PLACEHOLDER_DOCNO = b"\x00-"


#: output names 10.0 resets after evaluating a placeholder ranking (exact names)
RESET_NAMES = frozenset({"num_ret", "relstring", "rbp_resid", "utility"})
#: ... and the prefix of the others it resets
RESET_PREFIX = "unj"


def evaluated_topics(filled: np.ndarray, ctx) -> np.ndarray:
    """bool (n,): the topics trec_eval computes, prints and sums (see module doc)."""
    filled = np.asarray(filled, dtype=bool)
    if ctx.v10:
        return np.ones(len(filled), dtype=bool)
    return ~filled


def reset_placeholder_outputs(columns, values: list, filled: np.ndarray, ctx) -> list:
    """10.0 with ``-c``: ``values`` (one array per column) with the outputs 10.0
    cleans up after a placeholder ranking reset on the filled-in topics."""
    if not (ctx.v10 and ctx.complete):
        return values
    filled = np.asarray(filled, dtype=bool)
    if not filled.any():
        return values
    out = list(values)
    for i, c in enumerate(columns):
        name = getattr(c, "trec_name", c.name)  # the name trec_eval prints
        if name in RESET_NAMES or name.startswith(RESET_PREFIX):
            v = np.array(values[i], copy=True)
            v[filled] = "''" if v.dtype == object else 0
            out[i] = v
    return out


def counted_values(columns, values: list, evaluated: np.ndarray) -> list:
    """Per-topic values as the ``-c`` summary counts them (one array per column).

    A topic trec_eval never evaluates (9.0.8's filled-in topics) counts 0 in
    every sum, whatever its empty ranking would give (some measures are 0/0
    there). Tools that treat a missing topic as part of every average read
    these values, so their per-topic numbers add up to trec_eval's summary.
    Text outputs are left as they are.
    """
    skip = ~np.asarray(evaluated, dtype=bool)
    if not skip.any():
        return list(values)
    out = []
    for _c, v in zip(columns, values):
        v = np.asarray(v)
        if v.dtype.kind in "fiu":
            v = v.copy()
            v[skip] = 0
        out.append(v)
    return out


def with_placeholders(run: Run, missing: np.ndarray) -> Run:
    """``run`` and, after its lines, one placeholder line (docno
    :data:`PLACEHOLDER_DOCNO`, score 1, rank 1) for each topic id in ``missing``:
    10.0's ranking of a judged topic without results under ``-c``."""
    if not len(missing):
        return run
    n = len(missing)
    docno = np.concatenate([run.docno, np.full(n, PLACEHOLDER_DOCNO, dtype="S2")])
    rank = None if run.rank is None else np.concatenate([run.rank, np.ones(n, dtype=run.rank.dtype)])
    return Run(np.concatenate([run.qid, missing]), docno,
               np.concatenate([np.asarray(run.score, dtype=np.float64), np.ones(n)]),
               np.concatenate([run.lineno, np.zeros(n, dtype=run.lineno.dtype)]),
               run.runid, run.name, rank)
