"""Slow, loop-by-loop reference for the preference and judgment-group measures.

Written from trec_eval's description of the formats and measures, with plain
Python lists and nested loops and no numpy, so the vectorised join stage
(trec_eval_py.engine.join.prefs / qrels_jg) and kernels can be compared against it
on random inputs.
"""
from __future__ import annotations

import math
from collections import defaultdict

PREFS_MEASURES = (
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
    "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
    "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
)


class Inconsistent(Exception):
    pass


def _doc_ids(topic_lines, ranked):
    judged = {ln[3] for ln in topic_lines}
    ids = {}
    for d in ranked:
        if d in judged:
            ids[d] = len(ids)
    njr = len(ids)
    for d in sorted(judged - set(ids), key=lambda s: s.encode()):
        ids[d] = len(ids)
    return ids, njr


def _category(a, b, njr):
    """Category of preference a over b (ids): 'ful_ret', 'poss_ret', 'ful_imp', 'poss_imp', 'none'."""
    if a < b:
        if b < njr:
            return "ful_ret"
        if a < njr:
            return "ful_imp"
        return "none"
    if a < njr:
        return "poss_ret"
    if b < njr:
        return "poss_imp"
    return "none"


def _group(entries, nj, njr, ca):
    """entries: [(jsg, level, id)] sorted by jsg, level desc, id. Returns a dict of counts."""
    g = dict(ful_ret=0, poss_ret=0, ful_imp=0, poss_imp=0, none=0,
             num_rel=0, num_rel_ret=0, num_nonrel=0, num_nonrel_ret=0)
    jsgs = {e[0] for e in entries}
    if len(jsgs) == 1:
        ecs = []
        for _, lev, i in entries:
            if ecs and ecs[-1][0] == lev:
                ecs[-1][1].append(i)
            else:
                ecs.append((lev, [i]))
        for lev, ids in ecs:
            for i in ids:
                key = "num_rel" if lev > 0.0 else "num_nonrel"
                g[key] += 1
                if i < njr:
                    g[key + "_ret"] += 1
        for x in range(len(ecs)):
            for y in range(x + 1, len(ecs)):
                for a in ecs[x][1]:
                    for b in ecs[y][1]:
                        if a == b:
                            raise Inconsistent("same doc at two levels")
                        ca[a][b] += 1
                        g[_category(a, b, njr)] += 1
        g["ecs"] = [ids for _, ids in ecs]
    else:
        rel = [-1.0] * nj
        pa = [[0] * nj for _ in range(nj)]
        for k, (jsg, lev, i) in enumerate(entries):
            if (rel[i] > 0.0 and lev == 0.0) or (rel[i] == 0.0 and lev > 0.0):
                raise Inconsistent("0 and non-0")
            rel[i] = lev
            for jsg2, lev2, j in entries[k + 1:]:
                if jsg2 == jsg and lev2 < lev:
                    pa[i][j] = 1
        for i in range(nj):
            pa[i][i] = 1
        for k in range(nj):  # Warshall
            for i in range(nj):
                if pa[i][k]:
                    for j in range(nj):
                        if pa[k][j]:
                            pa[i][j] = 1
        for i in range(nj):
            pa[i][i] = 0
        for i in range(nj):
            for j in range(nj):
                if pa[i][j] and pa[j][i]:
                    raise Inconsistent("cycle")
        for i in range(nj):
            if rel[i] > 0.0:
                g["num_rel"] += 1
                g["num_rel_ret"] += i < njr
            elif rel[i] == 0.0:
                g["num_nonrel"] += 1
                g["num_nonrel_ret"] += i < njr
        for i in range(nj):
            for j in range(nj):
                if pa[i][j]:
                    ca[i][j] += 1
                    g[_category(i, j, njr)] += 1
        g["pa"] = pa
        g["rel"] = rel
    g["poss_ret"] += g["ful_ret"]
    g["poss_imp"] += g["ful_imp"]
    return g


def _ful_all(g):
    return g["ful_ret"] + g["ful_imp"]


def _poss_all(g):
    return g["poss_ret"] + g["poss_imp"] + g["none"]


