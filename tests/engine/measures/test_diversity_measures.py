"""The intent-aware measures of -R qrels_diversity (ERR_IA, nERR_IA, alpha_DCG,
alpha_nDCG, NRBP, nNRBP, MAP_IA, P_IA, strec): a hand-worked example, a slow
reference written from the definitions (same additions in the same order, so
equal to the last bit), the edge cases, the ir_measures names, the reader's
errors and the ndeval tool's checks."""
from __future__ import annotations

import math
import random

import pytest
from support.paths import FIXTURES

import trec_eval_py as te
from trec_eval_py.errors import InputError, MeasureError, UsageError

FIX = FIXTURES / "ndeval"

ALL = ["ERR_IA.1,3,5,10,20,25", "nERR_IA.1,3,5,10,20,25", "alpha_DCG.1,3,5,10,20,25",
       "alpha_nDCG.1,3,5,10,20,25", "NRBP", "nNRBP", "MAP_IA", "P_IA.1,3,5,10,20,25", "strec.1,3,5,10,20,25"]


def qrels_bytes(judgments: dict) -> bytes:
    """{topic: {docno: {subtopic: rel}}} as qrels_diversity lines."""
    return "".join(f"{t} {s} {d} {r}\n" for t, docs in judgments.items() for d, subs in docs.items()
                   for s, r in subs.items()).encode()


def run_bytes(run: dict) -> bytes:
    """{topic: [docno, ...]} in rank order, scores descending."""
    return "".join(f"{t} Q0 {d} {i} {100 - i} r\n" for t, docs in run.items() for i, d in enumerate(docs, 1)).encode()


def evaluate(judgments, run, measures=ALL, **kw):
    return te.evaluate(qrels_bytes(judgments), run_bytes(run), measures, rel_format="qrels_diversity", **kw)


# ---------------------------------------------------------------- hand-worked

def test_hand_worked_example():
    # two subtopics: 1 has a, b; 2 has b, c. The run ranks b, a, c; alpha = beta = 0.5.
    # gains: b covers both (1 + 1), a repeats subtopic 1 (0.5), c repeats subtopic 2 (0.5);
    # the greedy ideal is b, then c (a tie with a, won by the larger docno), then a: the same gains
    j = {"1": {"a": {1: 1}, "b": {1: 1, 2: 1}, "c": {2: 1}, "n": {1: 0}}}
    ev = evaluate(j, {"1": ["b", "a", "c"]},
                  ["alpha_DCG.3", "alpha_nDCG.3", "ERR_IA.3", "nERR_IA.3", "NRBP", "nNRBP", "MAP_IA",
                   "P_IA.2,3", "strec.1,3"])
    s = ev.summary
    dcg = (2 + 0.5 / math.log2(3) + 0.5 / 2) / (2 + 1 / math.log2(3) + 0.5 / 2)
    assert s["alpha_DCG_3"] == pytest.approx(dcg, abs=1e-15)
    assert s["alpha_nDCG_3"] == 1.0
    assert s["ERR_IA_3"] == pytest.approx((2 + 0.5 / 2 + 0.5 / 3) / (2 + 1 / 2 + 0.5 / 3), abs=1e-15)
    assert s["nERR_IA_3"] == 1.0
    assert s["NRBP"] == pytest.approx((2 + 0.5 * 0.5 + 0.5 * 0.25) * (1 - 0.5 * 0.5) / 2, abs=1e-15)
    assert s["nNRBP"] == 1.0
    assert s["MAP_IA"] == pytest.approx(((1 + 1) / 2 + (1 + 2 / 3) / 2) / 2, abs=1e-15)
    assert s["P_IA_2"] == 3 / 4 and s["P_IA_3"] == 4 / 6
    assert s["strec_1"] == 1.0 and s["strec_3"] == 1.0


def test_redundancy_is_penalised_and_alpha_sets_how_much():
    j = {"1": {"a": {1: 1}, "b": {1: 1}, "c": {2: 1}}}
    diverse = evaluate(j, {"1": ["a", "c", "b"]}, ["alpha_nDCG.3"]).summary["alpha_nDCG_3"]
    redundant = evaluate(j, {"1": ["a", "b", "c"]}, ["alpha_nDCG.3"]).summary["alpha_nDCG_3"]
    assert diverse == 1.0 and redundant < 1.0
    # alpha 0: no penalty, the order of equally relevant documents does not matter
    for order in (["a", "c", "b"], ["a", "b", "c"]):
        assert evaluate(j, {"1": order}, ["alpha_nDCG.3,alpha=0"]).summary["alpha_nDCG_3"] == 1.0


