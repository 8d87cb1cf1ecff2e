"""Rank fusion: many runs into one TREC run, ``trec_eval_py fuse``.

Each run's documents for a topic are first given a value (``norm``, from
their scores or ranks), then every document retrieved by some run gets the
fused score of its values (``method``); the fused run is put in order by the
ranking rule (fused score descending, ties by docno; see
:mod:`trec_eval_py.tools.shared.runs`) and written as ``topic Q0 docno rank score runid``.

Normalisations of one run's list for one topic (``n`` documents, scores ``s``):

``none``    the scores as they are
``minmax``  ``(s - min) / (max - min)``
``max``     ``s / max``
``sum``     ``(s - min) / (sum(s) - n min)``
``zscore``  ``(s - mean) / std`` (population standard deviation)
``rank``    ``1 - (rank - 1) / n``

A denominator below 1e-9 counts as 1e-9 (ranx's convention), except where
that would turn a list without a scale into huge numbers; there the values
are defined as 0, as for a list of equal scores under ``minmax`` and ``sum``:

* ``zscore`` of a list of equal scores (one document, or ties only) is 0 for
  every document (ranx divides the rounding error of its mean by 1e-9 and
  gives values such as 1.1e-07, or near 1 for scores of millions);
* ``max`` of a list whose largest score is 0 or below (all scores negative,
  such as log-likelihoods, or zero) is 0 for every document: it has no positive
  maximum to scale by (ranx divides by 1e-9: a single document of score -62
  gets -6.2e10).

Methods, over the runs that retrieved the document (a run that did not
adds nothing):

``combsum`` the sum of the values; ``combmnz`` the sum times how many runs
retrieved it; ``combanz`` the sum divided by that; ``combmax``/``combmin``
the largest/smallest value of the runs that retrieved it (Fox & Shaw,
TREC-2, 1994; ranx lets a run without the document take part with -1e9 for
the maximum and 1e9 for the minimum, so a document whose values all lie
beyond those gets the stand-in instead of its own value); ``wsum`` the sum of
the values times each run's weight; ``rrf`` the sum of ``1 / (k + rank)``
(Cormack, Clarke & Büttcher, SIGIR 2009; scores and ``norm`` do not count);
``borda`` Borda counts (Aslam & Montague, SIGIR 2001): with ``c`` documents
retrieved by any run for the topic, a run gives its document of rank ``r``
``c - r + 1`` points and each document it did not retrieve
``(c - n + 1) / 2``, ``n`` its list's length (every run counts, one
without the topic as an empty list).

The definitions are ranx's (``ranx.fuse``): the fused scores are equal on
the same inputs (a property test checks it). Where they part: ranks (rrf,
borda, ``rank``) come from the ranking rule, so tied scores are ordered by
docno (ranx leaves their order to its sort); the fused run is ordered by the
rule too (in trec_eval 9.0.8's mode, fused scores equal as single-precision
floats tie); runs need not share their topics (ranx refuses them): a topic
is fused from the runs that have it; the weight search picks the first best
grid point in grid order, over every point whose weights sum to 1 (ranx
keeps the last, and its floating-point sum test drops points such as
0.1 + 0.2 + 0.7).
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from itertools import combinations

import numpy as np

from ..._record import record
from ...engine.join.keys import docno_words, row_hash
from ...engine.join.order import RankRule, segment_positions
from ...engine.parse import Run
from ...errors import UsageError
from ..shared.runs import Block, Restart, regrouped_blocks, topic_blocks, whole_blocks

METHODS = ("rrf", "combsum", "combmnz", "combanz", "combmax", "combmin", "borda", "wsum")
NORMS = ("none", "minmax", "max", "sum", "zscore", "rank")
#: methods that read ranks only
RANK_METHODS = ("rrf", "borda")
EPS = 1e-9
#: what :func:`iter_fuse` yields when the parts before are void
RESTART = object()


@record(eq=False)
class Fused:
    """Fused documents of some topics, in rank order: ``topic``, ``docno``,
    ``rank`` (1 = first in its topic) and ``score`` per row."""

    topic: np.ndarray
    docno: np.ndarray
    rank: np.ndarray
    score: np.ndarray

    def __len__(self) -> int:
        return len(self.docno)

    def to_dict(self) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = {}
        for t, d, s in zip(self.topic.tolist(), self.docno.tolist(), self.score.tolist()):
            out.setdefault(t.decode("utf-8", "surrogateescape"), {})[d.decode("utf-8", "surrogateescape")] = s
        return out


def check(method: str, norm: str | None, weights, n_runs: int, k: float) -> str:
    """The normalisation to use; :class:`UsageError` for a bad combination."""
    if method not in METHODS:
        raise UsageError(f"unknown fusion method {method!r}; choose one of {', '.join(METHODS)}")
    if norm is not None and norm not in NORMS:
        raise UsageError(f"unknown normalisation {norm!r}; choose one of {', '.join(NORMS)}")
    if method in RANK_METHODS and norm not in (None, "none"):
        raise UsageError(f"--method {method} reads ranks only; --norm does not apply")
    if weights is not None:
        if method != "wsum":
            raise UsageError("--weights apply to --method wsum")
        if len(weights) != n_runs:
            raise UsageError(f"--weights gives {len(weights)} weights for {n_runs} runs")
        if not all(math.isfinite(w) for w in weights):
            raise UsageError("--weights must be finite numbers")
    if method == "rrf" and not (math.isfinite(k) and k >= 0):
        raise UsageError(f"--k must be a number of 0 or more, not {k}")
    if n_runs < 1:
        raise UsageError("give at least one run")
    return "none" if method in RANK_METHODS else (norm or "minmax")


def _segment_stats(score: np.ndarray, offsets: np.ndarray):
    starts = offsets[:-1]
    n = np.diff(offsets)
    mn = np.minimum.reduceat(score, starts)
    mx = np.maximum.reduceat(score, starts)
    total = np.add.reduceat(score, starts)
    return n, mn, mx, total


def normalise(run, norm: str) -> np.ndarray:
    """One value per row of ``run`` (a :class:`~.runs.Ranked`), by ``norm``."""
    s = run.score.astype(np.float64)
    if norm == "none" or not len(s):
        return s.copy()
    counts = run.counts
    if norm == "rank":
        return 1.0 - (run.ranks() - 1) / np.repeat(counts, counts)
    n, mn, mx, total = _segment_stats(s, run.offsets)
    if norm == "minmax":
        return (s - np.repeat(mn, n)) / np.repeat(np.maximum(mx - mn, EPS), n)
    if norm == "max":
        # no positive maximum, no scale: every value 0 (see the module docstring)
        scale = np.where(mx > 0, np.maximum(mx, EPS), np.inf)
        return s / np.repeat(scale, n) + 0.0
    if norm == "sum":
        return (s - np.repeat(mn, n)) / np.repeat(np.maximum(total - mn * n, EPS), n)
    if norm == "zscore":
        mean = total / n
        dev = s - np.repeat(mean, n)
        std = np.sqrt(np.add.reduceat(dev * dev, run.offsets[:-1]) / n)
        # equal scores: 0, not the mean's rounding error over 1e-9
        std = np.where(mx > mn, np.maximum(std, EPS), np.inf)
        return dev / np.repeat(std, n) + 0.0
    raise UsageError(f"unknown normalisation {norm!r}; choose one of {', '.join(NORMS)}")


@record(eq=False)
class _Rows:
    """A block's rows of every run, grouped by (topic, docno)."""

    topic: np.ndarray  # per group: code in the block's topics
    docno: np.ndarray  # per group
    words: np.ndarray  # per group
    group: np.ndarray  # per row: its group
    run: np.ndarray  # per row
    rank: np.ndarray  # per row
    value: np.ndarray  # per row (normalised)
    lengths: np.ndarray  # (topics, runs): each run's list length per topic


