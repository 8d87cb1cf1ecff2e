"""The CROC paper's other areas: auc_ac, cac_*, auc_proc, auc_pac, auc_roc_t,
auc_roc_fp, trr, and the *_z scores against a random ranking.

Checked against: the paper's worked example (positives at ranks {1,2,4,5,7} of
10), literal step-curve walks down the explicit full list, scikit-learn's
roc_auc_score (plain and max_fpr), Gribskov's ROC_n sum, the Mann-Whitney
variance, and exact enumeration of every placement of the positives.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from support.extra_reference import MAG, batches, close, full_list, is_rel, one, ranks_to_codes, run_measure

from trec_eval_py.engine.join import EvalContext
from trec_eval_py.engine.measures import registry
from trec_eval_py.engine.measures.croc import random_area
from trec_eval_py.engine.measures.early_retrieval import log_floor_random_area, random_moments
from trec_eval_py.errors import MeasureError

PAPER_RANKS = [1, 2, 4, 5, 7]
PAPER = ranks_to_codes(10, PAPER_RANKS)


def plog(x, n):
    e = 0.5 / n
    return 1 - math.log10(max(x, e)) / math.log10(e)


# ------------------------------------------------------ literal references ----

def fx(kind, param, neg, size):
    """The transform f of each measure, one x at a time."""
    if kind in MAG:
        return lambda x: MAG[kind](x, param)
    if kind == "plog":
        return lambda x: plog(x, size)
    if kind == "t":
        return lambda x: min(x / param, 1.0)
    if kind == "fp":
        return lambda x: min(x * neg / max(min(param, neg), 1), 1.0)
    raise ValueError(kind)


def walk_rank(lst, f):
    """Step accumulation curve: after the k-th document x = f(k/N), height is
    the positives among the first k-1 over P."""
    pos, big_n = sum(lst), len(lst)
    if pos == 0:
        return 0.0
    area, tp = 0.0, 0
    for k, positive in enumerate(lst, start=1):
        area += (f(k / big_n) - f((k - 1) / big_n)) * tp / pos
        tp += positive
    return area


def walk_fpr(lst, f, retrieved_pos):
    """Step (C)ROC curve: the k-th negative moves x from f(k/n) to f((k+1)/n)."""
    pos = sum(lst)
    neg = len(lst) - pos
    if pos == 0:
        return 0.0
    if neg == 0:
        return retrieved_pos / pos
    area, tp, k = 0.0, 0, 0
    for positive in lst:
        if positive:
            tp += 1
        else:
            area += (tp / pos) * (f((k + 1) / neg) - f(k / neg))
            k += 1
    return area


def ref_area(view, kind, param, codes, judged, ctx):
    lst = full_list(codes, judged, ctx)
    neg = len(lst) - sum(lst)
    f = fx(kind, param, neg, len(lst))
    if view == "rank":
        return walk_rank(lst, f)
    return walk_fpr(lst, f, sum(1 for c in codes if is_rel(c, ctx.relevance_level)))


CASES = [
    ("auc_ac", None, "rank", "id", 1.0),
    ("cac_exp", "7", "rank", "exp", 7.0),
    ("cac_pow", "2.32", "rank", "pow", 2.32),
    ("cac_log", "80", "rank", "log", 80.0),
    ("auc_pac", None, "rank", "plog", None),
    ("auc_proc", None, "fpr", "plog", None),
    ("auc_roc_t", "0.3", "fpr", "t", 0.3),
    ("auc_roc_fp", "3", "fpr", "fp", 3),
]


# ------------------------------------------------------ the paper's example ----

def test_paper_example_ac_family():
    x = [r / 10 for r in PAPER_RANKS]  # section 2.5: {.1,.2,.4,.5,.7}
    assert close(one("auc_ac", PAPER, PAPER), 0.62)
    for kind, alpha in [("exp", 7.0), ("pow", 2.32), ("log", 80.0), ("exp", 80.0)]:
        expected = sum(1 - MAG[kind](v, alpha) for v in x) / 5
        assert close(one(f"cac_{kind}", PAPER, PAPER, None, f"{alpha:g}"), expected)
    assert close(one("auc_pac", PAPER, PAPER), sum(1 - plog(v, 10) for v in x) / 5)


def test_paper_example_roc_family():
    fpr = [0, 0, 0.2, 0.2, 0.4]
    assert close(one("auc_proc", PAPER, PAPER), sum(1 - plog(v, 10) for v in fpr) / 5)
    # hard threshold t = 0.3: 1 - min(x/0.3, 1)
    assert close(one("auc_roc_t", PAPER, PAPER, None, "0.3"), sum(1 - min(v / 0.3, 1) for v in fpr) / 5)
    assert close(one("auc_roc_t", PAPER, PAPER, None, "1"), one("auc_roc", PAPER, PAPER))
    # negatives above each positive: 0,0,1,1,2
    assert close(one("auc_roc_fp", PAPER, PAPER, None, "2"), (1 + 1 + 0.5 + 0.5 + 0) / 5)
    assert close(one("auc_roc_fp", PAPER, PAPER, None, "50"), one("auc_roc", PAPER, PAPER))


def test_trr():
    assert close(one("trr", PAPER, PAPER), 1 + 1 / 2 + 1 / 4 + 1 / 5 + 1 / 7)
    # missed relevant documents add nothing; no relevant documents: 0
    assert close(one("trr", [0, 1], [1, 1, 1, 0]), 0.5)
    assert one("trr", [0, 0], [0, 0]) == 0.0
    assert one("trr", [], [1]) == 0.0


# ------------------------------------------------ literal walks, random lists ----

@settings(max_examples=150, deadline=None)
@given(batches())
def test_agree_with_step_curve_walks(case):
    tops, ctx = case
    for name, params, view, kind, param in CASES:
        got = run_measure(name, tops, ctx, params)[:, 0]
        for (codes, judged), g in zip(tops, got):
            assert close(g, ref_area(view, kind, param, codes, judged, ctx)), (name, codes, judged)


@settings(max_examples=100, deadline=None)
@given(batches())
def test_ac_is_affine_in_roc(case):
    # AUC[AC] = 1 - (P+1)/(2N) - (n/N)(1 - AUC[ROC]) (section 2.1: "a linear transform")
    tops, ctx = case
    ac = run_measure("auc_ac", tops, ctx)[:, 0]
    roc = run_measure("auc_roc", tops, ctx)[:, 0]
    for (codes, judged), a, r in zip(tops, ac, roc):
        lst = full_list(codes, judged, ctx)
        p, big_n = sum(lst), len(lst)
        if p == 0 or p == big_n:
            continue
        assert math.isclose(a, 1 - (p + 1) / (2 * big_n) - (big_n - p) / big_n * (1 - r), abs_tol=1e-12)


# ------------------------------------------------------------- scikit-learn ----

def _scored(lst):
    """Scores for a full list: descending by position, so sklearn ranks it as we do."""
    return [len(lst) - i for i in range(len(lst))]


@pytest.mark.parametrize("seed", range(200))
def test_against_scikit_learn(seed):
    metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    lst = [bool(v) for v in rng.random(n) < rng.uniform(0.05, 0.6)]
    if not any(lst) or all(lst):
        lst[0], lst[-1] = True, False
    codes = [int(v) for v in lst]
    y, s = [int(v) for v in lst], _scored(lst)
    assert close(one("auc_roc", codes, codes), metrics.roc_auc_score(y, s))
    neg = n - sum(lst)
    # a threshold between two false-positive rates, so both sides agree on the curve there
    t = (int(rng.integers(0, neg)) + 0.5) / neg
    std = metrics.roc_auc_score(y, s, max_fpr=t)
    # undo McClish's standardisation 0.5 (1 + (A - t^2/2) / (t - t^2/2))
    partial = t * t / 2 + (2 * std - 1) * (t - t * t / 2)
    assert math.isclose(one("auc_roc_t", codes, codes, None, repr(t)), partial / t, rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize("seed", range(100))
def test_roc_k_is_gribskovs_sum(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 80))
    codes = [int(v) for v in rng.random(n) < 0.3]
    if sum(codes) == 0:
        codes.append(1)
    k = int(rng.integers(1, 40))
    neg = len(codes) - sum(codes)
    reach = min(k, neg)
    # ROC_n: for each of the first n negatives, the positives ranked above it
    total, tp, seen = 0, 0, 0
    for c in codes:
        if c:
            tp += 1
        elif seen < reach:
            total += tp
            seen += 1
    p = sum(codes)
    expected = total / (reach * p) if reach else 1.0
    assert close(one("auc_roc_fp", codes, codes, None, str(k)), expected)


# ------------------------------------------------------- random classifier ----

def _all_placements(p, n):
    big_n = p + n
    for pos in itertools.combinations(range(big_n), p):
        yield [i in pos for i in range(big_n)]


@pytest.mark.parametrize("p,n", [(1, 1), (1, 5), (2, 3), (3, 6), (4, 4), (5, 3), (2, 7)])
def test_random_moments_are_exact(p, n):
    # the mean and variance over every placement of the positives
    for name, _params, view, kind, param in CASES + [("auc_roc", None, "fpr", "id", 1.0),
                                                     ("croc_exp", "7", "fpr", "exp", 7.0)]:
        f = fx(kind, param, n, p + n)
        vals = []
        for lst in _all_placements(p, n):
            vals.append(walk_rank(lst, f) if view == "rank" else walk_fpr(lst, f, p))
        mean, var = random_moments(view, np.vectorize(f, otypes=[float]), p, n)
        assert math.isclose(mean, float(np.mean(vals)), abs_tol=1e-12), name
        assert math.isclose(var, float(np.var(vals)), rel_tol=1e-9, abs_tol=1e-14), name


@pytest.mark.parametrize("name,params", [(c[0], c[1]) for c in CASES] + [("auc_roc", None), ("croc_log", "80")])
def test_z_scores(name, params):
    codes = ranks_to_codes(9, [1, 3, 4, 8])
    lst = [bool(c) for c in codes]
    case = next(c for c in CASES + [("auc_roc", None, "fpr", "id", 1.0), ("croc_log", "80", "fpr", "log", 80.0)]
                if c[0] == name)
    _, _, view, kind, param = case
    f = fx(kind, param, 5, 9)
    vals = [walk_rank(x, f) if view == "rank" else walk_fpr(x, f, 4) for x in _all_placements(4, 5)]
    area = walk_rank(lst, f) if view == "rank" else walk_fpr(lst, f, 4)
    expected = (area - np.mean(vals)) / np.std(vals)
    assert math.isclose(one(f"{name}_z", codes, codes, None, params), expected, rel_tol=1e-9)


def test_roc_z_is_mann_whitney():
    codes = ranks_to_codes(30, [1, 2, 5, 9, 17, 22])
    p, n = 6, 24
    auc = one("auc_roc", codes, codes)
    z = (auc - 0.5) / math.sqrt((p + n + 1) / (12 * p * n))
    assert close(one("auc_roc_z", codes, codes), z)
    assert close(one("auc_ac_z", codes, codes), z)  # AC is affine in ROC on the same list


def test_z_undefined_is_zero():
    for name in ("auc_ac_z", "auc_roc_z", "cac_exp_z", "auc_proc_z", "auc_roc_t_z", "auc_roc_fp_z"):
        assert one(name, [1, 1], [1, 1]) == 0.0  # no negatives
        assert one(name, [0, 0], [0, 0]) == 0.0  # no positives


@pytest.mark.parametrize("kind,alpha", [("exp", 7.0), ("exp", 80.0), ("pow", 2.32), ("log", 80.0)])
def test_long_random_lists_reach_the_continuous_baselines(kind, alpha):
    # one positive every 50 ranks: the mean of 1 - f(r/N) approaches the integral
    big_n = 100000
    codes = [1 if k % 50 == 25 else 0 for k in range(big_n)]
    assert abs(one(f"cac_{kind}", codes, codes, None, f"{alpha:g}") - random_area(kind, alpha)) < 1e-3
    assert abs(one("auc_ac", codes, codes) - 0.5) < 1e-3
    assert abs(one("auc_pac", codes, codes) - log_floor_random_area(big_n)) < 1e-3
    assert abs(one("auc_roc_t", codes, codes, None, "0.2") - 0.1) < 1e-3


def test_parameters():
    t = registry()["auc_roc_t"]
    assert t.output_names(t.params.parse("auc_roc_t", None)) == ["auc_roc_t_0.1"]
    assert t.output_names(t.params.parse("auc_roc_t", "0.5,0.0086")) == ["auc_roc_t_0.0086", "auc_roc_t_0.5"]
    for bad in ("0", "1.5", "-0.1", "x"):
        with pytest.raises(MeasureError):
            t.params.parse("auc_roc_t", bad)
    k = registry()["auc_roc_fp"]
    assert k.output_names(k.params.parse("auc_roc_fp", None)) == ["auc_roc_fp_50"]
    with pytest.raises(MeasureError):
        k.params.parse("auc_roc_fp", "0")
    c = registry()["cac_exp_z"]
    assert c.output_names(c.params.parse("cac_exp_z", "14,7")) == ["cac_exp_z_7", "cac_exp_z_14"]


def test_collection_size_is_the_full_list():
    # -N 10 for the paper's ten instances changes nothing; -N 20 adds ten negatives last
    ctx10, ctx20 = EvalContext(num_docs_in_coll=10), EvalContext(num_docs_in_coll=20)
    assert close(one("auc_ac", PAPER, PAPER, ctx10), 0.62)
    x = [r / 20 for r in PAPER_RANKS]
    assert close(one("auc_ac", PAPER, PAPER, ctx20), sum(1 - v for v in x) / 5)


@pytest.mark.parametrize("name", ["croc_exp_z", "cac_log_z", "auc_roc_t_z", "auc_roc_fp_z"])
def test_z_scores_over_a_huge_collection_are_refused_not_exhausting_memory(name, capsysbinary):
    """With -N 1e9 the exact moments would sum over a billion positions per
    topic (about 20 GB of arrays): one line instead, exit status 1."""
    from support.golden import GOLDEN, run_cli

    inp = GOLDEN / "inputs"
    code, out, err = run_cli(["-N", "1000000000", "-m", name, inp / "qrels.test", inp / "results.test"], capsysbinary)
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "trec_eval_py: Z-scores of ranking areas need the exact moments over every position of the list: "
        "1,000,000,000 positions (relevant documents plus negatives, all of -N's collection) are more than "
        "the 16,777,216 supported"]