# ---------------------------------------------------------------- slow reference

def reference(judgments, run, alpha=0.5, beta=0.5, cutoffs=(1, 3, 5, 10, 20, 25), level=1):
    """Per topic {name: value}, from the definitions, loop by loop (ndeval's order of additions)."""
    out = {}
    for t, docs in run.items():
        if t not in judgments:
            continue
        rel = {d: sorted(s for s, r in subs.items() if r >= level) for d, subs in judgments[t].items()}
        subs = sorted({s for ss in rel.values() for s in ss})
        a = len(subs)
        nrel = {s: sum(s in ss for ss in rel.values()) for s in subs}

        def gains(ranking, subs=subs, rel=rel):
            seen = dict.fromkeys(subs, 1.0)
            g = []
            for d in ranking:
                score = 0.0
                for s in rel.get(d, []):
                    score += seen[s]
                    seen[s] *= 1.0 - alpha
                g.append(score)
            return g

        # greedy ideal: highest gain, ties to the larger docno
        pool = sorted(d for d, ss in rel.items() if ss)
        seen = dict.fromkeys(subs, 1.0)
        ideal = []
        while pool:
            best = None
            for d in pool:
                score = 0.0
                for s in rel[d]:
                    score += seen[s]
                if best is None or score > best[0] or (score == best[0] and d.encode() > best[1].encode()):
                    best = (score, d)
            ideal.append(best[0])
            pool.remove(best[1])
            for s in rel[best[1]]:
                seen[s] *= 1.0 - alpha
        g = gains(docs)
        k_max = max(cutoffs)

        def norm(gs, kind, a=a, k_max=k_max):
            cum, ii_cum, iig, res = 0.0, 0.0, float(a), []
            for i in range(k_max):
                w = math.log(2.0) / math.log(i + 2.0) if i else 1.0
                x = gs[i] if i < len(gs) else 0.0
                cum += x * w if kind == "dcg" else x / (i + 1)
                ii_cum += iig * w if kind == "dcg" else iig / (i + 1)
                iig *= 1.0 - alpha
                res.append(cum / ii_cum if a else 0.0)
            return res

        def rbp(gs, a=a):
            total, decay = 0.0, 1.0
            for x in gs:
                total += x * decay
                decay *= beta
            return total * ((1 - (1 - alpha) * beta) / a) if a else 0.0

        v = {}
        for kind, name in (("err", "ERR_IA"), ("dcg", "alpha_DCG")):
            r, i = norm(g, kind), norm(ideal, kind)
            for k in cutoffs:
                v[f"{name}_{k}"] = r[k - 1]
                v[f"n{name}_{k}" if kind == "err" else f"alpha_nDCG_{k}"] = r[k - 1] / i[k - 1] if r[k - 1] else 0.0
        v["NRBP"] = rbp(g)
        v["nNRBP"] = v["NRBP"] / rbp(ideal) if rbp(ideal) else -math.nan
        total = 0.0
        for s in subs:
            count, ap = 0, 0.0
            for i, d in enumerate(docs):
                if s in rel.get(d, []):
                    count += 1
                    ap += count / (i + 1.0)
            total += ap / nrel[s]
        v["MAP_IA"] = total / a if a else 0.0
        for k in cutoffs:
            pairs = sum(len(rel.get(d, [])) for d in docs[:k])
            covered = len({s for d in docs[:k] for s in rel.get(d, [])})
            v[f"P_IA_{k}"] = pairs / (k * a) if a else 0.0
            v[f"strec_{k}"] = covered / a if a else 0.0
        out[t] = v
    return out


def random_case(rng: random.Random):
    judgments, run = {}, {}
    for t in map(str, rng.sample(range(1, 30), rng.randint(1, 5))):
        subs = rng.sample(range(0, 15), rng.choice([0, 1, 2, 3, 5, 9, 12]))
        docs = [f"d{k}" for k in rng.sample(range(60), rng.randint(1, 25))]
        judgments[t] = {d: {s: rng.choice([0, 1, 1, 2]) for s in subs if rng.random() < 0.5} or {0: 0}
                        for d in docs}
        pool = docs + [f"u{k}" for k in range(10)]
        run[t] = rng.sample(pool, rng.randint(1, min(len(pool), 30)))
    return judgments, run


