"""Shared arithmetic of the intent-aware (diversity) measures, on
:class:`~trec_eval_py.engine.join.diversity.DiversityBatch` values.

The model (Clarke et al., SIGIR 2008): a topic has ``A`` subtopics (intents);
a document relevant to subtopic ``s`` that is the ``c``-th such document
seen so far gains ``(1 - alpha) ** c`` for ``s`` (redundancy is discounted:
with ``alpha = 1`` only the first document of each subtopic counts, with
``alpha = 0`` every one counts fully). A ranked document's *gain* is the sum
of those over its subtopics.

The ideal ranking is built greedily, as ndeval builds it (finding the best
one is NP-hard): at each rank the relevant document with the highest gain
given the documents above it, ties going to the larger docno (byte order).

Arithmetic follows ndeval's C to the last bit, since its six printed decimals
sit on these doubles: powers of ``1 - alpha`` and ``beta`` by repeated
multiplication, a document's gain added over its subtopics in ascending
order, sums over ranks left to right, the discount ``log(2)/log(rank + 1)``
through the C library's ``log``.
"""
from __future__ import annotations

import math

import numpy as np

from ..join.batch import TopicBatch
from ..join.keys import lex_order


def powers(base: float, n: int) -> np.ndarray:
    """``1, base, base*base, ...`` (n values), each the previous one times ``base``."""
    out = np.full(max(n, 1), base, dtype=np.float64)
    out[0] = 1.0
    return np.multiply.accumulate(out)


def discounts(n: int) -> np.ndarray:
    """``log(2) / log(i + 2)`` for ranks ``i = 0 .. n-1`` (1 at the top), by C's ``log``."""
    return np.array([1.0] + [math.log(2.0) / math.log(i + 2.0) for i in range(1, n)], dtype=np.float64)[:max(n, 1)]


