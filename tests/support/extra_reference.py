"""Slow, literal reference implementations of the extra measures, one topic at
a time in plain Python, plus a Hypothesis strategy for random topics.

Each reference follows its source's own recipe (LingPipe's operating-point
lists and step areas, gdeval.pl's loops, Truchon and Bayly's closed form, an
explicit full ranked list for the ROC family) rather than the vectorised
formulas of the kernels, so agreement is evidence and not repetition.

A topic is ``(codes, judged)``: the ranking as relevance codes (judged level,
-1 not in the qrels, -2 in the qrels with a negative level) and the qrels
levels of the topic (negative = pooled but not judged).
"""
from __future__ import annotations

import math

from hypothesis import strategies as st

from trec_eval_py.engine.join import EvalContext, TopicBatch

NONPOOL = -1
UNJUDGED = -2


# ---------------------------------------------------------------- inputs ----

@st.composite
def topics(draw, max_judged: int = 14, max_extra: int = 8):
    """One topic whose ranking and qrels agree with each other."""
    levels = draw(st.lists(st.integers(-1, 5), max_size=max_judged))
    order = draw(st.permutations(range(len(levels))))
    keep = draw(st.lists(st.booleans(), min_size=len(levels), max_size=len(levels)))
    codes = [UNJUDGED if levels[i] < 0 else levels[i] for i in order if keep[i]]
    extra = draw(st.integers(0, max_extra))
    for _ in range(extra):
        codes.insert(draw(st.integers(0, len(codes))), NONPOOL)
    return codes, levels


@st.composite
def batches(draw, max_topics: int = 4):
    """(list of topics, EvalContext): several topics evaluated together, with
    a relevance level and sometimes a collection size (-N), possibly too small."""
    tops = draw(st.lists(topics(), min_size=1, max_size=max_topics))
    ctx = EvalContext(
        relevance_level=draw(st.sampled_from([1, 1, 2])),
        num_docs_in_coll=draw(st.sampled_from([0, 0]) | st.integers(1, 60)),
    )
    return tops, ctx


def make_batch(tops, ctx=None) -> TopicBatch:
    return TopicBatch.from_lists([t[0] for t in tops], [t[1] for t in tops], ctx or EvalContext())


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


# ---------------------------------------------------------- basic counts ----

def is_rel(code: int, level: int) -> bool:
    return code >= level


def num_rel(judged, level: int) -> int:
    return sum(1 for j in judged if j >= level)


def full_list(codes, judged, ctx: EvalContext) -> list[bool]:
    """The whole ranked list as relevant / not: the ranking, then the
    unretrieved negatives (-N only), then the missed relevant documents."""
    level = ctx.relevance_level
    ranked = [is_rel(c, level) for c in codes]
    rel_ret = sum(ranked)
    nonrel_ret = len(codes) - rel_ret
    big_r = num_rel(judged, level)
    negatives = nonrel_ret
    if ctx.num_docs_in_coll > 0:
        negatives = max(ctx.num_docs_in_coll - big_r, nonrel_ret)
    return ranked + [False] * (negatives - nonrel_ret) + [True] * (big_r - rel_ret)


# ------------------------------------------------- LingPipe-style curves ----

def pr_points(codes, judged, level: int):
    """[(recall, precision)] at each retrieved relevant document."""
    big_r = num_rel(judged, level)
    pts, found = [], 0
    for rank, c in enumerate(codes, start=1):
        if is_rel(c, level):
            found += 1
            pts.append((found / big_r, found / rank))
    return pts


def prune_dominated(pts):
    """LingPipe's interpolation: walk from the end keeping each point whose
    y beats every later one."""
    kept, best = [], -math.inf
    for x, y in reversed(pts):
        if y > best:
            best = y
            kept.append((x, y))
    return list(reversed(kept))


def step_area(pts) -> float:
    area, last_x = 0.0, 0.0
    for x, y in pts:
        area += (x - last_x) * y
        last_x = x
    return area


def ref_auc_pr(codes, judged, ctx):
    if num_rel(judged, ctx.relevance_level) == 0:
        return 0.0
    return step_area(pr_points(codes, judged, ctx.relevance_level))


def ref_auc_ipr(codes, judged, ctx):
    if num_rel(judged, ctx.relevance_level) == 0:
        return 0.0
    return step_area(prune_dominated(pr_points(codes, judged, ctx.relevance_level)))


def ref_max_f(codes, judged, ctx, beta: float):
    """Best F_beta over every cutoff 1..num_ret (not just relevant ranks)."""
    level = ctx.relevance_level
    big_r = num_rel(judged, level)
    best, found = 0.0, 0
    for k, c in enumerate(codes, start=1):
        found += is_rel(c, level)
        if big_r == 0 or found == 0:
            continue
        p, r = found / k, found / big_r
        best = max(best, (1 + beta * beta) * p * r / (beta * beta * p + r))
    return best


def ref_bep(codes, judged, ctx):
    """Walk the interpolated curve drawn as a polyline through LingPipe's
    corner points, from (0, y_1): a horizontal segment to each corner, then a
    vertical drop to the next corner's height; the first segment that meets
    the diagonal y = x gives the break-even point, 0 if none does."""
    if num_rel(judged, ctx.relevance_level) == 0:
        return 0.0
    corners = prune_dominated(pr_points(codes, judged, ctx.relevance_level))
    last_x = 0.0
    for k, (x, y) in enumerate(corners):
        if last_x <= y <= x:          # the flat part crosses
            return y
        if k + 1 < len(corners):
            lower = corners[k + 1][1]
            if lower <= x <= y:       # the drop after this corner crosses
                return x
        last_x = x
    return 0.0