def _rnonrel_group(g, nj, njr, ret_only):
    if ret_only:
        R, N = g["num_rel_ret"], g["num_nonrel_ret"]
        ful, poss = g["ful_ret"], g["poss_ret"]
    else:
        R, N = g["num_rel"], g["num_nonrel"]
        ful, poss = _ful_all(g), _poss_all(g)
    if R >= N:
        ful += g["num_rel_ret"] * (R - N)
        poss += g["num_rel"] * (R - N)
    elif "ecs" in g:
        ecs = g["ecs"]
        if ret_only:
            ecs = [[i for i in ec if i < njr] for ec in ecs]
            keep = g["num_rel_ret"]
        else:
            keep = g["num_rel"]
        new = ecs[-1][:keep]
        ful = fail = 0
        for x in range(len(ecs)):
            for y in range(x + 1, len(ecs) - 1):
                for a in ecs[x]:
                    for b in ecs[y]:
                        if a < b and a < njr:
                            ful += 1
                        else:
                            fail += 1
        for x in range(len(ecs)):
            for a in ecs[x]:
                for b in new:
                    if a < b and a < njr:
                        ful += 1
                    else:
                        fail += 1
        poss = ful + fail
    else:
        pa, rel = g["pa"], g["rel"]
        limit = njr if ret_only else nj
        seen, first = 0, limit
        for i in range(limit):
            if rel[i] == 0.0:
                seen += 1
                if seen == g["num_rel"] + 1:
                    first = i
                    break
        dropped = [i >= first and rel[i] == 0.0 for i in range(nj)]
        ful = fail = 0
        for i in range(limit):
            for j in range(limit):
                if dropped[i] or dropped[j] or not pa[i][j]:
                    continue
                if i < j and i < njr:
                    ful += 1
                else:
                    fail += 1
        poss = ful + fail
    return ful / poss if poss else math.nan


def prefs_topic(topic_lines, ranked):
    """All PREFS_MEASURES of one topic: topic_lines [(qid, jg, jsg, docno, level)], ranked docnos."""
    ids, njr = _doc_ids(topic_lines, ranked)
    nj = len(ids)
    entries = sorted(
        ((ln[1].encode(), ln[2].encode(), ln[4], ids[ln[3]]) for ln in topic_lines),
        key=lambda e: (e[0], e[1], -e[2], e[3]),
    )
    ca = [[0] * nj for _ in range(nj)]
    groups = []
    by_jg = defaultdict(list)
    for jg, jsg, lev, i in entries:
        by_jg[jg].append((jsg, lev, i))
    for jg in sorted(by_jg):
        groups.append(_group(by_jg[jg], nj, njr, ca))

    out = {}
    out["prefs_num_prefs_poss"] = sum(_poss_all(g) for g in groups)
    out["prefs_num_prefs_ful"] = sum(_ful_all(g) for g in groups)
    out["prefs_num_prefs_ful_ret"] = sum(g["ful_ret"] for g in groups)

    def ratio(f, p):
        return f / p if p else 0.0

    out["prefs_simp"] = ratio(out["prefs_num_prefs_ful"], out["prefs_num_prefs_poss"])
    out["prefs_simp_ret"] = ratio(sum(g["ful_ret"] for g in groups), sum(g["poss_ret"] for g in groups))
    out["prefs_simp_imp"] = ratio(
        out["prefs_num_prefs_ful"], sum(g["poss_ret"] + g["poss_imp"] for g in groups))

    def avg(fn):
        s = 0.0
        for g in groups:
            s += fn(g)
        return s / len(groups) if s > 0.0 else 0.0

    out["prefs_avgjg"] = avg(lambda g: _ful_all(g) / _poss_all(g) if _poss_all(g) else 0.0)
    out["prefs_avgjg_ret"] = avg(lambda g: g["ful_ret"] / g["poss_ret"] if g["poss_ret"] else 0.0)
    out["prefs_avgjg_imp"] = avg(
        lambda g: _ful_all(g) / (g["poss_ret"] + g["poss_imp"]) if g["poss_ret"] + g["poss_imp"] else 0.0)
    out["prefs_avgjg_Rnonrel"] = avg(lambda g: _rnonrel_group(g, nj, njr, False))
    out["prefs_avgjg_Rnonrel_ret"] = avg(lambda g: _rnonrel_group(g, nj, njr, True))

    s, n1 = 0.0, 0  # pairs of two retrieved documents, row by row
    for i in range(njr):
        for j in range(i + 1, njr):
            if ca[i][j] or ca[j][i]:
                n1 += 1
                s += ca[i][j] / (ca[i][j] + ca[j][i])
    s1 = s
    n2 = 0  # retrieved against unretrieved, added on to the same sum
    for i in range(njr):
        for j in range(njr, nj):
            if ca[i][j] or ca[j][i]:
                n2 += 1
                s += ca[i][j] / (ca[i][j] + ca[j][i])
    s12 = s
    n3 = 0  # two unretrieved documents: counted, score nothing
    for i in range(njr, nj):
        for j in range(i + 1, nj):
            if ca[i][j] or ca[j][i]:
                n3 += 1
    out["prefs_pair"] = s12 / (n1 + n2 + n3) if n1 + n2 + n3 else 0.0
    out["prefs_pair_ret"] = s1 / n1 if n1 else 0.0
    out["prefs_pair_imp"] = s12 / (n1 + n2) if n1 + n2 else 0.0
    return out


