"""The ranking rule: the one place that decides in which order a topic's
retrieved documents are evaluated.

trec_eval sorts each topic's results by score, highest first; documents
with equal scores are ordered by docno in byte order (``strcmp``),
*descending* for ordinary qrels and *ascending* for the preference formats
(its preference code sorts the other way). trec_eval 9.0.8 keeps scores as
C ``float``: two scores that differ only beyond single precision (e.g.
``1.00000001`` and ``1.0``) are equal there and fall to the docno order;
10.0 compares doubles.

Every consumer of that order goes through :class:`RankRule`: the qrels join
(:mod:`.qrels`, and through it ``qrels_jg``), the preference join
(:mod:`.prefs`) and the run linter (:mod:`trec_eval_py.tools.grading.validate`),
which must warn exactly where the evaluated order departs from the
submitted one.

What the documents are ranked *by* is the rule's primary key, looked up by
name in :data:`PRIMARY_KEYS` and chosen with ``--order`` (``EvalContext.order``):

* ``score`` (default, trec_eval's rule): score descending;
* ``rank``: the rank column ascending, as submitted (campaigns such as
  BioCreative evaluate the ranks participants give, not their confidences);
  the run must be read with its rank column (``read_run(..., rank_column=True)``);
* ``file``: the order of the lines in the file (CodiEsp's rankings are the
  file order), i.e. line number ascending: no ties.

Equal keys (the same score, or the same rank twice) still tie and fall to
the docno order, so every order is total and deterministic.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..._record import record
from ..._versions import DEFAULT_COMPAT
from ...errors import UsageError
from ..parse.run import Run
from .context import ORDERS, EvalContext, check_compat
from .keys import docno_words, run_starts, sort_distinct


def compared_scores(score: np.ndarray, single_precision: bool) -> np.ndarray:
    """Scores as the rule compares them: C floats in 9.0.8 (``single_precision``),
    doubles in 10.0. Two documents tie exactly where these are equal."""
    # A score beyond float32's range becomes +-inf, as C's double-to-float
    # assignment makes it: not worth a warning on stderr.
    if single_precision:
        with np.errstate(over="ignore"):
            return np.asarray(score).astype(np.float32)
    return np.asarray(score).astype(np.float64, copy=False)


def _by_score(run: Run, single_precision: bool) -> np.ndarray:
    # negated so that ascending key = descending score; negation is exact
    return -compared_scores(run.score, single_precision)


def _by_rank(run: Run, single_precision: bool) -> np.ndarray:
    if run.rank is None:
        raise UsageError(f"--order rank: the rank column of {run.name} was not read "
                         "(a run given as a dict has none; use --order file for insertion order)")
    return run.rank


def _by_file(run: Run, single_precision: bool) -> np.ndarray:
    return run.lineno


#: name -> function(run, single_precision) giving an ascending sort key; equal keys tie
PRIMARY_KEYS: dict[str, Callable[[Run, bool], np.ndarray]] = {
    "score": _by_score, "rank": _by_rank, "file": _by_file,
}

#: the ``--order`` values
assert tuple(PRIMARY_KEYS) == ORDERS  # the names --order accepts are checked in .context


@record
class RankRule:
    """How one topic's documents are put in evaluation order.

    order : name of the primary key in :data:`PRIMARY_KEYS` (``score``, ``rank``, ``file``).
    single_precision : compare scores as C floats (trec_eval 9.0.8).
    docno_descending : ties by docno descending (qrels) or ascending (prefs).
    """

    order: str = "score"
    single_precision: bool = True
    docno_descending: bool = True

    def __post_init__(self):
        if self.order not in PRIMARY_KEYS:
            raise UsageError(f"unknown ranking order {self.order!r} (--order); choose one of {', '.join(PRIMARY_KEYS)}")

    @classmethod
    def for_compat(cls, compat: str, *, prefs: bool = False, order: str = "score") -> RankRule:
        """The rule of trec_eval ``compat`` (``9.0.8`` or ``10.0``); ``prefs`` for
        the preference formats' ascending docno tie-break; ``order`` the primary key."""
        check_compat(compat)
        return cls(order=order, single_precision=compat != "10.0", docno_descending=not prefs)

    @classmethod
    def of(cls, ctx: EvalContext, *, prefs: bool = False) -> RankRule:
        """The rule an evaluation with settings ``ctx`` uses."""
        return cls.for_compat(ctx.compat, prefs=prefs, order=ctx.rank_order)

    def key(self, run: Run) -> np.ndarray:
        """Each row's primary sort key (ascending); rows with equal keys tie."""
        return PRIMARY_KEYS[self.order](run, self.single_precision)

    def ranked(self, run: Run) -> tuple[np.ndarray, np.ndarray]:
        """The rows of one topic's ``run`` in evaluation order, and each one's key in
        that order (rows with equal keys tie: the docno order decided between them).
        For tools that diagnose a ranking (the run linter) rather than measure it."""
        perm = self.order_rows(np.zeros(len(run.docno), dtype=np.int64), run)
        return perm, self.key(run)[perm]

    def order_rows(self, topic: np.ndarray, run: Run, words: np.ndarray | None = None) -> np.ndarray:
        """Row permutation: ``topic`` code ascending, then this rule's order.

        ``topic`` holds an integer per row (rows of one topic share it);
        ``words`` optionally gives the docnos as (n, k) uint64 words in byte
        order (:func:`~.keys.docno_words`, or any integer codes whose order
        is the docnos' byte order) when the caller already has them.
        """
        if words is None:
            words = docno_words(run.docno)
        if words.ndim == 1:
            words = words.reshape(-1, 1)
        return sort_ranked(np.asarray(topic), self.key(run), words, self.docno_descending)


