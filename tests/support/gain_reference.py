"""Slow, one-topic-at-a-time references for the gain measures.

Each function walks one topic's ranking rank by rank, the plain way, so the
vectorised kernels can be compared with it on random topics. ``codes`` are the
relevance codes of the ranking (level, -1 not in the qrels, -2 in the qrels
with a negative level); ``judged`` the topic's qrels levels; ``pairs`` the
``(level, gain)`` overrides in the order typed. Only integer gains are used
with these references (fractional gains close together sort in a
glibc-specific order that has its own tests).
"""
from __future__ import annotations

import math


def div(a, b):
    """``a / b`` with C's IEEE results for a zero divisor (inf or nan)."""
    if b == 0:
        return math.nan if a == 0 or a != a else math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def table(judged, pairs):
    """Sorted gain table: list of [level, gain, count], lowest gain first."""
    top = max([j for j in judged if j >= 0], default=-1)
    entries = [[lv, float(g), 0] for lv, g in pairs]
    for lv in range(top + 1):
        owner = next((e for e in entries if e[0] == lv), None)
        n = sum(1 for j in judged if j == lv)
        if owner is None:
            entries.append([lv, float(lv), n])
        else:
            owner[2] = n
    return sorted(entries, key=lambda e: e[1])


def gain_of(code, entries):
    for lv, g, _ in entries:
        if lv == code:
            return g
    return 0.0


def ideal_gains(entries):
    """The ideal ranking's gains, best first."""
    out = []
    if not entries or entries[-1][1] <= 0:
        return out
    for _lv, g, n in reversed(entries):
        if n == 0:
            continue
        if g <= 0:
            break
        out.extend([g] * n)
    return out


def dcg_ideal(codes, judged, pairs=()):
    entries = table(judged, pairs)
    dcg = 0.0
    for i, c in enumerate(codes):
        g = gain_of(c, entries)
        if g != 0:
            dcg += g / math.log2(i + 2)
    ideal = 0.0
    for i, g in enumerate(ideal_gains(entries)):
        ideal += g / math.log2(i + 2)
    return dcg, ideal


def ndcg(codes, judged, pairs=()):
    dcg, ideal = dcg_ideal(codes, judged, pairs)
    return dcg / ideal if ideal > 0 else 0.0


def g_measure(codes, judged, pairs=()):
    entries = table(judged, pairs)
    ideal = ideal_gains(entries)
    got = cost = total = 0.0
    for i, c in enumerate(codes):
        g = gain_of(c, entries)
        got += g
        ig = ideal[i] if i < len(ideal) else 0.0
        cost += ig if ig >= 1.0 else 1.0
        if g != 0:
            total += g / math.log2(2 + cost - got)
    best = 0.0
    for ig in ideal:
        best += ig
    return total / best if best > 0 else 0.0


def ndcg_rel(codes, judged, pairs=()):
    entries = table(judged, pairs)
    ideal = ideal_gains(entries)
    dcg = idcg = total = 0.0
    hits = 0
    for i, c in enumerate(codes):
        g = gain_of(c, entries)
        if g != 0:
            dcg += g / math.log2(i + 2)
        if i < len(ideal):
            idcg += ideal[i] / math.log2(i + 2)
        if g > 0:
            total += div(dcg, idcg)
            hits += 1
    for i in range(len(codes), len(ideal)):
        idcg += ideal[i] / math.log2(i + 2)
    total += div((len(ideal) - hits) * dcg, idcg)
    return total / len(ideal) if total > 0 else 0.0


def rndcg(codes, judged, pairs=(), level=1):
    if sum(1 for j in judged if j >= level) == 0:
        return 0.0
    entries = table(judged, pairs)
    ideal = ideal_gains(entries)
    m = len(ideal)

    def dcg_before(k):  # dcg of ranks 1..k
        s = 0.0
        for i, c in enumerate(codes[:k]):
            g = gain_of(c, entries)
            if g != 0:
                s += g / math.log2(i + 2)
        return s

    def idcg_before(k):
        s = 0.0
        for i, g in enumerate(ideal[:k]):
            s += g / math.log2(i + 2)
        return s

    points = []
    for k in range(1, m + 1):  # just before rank k+1, where the ideal gain changes or ends
        nxt = ideal[k] if k < m else 0.0
        if nxt != ideal[k - 1]:
            points.append(dcg_before(k) / idcg_before(k))
    if m >= 1 and len(codes) > m + 1:
        points.append(dcg_before(len(codes)) / idcg_before(m))
    total = 0.0
    for v in points:
        total += v
    return total / len(points) if points else math.nan


def ndcg_cut(codes, judged, k):
    dcg = 0.0
    for i, c in enumerate(codes[:k]):
        if c > 0:
            dcg += c / math.log2(i + 2)
    ideal = sorted([j for j in judged if j > 0], reverse=True)[:k]
    idcg = 0.0
    for i, g in enumerate(ideal):
        idcg += g / math.log2(i + 2)
    return dcg / idcg if idcg > 0 else dcg


def bing(codes, judged, level=1):
    num_rel = sum(1 for j in judged if j >= level)
    total, nonrel, found = 0.0, 0, 0
    for c in codes:
        if c >= level:
            found += 1
            total += 1.0 / math.log2(2 + nonrel)
        else:
            nonrel += 1
    return total / num_rel if found else 0.0


def rbp(codes, judged, p=0.9, pairs=()):
    entries = table(judged, pairs)
    gains = [g for _, g, _ in entries]
    if gains:
        lo, hi = min(gains), max(gains)
        if lo < 0 or hi > 1:
            entries = [[lv, (g - lo) / (hi - lo), n] for lv, g, n in entries]
    total, w = 0.0, 1.0
    for c in codes:
        g = gain_of(c, entries)
        if g != 0:
            total += g * w
        w *= p
    return (1.0 - p) * total


def rbp_resid(codes, p=0.9):
    total, w, unj = 0.0, 1.0, 0
    for c in codes:
        if c < 0:
            unj += 1
            total += w
        w *= p
    return w + (1.0 - p) * total if unj else 0.0


def unj(codes, k):
    return sum(1 for c in codes[:k] if c < 0) / k