def rank_prefs(run_docs, max_docs=None):
    """run_docs [(docno, score)] -> docnos ranked (score desc, docno ascending)."""
    ranked = [d for d, _ in sorted(run_docs, key=lambda x: (-x[1], x[0].encode()))]
    return ranked if max_docs is None else ranked[:max_docs]


def prefs_reference(lines, run, max_docs=None, complete=False):
    """{qid: {measure: value}} for ``lines`` [(qid, jg, jsg, docno, level)] and ``run`` [(qid, docno, score)]."""
    by_q = defaultdict(list)
    for ln in lines:
        by_q[ln[0]].append(ln)
    rq = defaultdict(list)
    for q, d, s in run:
        rq[q].append((d, s))
    out = {}
    for q in sorted(by_q, key=lambda s: s.encode()):
        if q not in rq and not complete:
            continue
        out[q] = prefs_topic(by_q[q], rank_prefs(rq.get(q, []), max_docs))
    return out


# ---------------------------------------------------------------- qrels_jg


def jg_reference(qrels, run, cutoffs=(5, 10), mults=(0.2, 1.0, 2.0), level=1, max_docs=None,
                 judged_only=False, complete=False):
    """{qid: {'map_avgjg': v, 'P_avgjg_k': v, 'Rprec_mult_avgjg_m': v}} for qrels
    [(qid, jg, docno, rel)] and run [(qid, docno, score)]."""
    groups = defaultdict(lambda: defaultdict(dict))
    for q, jg, d, r in qrels:
        groups[q][jg][d] = r
    rq = defaultdict(list)
    for q, d, s in run:
        rq[q].append((d, s))
    out = {}
    for q in sorted(groups, key=lambda s: s.encode()):
        if q not in rq and not complete:
            continue
        # score descending, equal scores by docno descending (two stable sorts)
        by_doc = sorted(rq.get(q, []), key=lambda x: x[0].encode(), reverse=True)
        ranked = [d for d, _ in sorted(by_doc, key=lambda x: -x[1])]
        if max_docs is not None:
            ranked = ranked[:max_docs]
        vals = {"map_avgjg": 0.0}
        vals.update({f"P_avgjg_{k}": 0.0 for k in cutoffs})
        vals.update({f"Rprec_mult_avgjg_{m:3.2f}": 0.0 for m in mults})
        jgs = sorted(groups[q], key=lambda s: s.encode())
        for jg in jgs:
            judg = groups[q][jg]
            rels = [judg.get(d, -1) if judg.get(d, -1) >= 0 else (-2 if d in judg else -1) for d in ranked]
            if judged_only:
                rels = [r for r in rels if r >= 0]
            num_rel = sum(1 for r in judg.values() if r >= 0 and r >= level)
            # average precision
            so_far, s = 0, 0.0
            for i, r in enumerate(rels):
                if r >= level:
                    so_far += 1
                    s += so_far / (i + 1)
            if so_far:
                vals["map_avgjg"] += s / num_rel
            for k in cutoffs:
                vals[f"P_avgjg_{k}"] += sum(1 for r in rels[:k] if r >= level) / k
            for m in mults:
                c = int(m * num_rel + 0.9)
                v = sum(1 for r in rels[:c] if r >= level) / c if c > 0 else 0.0
                vals[f"Rprec_mult_avgjg_{m:3.2f}"] += v
        if len(jgs) > 1:
            for k in vals:
                vals[k] /= len(jgs)
        out[q] = vals
    return out
