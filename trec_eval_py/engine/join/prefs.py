"""Join stage for preference judgments (``-R prefs`` and ``-R qrels_prefs``).

For every evaluated topic this stage turns the run's ranking and the
topic's preference lines into the counts the ``prefs_*`` measures read, the
way trec_eval forms them:

* **Document ids.** Only documents that occur in the topic's judgments
  matter. The judged documents the run retrieved get ids ``0 .. R-1`` in
  rank order (``R`` = ``num_judged_ret``); the judged documents it did not
  retrieve get ids ``R ..`` in docno byte order. A smaller id is therefore
  "ranked higher", and a retrieved document is ranked above every
  unretrieved one. The ranking is :class:`~.order.RankRule`'s with equal
  scores in *ascending* docno order (trec_eval's preference code breaks
  ties this way, unlike its other measures); ``-M`` applies, ``-J`` does not.
* **Judgment groups.** Lines are grouped by judgment group (byte order of
  its name). A group with a single sub-group is a list of *equivalence
  classes* (documents with equal levels): every document of a class is
  preferred to every document of each lower class, and a document listed
  twice counts twice. A group with several sub-groups is a *preference
  array*: the sub-groups' preferences are combined and closed under
  transitivity; a document pair counts once, and a group that ends up
  preferring A to B and B to A is an error.
* **Counts.** A preference "A over B" is *fulfilled* when A's id is smaller
  than B's and A was retrieved. It is in the *ret* category when both were
  retrieved, *imp* (implied) when exactly one was, and *notoccur* when
  neither was. Per group: fulfilled and possible counts for ret and imp, the
  notoccur count, and the relevant (level > 0) and non-relevant (level <= 0
  in a class list, exactly 0 in a preference array) documents, retrieved and
  in all.
* **Pair counts.** ``pair_counts[i, j]`` is the number of groups preferring
  document ``i`` to ``j``; ``pair_sums`` condenses it for the ``prefs_pair*``
  measures. Both are built only when asked for.

Errors trec_eval reports (or crashes on) are :class:`InputError` here, naming
the file and a line of the offending group.
"""
from __future__ import annotations

from functools import cached_property

import numpy as np

from ..._record import record
from ...errors import InputError
from ..parse.prefs import Prefs
from ..parse.run import Run
from .context import EvalContext
from .keys import check_duplicates
from .order import RankRule, segment_positions


@record(frozen=False, eq=False)
class JudgmentGroup:
    """One judgment group of a topic, with its preference counts.

    Counts (``poss_*`` include the fulfilled ones):
      ful_ret, poss_ret : preferences between two retrieved documents
      ful_imp, poss_imp : preferences with exactly one document retrieved
      notoccur          : preferences between two unretrieved documents
      num_rel, num_rel_ret, num_nonrel, num_nonrel_ret : relevant and
          non-relevant judged documents (class lists count each line)

    Representation (one of the two):
      ecs : class list, levels descending; each entry the ascending ids of
            the lines of that class
      local, closure, rel_level : preference array over the group's
            documents ``local`` (ascending ids); ``closure[a, b]`` says
            ``local[a]`` is preferred to ``local[b]``; ``rel_level`` is the
            level each document was given last (sub-group order)
    """

    ful_ret: int
    poss_ret: int
    ful_imp: int
    poss_imp: int
    notoccur: int
    num_rel: int
    num_rel_ret: int
    num_nonrel: int
    num_nonrel_ret: int
    ecs: list | None = None
    local: np.ndarray | None = None
    closure: np.ndarray | None = None
    rel_level: np.ndarray | None = None

    @property
    def is_class_list(self) -> bool:
        return self.ecs is not None

    @property
    def ful(self) -> int:
        return self.ful_ret + self.ful_imp

    @property
    def poss(self) -> int:
        return self.poss_ret + self.poss_imp + self.notoccur


