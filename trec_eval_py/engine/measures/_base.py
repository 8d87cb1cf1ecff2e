"""What a measure is: a small immutable description plus a vectorised kernel.

Each measure module defines one or more :class:`Measure` values at module
level; the registry finds them there. A kernel takes a
:class:`~trec_eval_py.engine.join.TopicBatch` and the parsed :class:`Params` and
returns one value per topic (shape ``(n,)``) or, for measures with several
outputs such as cutoffs, shape ``(n, k)`` in the order of ``output_names``.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..._record import field, record
from ..._versions import COMPAT_VERSIONS, DEFAULT_COMPAT
from ._order import print_key
from ._params import NoParams, Params, ParamSpec

#: a kernel reads the batch of the judgment format it is joined with: a
#: join.batch.TopicBatch for qrels, another format's own batch type for the others
Kernel = Callable[[Any, Params], np.ndarray]


class Agg(enum.Enum):
    """How per-topic values become the summary (``all``) line."""

    MEAN = "mean"  # sum in topic order, divided by the number of topics
    GMEAN = "gmean"  # geometric mean, values floored at 1e-5 (trec_eval's MIN_GEO_MEAN)
    GMEAN_LOGS = "gmean_logs"  # like GMEAN for values that are already logs (z-scores under -Z)
    SUM = "sum"  # plain total (counts such as num_ret)
    NUM_Q = "num_q"  # the number of topics averaged over
    RUNID = "runid"  # the run id, as text
    NONE = "none"  # no summary line (e.g. relstring)


class Kind(enum.Enum):
    FLOAT = "float"  # printed %6.4f
    INT = "int"  # printed as a whole number
    STR = "str"  # printed as text


VERSIONS = COMPAT_VERSIONS


@record
class Measure:
    """One measure (or one family sharing a name and parameters).

    Measures are values: each measure module declares its own at module level,
    and :func:`~trec_eval_py.engine.measures.registry` finds them by name.

    Attributes
    ----------
    name : str
        What users type after ``-m``.
    help : str
        What it means, its edge cases and its source, in our words.
    kernel : callable
        Computes per-topic values from a batch.
    kind : Kind
        Value type (float, int, str).
    params : ParamSpec
        Parameter shape and defaults.
    aggregate : Agg
        How topics are combined into the summary.
    per_topic : bool
        Printed for each topic with ``-q``.
    nicknames : frozenset of str
        Nicknames (``official``, ``all_trec``, ``set``...) that include it.
    since : str
        First trec_eval version that has it ("9.0.8", "10.0"), or "extra".
    rel_formats : frozenset of str or None
        The judgment formats (``-R``) that can feed it; None for any.
    summary : callable or None
        Optional ``summary(values, info)`` that replaces ``aggregate`` for the
        ``all`` line, for the few measures whose summary is not a function of the
        per-topic values alone; ``info`` is an :class:`~trec_eval_py.engine.aggregate.SummaryInfo`.
    parts : callable or None
        Optional kernel giving per-topic numbers (shape ``(n, m)``) that ``summary``
        reads as ``info.parts``, for summaries that are not a function of the printed
        per-topic values, such as micro-averages (totals of counts over topics); or an
        object array of shape ``(n,)`` holding one float array per topic, for
        summaries that need each topic's ranking (``auc_ipr_micro``).
    reads_scores : bool
        The kernel reads the run's scores (``TopicBatch.scores``): the
        join keeps them only when a requested measure says so.
    area : Area or None
        For the early-retrieval areas, the statistic of their relevant documents
        ("positives", ``compare --unit positives``): an
        :class:`~.early_retrieval.Area`, whose per-positive values average to the
        measure's per-topic value, or (``Area.affine``) to a per-topic value the
        measure is an affine transform of; None for every other measure.
    fold : SummaryFold or None
        Optional :class:`SummaryFold`, the same summary as ``summary`` taken over
        consecutive ranges of topics (an evaluation that never holds every topic's
        values at once); a measure with ``summary`` and no ``fold`` keeps its whole
        columns until the end of such an evaluation.
    formula : str
        Its definition as one LaTeX formula (MathJax's dialect), shown on its
        page of the documentation site in the notation of the measures' index
        (``rel(k)``, ``R``, ``g_i``...). Shown, never computed: the kernel is
        the definition the numbers come from.

    Examples
    --------
    >>> from trec_eval_py.engine.measures import registry
    >>> p = registry()["P"]
    >>> p.since, sorted(p.nicknames)
    ('9.0.8', ['all_trec', 'official'])
    >>> p.output_names(p.params.parse("P", "5,10"))
    ['P_5', 'P_10']
    >>> print(p.formula)
    \\mathrm{P}_k = \\frac{\\mathrm{rel}(k)}{k}
    """

    name: str
    help: str
    kernel: Kernel
    kind: Kind = Kind.FLOAT
    params: ParamSpec = field(factory=NoParams)
    aggregate: Agg = Agg.MEAN
    per_topic: bool = True
    nicknames: frozenset = frozenset()
    since: str = DEFAULT_COMPAT
    rel_formats: frozenset | None = frozenset({"qrels"})
    summary: Callable | None = None
    parts: Kernel | None = None
    reads_scores: bool = False
    # an early_retrieval.Area, or None: that module imports this one, so the type is not named here
    area: Any = None
    fold: SummaryFold | None = None
    formula: str = ""

    @property
    def order(self) -> tuple:
        """Print position (see :mod:`._order`): trec_eval's table order, then extras by name."""
        return print_key(self.name)

    def output_names(self, params: Params) -> list[str]:
        return self.params.output_names(self.name, params)

    def needs_scores(self, params: Params) -> bool:
        """Whether computing it with ``params`` reads the run's scores (the join
        then keeps them): :attr:`reads_scores`, or parameters that ask for them
        (``ties=average``)."""
        return self.reads_scores or self.params.reads_scores(params)

    def compute(self, batch, params: Params) -> np.ndarray:
        """Per-topic values as a 2-D array ``(n_topics, n_outputs)``."""
        out = np.asarray(self.kernel(batch, params))
        if out.ndim == 1:
            out = out[:, None]
        return out

    def available_in(self, compat: str) -> bool:
        """Whether a run in ``compat`` mode offers this measure (by name)."""
        return True

    def in_nickname(self, nickname: str, compat: str) -> bool:
        """Whether ``nickname`` includes this measure in ``compat`` mode."""
        return in_nickname(self.nicknames, self.since, nickname, compat)


@record
class SummaryFold:
    """A measure's own summary as a fold over consecutive ranges of topics, in
    topic order (see :mod:`trec_eval_py.engine.aggregate`), so an evaluation
    can summarise topics a range at a time and give exactly what ``summary``
    gives on every topic at once.

    chunk : ``chunk(values, info) -> payload``: what one range contributes
        (``info`` is the range's :class:`~trec_eval_py.engine.aggregate.SummaryInfo`:
        its ``evaluated``, ``filled`` and ``parts``); computed where the range is
        evaluated, so it should be small
    combine : ``combine(state, payload) -> state``, ranges in topic order (``state``
        is None before the first)
    finish : ``finish(state, info) -> value`` from the whole evaluation's info
        (``n_avg``, ``complete``, ``runid``, ``num_positive_judgments``)

    ``chunk`` and ``combine`` left out take those of the measure's ``aggregate``;
    ``finish`` then receives that aggregate's summary value as ``state``.
    Under ``-Z`` (z-scores, no parts) a measure that declares ``parts`` is
    summarised by its ``aggregate``, as ``summary`` does there.
    """

    finish: Callable
    chunk: Callable | None = None
    combine: Callable | None = None


def in_nickname(nicknames, since: str, nickname: str, compat: str) -> bool:
    """Whether a measure of ``nicknames`` and version ``since`` is in ``nickname`` under ``compat``
    (a measure of a later trec_eval version is not in an earlier one's nicknames)."""
    if nickname not in nicknames:
        return False
    if since in VERSIONS:
        return VERSIONS.index(since) <= VERSIONS.index(compat)
    return True


def quiet_numpy():
    """numpy's floating-point warnings silenced, for the measure stage (every
    batch of :func:`~trec_eval_py.engine.pipeline.map_batches`: kernels,
    parts, curves, tables) and the summary stage: kernels divide by empty
    counts, cast huge cutoffs and take exp of big parameters on purpose (0,
    ``-nan`` and ``inf`` are values trec_eval prints too), so kernels need no
    ``errstate`` of their own and nothing reaches stderr."""
    return np.errstate(all="ignore")


#: the largest double below 2**63 (2**63 - 1 itself rounds up to 2**63)
_LONG_MAX_DOUBLE = float(np.nextafter(2.0 ** 63, 0))


def c_long(x):
    """Whole doubles (an array or one number) as C ``long`` values (int64),
    saturating: beyond a long (a parameter such as ``1e300``, or ``inf``) gives
    the largest or smallest long, and NaN (``inf * 0``) gives 0. C's cast is
    undefined there (x86 gives the smallest long in all three cases, which
    turns a huge count or length negative); saturating keeps a huge one huge."""
    if isinstance(x, np.ndarray) and x.size:
        lo, hi = x.min(), x.max()  # (NaN anywhere makes both NaN: the checks below fail)
        if lo >= -(2.0 ** 63) and hi <= _LONG_MAX_DOUBLE:
            return x.astype(np.int64)  # every value a long already: no clipping, two passes fewer
    return np.nan_to_num(np.clip(x, -(2.0 ** 63), _LONG_MAX_DOUBLE), nan=0.0).astype(np.int64)


def safe_div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` where ``den > 0``, else 0 (trec_eval leaves such values at 0)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


#: The NaN trec_eval's arithmetic produces on the x86 machines its reference
#: output comes from (0.0/0.0, the log of a negative number): its sign bit is
#: set, so C's printf shows "-nan". A NaN read from input keeps its own sign.
C_NAN = -math.nan


def c_log(v: float) -> float:
    """C's ``log`` of one double: -inf at 0, a negative NaN below 0 (see :data:`C_NAN`)."""
    if v > 0.0:
        return math.log(v)
    if v == 0.0:
        return -math.inf
    return v if v != v else C_NAN


def c_log2(v: float) -> float:
    """C's ``log2`` of one double, with :func:`c_log`'s edge cases."""
    if v > 0.0:
        return math.log2(v)
    if v == 0.0:
        return -math.inf
    return v if v != v else C_NAN