@pytest.mark.parametrize("seed", range(40))
def test_equal_to_the_slow_reference_to_the_last_bit(seed):
    rng = random.Random(seed)
    judgments, run = random_case(rng)
    alpha = rng.choice([0.0, 0.5, 1.0, 0.3, 0.9])
    beta = rng.choice([0.0, 0.5, 1.0, 0.8])
    level = rng.choice([1, 1, 2])
    specs = [s if not s.startswith(("ERR", "nERR", "alpha")) else f"{s},alpha={alpha!r}" for s in ALL]
    specs = [f"{s}.alpha={alpha!r},beta={beta!r}" if s in ("NRBP", "nNRBP") else s for s in specs]
    ev = evaluate(judgments, run, specs, order="rank", relevance_level=level)
    ref = reference(judgments, run, alpha, beta, level=level)
    got = ev.per_topic()
    assert set(got) == set(ref)
    for t in ref:
        for name, want in ref[t].items():
            have = got[t][name]
            if math.isnan(want):
                assert math.isnan(have) and math.copysign(1, have) < 0, (t, name)
            else:
                assert have == want, (seed, t, name, have, want)


# ---------------------------------------------------------------- edge cases

def test_topic_without_relevant_documents_empty_rankings_and_complete():
    j = {"1": {"a": {1: 1}}, "2": {"b": {1: 0}}, "3": {"c": {2: 1}}}
    ev = evaluate(j, {"1": ["a"], "2": ["b"]}, ["alpha_nDCG.5", "NRBP", "nNRBP", "strec.5"], complete=True)
    pt = ev.per_topic()
    assert pt["2"]["alpha_nDCG_5"] == 0.0 and pt["2"]["NRBP"] == 0.0 and pt["2"]["strec_5"] == 0.0
    assert math.isnan(pt["2"]["nNRBP"])
    assert ev.summary["strec_5"] == pytest.approx(1 / 3)  # topic 3, without results, counts 0
    ev10 = evaluate(j, {"1": ["a"], "2": ["b"]}, ["strec.5", "nNRBP"], complete=True, compat="10.0")
    assert ev10.per_topic()["3"]["strec_5"] == 0.0 and ev10.per_topic()["3"]["nNRBP"] == 0.0


def test_judged_only_and_depth():
    j = {"1": {"a": {1: 1}, "b": {2: 1}}}
    run = {"1": ["x", "a", "y", "b"]}
    assert evaluate(j, run, ["P_IA.2"], judged_only=True).summary["P_IA_2"] == 2 / 4
    assert evaluate(j, run, ["P_IA.2"]).summary["P_IA_2"] == 1 / 4
    assert evaluate(j, run, ["strec.10"], max_docs=2).summary["strec_10"] == 1 / 2


def test_a_docno_twice_is_an_error_only_within_the_depth_kept():
    j = {"1": {"a": {1: 1}}}
    run = b"1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 a 3 1 r\n"
    with pytest.raises(InputError, match="duplicate docno 'a'"):
        te.evaluate(qrels_bytes(j), run, ["P_IA.2"], rel_format="qrels_diversity")
    ev = te.evaluate(qrels_bytes(j), run, ["P_IA.2"], rel_format="qrels_diversity", max_docs=2)
    assert ev.summary["P_IA_2"] == 0.5


def test_rank_order_and_score_order():
    j = {"1": {"a": {1: 1}}}
    run = b"1 Q0 a 2 9 r\n1 Q0 b 1 1 r\n"  # by rank b first, by score a first
    assert te.evaluate(qrels_bytes(j), run, ["P_IA.1"], rel_format="qrels_diversity").summary["P_IA_1"] == 1.0
    assert te.evaluate(qrels_bytes(j), run, ["P_IA.1"], rel_format="qrels_diversity",
                       order="rank").summary["P_IA_1"] == 0.0


# ---------------------------------------------------------------- names and parameters

@pytest.mark.parametrize("name, spec", [
    ("alpha_nDCG@10", "alpha_nDCG.10"), ("alpha_nDCG(alpha=0.3)@20", "alpha_nDCG.20,alpha=0.3"),
    ("alpha_DCG@5", "alpha_DCG.5"), ("ERR_IA@20", "ERR_IA.20"), ("nERR_IA(alpha=1)@5", "nERR_IA.5,alpha=1"),
    ("NRBP", "NRBP"), ("NRBP(alpha=0.3,beta=0.9)", "NRBP.alpha=0.3,beta=0.9"), ("nNRBP(beta=0.2)", "nNRBP.beta=0.2"),
    ("AP_IA", "MAP_IA"), ("P_IA@10", "P_IA.10"), ("StRecall@10", "strec.10"),
])
def test_ir_measures_names_give_the_measures_values(name, spec):
    judgments, run = random_case(random.Random(name))
    a = evaluate(judgments, run, [name]).per_topic()
    b = evaluate(judgments, run, [spec]).per_topic()
    assert [[repr(x) for x in v.values()] for v in a.values()] == [[repr(x) for x in v.values()] for v in b.values()]
    assert list(next(iter(a.values()))) == [name]