class TopicPrefs:
    """The preference structures of one topic against one ranking."""

    def __init__(self, qid: str, num_judged: int, num_judged_ret: int, jgs: list[JudgmentGroup]):
        self.qid = qid
        self.num_judged = num_judged
        self.num_judged_ret = num_judged_ret
        self.jgs = jgs

    @cached_property
    def pair_counts(self) -> np.ndarray:
        """int32 (num_judged, num_judged): groups preferring document i to j."""
        n = self.num_judged
        ca = np.zeros((n, n), dtype=np.int32)
        for g in self.jgs:
            if g.ecs is not None:  # is_class_list
                ids = np.concatenate(g.ecs)
                cls = np.repeat(np.arange(len(g.ecs)), [len(e) for e in g.ecs])
                if len(np.unique(ids)) == len(ids):
                    # class of each document by id (-1: not in the group); compare in place
                    cls_of = np.full(n, -1, dtype=np.int64)
                    cls_of[ids] = cls
                    ca += (cls_of[:, None] < cls_of[None, :]) & (cls_of >= 0)[:, None]
                else:  # a document listed twice counts twice
                    a, b = np.nonzero(cls[:, None] < cls[None, :])
                    np.add.at(ca, (ids[a], ids[b]), 1)
            else:
                assert g.local is not None and g.closure is not None, "a group is a class list or an array"
                ca[np.ix_(g.local, g.local)] += g.closure
        return ca

    @cached_property
    def pair_sums(self) -> tuple[float, int, float, int, int]:
        """What the ``prefs_pair*`` measures need, over document pairs i < j that
        some group has a preference on, scoring ``c[i,j] / (c[i,j] + c[j,i])``:

        (sum over pairs of two retrieved documents, their number,
         that sum continued over pairs with only i retrieved, the number of those,
         the number of pairs of two unretrieved documents).

        Sums are added row by row, retrieved pairs first, as trec_eval does.
        """
        c = self.pair_counts
        k = self.num_judged_ret
        nz = c > 0
        n_none = int(np.count_nonzero(nz[k:, k:] | nz[k:, k:].T)) // 2
        if len(self.jgs) == 1:
            # one group never prefers i to j and j to i: every pair scores exactly 0 or 1
            s1 = int(np.count_nonzero(np.triu(nz[:k, :k], 1)))
            n1 = s1 + int(np.count_nonzero(np.tril(nz[:k, :k], -1)))
            s2 = int(np.count_nonzero(nz[:k, k:]))
            n2 = s2 + int(np.count_nonzero(nz[k:, :k]))
            return float(s1), n1, float(s1 + s2), n2, n_none
        rr = c[:k, :k].astype(np.int64)
        u = rr + rr.T
        m = np.triu(u > 0, 1)
        t1 = rr[m] / u[m]
        ri = c[:k, k:].astype(np.int64)
        u2 = ri + c[k:, :k].T
        m2 = u2 > 0
        t2 = ri[m2] / u2[m2]
        both = np.cumsum(np.concatenate([t1, t2]))
        sum1 = float(both[len(t1) - 1]) if len(t1) else 0.0
        sum12 = float(both[-1]) if len(both) else 0.0
        return sum1, len(t1), sum12, len(t2), n_none


class PrefsBatch:
    """A block of topics for the ``prefs_*`` kernels.

    ``topics[i]`` is the :class:`TopicPrefs` of ``qids[i]``; kernels return
    one value per topic, e.g. ``b.map(lambda t: ...)``.
    """

    def __init__(self, topics: list[TopicPrefs], filled: np.ndarray, ctx: EvalContext, runid: str):
        self.topics = topics
        self.qids = [t.qid for t in topics]
        self.n = len(topics)
        self.filled = filled
        self.ctx = ctx
        self.runid = runid

    def map(self, fn) -> np.ndarray:
        return np.array([fn(t) for t in self.topics], dtype=np.float64).reshape(self.n)


# ---------------------------------------------------------------- building