def sort_ranked(topic: np.ndarray, key: np.ndarray, words: np.ndarray, docno_descending: bool) -> np.ndarray:
    """Row order: topic ascending, ``key`` ascending, docno (``words``) descending or ascending.

    Runs are usually written topic by topic already in rank order; then only
    groups of tied keys need sorting, by docno. Anything else gets a full sort.
    """
    n = len(topic)
    k = words.shape[1]
    if docno_descending:
        doc = [~words[:, j] for j in reversed(range(k))]
    else:
        doc = [words[:, j] for j in reversed(range(k))]
    starts = run_starts(topic)
    seg_topic = topic[starts]
    if n and len(sort_distinct(seg_topic)) == len(seg_topic):
        lengths = np.diff(np.append(starts, n))
        seg_order = np.argsort(seg_topic, kind="stable")
        if np.all(seg_order[1:] > seg_order[:-1]):
            perm = np.arange(n, dtype=np.int64)
        else:
            l2 = lengths[seg_order]
            perm = np.arange(n, dtype=np.int64) - np.repeat(np.cumsum(l2) - l2, l2) + np.repeat(starts[seg_order], l2)
        s = key[perm]
        t = topic[perm]
        same_topic = t[1:] == t[:-1]
        if np.all(~same_topic | (s[1:] >= s[:-1])):
            tie = same_topic & (s[1:] == s[:-1])
            if tie.any():
                gid = np.cumsum(np.concatenate([[True], ~tie])) - 1
                sizes = np.bincount(gid)
                idx = np.flatnonzero(sizes[gid] > 1)
                rows = perm[idx]
                sub = np.lexsort([d[rows] for d in doc] + [gid[idx]])
                perm[idx] = rows[sub]
            return perm
    return np.lexsort(doc + [key, topic])


def segment_positions(counts: np.ndarray) -> np.ndarray:
    """0-based position of each element within its segment, for consecutive segments of ``counts``."""
    counts = np.asarray(counts, dtype=np.int64)
    starts = np.cumsum(counts) - counts
    return np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(starts, counts)


def top_ranked(run: Run, depth: int, *, compat: str = DEFAULT_COMPAT, order: str = "score") -> Run:
    """The first ``depth`` documents of every topic of ``run``, in evaluation order.

    The documents an evaluation with ``-M depth`` (``max_docs=depth``) would
    see, ranked by this module's rule for ``compat`` and ``order`` (score
    descending, ties by docno, as trec_eval ranks them): evaluating the result
    gives the same values as evaluating ``run`` with ``max_docs=depth``. Rows
    come topic by topic (topics in byte order), each topic's in rank order.
    ``depth=0`` leaves no document, so no topic (``-M 0`` keeps the run's topics,
    each with nothing retrieved).
    """
    from .context import EvalContext
    from .keys import codes_in

    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise UsageError(f"depth must be a whole number, 0 or more, not {depth!r}")
    topics = sort_distinct(run.qid)
    codes = codes_in(run.qid, topics) if len(run) else np.zeros(0, dtype=np.int64)
    rows = RankRule.of(EvalContext(compat=compat, order=order)).order_rows(codes, run)
    keep = rows[segment_positions(np.bincount(codes, minlength=len(topics))) < depth]
    return Run(run.qid[keep], run.docno[keep], run.score[keep], run.lineno[keep], run.runid, run.name,
               None if run.rank is None else run.rank[keep])