def test_rel_and_judged_only_of_the_ir_measures_names():
    j = {"1": {"a": {1: 1}, "b": {1: 2}}}
    run = {"1": ["x", "a", "b"]}
    ev = evaluate(j, run, ["P_IA(rel=2)@3", "P_IA(judged_only=True)@2", "P_IA@3"])
    assert ev.summary["P_IA(rel=2)@3"] == 1 / 3
    assert ev.summary["P_IA(judged_only=True)@2"] == 1.0
    assert ev.summary["P_IA@3"] == 2 / 3


@pytest.mark.parametrize("spec, message", [
    ("alpha_nDCG.5,alpha=1.5", "outside 0 .. 1"), ("NRBP.5", "takes no cutoff"),
    ("alpha_nDCG.5,gamma=1", "unknown setting 'gamma'"), ("NRBP.beta=0.1,beta=0.2", "given twice"),
    ("alpha_nDCG(alpha=2)@5", "outside 0 .. 1"), ("StRecall", "needs a cutoff"),
])
def test_bad_parameters(spec, message):
    with pytest.raises(MeasureError, match=message):
        evaluate({"1": {"a": {1: 1}}}, {"1": ["a"]}, [spec])


def test_the_measures_need_subtopic_judgments():
    with pytest.raises(MeasureError, match="needs '-R qrels_diversity'"):
        te.evaluate(b"1 0 a 1\n", b"1 Q0 a 1 1 r\n", ["alpha_nDCG@10"])


# ---------------------------------------------------------------- reading

@pytest.mark.parametrize("text, line, message", [
    (b"1 1 a 1\n1 -1 b 1\n", 2, "subtopic -1 is negative"),
    (b"1 1 a -2\n", 1, "relevance -2 is negative"),
    (b"1 1 a 1\n1 2 a 1\n1 1 a 0\n", 3, "judged twice for subtopic 1"),
    (b"1 1 a\n", 1, "3 fields"),
    (b"1 x a 1\n", 1, "subtopic is not an integer"),
])
def test_reader_errors_name_the_line(text, line, message):
    with pytest.raises(InputError, match=message) as e:
        te.evaluate(text, b"1 Q0 a 1 1 r\n", ["P_IA.5"], rel_format="qrels_diversity")
    assert e.value.line == line
    assert (e.value.text is None) == ("twice" in message)  # the join's finding: no one line shows it


def test_a_judgment_twice_before_a_bad_line_is_reported_first():
    with pytest.raises(InputError, match="judged twice") as e:
        te.evaluate(b"1 1 a 1\n1 1 a 0\n1 1 b\n", b"1 Q0 a 1 1 r\n", ["P_IA.5"], rel_format="qrels_diversity")
    assert e.value.line == 2


# ---------------------------------------------------------------- the ndeval tool

def test_python_api_gives_ndeval_report():
    from trec_eval_py.tools.organiser.ndeval import ndeval_report

    case = FIX / "risk_alpha"
    text = ndeval_report(str(case / "qrels"), str(case / "run"), str(case / "baseline"), risk_alpha=1.0,
                         risk_alpha_text="1.0")
    assert text.encode() == (case / "expected").read_bytes()


@pytest.mark.parametrize("run, message", [
    (b"1 Q0 a 1 1 r\nabc Q0 b 2 1 r\n", "topic 'abc' is not a number"),
    (b"1 Q0 a 1 1 r\n1 Q0 b 1.5 1 r\n", "rank 1.5 is not a whole number"),
    (b"1 Q0 a 1 1 r\n1 Q0 b 1 1 r\n", "rank 1 is given twice for topic 1"),
    (b"1 Q0 a 1 1 r\n1 Q0 b 2 1 r\n1 Q0 a 3 1 r\n", "duplicate docno 'a'"),
    (b"2000000 Q0 a 1 1 r\n", "is not a number"),
])
def test_ndeval_refuses_what_ndeval_refuses(run, message):
    from trec_eval_py.tools.organiser.ndeval import ndeval_report

    with pytest.raises(InputError, match=message):
        ndeval_report(b"1 1 a 1\n", run)


def test_ndeval_topics_are_numbers():
    from trec_eval_py.tools.organiser.ndeval import ndeval_report

    one = ndeval_report(b"01 1 a 1\n", b"wt09-1 Q0 a 1 1 r\n").splitlines()
    row, mean = one[1].split(","), one[2].split(",")
    assert row[:2] == ["r", "1"] and row[5] == "1.000000" and mean[1:] == ["amean"] + row[2:]
    with pytest.raises(InputError, match="topic 'x1' is not a whole number"):
        ndeval_report(b"x1 1 a 1\n", b"1 Q0 a 1 1 r\n")