def _err(prefs: Prefs, line: int, reason: str, check: bool = True):
    """Report inconsistent judgments of a topic trec_eval evaluates (``check``);
    for one it never evaluates (9.0.8's ``-c`` fill-ins) it never looks at them either."""
    if check:
        raise InputError(prefs.name, reason, line)


def _class_list_group(qid, jgname, lev, ids, lines, docnames, njr, prefs, check=True) -> JudgmentGroup:
    """Counts of a single-sub-group judgment group (lines sorted by level desc, id asc)."""
    # a document in two classes cannot be ordered against itself
    order = np.lexsort((lev, ids))
    si, sl = ids[order], lev[order]
    clash = np.flatnonzero((si[1:] == si[:-1]) & (sl[1:] != sl[:-1]))
    if len(clash):
        a, b = order[clash[0]], order[clash[0] + 1]
        j = a if lines[a] > lines[b] else b  # point at the later of the two lines
        _err(prefs, int(lines[j]),
             f"topic {qid}, judgment group {jgname}: document {docnames[j]!r} has two different "
             f"levels in one sub-group", check)
    starts = np.flatnonzero(np.r_[True, lev[1:] != lev[:-1]])
    ecs = np.split(ids, starts[1:])
    ful_ret = poss_ret = ful_imp = poss_imp = notoccur = 0
    higher = np.zeros(0, dtype=np.int64)  # ids of all lines in higher classes, sorted
    hi_ret = hi_unret = 0
    for ec in ecs:
        r = int(np.searchsorted(ec, njr))  # ids are ascending: retrieved ones first
        ret = ec[:r]
        u = len(ec) - r
        # A (higher) over B (this class): fulfilled iff id(A) < id(B) and A retrieved
        ful_ret += int(np.searchsorted(higher[:hi_ret], ret, "left").sum())
        poss_ret += hi_ret * r
        ful_imp += hi_ret * u
        poss_imp += hi_ret * u + hi_unret * r
        notoccur += hi_unret * u
        higher = np.insert(higher, np.searchsorted(higher, ec), ec)
        hi_ret += r
        hi_unret += u
    rel = lev > 0.0
    ret = ids < njr
    return JudgmentGroup(
        ful_ret=ful_ret, poss_ret=poss_ret, ful_imp=ful_imp, poss_imp=poss_imp, notoccur=notoccur,
        num_rel=int(rel.sum()), num_rel_ret=int((rel & ret).sum()),
        num_nonrel=int((~rel).sum()), num_nonrel_ret=int((~rel & ret).sum()),
        ecs=ecs,
    )


def transitive_closure(a: np.ndarray) -> np.ndarray:
    """Boolean transitive closure of a square relation (reflexive pairs dropped)."""
    r = a.copy()
    np.fill_diagonal(r, True)
    while True:
        f = r.astype(np.float32)
        nxt = (f @ f) > 0
        if np.array_equal(nxt, r):
            break
        r = nxt
    np.fill_diagonal(r, False)
    return r


