"""Which documents to judge, from many runs: ``trec_eval_py pool``.

Methods (each topic on its own; a run's ranks are the ranking rule's, see
:mod:`trec_eval_py.tools.shared.runs`):

``depth`` (TREC's depth-k pool)
    every document some run ranks at or above ``depth``. Every run is pooled
    to the same depth. Voorhees & Harman, *TREC* (2005), ch. 1.
``union`` (top-k union per run)
    the same union with a depth per run (``run_depths``, by run name; the
    runs not named are pooled to ``depth``, a depth of 0 leaves a run out):
    TREC pools each group's priority runs deeper than its others.
``rbp`` (rank-biased pooling)
    Moffat, Webber & Zobel 2007, "Strategic system comparisons via targeted
    relevance judgments": a document weighs what it adds to the rank-biased precision of the runs
    that retrieve it, the sum over runs of ``(1-p) p^(rank-1)``; the
    ``budget`` heaviest unjudged documents of each topic are chosen. With
    judgments so far (``judged``), the choice adapts: a run whose RBP
    interval, ``[base, base + residual]`` (base: the weight of its judged
    relevant documents; residual: the weight of its unjudged ones plus the
    ``p^n`` beyond its ``n`` documents), lies wholly below the best run's
    base can no longer be the best; only the runs still in contention give
    weight. Without judgments every run is in contention (the static
    summed-weight order).
``mtf`` (move-to-front pooling)
    Cormack, Palmer & Clarke 1998, "Efficient construction of large test
    collections": runs take turns by priority, all equal at first; the run of highest
    priority (the first named among equals) gives its best document not yet
    taken; while its documents are relevant it keeps its priority, a
    non-relevant one lowers it by one, so the turn passes on. Judgments so
    far (``judged``) steer the order and cost nothing; a document not in them
    is one of the ``budget`` chosen, and counts as non-relevant while the
    rest of the batch is planned (judge the batch, add it to the judgments,
    run again for the next).

``depth`` and ``union`` list each topic's documents in byte order of docno
(judges should not see the ranks); ``rbp`` and ``mtf`` in the order chosen
(the most useful first). Each chosen document carries the runs that put it
at or above their pooling depth (``rbp`` and ``mtf``: anywhere in the run)
and at what rank.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from ..._record import field, record
from ...engine.join.keys import docno_words
from ...engine.join.order import RankRule
from ...engine.parse import Run
from ...errors import UsageError
from ..shared.runs import Block, Restart, regrouped_blocks, run_labels, topic_blocks

METHODS = ("depth", "union", "rbp", "mtf")

#: what :func:`iter_pool` yields when the parts before are void
RESTART = object()
FORMATS = ("text", "qrels", "csv", "json")
#: what ends the JSON judging file (``[]`` when nothing was written)
JSON_END = "\n]\n"
STATS_FORMATS = ("text", "csv", "json")


@record(eq=False)
class PoolPart:
    """Chosen documents of some topics, with their contributors.

    topic, docno : per chosen document, in judging order; offsets : document j's
    contributors are ``run[offsets[j]:offsets[j+1]]`` (run indices, ascending)
    at ranks ``rank[...]``.
    """

    topic: np.ndarray
    docno: np.ndarray
    offsets: np.ndarray
    run: np.ndarray
    rank: np.ndarray

    def __len__(self) -> int:
        return len(self.docno)


@record(frozen=False, eq=False)
class PoolStats:
    """What the pool holds: per topic its size; per run the documents it put in
    the pool (``contributed``) and those no other run put there (``unique``)."""

    runs: list = field(factory=list)
    topics: list = field(factory=list)
    size: list = field(factory=list)
    contributed: np.ndarray | None = None
    unique: np.ndarray | None = None

    @property
    def total(self) -> int:
        return int(sum(self.size))

    def counts(self) -> tuple[np.ndarray, np.ndarray]:
        """``(contributed, unique)``: counted in place from the first block on."""
        assert self.contributed is not None and self.unique is not None, "no block pooled yet"
        return self.contributed, self.unique


@record(eq=False)
class Pool:
    """A pool: its documents (:class:`PoolPart` values, topics ascending) and statistics."""

    parts: list
    stats: PoolStats

    def entries(self) -> list[tuple[str, str, dict[str, int]]]:
        """``(topic, docno, {run: rank})`` of every chosen document, in judging order."""
        out = []
        for part in self.parts:
            for j in range(len(part)):
                lo, hi = int(part.offsets[j]), int(part.offsets[j + 1])
                out.append((_text(part.topic[j]), _text(part.docno[j]),
                            {self.stats.runs[r]: int(k) for r, k in zip(part.run[lo:hi], part.rank[lo:hi])}))
        return out


def _text(b: bytes) -> str:
    return b.decode("utf-8", "surrogateescape")


def _judged_levels(judged, opts):
    """``{(topic, docno): level}`` of judgments so far (any -R format with docnos)."""
    if judged is None:
        return None
    from ...engine.pipeline import read_judgments

    j = read_judgments(judged, opts)
    level = getattr(j, "rel", None)
    if level is None:
        level = getattr(j, "level", None)
    if level is None:
        raise UsageError(f"'-R {opts.rel_format}' judgments carry no relevance level per document")
    return dict(zip(zip(j.qid.tolist(), j.docno.tolist()), np.asarray(level).tolist()))


def pool_rows(block: Block, depths: Sequence[int | None]):
    """Every (topic code, docno, run, rank) of the block within each run's depth (None: all)."""
    t, d, r, k = [], [], [], []
    width = max([1] + [x.docno.dtype.itemsize for x in block.runs])
    for i, run in enumerate(block.runs):
        if depths[i] == 0 or not len(run):
            continue
        ranks = run.ranks()
        keep = slice(None) if depths[i] is None else ranks <= depths[i]
        codes = np.repeat(np.searchsorted(block.topics, run.topics), run.counts)
        t.append(codes[keep])
        d.append(run.docno[keep].astype(f"S{width}"))
        r.append(np.full(len(t[-1]), i, dtype=np.int64))
        k.append(ranks[keep])
    if not t:
        z = np.zeros(0, np.int64)
        return z, np.zeros(0, "S1"), z, z
    return np.concatenate(t), np.concatenate(d), np.concatenate(r), np.concatenate(k)