@pytest.mark.parametrize("settings", [{"alpha": 1.5}, {"beta": -0.1}, {"risk_alpha": -1.0}, {"depth": 0},
                                      {"alpha": math.nan}])
def test_ndeval_settings_are_checked(settings):
    from trec_eval_py.tools.organiser.ndeval import ndeval_report

    with pytest.raises(UsageError):
        ndeval_report(b"1 1 a 1\n", b"1 Q0 a 1 1 r\n", **settings)


# ---------------------------------------------------------------- the implementation's shortcuts

@pytest.mark.parametrize("seed", range(8))
def test_numpy_join_equals_the_c_join(seed, monkeypatch):
    from trec_eval_py import _native

    judgments, run = random_case(random.Random(1000 + seed))
    fast = evaluate(judgments, run, ALL, order=random.Random(seed).choice(["score", "rank"]))
    monkeypatch.setattr(_native, "USE_C", False)
    slow = evaluate(judgments, run, ALL, order=fast.options.order)
    assert repr(fast.per_topic()) == repr(slow.per_topic())


@pytest.mark.parametrize("beta", [0.5, 0.8, 0.95, 0.3])
def test_ideal_nrbp_from_the_ranks_that_can_matter_equals_all_ranks(beta):
    """nNRBP's ideal is built only as deep as its terms can change the sum (see
    nrbp_ranks): the same value as from every relevant document."""
    from trec_eval_py.engine.join.context import EvalContext
    from trec_eval_py.engine.join.diversity import build_diversity
    from trec_eval_py.engine.measures import _diversity as d
    from trec_eval_py.engine.parse.qrels_diversity import read_qrels_diversity
    from trec_eval_py.engine.parse.run import read_run

    rng = random.Random(beta)
    j = {str(t): {f"d{k}": {s: 1 for s in rng.sample(range(6), rng.randint(1, 3))} for k in range(300)}
         for t in range(3)}
    run = {t: [f"d{k}" for k in rng.sample(range(300), 50)] for t in j}
    rk = build_diversity(read_qrels_diversity(qrels_bytes(j)), read_run(run_bytes(run)), EvalContext())
    b = rk.batch(0, rk.num_topics)
    assert (d.nrbp_ranks(b, beta) < 300) == (beta < 0.9)  # 0.95^i needs more ranks than there are
    full = d._greedy(b, 0.5, 300)
    decay = d.powers(beta, 300)
    want = [0.0] * 3
    for i in range(3):
        total = 0.0
        for x, w in zip(full[i], decay):
            total += x * w
        want[i] = total * ((1 - 0.5 * beta) / b.num_subtopics[i])
    assert d.nrbp(b, 0.5, beta, True).tolist() == want


@pytest.mark.parametrize("seed", range(5))
def test_lex_order_is_numpys_lexsort(seed):
    import numpy as np

    from trec_eval_py.engine.join.keys import lex_order

    rng = np.random.default_rng(seed)
    n = 5000
    keys = [rng.integers(0, 5, n), rng.integers(-3, 70000, n), rng.integers(0, 2 ** 63, n, dtype=np.uint64),
            rng.integers(0, 300, n)]
    assert np.array_equal(lex_order(*keys), np.lexsort(keys))
    assert np.array_equal(lex_order(keys[0]), np.lexsort(keys[:1]))
    # keys combined into one 16-bit key (ranges multiplying to at most 2**16), negative ones
    # included, and the largest ranges that still fit, or just do not
    small = [rng.integers(-7, -2, n), rng.integers(1000, 1300, n), rng.integers(-2 ** 62, -2 ** 62 + 3, n)]
    assert np.array_equal(lex_order(*small), np.lexsort(small))
    edge = [rng.integers(5, 5 + 256, n), rng.integers(-9, -9 + 256, n)]
    assert np.array_equal(lex_order(*edge), np.lexsort(edge))
    over = [rng.integers(0, 257, n), rng.integers(0, 256, n)]
    assert np.array_equal(lex_order(*over), np.lexsort(over))
    levels = np.array([2, 0, 1, 2, -1, 0, 1], dtype=np.int64)  # the judgments' order: topic, then level down
    topics = np.array([1, 0, 1, 0, 1, 1, 0], dtype=np.int64)
    assert lex_order(-levels, topics).tolist() == np.lexsort((-levels, topics)).tolist() == [3, 6, 1, 0, 2, 5, 4]
    assert lex_order(np.zeros(0, np.int64)).tolist() == []