def _pref_array_group(qid, jgname, jsg, lev, ids, lines, docnames, njr, prefs, check=True) -> JudgmentGroup:
    """Counts of a judgment group with several sub-groups (lines sorted by sub-group,
    level desc, id asc)."""
    local, li = np.unique(ids, return_inverse=True)
    m = len(local)
    # level of each document as given last; 0 and non-0 for one document conflict
    rel_level = np.full(m, -1.0)
    for k in range(len(ids)):
        d = li[k]
        prev, cur = rel_level[d], lev[k]
        if (prev > 0.0 and cur == 0.0) or (prev == 0.0 and cur > 0.0):
            _err(prefs, int(lines[k]),
                 f"topic {qid}, judgment group {jgname}: document {docnames[k]!r} is judged both "
                 f"not relevant (level 0) and relevant", check)
        rel_level[d] = cur
    a = np.zeros((m, m), dtype=bool)
    starts = np.flatnonzero(np.r_[True, jsg[1:] != jsg[:-1]])
    for s, e in zip(starts, np.r_[starts[1:], len(ids)]):
        p, q = np.nonzero(lev[s:e, None] > lev[None, s:e])
        a[li[s:e][p], li[s:e][q]] = True
    c = transitive_closure(a)
    both = c & c.T
    if both.any():
        d1, d2 = (int(x[0]) for x in np.nonzero(both))
        k = int(np.flatnonzero(li == d1)[0])
        _err(prefs, int(lines[k]),
             f"topic {qid}, judgment group {jgname}: contradictory preferences, documents "
             f"{docnames[k]!r} and {docnames[int(np.flatnonzero(li == d2)[0])]!r} are each "
             f"preferred to the other", check)
    r = int(np.searchsorted(local, njr))
    ful_ret = int(np.triu(c[:r, :r], 1).sum())
    poss_ret = ful_ret + int(np.tril(c[:r, :r], -1).sum())
    ful_imp = int(c[:r, r:].sum())
    poss_imp = ful_imp + int(c[r:, :r].sum())
    notoccur = int(c[r:, r:].sum())
    rel = rel_level > 0.0
    nonrel = rel_level == 0.0
    return JudgmentGroup(
        ful_ret=ful_ret, poss_ret=poss_ret, ful_imp=ful_imp, poss_imp=poss_imp, notoccur=notoccur,
        num_rel=int(rel.sum()), num_rel_ret=int(rel[:r].sum()),
        num_nonrel=int(nonrel.sum()), num_nonrel_ret=int(nonrel[:r].sum()),
        local=local, closure=c, rel_level=rel_level,
    )


class PrefsRankings:
    """Every evaluated topic's preference data, ready to be cut into batches.

    Offers what the pipeline needs of a joined value (see
    :mod:`trec_eval_py.engine.inputs`): ``qids``, ``num_topics``, ``filled``,
    ``num_qrels_topics``, ``runid``, ``ctx``, :meth:`batch_sizes` and :meth:`batch`.
    """

    def __init__(self, prefs, qids, topic_ids, filled, num_qrels_topics, runid, ctx,
                 line_offsets, line_order, docid, jg_code, jsg_code, num_judged, num_judged_ret):
        self.prefs = prefs
        self.qids = qids
        self.topic_ids = topic_ids
        self.filled = filled
        self.num_qrels_topics = num_qrels_topics
        self.runid = runid
        self.ctx = ctx
        self._off = line_offsets
        self._order = line_order
        self._docid = docid
        self._jg = jg_code
        self._jsg = jsg_code
        self._nj = num_judged
        self._njr = num_judged_ret

    @property
    def num_topics(self) -> int:
        return len(self.qids)

    def topic(self, i: int) -> TopicPrefs:
        """The :class:`TopicPrefs` of evaluated topic ``i``."""
        t = self.topic_ids[i]
        rows = self._order[self._off[t] : self._off[t + 1]]
        p = self.prefs
        qid = self.qids[i]
        nj, njr = int(self._nj[t]), int(self._njr[t])
        jg, jsg, lev, ids, lines = self._jg[rows], self._jsg[rows], p.level[rows], self._docid[rows], p.lineno[rows]
        docnames = [d.decode("utf-8", "replace") for d in p.docno[rows].tolist()]
        from .empty_topics import evaluated_topics

        # trec_eval checks a topic's judgments when it evaluates the topic; a topic it
        # never evaluates (9.0.8's -c fill-ins) may hold contradictions it never sees
        check = bool(evaluated_topics(self.filled[i : i + 1], self.ctx)[0])
        groups = []
        starts = np.flatnonzero(np.r_[True, jg[1:] != jg[:-1]])
        for s, e in zip(starts, np.r_[starts[1:], len(rows)]):
            name = p.jg[rows[s]].decode("utf-8", "replace")
            args = (qid, name)
            if np.any(jsg[s:e] != jsg[s]):
                groups.append(_pref_array_group(*args, jsg[s:e], lev[s:e], ids[s:e], lines[s:e],
                                                docnames[s:e], njr, p, check))
            else:
                groups.append(_class_list_group(*args, lev[s:e], ids[s:e], lines[s:e],
                                                docnames[s:e], njr, p, check))
        return TopicPrefs(qid, nj, njr, groups)

    def batch_sizes(self) -> tuple[np.ndarray, np.ndarray]:
        """A topic costs its pair-count matrix: (judged documents) squared cells."""
        cost = np.maximum(self._nj[self.topic_ids].astype(np.int64) ** 2, 1)
        return cost, np.ones(self.num_topics, dtype=np.int64)

    def batch(self, lo: int, hi: int) -> PrefsBatch:
        """Topics ``lo .. hi-1`` as a :class:`PrefsBatch`."""
        return PrefsBatch([self.topic(i) for i in range(lo, hi)], self.filled[lo:hi], self.ctx, self.runid)