# ------------------------------------------------------------ ROC family ----

MAG = {
    "id": lambda x, a: x,
    "exp": lambda x, a: (1 - math.exp(-a * x)) / (1 - math.exp(-a)),
    "pow": lambda x, a: x ** (1 / (1 + a)),
    "log": lambda x, a: math.log(1 + a * x) / math.log(1 + a),
}


def ref_croc(codes, judged, ctx, kind: str = "id", alpha: float = 1.0):
    """Area under the (C)ROC step curve, walked down the explicit full list:
    the k-th negative (0-based) moves x from f(k/n) to f((k+1)/n) at the height
    reached so far (relevant documents above it / all relevant documents);
    relevant documents move the curve up and add no area themselves."""
    lst = full_list(codes, judged, ctx)
    pos = sum(lst)
    neg = len(lst) - pos
    if pos == 0:
        return 0.0
    if neg == 0:
        # nothing outranks the retrieved relevant documents; misses add 0
        return sum(1 for c in codes if is_rel(c, ctx.relevance_level)) / pos
    f = MAG[kind]
    area, tp, k = 0.0, 0, 0
    for positive in lst:
        if positive:
            tp += 1
        else:
            area += (tp / pos) * (f((k + 1) / neg, alpha) - f(k / neg, alpha))
            k += 1
    return area


def ref_auc_roc_pairs(codes, judged, ctx):
    """The Mann-Whitney view: share of (relevant, negative) pairs in order."""
    lst = full_list(codes, judged, ctx)
    pos = sum(lst)
    neg = len(lst) - pos
    if pos == 0:
        return 0.0
    if neg == 0:
        return sum(1 for c in codes if is_rel(c, ctx.relevance_level)) / pos
    good = 0
    for i, a in enumerate(lst):
        if a:
            good += sum(1 for b in lst[i + 1:] if not b)
    return good / (pos * neg)


def recall(codes, judged, ctx) -> float:
    return sum(1 for c in codes if is_rel(c, ctx.relevance_level)) / num_rel(judged, ctx.relevance_level)


def ref_rie(codes, judged, ctx, alpha: float):
    lst = full_list(codes, judged, ctx)
    n, big_n = sum(lst), len(lst)
    if n == 0:
        return 0.0
    if n == big_n:
        return recall(codes, judged, ctx)  # no negatives: the documented rule
    total = sum(math.exp(-alpha * r / big_n) for r, a in enumerate(lst, start=1) if a)
    random_mean = (n / big_n) * (1 - math.exp(-alpha)) / (math.exp(alpha / big_n) - 1)
    return total / random_mean


def ref_bedroc(codes, judged, ctx, alpha: float):
    """Truchon and Bayly's closed form (their eq. 36)."""
    lst = full_list(codes, judged, ctx)
    n, big_n = sum(lst), len(lst)
    if n == 0:
        return 0.0
    if n == big_n:
        return recall(codes, judged, ctx)
    ra = n / big_n
    rie = ref_rie(codes, judged, ctx, alpha)
    scale = ra * math.sinh(alpha / 2) / (math.cosh(alpha / 2) - math.cosh(alpha / 2 - alpha * ra))
    return rie * scale + 1 / (1 - math.exp(alpha * (1 - ra)))


# -------------------------------------------------------- gdeval-style -----

def gdeval_grade(code: int) -> int:
    return code if code > 0 else 0


def ref_err(codes, judged, ctx, k: int):
    score, decay = 0.0, 1.0
    for i, c in enumerate(codes[:k]):
        g = min(gdeval_grade(c), 4)
        r = (2 ** g - 1) / 2 ** 4
        score += r * decay / (i + 1)
        decay *= 1 - r
    return score


def _dcg(grades, k):
    score = 0.0
    for i, g in enumerate(grades[:k]):
        score += (2 ** g - 1) / (math.log(i + 2) / math.log(2.0))
    return score


def ref_ndcg_exp(codes, judged, ctx, k: int):
    ideal = _dcg(sorted((j for j in judged if j > 0), reverse=True), k)
    if ideal == 0:
        return 0.0
    return _dcg([gdeval_grade(c) for c in codes], k) / ideal


def ref_judged(codes, judged, ctx, k: int):
    top = codes[:k]
    if not top:
        return 0.0
    return sum(1 for c in top if c >= 0) / len(top)


def ref_rr_cut(codes, judged, ctx, k: int):
    for rank, c in enumerate(codes[:k], start=1):
        if is_rel(c, ctx.relevance_level):
            return 1.0 / rank
    return 0.0


# ------------------------------------------------------------- plumbing ----

def run_measure(name: str, tops, ctx=None, params: str | None = None):
    """(n_topics, n_outputs) values of measure ``name`` (with ``-m name.params``)."""
    from trec_eval_py.engine.measures import registry

    m = registry()[name]
    return m.compute(make_batch(tops, ctx), m.params.parse(name, params))


def one(name: str, codes, judged, ctx=None, params: str | None = None) -> float:
    """The single value of ``name`` for one topic."""
    return float(run_measure(name, [(codes, judged)], ctx, params)[0, 0])


def ranks_to_codes(n: int, rel_ranks) -> list[int]:
    """A ranking of n judged documents, relevant (1) at the 1-based rel_ranks."""
    return [1 if k in set(rel_ranks) else 0 for k in range(1, n + 1)]


# LingPipe's ten-case example (ScoredPrecisionRecallEvaluation docs), rank order
LINGPIPE = [0, 1, 0, 1, 1, 0, 0, 0, 1, 0]