def _gather(block: Block, norm: str) -> _Rows:
    nt, nr = len(block.topics), len(block.runs)
    width = max([1] + [r.docno.dtype.itemsize for r in block.runs])
    t_of, d_of, v_of, r_of, k_of = [], [], [], [], []  # each run's topic codes, docnos, values, run, ranks
    lengths = np.zeros((nt, nr), dtype=np.int64)
    for i, run in enumerate(block.runs):
        if not len(run):
            continue
        codes = np.searchsorted(block.topics, run.topics)
        lengths[codes, i] = run.counts
        t_of.append(np.repeat(codes, run.counts))
        d_of.append(run.docno.astype(f"S{width}"))
        v_of.append(normalise(run, norm))
        r_of.append(np.full(len(run), i, dtype=np.int64))
        k_of.append(run.ranks())
    t, d, v, r, k = (np.concatenate(x) for x in (t_of, d_of, v_of, r_of, k_of))
    words = docno_words(d)
    h = row_hash(t, words, nt)
    order = np.argsort(h, kind="stable")
    hs = h[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = hs[1:] != hs[:-1]
    group = np.cumsum(new) - 1
    first = order[np.flatnonzero(new)]
    lead = first[group]
    if not ((t[order] == t[lead]) & (words[order] == words[lead]).all(axis=1)).all():
        # two keys share a hash: sort the keys themselves
        order = np.lexsort([words[:, j] for j in reversed(range(words.shape[1]))] + [t])
        ts, ws = t[order], words[order]
        new = np.ones(len(order), dtype=bool)
        new[1:] = (ts[1:] != ts[:-1]) | (ws[1:] != ws[:-1]).any(axis=1)
        group = np.cumsum(new) - 1
        first = order[np.flatnonzero(new)]
    g = np.empty(len(order), dtype=np.int64)
    g[order] = group
    return _Rows(t[first], d[first], words[first], g, r, k, v, lengths)


def _combine(rows: _Rows, method: str, k: float, weights) -> np.ndarray:
    """The fused score of every group."""
    ng = len(rows.topic)
    g = rows.group
    if method == "rrf":
        return np.bincount(g, weights=1.0 / (k + rows.rank), minlength=ng)
    if method == "borda":
        c = np.bincount(rows.topic, minlength=rows.lengths.shape[0]).astype(np.float64)  # candidates per topic
        absent = (c[:, None] - rows.lengths + 1) / 2.0  # points for a document a run did not retrieve
        tcode = rows.topic[g]
        gain = (c[tcode] - rows.rank + 1) - absent[tcode, rows.run]
        return absent.sum(axis=1)[rows.topic] + np.bincount(g, weights=gain, minlength=ng)
    v = rows.value
    if method == "wsum":
        w = np.ones(rows.lengths.shape[1]) if weights is None else np.asarray(weights, dtype=np.float64)
        return np.bincount(g, weights=v * w[rows.run], minlength=ng)
    total = np.bincount(g, weights=v, minlength=ng)
    if method == "combsum":
        return total
    count = np.bincount(g, minlength=ng)
    if method == "combmnz":
        return total * count
    if method == "combanz":
        return total / count
    if method in ("combmax", "combmin"):
        order = np.argsort(g, kind="stable")
        starts = np.searchsorted(g[order], np.arange(ng))
        f = np.maximum if method == "combmax" else np.minimum
        return f.reduceat(v[order], starts)
    raise UsageError(f"unknown fusion method {method!r}")


def _ranked(block: Block, rows: _Rows, fused: np.ndarray, rule: RankRule, depth: int | None) -> Fused:
    fake = Run(np.zeros(len(fused), "S1"), rows.docno, fused, np.arange(len(fused)))
    order = rule.order_rows(rows.topic, fake, rows.words)
    t = rows.topic[order]
    counts = np.bincount(t, minlength=len(block.topics))
    rank = segment_positions(counts) + 1
    keep = slice(None) if not depth else rank <= depth
    return Fused(block.topics[t[keep]], rows.docno[order][keep], rank[keep], fused[order][keep])


def iter_fuse(runs: Sequence, method: str = "rrf", *, norm: str | None = None, k: float = 60,
              weights: Sequence[float] | None = None, depth: int | None = 1000,
              **options) -> Iterator[Fused | object]:
    """The fused run of ``runs`` block by block of topics (ascending ids), in
    bounded memory for big runs (see :mod:`trec_eval_py.tools.shared.runs`). A
    :data:`RESTART` voids the blocks before it. Keywords other than the
    fusion's are :class:`~trec_eval_py.engine.pipeline.Options` fields
    (``results_format``, ``order``, ``compat``)."""
    from ...engine.pipeline import Options

    norm = check(method, norm, weights, len(runs), k)
    if depth is not None and depth < 0:
        raise UsageError(f"--depth must be 0 (all) or more, not {depth}")
    opts = Options(**options)
    rule = RankRule.of(opts.context)

    def fused(blocks):
        for block in blocks:
            rows = _gather(block, norm)
            yield _ranked(block, rows, _combine(rows, method, k, weights), rule, depth)

    try:
        yield from fused(topic_blocks(runs, opts))
    except Restart:
        yield RESTART
        yield from fused(regrouped_blocks(runs, opts))


def fuse(runs: Sequence, method: str = "rrf", **kw) -> Fused:
    """:func:`iter_fuse`, every topic in one :class:`Fused`."""
    parts: list[Fused] = []
    for part in iter_fuse(runs, method, **kw):
        if part is RESTART:
            parts = []
        else:
            assert isinstance(part, Fused)  # a block, or RESTART
            parts.append(part)
    if not parts:
        z = np.zeros(0, "S1")
        return Fused(z, z, np.zeros(0, np.int64), np.zeros(0))
    w = max(p.docno.dtype.itemsize for p in parts)
    wt = max(p.topic.dtype.itemsize for p in parts)
    return Fused(np.concatenate([p.topic.astype(f"S{wt}") for p in parts]),
                 np.concatenate([p.docno.astype(f"S{w}") for p in parts]),
                 np.concatenate([p.rank for p in parts]), np.concatenate([p.score for p in parts]))


def grid(n_runs: int, step: float) -> Iterator[tuple[float, ...]]:
    """Every weight vector of ``n_runs`` multiples of ``step`` summing to 1, in
    lexicographic order of the weights (the first run's smallest first)."""
    m = round(1 / step)
    if m < 1 or abs(m * step - 1) > 1e-9:
        raise UsageError(f"--step must divide 1 (0.1, 0.05, 0.25...), not {step}")
    # stars and bars: the positions of n-1 bars among m + n - 1 places
    for bars in combinations(range(m + n_runs - 1), n_runs - 1):
        edges = (-1,) + bars + (m + n_runs - 1,)
        yield tuple(round((edges[i + 1] - edges[i] - 1) * step, 12) for i in range(n_runs))


#: the weight search refuses grids with more points than this
MAX_GRID = 20_000


def optimize_weights(runs: Sequence, qrels, measure: str, *, norm: str | None = None, step: float = 0.1,
                     depth: int | None = 1000, **options):
    """The weights of ``wsum`` that maximise ``measure``'s mean on ``qrels``.

    Every point of :func:`grid` is tried (the runs are read once, held whole);
    ties keep the first. Returns ``(weights, best value, [(weights, value)...])``.
    ``options`` are :class:`~trec_eval_py.engine.pipeline.Options` fields, for
    reading the runs and for the evaluation (``rel_format``, ``relevance_level``...)."""
    from ...engine.pipeline import Evaluator, Options

    norm = check("wsum", norm, None, len(runs), 60)
    n_points = math.comb(round(1 / step) + len(runs) - 1, len(runs) - 1) if step > 0 else 0
    if n_points > MAX_GRID:
        raise UsageError(f"the weight grid of {len(runs)} runs at --step {step} has {n_points} points "
                         f"(at most {MAX_GRID}): use a larger step or fewer runs")
    opts = Options(**options)
    rule = RankRule.of(opts.context)
    eval_opts = {k: v for k, v in options.items() if k != "results_format"}
    evaluator = Evaluator(qrels, [measure], **eval_opts)  # judgments read once for every point
    blocks = list(whole_blocks(runs, opts))
    if not blocks:
        raise UsageError("the runs hold no results")
    block = blocks[0]
    rows = _gather(block, norm)
    report = []
    best, best_w = None, None
    for w in grid(len(runs), step):
        f = _ranked(block, rows, _combine(rows, "wsum", 60, w), rule, depth)
        run = Run(f.topic, f.docno, f.score, np.arange(1, len(f) + 1, dtype=np.int64), "fused", "<fused run>")
        ev = evaluator.evaluate(run)
        values = [v for c, v in zip(ev.columns, ev.column_summary) if v is not None and c.name != "runid"]
        if not values:
            raise UsageError(f"measure {measure!r} has no summary value to maximise")
        value = float(values[0])
        report.append((w, value))
        if best is None or value > best:
            best, best_w = value, w
    return best_w, best, report


def render(part: Fused, runid: str) -> str:
    """The one formatting function of ``fuse``: TREC run lines ``topic Q0 docno rank score runid``
    (scores with every digit a float holds, so reading them back keeps the order)."""
    topic = part.topic.tolist()
    docno = part.docno.tolist()
    rid = runid.encode("utf-8", "surrogateescape")
    lines = [b"%s Q0 %s %d %s %s\n" % (t, d, k, repr(s).encode(), rid)
             for t, d, k, s in zip(topic, docno, part.rank.tolist(), part.score.tolist())]
    return b"".join(lines).decode("utf-8", "surrogateescape")