def _pad_sums(group: np.ndarray, values: np.ndarray, num_groups: int) -> np.ndarray:
    """Left-to-right sum of ``values`` within each group (``group`` sorted, 0 ..
    num_groups-1), as a C loop adds them; 0 for an empty group."""
    out = np.zeros(num_groups, dtype=np.float64)
    if len(values) == 0:
        return out
    sizes = np.bincount(group, minlength=num_groups)
    mat = np.zeros((num_groups, int(sizes.max())), dtype=np.float64)
    pos = np.arange(len(group)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    mat[group, pos] = values
    return TopicBatch.seq_sum(mat)


def _group_ids(*cols: np.ndarray) -> np.ndarray:
    """Group number of each row of rows sorted by ``cols`` (equal values, one group)."""
    n = len(cols[0])
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for c in cols:
        new[1:] |= c[1:] != c[:-1]
    return np.cumsum(new) - 1


def by_subtopic(b) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The hits regrouped by (row, subtopic), each group in rank order: ``(order,
    row, subtopic, rank, group)``, ``order`` the permutation of the batch's hits."""
    order = lex_order(b.hit_rank, b.hit_sub, b.hit_row)
    row, sub, rank = b.hit_row[order], b.hit_sub[order], b.hit_rank[order]
    return order, row, sub, rank, _group_ids(row, sub)


def run_gains(b, alpha: float) -> np.ndarray:
    """float64 (n, width): the gain of the document at each rank (0 past the end
    and for documents relevant to nothing)."""
    out = np.zeros((b.n, b.width), dtype=np.float64)
    if len(b.hit_row) == 0:
        return out
    # how many documents above this one are relevant to the same subtopic
    by_sub, _, _, _, g = b.memo(by_subtopic)
    sizes = np.bincount(g)
    seen = np.empty(len(g), dtype=np.int64)
    seen[by_sub] = np.arange(len(g)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    gain = powers(1.0 - alpha, int(seen.max()) + 1)[seen]
    # hits are sorted by row, rank, subtopic: add each document's in subtopic order
    cell = _group_ids(b.hit_row, b.hit_rank)
    sums = _pad_sums(cell, gain, int(cell[-1]) + 1)
    first = np.flatnonzero(np.diff(cell, prepend=-1))
    out[b.hit_row[first], b.hit_rank[first]] = sums
    return out


def _signature_groups(b):
    """The batch's relevant documents grouped by topic and subtopic set (documents
    with the same subtopics always gain the same). Returns, padded per topic:
    ``subs`` (n, G, K) each group's subtopics ascending (``S`` past the end),
    ``docs`` (n, G, C) its documents' positions in descending docno order
    (ascending; ``R`` past the end) and ``size`` (n, G) its number of documents."""
    n, r, s = b.member.shape
    row, j = np.nonzero(np.arange(r)[None, :] < b.num_relevant[:, None])
    packed = np.packbits(b.member[row, j], axis=1, bitorder="little")
    width = -(-packed.shape[1] // 8) * 8
    words = np.zeros((len(row), width), dtype=np.uint8)
    words[:, :packed.shape[1]] = packed
    words = words.view(np.uint64)
    o = lex_order(j, *[words[:, w] for w in range(words.shape[1])], row)
    row, j, words = row[o], j[o], words[o]
    group = _group_ids(row, *[words[:, w] for w in range(words.shape[1])])
    first = np.flatnonzero(np.diff(group, prepend=-1))
    g_row = row[first]
    g_col = first_cols = np.arange(len(first)) - np.searchsorted(g_row, g_row)
    size = np.zeros((n, int(g_col.max()) + 1), dtype=np.int64)
    size[g_row, g_col] = np.diff(np.append(first, len(group)))
    docs = np.full((n, size.shape[1], int(size.max())), r, dtype=np.int64)
    docs[row, g_col[group], np.arange(len(group)) - first[group]] = j
    gm = b.member[g_row, j[first]]  # (groups, S): one document's subtopics per group
    k = max(int(gm.sum(axis=1).max()), 1)
    subs = np.full((n, size.shape[1], k), s, dtype=np.int64)
    gr, gs = np.nonzero(gm)
    subs[g_row[gr], first_cols[gr], np.arange(len(gr)) - np.searchsorted(gr, gr)] = gs
    return subs, docs, size


#: the greedy ideal ranking is built for at least this many ranks at once (the
#: measures of one batch ask for prefixes of it: ndeval's 20 ranks, NRBP's ~60)
IDEAL_MIN_RANKS = 64


def ideal_gains(b, alpha: float, ranks: int | None = None) -> np.ndarray:
    """float64 (n, at least ``ranks`` or every relevant document): the gains of the greedy
    ideal ranking's first ranks (0 padded). Built once per batch and alpha for the
    longest prefix asked for."""
    r = b.member.shape[1]
    need = r if ranks is None else min(r, max(ranks, IDEAL_MIN_RANKS))
    cache = b.__dict__.setdefault("_ideal", {})
    have = cache.get(alpha)
    if have is None or have[0] < need:
        cache[alpha] = have = (need, _greedy(b, alpha, need))
    return have[1]


def _greedy(b, alpha: float, steps: int) -> np.ndarray:
    n, r, s = b.member.shape
    out = np.zeros((n, max(r, 1)), dtype=np.float64)
    if r == 0:
        return out
    subs, docs, size = _signature_groups(b)
    pw = np.append(powers(1.0 - alpha, r + 1), 0.0)  # the last: what subtopic S (none) gains
    # topics with the most relevant documents first: those still ranking at step k are rows 0 .. m-1
    order = np.argsort(-b.num_relevant, kind="stable")
    left, subs, docs, size = b.num_relevant[order], subs[order], docs[order], size[order]
    taken = np.zeros(size.shape, dtype=np.int64)
    head = docs[:, :, 0].copy()  # each group's next document (r: none left)
    seen = np.zeros((n, s + 1), dtype=np.int64)
    nothing = len(pw) - 1
    seen[:, s] = nothing
    ideal = np.zeros((n, r), dtype=np.float64)
    active = n
    for step in range(steps):
        while active and left[active - 1] <= step:
            active -= 1
        rows = np.arange(active)[:, None]
        gain = pw[seen[:active]]
        sub = subs[:active]
        score = gain[rows, sub[:, :, 0]]
        for q in range(1, sub.shape[2]):  # in subtopic order, as the C loop adds them
            score = score + gain[rows, sub[:, :, q]]
        h = head[:active]
        score[h == r] = -1.0
        best = score.max(axis=1)
        # among the best groups, the one whose next document has the largest docno
        pick = np.where(score == best[:, None], h, r).argmin(axis=1)
        at = np.arange(active)
        ideal[at, step] = best
        taken[at, pick] += 1
        nxt = taken[at, pick]
        head[at, pick] = np.where(nxt < size[at, pick], docs[at, pick, np.minimum(nxt, docs.shape[2] - 1)], r)
        for q in range(sub.shape[2]):
            seen[at, sub[at, pick, q]] += 1
        seen[:, s] = nothing
    out[order] = ideal
    return out


def nrbp_ranks(b, beta: float) -> int:
    """How many ideal ranks NRBP needs: past them every term ``gain beta^i`` (gain at
    most the number of subtopics) is well below half a unit in the last place of any sum
    of at least 1 (the ideal's first gain is 1 or more), so adding it changes nothing."""
    r = b.member.shape[1]
    decay = powers(beta, r + 1)
    small = np.flatnonzero(decay * b.max_subtopics < 2.0 ** -56)  # a margin for the rounding of the products
    return int(small[0]) if len(small) else r


def _padded(x: np.ndarray, k: int) -> np.ndarray:
    if x.shape[1] >= k:
        return x[:, :k]
    return np.concatenate([x, np.zeros((x.shape[0], k - x.shape[1]))], axis=1)


def _ideal_ideal(num_subtopics: np.ndarray, alpha: float, kind: str, k: int) -> np.ndarray:
    """Cumulative ``A (1 - alpha)^i`` discounted as ``kind`` discounts: every subtopic
    covered at every rank (the "collection-independent" normaliser of ERR-IA and
    alpha-DCG)."""
    steps = np.full((len(num_subtopics), k), 1.0 - alpha)
    steps[:, 0] = num_subtopics.astype(np.float64)
    return np.cumsum(_discounted(np.multiply.accumulate(steps, axis=1), kind), axis=1)


def _discounted(gains: np.ndarray, kind: str) -> np.ndarray:
    """Gains at ranks 1 .. k times the DCG discount (``dcg``) or over the rank (``err``)."""
    k = gains.shape[1]
    if kind == "dcg":
        return gains * discounts(k)
    return gains / np.arange(1, k + 1, dtype=np.float64)


def cumulative(b, alpha: float, kind: str, k: int, ideal: bool) -> np.ndarray:
    """float64 (n, k): alpha-DCG (``kind="dcg"``) or ERR-IA (``"err"``) of the run
    (or with ``ideal``, of the ideal ranking) at every cutoff 1 .. k, each divided by
    its "ideal ideal" value; 0 for a topic without subtopics."""
    gains = ideal_gains(b, alpha, k) if ideal else b.memo(run_gains, alpha)
    cum = np.cumsum(_discounted(_padded(gains, k), kind), axis=1)
    a = b.num_subtopics
    out = np.zeros((b.n, k), dtype=np.float64)
    has = a > 0
    out[has] = cum[has] / _ideal_ideal(a[has], alpha, kind, k)
    return out


def at_cutoffs(b, alpha: float, kind: str, cutoffs, normalised: bool) -> np.ndarray:
    """(n, len(cutoffs)): alpha-DCG / ERR-IA at the cutoffs, or with ``normalised``
    their ratio to the ideal ranking's (0 where the run's value is 0)."""
    k = max(cutoffs)
    run = b.memo(cumulative, alpha, kind, k, False)
    cols = [c - 1 for c in cutoffs]
    if not normalised:
        return run[:, cols]
    ideal = b.memo(cumulative, alpha, kind, k, True)
    r, i = run[:, cols], ideal[:, cols]
    out = np.zeros_like(r)
    np.divide(r, i, out=out, where=r != 0)
    return out


def first_hits(b) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The hits regrouped by (row, subtopic), each group in rank order:
    ``(row, subtopic, rank, group)`` per hit."""
    return b.memo(by_subtopic)[1:]


def nrbp(b, alpha: float, beta: float, ideal: bool) -> np.ndarray:
    """float64 (n,): NRBP of the run (or the ideal ranking); 0 for a topic without subtopics."""
    if ideal:
        ranks = nrbp_ranks(b, beta)
        gains = ideal_gains(b, alpha, ranks)[:, :ranks]
    else:
        gains = b.memo(run_gains, alpha)
    total = TopicBatch.seq_sum(gains * powers(beta, gains.shape[1]))
    a = b.num_subtopics
    out = np.zeros(b.n, dtype=np.float64)
    has = a > 0
    out[has] = total[has] * ((1.0 - (1.0 - alpha) * beta) / a[has])
    return out
