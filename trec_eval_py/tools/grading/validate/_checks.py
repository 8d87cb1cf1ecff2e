"""The checks on the columns of complete topics: documents listed twice, too many
documents, ranks and scores, ties the tie-break decides."""
from __future__ import annotations

from typing import Any

import numpy as np

from ....engine.join.keys import docno_words, row_hash, run_starts, sort_distinct
from ....engine.join.order import RankRule
from ._findings import DEFAULT_MAX_PER_CHECK, ERROR, NOTE, WARNING, _Collector, _show
from ._lines import _Cols


class _Tally:
    """One check's finding added up over groups of whole topics, given in any
    order: the example (where, and what to say of it) with the least ``key``,
    the places counted, the least of their lines (at most ``most``) and a
    number of the check's own (``extra``: a largest size, a count of groups;
    ``severe``: how many of those make the finding a warning).

    The key of an example is where checking every line at once finds it first:
    the first line of its topic for a check of topics (which looks at topics in
    the order they first appear), else its own line. So the finding does not
    depend on how the topics were grouped, nor on the order of the groups.
    """

    __slots__ = ("line", "example", "key", "count", "lines", "most", "extra", "severe")

    def __init__(self, most: int = DEFAULT_MAX_PER_CHECK):
        self.line: int | None = None
        self.example: Any = None  # what the check's message is made from
        self.key = 0
        self.count = 0
        self.lines: list = []
        self.most = most
        self.extra = 0
        self.severe = 0

    def add(self, line, example, count: int, lines=(), key: int | None = None) -> None:
        """``count`` more places, ``lines`` the least of their lines (at most
        :attr:`most`), the example at ``line`` (found first at ``key``, default ``line``)."""
        if not count:
            return
        key = line if key is None else key
        if not self.count or key < self.key:
            self.line, self.example, self.key = line, example, key
        self.count += count
        lines = list(lines)
        if lines:
            self.lines = sorted(self.lines + lines)[: self.most]


class _RunIds:
    """The run id of every result line, in file order: the first line's, every id
    (in order of first use) and the lines whose id differs from the first's."""

    def __init__(self) -> None:
        self.first: bytes | None = None
        self.ids: dict = {}
        self.other = _Tally()

    def add(self, c: _Cols) -> None:
        if not len(c):
            return
        if self.first is None:
            self.first = c.runid[0]
        other = np.flatnonzero(c.runid != self.first)
        if not len(other):  # (the common case: one id on every line)
            self.ids.setdefault(self.first, None)
            return
        for rid in c.runid[run_starts(c.runid)].tolist():
            self.ids.setdefault(rid, None)
        self.other.add(int(c.line[other[0]]), None, len(other), c.line[other[:DEFAULT_MAX_PER_CHECK]].tolist())

    def report(self, out: _Collector) -> None:
        n = self.other.count
        if not n:
            return
        ids = list(self.ids)
        shown = ", ".join(_show(r) for r in ids[:4]) + (f" and {len(ids) - 4} more" if len(ids) > 4 else "")
        assert self.first is not None  # lines were counted
        out.add(self.other.line, ERROR, "runid",
                f"{len(ids)} run ids ({shown}): a run has one; {n} line{'s' * (n != 1)} "
                f"differ{'s' * (n == 1)} from the first line's {_show(self.first)}; "
                "--ignore runid grades the file as one run",
                count=n, lines=self.other.lines)