def group_documents(t, d, r):
    """Row order by (topic, docno ascending, run) and the start of each (topic, docno) group."""
    words = docno_words(d)
    order = np.lexsort([r] + [words[:, j] for j in reversed(range(words.shape[1]))] + [t])
    ts, ws = t[order], words[order]
    new = np.ones(len(order), dtype=bool)
    if len(order) > 1:
        new[1:] = (ts[1:] != ts[:-1]) | (ws[1:] != ws[:-1]).any(axis=1)
    return order, np.flatnonzero(new)


def _union_pool(block: Block, depths, stats: PoolStats) -> PoolPart:
    t, d, r, k = pool_rows(block, depths)
    order, starts = group_documents(t, d, r)
    t, d, r, k = t[order], d[order], r[order], k[order]
    offsets = np.append(starts, len(order)).astype(np.int64)
    sizes = np.diff(offsets)
    n = len(stats.runs)
    contributed, unique = stats.counts()
    contributed += np.bincount(r, minlength=n)
    unique += np.bincount(r[starts[sizes == 1]], minlength=n)
    _sizes(stats, block, t[starts])
    return PoolPart(block.topics[t[starts]], d[starts], offsets, r, k)


def _sizes(stats: PoolStats, block: Block, codes: np.ndarray) -> None:
    per = np.bincount(codes, minlength=len(block.topics))
    stats.topics.extend(_text(x) for x in block.topics.tolist())
    stats.size.extend(per.tolist())