def build_prefs(prefs: Prefs, run: Run, ctx: EvalContext) -> PrefsRankings:
    """Join preference judgments with a run (see the module docstring)."""
    npl = len(prefs)
    topics, tinv = np.unique(np.concatenate([prefs.qid, run.qid]), return_inverse=True)
    pt, rt = tinv[:npl].astype(np.int64), tinv[npl:].astype(np.int64)
    _, dinv = np.unique(np.concatenate([prefs.docno, run.docno]), return_inverse=True)
    pd, rd = dinv[:npl].astype(np.int64), dinv[npl:].astype(np.int64)
    nd = int(dinv.max()) + 1 if len(dinv) else 1
    nt = len(topics)
    check_duplicates(rt * nd + rd, run.lineno, run.docno, run.name)

    p_count = np.bincount(pt, minlength=nt)
    r_count = np.bincount(rt, minlength=nt)
    evaluated = (p_count > 0) & ((r_count > 0) | ctx.complete)

    # ranking: topic, then the preference formats' rule (docno ascending on ties); then -M
    order = RankRule.of(ctx, prefs=True).order_rows(rt, run, rd.astype(np.uint64))
    pos = segment_positions(r_count)
    keep = np.ones(len(order), dtype=bool) if ctx.max_docs is None else pos < ctx.max_docs
    rkey = (rt[order] * nd + rd[order])[keep]
    rpos = pos[keep]

    # ids of the judged documents of each topic
    ukeys, linv = np.unique(pt * nd + pd, return_inverse=True)
    big = np.iinfo(np.int64).max
    rank = np.full(len(ukeys), big, dtype=np.int64)
    at = np.searchsorted(ukeys, rkey)
    found = at < len(ukeys)
    found[found] = ukeys[at[found]] == rkey[found]
    rank[at[found]] = rpos[found]
    ut, ud = ukeys // nd, ukeys % nd
    o = np.lexsort((ud, rank, ut))
    num_judged = np.bincount(ut, minlength=nt)
    num_judged_ret = np.bincount(ut[rank < big], minlength=nt)
    uid = np.empty(len(ukeys), dtype=np.int64)
    uid[o] = segment_positions(num_judged)
    docid = uid[linv.reshape(-1)]

    _, jg_code = np.unique(prefs.jg, return_inverse=True)
    _, jsg_code = np.unique(prefs.jsg, return_inverse=True)
    jg_code, jsg_code = jg_code.reshape(-1), jsg_code.reshape(-1)
    line_order = np.lexsort((docid, -prefs.level, jsg_code, jg_code, pt))
    offsets = np.zeros(nt + 1, dtype=np.int64)
    np.cumsum(p_count, out=offsets[1:])

    ev = np.flatnonzero(evaluated)
    qids = [t.decode("utf-8", "surrogateescape") for t in topics[ev].tolist()]
    return PrefsRankings(
        prefs, qids, ev, (r_count == 0)[ev], int((p_count > 0).sum()), run.runid, ctx,
        offsets, line_order, docid, jg_code, jsg_code, num_judged, num_judged_ret,
    )