def _topic_codes(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's topic code (topics numbered in order of first appearance) and the topic ids."""
    return _topics(qid)[:2]


def _topics(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_topic_codes`, and each topic's first row."""
    starts = run_starts(qid)
    heads = qid[starts]
    if len(np.unique(heads)) == len(heads):  # each topic's lines together, as runs are written
        return np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(qid)))), heads, starts
    ids, first, inv = np.unique(qid, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rename = np.empty(len(order), dtype=np.int64)
    rename[order] = np.arange(len(order))
    return rename[inv.ravel()], ids[order], first[order]


def _check_duplicates(c: _Cols, topic: np.ndarray, qids: np.ndarray, found: _Tally) -> np.ndarray:
    """Duplicates (topic, docno) found; returns the rows to keep (each document's first)."""
    keys = row_hash(topic, _words(c.docno), len(qids))
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    cand = np.flatnonzero(sk[1:] == sk[:-1])
    keep = np.ones(len(c), dtype=bool)
    if not len(cand):
        return keep
    # equal hashes: compare the documents themselves, each with every earlier one of its key
    pairs = []
    for i in cand.tolist():
        b = int(order[i + 1])
        j = i
        while j >= 0 and sk[j] == sk[i + 1]:
            a = int(order[j])
            if topic[a] == topic[b] and c.docno[a] == c.docno[b]:
                pairs.append((min(a, b), max(a, b)))
                break
            j -= 1
    if not pairs:
        return keep
    first_of: dict[int, int] = {}
    for a, b in sorted(pairs):
        first_of.setdefault(b, first_of.get(a, a))
    dup = np.array(sorted(first_of), dtype=np.int64)
    keep[dup] = False
    d = int(dup[0])
    found.add(int(c.line[d]),
              f"docno {_show(c.docno[d])} already listed for topic {_show(qids[topic[d]])} on line "
              f"{int(c.line[first_of[d]])}; a document is listed once per topic (trec_eval stops at it)",
              len(dup), c.line[dup[:DEFAULT_MAX_PER_CHECK]].tolist())
    return keep


def _words(docno: np.ndarray) -> np.ndarray:
    w = docno_words(docno)
    return w.reshape(-1, 1) if w.ndim == 1 else w


def _check_too_many(c: _Cols, topic: np.ndarray, qids: np.ndarray, doc_limit: int, found: _Tally,
                    first_line: np.ndarray) -> None:
    """Topics over ``doc_limit``; the first one's id, size and line of its document past
    the limit are the example, the largest size is ``found.extra`` (``first_line``:
    each topic's first line, the examples' key)."""
    if not doc_limit:
        return
    sizes = np.bincount(topic, minlength=len(qids))
    over = np.flatnonzero(sizes > doc_limit)
    if not len(over):
        return
    t = int(over[0])
    rows = np.flatnonzero(topic == t)
    found.add(int(c.line[rows[doc_limit]]), (qids[t], int(sizes[t])), len(over), key=int(first_line[t]))
    found.extra = max(found.extra, int(sizes.max()))


def _report_too_many(found: _Tally, topics: int, doc_limit: int, out: _Collector) -> None:
    if not found.count:
        return
    qid, size = found.example
    n = found.count
    out.add(found.line, ERROR, "too-many-docs",
            f"{n} topic{'s' * (n != 1)} of {topics} list more than the {doc_limit} documents "
            f"allowed (up to {found.extra}); topic {_show(qid)} has {size}, its document "
            f"{doc_limit + 1} is on this line: keep the top {doc_limit} of each topic (-M does not change this "
            "check; --ignore too-many-docs grades every document, which favours this run)", count=n)


class _Ranks:
    """The rank column's findings added up: topics whose ranks are not 1..n
    (``sequence``: the first one's message), topics with ranked rows (more than
    one), topics where a score rises along the ranks (``rises``: the first rise
    as example) and those where rises outnumber falls (``reversed``)."""

    __slots__ = ("sequence", "ranked", "rises", "reversed")

    def __init__(self):
        self.sequence = _Tally()
        self.ranked = 0
        self.rises = _Tally()
        self.reversed = _Tally()


def _rank_order(c: _Cols, topic: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, their topics, their ranks)``: the rows with a rank, by topic, rank and line."""
    idx = np.flatnonzero(~np.isnan(c.rank))
    t, r = topic[idx], c.rank[idx]
    # as they are, in a run written topic by topic in rank order
    if len(idx) > 1 and not ((t[1:] > t[:-1]) | ((t[1:] == t[:-1]) & (r[1:] >= r[:-1]))).all():
        idx = idx[np.lexsort([c.line[idx], r, t])]
        t, r = topic[idx], c.rank[idx]
    return idx, t, r


def _sequence_wrong(c: _Cols, topic: np.ndarray, ranked: tuple | None = None) -> tuple:
    """``(rows by topic and rank, their topics, ranks, the ranks 1..n expected, where they
    differ)`` (``ranked``: :func:`_rank_order` of the same lines, when made already)."""
    order, t, r = ranked if ranked is not None else _rank_order(c, topic)
    starts = np.flatnonzero(np.concatenate([[True], t[1:] != t[:-1]])) if len(order) else np.zeros(0, np.int64)
    sizes = np.diff(np.append(starts, len(order)))
    expect = np.arange(len(order)) - np.repeat(starts, sizes) + 1
    return order, t, r, expect, r != expect


def _sequence(c: _Cols, topic: np.ndarray, qids: np.ndarray, first_line: np.ndarray,
              only: np.ndarray | None = None, ranked: tuple | None = None) -> tuple | None:
    """The first place the ranks of ``c`` do not run 1, 2, ... in a topic (of the topics
    ``only`` marks, by code), as the arguments of ``_Tally.add`` (line, message, topics,
    key); None when they do (``ranked``: see :func:`_sequence_wrong`)."""
    order, t, r, expect, wrong = _sequence_wrong(c, topic, ranked)
    if only is not None:
        wrong &= only[t]
    if not wrong.any():
        return None
    bad_topics = np.unique(t[wrong])
    i = int(np.flatnonzero(wrong)[0])
    row = order[i]
    q = _show(qids[t[i]])
    pos = int(expect[i])
    if pos == 1:
        msg = f"ranks of topic {q} start at {int(r[i])}, not 1"
    elif r[i] == r[i - 1]:
        msg = f"rank {int(r[i])} of topic {q} is used again (first on line {int(c.line[order[i - 1]])})"
    else:
        msg = f"rank {pos} of topic {q} is missing: ranks jump from {int(r[i - 1])} to {int(r[i])}"
    return int(c.line[row]), msg, len(bad_topics), int(first_line[t[i]])


def _check_ranks(c: _Cols, topic: np.ndarray, qids: np.ndarray, key: np.ndarray, found: _Ranks,
                 first_line: np.ndarray, written: tuple | None = None) -> None:
    """The rank column against 1..n (a note: it is ignored) and against the scores
    (``first_line``: each topic's first line, the examples' key). ``written``: every
    line's ``(columns, topics)`` when duplicates were dropped from ``c``: a rank problem
    of the lines read that the lines as written do not have is the duplicates' (a
    dropped line still holds its rank: "rank 6 is missing" where line 6, a duplicate,
    holds it), said once, by the duplicate-docno error."""
    only = None
    if written is not None:  # the topics whose ranks are wrong as written too
        _, wt, _, _, wwrong = _sequence_wrong(*written)
        only = np.zeros(len(qids), dtype=bool)
        only[wt[wwrong]] = True
    by_rank = _rank_order(c, topic)
    seq = _sequence(c, topic, qids, first_line, only, by_rank)
    if seq is not None:
        line, msg, n, key_line = seq
        found.sequence.add(line, msg, n, key=key_line)
    order, t, r = by_rank
    if not len(order):
        return
    # scores along the ranks: key ascending is score descending; a fall in key is a rise in score
    k = key[order]
    same = t[1:] == t[:-1]
    rise = same & (k[1:] < k[:-1])
    n_topics = len(qids)
    ranked = np.bincount(t, minlength=n_topics) > 1
    found.ranked += int(ranked.sum())
    if not rise.any():
        return
    fall = same & (k[1:] > k[:-1])
    rises = np.bincount(t[1:][rise], minlength=n_topics)
    falls = np.bincount(t[1:][fall], minlength=n_topics)
    reversed_topics = np.flatnonzero((rises > falls) & ranked)
    i = int(np.flatnonzero(rise)[0])
    a, b = order[i], order[i + 1]
    found.rises.add(int(c.line[b]), f"topic {_show(qids[t[i]])}: score {c.score[b]:g} at rank {int(c.rank[b])} is "
                    f"higher than {c.score[a]:g} at rank {int(c.rank[a])}", int(np.count_nonzero(rises)),
                    key=int(first_line[t[i]]))
    if len(reversed_topics):
        first = order[np.flatnonzero(t == int(reversed_topics[0]))[0]]
        found.reversed.add(int(c.line[first]), None, len(reversed_topics), key=int(first_line[reversed_topics[0]]))


def _report_ranks(found: _Ranks, out: _Collector) -> None:
    seq = found.sequence
    if seq.count:
        out.add(seq.line, NOTE, "rank-sequence",
                f"{seq.example}; ranks should run 1, 2, ... in each topic ({seq.count} topic"
                f"{'s' * (seq.count != 1)}); the rank column is ignored (documents are ranked by score), "
                "so no value changes", count=seq.count)
    rises, rev = found.rises, found.reversed
    if not rises.count:
        return
    if rev.count * 2 >= max(found.ranked, 1):
        out.add(rev.line, WARNING, "reversed-scores",
                f"in {rev.count} of {found.ranked} topics the scores rise with the rank "
                f"({rises.example}): trec_eval ranks by score, highest first, so this ranking is evaluated upside "
                "down; give the best document the highest score", count=rev.count)
    else:
        out.add(rises.line, WARNING, "score-order",
                f"{rises.example}; in {rises.count} topic{'s' * (rises.count != 1)} a score is "
                "higher than at the rank before it: trec_eval ranks by score, not by the rank column",
                count=rises.count)


def _rank_key(c: _Cols, rule: RankRule) -> np.ndarray:
    """Each row's key under the ranking rule (ascending; equal keys tie)."""
    return rule.key(c.as_run())


def _check_ties(c: _Cols, topic: np.ndarray, qids: np.ndarray, perm: np.ndarray, key: np.ndarray,
                rel_of, cutoffs: tuple[int, ...], found: _Tally, first_line: np.ndarray) -> None:
    """Ties the docno tie-break decides where it can change a value (see the module
    docstring): topics counted, groups in ``found.extra``, those of them across a
    cutoff (the tie-break decides which documents are inside it) in ``found.severe``
    (``first_line``: each topic's first line, the example's key)."""
    t = topic[perm]
    k = key[perm]
    # positions of the ranking tied with the next one (same topic, same key); only the
    # tied positions are looked at from here on (most documents tie with none)
    with_next = (t[1:] == t[:-1]) & (k[1:] == k[:-1])
    if not with_next.any():
        return
    tied_mask = np.zeros(len(perm), dtype=bool)
    tied_mask[:-1] = with_next
    tied_mask[1:] |= with_next
    tied = np.flatnonzero(tied_mask)
    # the groups of tied positions, numbered in ranking order: a group starts at a tied
    # position that does not tie with the one before it
    starts_group = np.ones(len(tied), dtype=bool)
    starts_group[1:] = ~with_next[tied[1:] - 1]
    first = np.flatnonzero(starts_group)
    g = np.cumsum(starts_group) - 1
    n_groups = len(first)
    last = np.append(first[1:], len(tied)) - 1
    rows = perm[tied]
    # the ranks given, in evaluation order: a later document with a smaller rank was meant earlier
    r = c.rank[rows]
    disagree = np.zeros(len(rows), dtype=bool)
    valid = ~np.isnan(r)
    if valid.any():
        same = g[1:] == g[:-1]
        # the running maximum of the ranks within each group (groups lifted apart so that one
        # accumulate serves them all): a rank below it was meant before a document evaluated earlier
        lo = float(np.nanmin(r))
        span = float(np.nanmax(r)) - lo + 1.0
        lifted = np.where(valid, r - lo, 0.0) + g * span
        run_max = np.maximum.accumulate(lifted) - g * span + lo
        disagree[1:] = same & (r[1:] < run_max[:-1]) & valid[1:]
    group_disagrees = np.zeros(n_groups, dtype=bool)
    group_disagrees[g[disagree]] = True
    if not valid.any():  # no ranks at all: no group says what was meant
        group_disagrees[:] = True
    # position of each tied row in its topic's ranking; a group straddles k if it holds
    # positions k-1 and k (its rows are consecutive: its first and last are its lowest and highest)
    topic_start = np.flatnonzero(np.concatenate([[True], t[1:] != t[:-1]]))
    pos = tied - topic_start[np.searchsorted(topic_start, tied, side="right") - 1]
    gpos_lo, gpos_hi = pos[first], pos[last]
    straddle = np.zeros(n_groups, dtype=bool)
    for cut in cutoffs:
        straddle |= (gpos_lo < cut) & (gpos_hi >= cut)
    if rel_of is not None:
        rel = rel_of(rows)
        matters = group_disagrees & (np.maximum.reduceat(rel, first) > np.minimum.reduceat(rel, first))
    else:
        matters = group_disagrees & straddle
    if not matters.any():
        return
    topics = sort_distinct(t[tied[matters[g]]])
    first_group = int(np.flatnonzero(matters)[0])
    members = rows[first[first_group]:last[first_group] + 1]
    pair_at = _shown_pair(c.rank[members])
    if pair_at is not None:
        # the pair shown: a document evaluated first, and one the run ranked before it
        a, b = members[pair_at[0]], members[pair_at[1]]
        pair = (f"{_show(c.docno[a])} (rank {int(c.rank[a])}) is evaluated before {_show(c.docno[b])} "
                f"(rank {int(c.rank[b])})")
    else:
        a, b = members[0], members[1]
        pair = f"{_show(c.docno[a])} is evaluated before {_show(c.docno[b])}"
    equal = (f"the same score {c.score[a]:g}" if c.score[a] == c.score[b] else
             f"scores {c.score[a]!r} and {c.score[b]!r}, equal in single precision as trec_eval 9.0.8 "
             "compares them")
    found.add(int(c.line[a]), f"topic {_show(qids[topic[a]])}: {pair}, with {equal}", len(topics),
              key=int(first_line[topic[a]]))
    found.extra += int(matters.sum())
    found.severe += int((matters & straddle).sum())


def _shown_pair(ranks: np.ndarray) -> tuple[int, int] | None:
    """Which two of a tied group's documents (``ranks``: theirs, in evaluation order;
    NaN where the rank is no integer) show how the tie-break goes against the run:
    the first one and the first later one the run ranked before it; else (the first
    has no rank, or none is ranked before it) the first document ranked before an
    earlier one, and the first of those earlier ones. None when no two ranks say so
    (then no rank is shown)."""
    if np.isnan(ranks).all():
        return None
    if not np.isnan(ranks[0]):
        later = np.flatnonzero(ranks[1:] < ranks[0])
        if len(later):
            return 0, int(later[0]) + 1
    before = np.fmax.accumulate(ranks)  # the highest rank given so far (NaN until one is)
    meant_earlier = np.flatnonzero(ranks[1:] < before[:-1])
    if not len(meant_earlier):
        return None
    j = int(meant_earlier[0]) + 1
    return int(np.flatnonzero(ranks[:j] > ranks[j])[0]), j


def _report_ties(found: _Tally, why: str, cutoffs: tuple[int, ...], out: _Collector) -> None:
    """The ``tie`` finding: a note, or a warning when a tie decides which documents are
    inside a cutoff (``found.severe``: a cutoff measure's value then depends on the docno)."""
    if not found.count:
        return
    n, topics, cut = found.extra, found.count, found.severe
    across = ""
    if cut and cut != n:
        across = f" ({cut} of them across a cutoff: {', '.join(map(str, cutoffs))})"
    elif cut and "cutoff" not in why:
        across = f" across a cutoff ({', '.join(map(str, cutoffs))})"
    out.add(found.line, WARNING if cut else NOTE, "tie",
            f"{n} group{'s' * (n != 1)} of tied scores {why}{across} in {topics} topic{'s' * (topics != 1)}: "
            f"trec_eval orders equal scores by docno (descending), not by the rank column; e.g. "
            f"{found.example}; give documents distinct scores", count=topics)