def _choose(block: Block, stats: PoolStats, pick) -> PoolPart:
    """Budgeted methods: ``pick(topic, rows)`` gives, for one topic, the chosen
    groups in judging order; contributors are every run that retrieved the document."""
    t, d, r, k = pool_rows(block, [None] * len(block.runs))
    order, starts = group_documents(t, d, r)
    t, d, r, k = t[order], d[order], r[order], k[order]
    ends = np.append(starts[1:], len(order))
    gt = t[starts]
    chosen = []
    tstarts = np.searchsorted(gt, np.arange(len(block.topics) + 1))
    for code in range(len(block.topics)):
        g0, g1 = int(tstarts[code]), int(tstarts[code + 1])
        if g0 == g1:
            continue
        chosen.append(g0 + np.asarray(pick(code, starts[g0:g1], ends[g0:g1], d, r, k), dtype=np.int64))
    groups = np.concatenate(chosen) if chosen else np.zeros(0, np.int64)
    lo, hi = starts[groups], ends[groups]
    lengths = hi - lo
    rows = np.repeat(lo - np.cumsum(lengths) + lengths, lengths) + np.arange(int(lengths.sum()))
    offsets = np.zeros(len(groups) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    n = len(stats.runs)
    rr = r[rows]
    contributed, unique = stats.counts()
    contributed += np.bincount(rr, minlength=n)
    unique += np.bincount(rr[offsets[:-1][lengths == 1]], minlength=n)
    _sizes(stats, block, gt[groups])
    return PoolPart(block.topics[gt[groups]], d[lo], offsets, rr, k[rows])


def _rbp_pick(block, judged, p, budget, rule, level):
    n_runs = len(block.runs)
    lengths = np.zeros((len(block.topics), n_runs), dtype=np.int64)
    for i, run in enumerate(block.runs):
        lengths[np.searchsorted(block.topics, run.topics), i] = run.counts

    def pick(code, gs, ge, d, r, k):
        topic = block.topics[code]
        docs = d[gs]
        if judged is not None:
            lv = [judged.get((topic, x)) for x in docs.tolist()]
            is_judged = np.array([v is not None and v >= 0 for v in lv], dtype=bool)
            relevant = np.array([v is not None and v >= level for v in lv], dtype=bool)
        else:
            is_judged = relevant = np.zeros(len(gs), dtype=bool)
        grp = np.repeat(np.arange(len(gs)), ge - gs)
        w = (1 - p) * p ** (k[gs[0]:ge[-1]].astype(np.float64) - 1)
        runs = r[gs[0]:ge[-1]]
        base = np.bincount(runs, weights=w * relevant[grp], minlength=n_runs)
        unjudged = np.bincount(runs, weights=w * ~is_judged[grp], minlength=n_runs)
        residual = unjudged + p ** lengths[code].astype(np.float64)
        contending = base + residual >= base.max()
        weight = np.bincount(grp, weights=w * contending[runs], minlength=len(gs))
        cand = np.flatnonzero(~is_judged)
        if not len(cand):
            return []
        # weight descending as the exact doubles (as trectools and ranx order them), ties by docno
        # as the ranking rule breaks them; not the rule's own key: in 9.0.8 it compares scores as
        # floats, which would tie weights apart by less than a float's resolution
        fake = Run(np.zeros(len(cand), "S1"), docs[cand], weight[cand], np.arange(len(cand)))
        order = by_weight.order_rows(np.zeros(len(cand), np.int64), fake)
        return cand[order[:budget]]

    by_weight = RankRule(order="score", single_precision=False, docno_descending=rule.docno_descending)
    return pick


def _mtf_pick(block, judged, budget, level):
    def pick(code, gs, ge, d, r, k):
        topic = block.topics[code]
        n_runs = len(block.runs)
        # each run's documents (group numbers) in rank order
        grp = np.repeat(np.arange(len(gs)), ge - gs)
        rows = np.arange(gs[0], ge[-1])
        lists = []
        for i in range(n_runs):
            mine = rows[r[rows] == i]
            lists.append(grp[mine - gs[0]][np.argsort(k[mine], kind="stable")].tolist())
        docs = d[gs].tolist()
        pos = [0] * n_runs
        priority = [0] * n_runs
        taken = np.zeros(len(gs), dtype=bool)
        out = []
        while len(out) < budget:
            live = [i for i in range(n_runs) if pos[i] < len(lists[i])]
            if not live:
                break
            i = max(live, key=lambda j: (priority[j], -j))
            g = lists[i][pos[i]]
            pos[i] += 1
            if taken[g]:
                continue
            taken[g] = True
            lv = None if judged is None else judged.get((topic, docs[g]))
            if lv is None or lv < 0:
                out.append(g)
                relevant = False
            else:
                relevant = lv >= level
            if not relevant:
                priority[i] -= 1
        return out

    return pick


def pool(runs: Sequence, method: str = "depth", *, depth: int = 100, run_depths: Mapping[str, int] | None = None,
         budget: int = 100, p: float = 0.8, judged=None, **options) -> Pool:
    """The pool of ``runs`` (paths, streams, or anything ``-T`` reads) by ``method``.

    ``depth``: pool depth (``depth``, ``union``; for ``rbp`` and ``mtf``, how deep
    each run is read, None for all); ``run_depths``: ``{run name: depth}`` for
    ``union``; ``budget``: documents to choose per topic (``rbp``, ``mtf``);
    ``p``: RBP's persistence; ``judged``: judgments so far (``rbp``, ``mtf``).
    Other keywords are :class:`~trec_eval_py.engine.pipeline.Options` fields
    (``results_format``, ``rel_format`` of ``judged``, ``order``, ``compat``,
    ``relevance_level``). See the module docstring for the methods."""
    parts: list = []
    stats: PoolStats | None = None
    pairs = iter_pool(runs, method, depth=depth, run_depths=run_depths, budget=budget, p=p, judged=judged, **options)
    for part, stats in pairs:  # noqa: B007 (the last pair's stats, read after the loop, are the pool's)
        if part is RESTART:
            parts = []
        else:
            parts.append(part)
    assert stats is not None  # the last pair is a block's (iter_pool raises for runs without results)
    return Pool(parts, stats)


def _check(method, depth, run_depths, budget, p):
    if method not in METHODS:
        raise UsageError(f"unknown pooling method {method!r}; choose one of {', '.join(METHODS)}")
    if depth is not None and depth < 0:
        raise UsageError(f"--depth must be 0 or more, not {depth}")
    if method in ("rbp", "mtf") and budget < 1:
        raise UsageError(f"--budget must be 1 or more, not {budget}")
    if not 0 < p < 1:
        raise UsageError(f"--p (RBP persistence) must lie strictly between 0 and 1, not {p}")
    if run_depths and method != "union":
        raise UsageError("--run-depth applies to --method union")
    for name, k in (run_depths or {}).items():
        if k < 0:
            raise UsageError(f"--run-depth {name}={k}: a depth must be 0 or more")


def iter_pool(runs: Sequence, method: str = "depth", *, depth: int | None = 100,
              run_depths: Mapping[str, int] | None = None, budget: int = 100, p: float = 0.8, judged=None,
              **options) -> Iterator[tuple[PoolPart | object, PoolStats | None]]:
    """:func:`pool`, block by block: ``(part, stats so far)``; the last pair's stats
    are the whole pool's. Memory stays bounded for big runs (see
    :mod:`trec_eval_py.tools.shared.runs`). A pair ``(RESTART, None)`` voids every part
    before it (runs listing their topics in different orders were found out
    late; they are then read whole)."""
    from ...engine.pipeline import Options

    _check(method, depth, run_depths, budget, p)
    if not runs:
        raise UsageError("give at least one run")
    opts = Options(**options)
    judged_levels = _judged_levels(judged, opts) if method in ("rbp", "mtf") else None
    if judged is not None and method not in ("rbp", "mtf"):
        raise UsageError("--judged applies to --method rbp and mtf")
    rule = RankRule.of(opts.context)
    level = opts.relevance_level
    try:
        yield from _pool_blocks(topic_blocks(runs, opts), runs, method, depth, run_depths, budget, p,
                                judged_levels, rule, level)
    except Restart:
        yield RESTART, None  # what was yielded so far is void
        yield from _pool_blocks(regrouped_blocks(runs, opts), runs, method, depth, run_depths, budget, p,
                                judged_levels, rule, level)


def _pool_blocks(blocks, runs, method, depth, run_depths, budget, p, judged, rule, level):
    stats = PoolStats()
    depths = None
    any_block = False
    for block in blocks:
        if depths is None:
            stats.runs = run_labels(runs, [r.runid for r in block.runs])
            stats.contributed = np.zeros(len(runs), np.int64)
            stats.unique = np.zeros(len(runs), np.int64)
            if method in ("depth", "union"):
                unknown = sorted(set(run_depths or {}) - set(stats.runs))
                if unknown:
                    raise UsageError(f"--run-depth names no run given: {', '.join(unknown)} "
                                     f"(runs: {', '.join(stats.runs)})")
                depths = [(run_depths or {}).get(name, depth) for name in stats.runs]
            else:
                depths = [depth] * len(runs)
        any_block = True
        if method in ("depth", "union"):
            part = _union_pool(block, depths, stats)
        else:
            if depth is not None:  # how deep the runs are read
                block = Block(block.topics, [_head(r, depth) for r in block.runs])
            pick = (_rbp_pick(block, judged, p, budget, rule, level) if method == "rbp"
                    else _mtf_pick(block, judged, budget, level))
            part = _choose(block, stats, pick)
        yield part, stats
    if not any_block:
        raise UsageError("the runs hold no results")


def _head(run, k: int):
    """The top ``k`` documents of each topic of a :class:`~.runs.Ranked`."""
    from ..shared.runs import Ranked

    if k is None:
        return run
    keep = run.ranks() <= k
    counts = np.minimum(run.counts, k)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return Ranked(run.topics, offsets, run.docno[keep], run.score[keep], run.runid)


# ---------------------------------------------------------------- formatting

def render(kind: str, data, fmt: str, labels: Sequence[str] = (), *, first: bool = True) -> str:
    """The one formatting function of ``pool``: ``kind`` ``"pool"`` (a
    :class:`PoolPart`, written in blocks: ``first`` says nothing was written
    before; JSON's closing bracket is :data:`JSON_END`) or ``"stats"`` (a
    :class:`PoolStats`), as ``fmt`` (text, csv, json; ``qrels`` for the pool:
    ``topic 0 docno -1``, a qrels file of pooled, not yet judged documents to
    fill in)."""
    if kind == "stats":
        return _render_stats(data, fmt)
    part: PoolPart = data
    out: list[str] = []
    topic = [_text(x) for x in part.topic.tolist()]
    docno = [_text(x) for x in part.docno.tolist()]
    off = part.offsets.tolist()
    run = part.run.tolist()
    rank = part.rank.tolist()

    def contrib(j):
        return [(labels[run[c]], rank[c]) for c in range(off[j], off[j + 1])]

    if fmt == "qrels":
        out = [f"{topic[j]} 0 {docno[j]} -1\n" for j in range(len(docno))]
    elif fmt == "text":
        out = [f"{topic[j]} {docno[j]} " + " ".join(f"{n}:{k}" for n, k in contrib(j)) + "\n"
               for j in range(len(docno))]
    elif fmt == "csv":
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        if first:
            w.writerow(["topic", "docno", "runs"])
        for j in range(len(docno)):
            w.writerow([topic[j], docno[j], " ".join(f"{n}:{k}" for n, k in contrib(j))])
        out = [buf.getvalue()]
    elif fmt == "json":
        items = [json.dumps({"topic": topic[j], "docno": docno[j], "runs": dict(contrib(j))})
                 for j in range(len(docno))]
        body = ",\n".join(items)
        out = [("[\n" if first else ",\n") + body if body else ""]
    else:
        raise UsageError(f"unknown --format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return "".join(out)


def _render_stats(stats: PoolStats, fmt: str) -> str:
    runs = list(stats.runs)
    contributed, unique = (counts.tolist() for counts in stats.counts())
    if fmt == "json":
        return json.dumps({
            "topics": dict(zip(stats.topics, stats.size)), "total": stats.total,
            "runs": {n: {"contributed": c, "unique": u} for n, c, u in zip(runs, contributed, unique)},
        }, indent=1) + "\n"
    if fmt == "csv":
        lines = ["kind,name,pooled,unique"]
        lines += [f"topic,{_csv(t)},{s}," for t, s in zip(stats.topics, stats.size)]
        lines += [f"run,{_csv(n)},{c},{u}" for n, c, u in zip(runs, contributed, unique)]
        lines.append(f"all,all,{stats.total},{sum(unique)}")
        return "\n".join(lines) + "\n"
    if fmt != "text":
        raise UsageError(f"unknown --stats-format {fmt!r}; choose one of {', '.join(STATS_FORMATS)}")
    w = max([5] + [len(t) for t in stats.topics])
    lines = [f"{'topic':<{w}}  pooled"] + [f"{t:<{w}}  {s:>6}" for t, s in zip(stats.topics, stats.size)]
    lines.append(f"{'all':<{w}}  {stats.total:>6}")
    wr = max([3] + [len(n) for n in runs])
    lines += ["", f"{'run':<{wr}}  contributed  unique"]
    lines += [f"{n:<{wr}}  {c:>11}  {u:>6}" for n, c, u in zip(runs, contributed, unique)]
    return "\n".join(lines) + "\n"


def _csv(s: str) -> str:
    import csv
    import io

    buf = io.StringIO()
    csv.writer(buf, lineterminator="").writerow([s])
    return buf.getvalue()
