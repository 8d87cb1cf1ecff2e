"""The C/W/L measures (``cwl_*``) against cwl_eval, and hand-worked cases.

cwl_eval (the ``cwl`` package) is the reference: its metric classes are run
on each topic's ranking in this package's order (the ranking rule of
:mod:`trec_eval_py.engine.join.order`; cwl_eval itself does not sort), with
a gain table built here from the judgments by the documented mapping, and
all five outputs (EU, ETU, EC, ETC, ED) must agree to 1e-9 (relative to the
value when it is above 1). The one documented departure, the dynamic BPM's
``hc``, is checked against a C/W/L model written here from the paper's rule
and run through cwl_eval's own W/L arithmetic.
"""
from __future__ import annotations

import logging
import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trec_eval_py as te
from trec_eval_py.engine.join.order import RankRule
from trec_eval_py.engine.measures import registry
from trec_eval_py.engine.parse.run import Run
from trec_eval_py.errors import MeasureError

pytest.importorskip("cwl")
from cwl.ruler.measures import (
    cwl_ap,
    cwl_bpm,
    cwl_dcg,
    cwl_insq,
    cwl_inst,
    cwl_nerr,
    cwl_npv,
    cwl_precision,
    cwl_rbp,
    cwl_rr,
    cwl_set,
    cwl_tbg,
    cwl_umeasure,
)
from cwl.ruler.measures.cwl_metrics import CWLMetric
from cwl.ruler.ranking import RankingMaker
from cwl.seeker.trec_qrel_handler import TrecQrelHandler

logging.getLogger("cwl").disabled = True  # cwl_eval logs every vector at DEBUG

#: cwl_eval's metric classes by name
cwl_metrics = SimpleNamespace(**{name: getattr(mod, name) for mod in (
    cwl_ap, cwl_bpm, cwl_dcg, cwl_inst, cwl_insq, cwl_nerr, cwl_npv, cwl_precision, cwl_rbp, cwl_rr, cwl_set,
    cwl_tbg, cwl_umeasure) for name in dir(mod) if name.endswith("CWLMetric")})

OUTPUTS = ("EU", "ETU", "EC", "ETC", "ED")
CWL_NAMES = ["cwl_P", "cwl_ap", "cwl_bpm", "cwl_bpm_dyn", "cwl_insq", "cwl_inst", "cwl_nerr10", "cwl_nerr11",
             "cwl_nerr8", "cwl_nerr9", "cwl_npv", "cwl_rbp", "cwl_rr", "cwl_sdcg", "cwl_set", "cwl_tbg", "cwl_u"]


class BpmPaper(CWLMetric):
    """The dynamic BPM as documented in cwl_bpm (``hc`` moves ``K``), written as a plain
    rank-by-rank loop on cwl_eval's own framework (its W, L and outputs)."""

    def __init__(self, T, K, hb, hc, med):
        super().__init__()
        self.T, self.K, self.hb, self.hc, self.med = T, K, hb, hc, med

    def c_vector(self, ranking, worse_case=True):
        gains = ranking.get_gain_vector(worse_case)
        c = np.zeros(len(gains))
        t, k, got = self.T, self.K, 0.0
        for i, g in enumerate(gains):
            got += g
            if not (got < t and i + 1.0 < k):
                break
            c[i] = 1.0
            t += self.hb * (g - self.med)
            k += self.hc * (g - self.med)
        return c


def _num(x) -> str:
    return repr(float(x))


# (our measure, its own parameters, the reference metric for them)
def _families(draw, depth: int):
    k = draw(st.integers(1, 12))
    p_k = draw(st.integers(1, depth))  # cwl_eval's P@k needs k <= depth
    t = draw(st.floats(0.05, 5.0))
    p = draw(st.floats(0.0, 1.0))
    bpm = (draw(st.floats(0.05, 4.0)), draw(st.floats(0.5, 15.0)))
    dyn = (draw(st.floats(-2.0, 2.0)), draw(st.floats(-2.0, 2.0)), draw(st.floats(0.0, 1.0)))
    h, length = draw(st.floats(0.5, 500.0)), draw(st.floats(0.5, 50.0))
    rate, beta = draw(st.floats(0.0, 3.0)), draw(st.floats(0.05, 2.0))
    m = cwl_metrics
    return [
        ("cwl_inst", f"T={_num(t)}", lambda: m.INSTCWLMetric(t)),
        ("cwl_insq", f"T={_num(t)}", lambda: m.INSQCWLMetric(t)),
        ("cwl_bpm", f"T={_num(bpm[0])},K={_num(bpm[1])}", lambda: m.BPMCWLMetric(*bpm)),
        # hc=0: where cwl_eval's dynamic BPM and ours agree (see cwl_bpm)
        ("cwl_bpm_dyn", f"T={_num(bpm[0])},K={_num(bpm[1])},hb={_num(dyn[0])},hc=0,med={_num(dyn[2])}",
         lambda: m.BPMDCWLMetric(bpm[0], bpm[1], dyn[0], 0.0, dyn[2])),
        ("cwl_nerr8", f"k={k}", lambda: m.NERReq8CWLMetric(k)),
        ("cwl_nerr9", f"k={k}", lambda: m.NERReq9CWLMetric(k)),
        ("cwl_nerr10", f"p={_num(p)}", lambda: m.NERReq10CWLMetric(p)),
        ("cwl_nerr11", f"T={_num(t)}", lambda: m.NERReq11CWLMetric(t)),
        ("cwl_sdcg", f"k={k}", lambda: m.NDCGCWLMetric(k)),
        ("cwl_tbg", f"h={_num(h)}", lambda: m.TBGCWLMetric(h)),
        ("cwl_u", f"L={_num(length)}", lambda: m.UMeasureCWLMetric(length)),
        ("cwl_rbp", f"p={_num(p)}", lambda: m.RBPCWLMetric(p)),
        ("cwl_npv", f"rate={_num(rate)}", lambda: m.NPVCWLMetric(rate)),
        ("cwl_P", f"k={p_k}", lambda: m.PrecisionCWLMetric(p_k)),
        ("cwl_ap", "", lambda: m.APCWLMetric()),
        ("cwl_rr", "", lambda: m.RRCWLMetric()),
        ("cwl_set", f"beta={_num(beta)},k={k}", lambda: m.SETCWLMetric(beta, k)),
        # the paper's dynamic BPM (hc moves K), on cwl_eval's framework
        ("cwl_bpm_dyn", f"T={_num(bpm[0])},K={_num(bpm[1])},hb={_num(dyn[0])},hc={_num(dyn[1])},med={_num(dyn[2])}",
         lambda: BpmPaper(bpm[0], bpm[1], dyn[0], dyn[1], dyn[2])),
    ]


QIDS = ["1", "2", "10", "a"]
DOCS = [f"d{i}" for i in range(12)] + ["x", "X", "d01"]
SCORES = [0.0, 1.0, 1.0, 2.5, -1.0, 3.0, 1.00000001]


@st.composite
def cases(draw):
    qrels = {}
    for q in draw(st.lists(st.sampled_from(QIDS), min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10, unique=True))
        qrels[q] = {d: draw(st.integers(-1, 3)) for d in docs}
    run = {}
    for q in draw(st.lists(st.sampled_from(QIDS), max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from(DOCS), max_size=14, unique=True))
        run[q] = {d: draw(st.sampled_from(SCORES) | st.floats(-5, 5)) for d in docs}
    if not any(run.get(q) for q in qrels):  # an evaluation needs one topic with both
        q = next(iter(qrels))
        run[q] = {next(iter(qrels[q])): 1.0}
    depth = draw(st.sampled_from([None, 1, 2, 3, 5, 8, 13]))
    grading = draw(st.sampled_from(["binary", "graded"]))
    if grading == "binary":
        gains = {"level": draw(st.integers(0, 2))}
    else:
        top = draw(st.integers(1, 4))
        gains = {"max_rel": top, "min_rel": draw(st.integers(0, top - 1))}
    options = {"complete": draw(st.booleans()), "compat": draw(st.sampled_from(["9.0.8", "10.0"])),
               "max_docs": draw(st.sampled_from([None, None, 3]))}
    families = _families(draw, depth or 1000)
    return qrels, run, depth, gains, options, families


def gain_of(level: int, gains: dict) -> float:
    """The documented gain of a judged document (negative levels gain 0)."""
    if level < 0:
        return 0.0
    if "level" in gains:
        return 1.0 if level >= gains["level"] else 0.0
    low, top = float(gains["min_rel"]), float(gains["max_rel"])
    return (min(max(level, low), top) - low) / (top - low)


def ranked_docnos(run: dict, compat: str, max_docs) -> dict:
    """Each topic's docnos in evaluation order: the package's ranking rule, then -M."""
    r = Run.from_dict(run)
    out: dict = {}
    if not len(r):
        return out
    _, topic = np.unique(r.qid, return_inverse=True)
    for i in RankRule.for_compat(compat).order_rows(topic.reshape(-1), r):
        out.setdefault(r.qid[i].decode(), []).append(r.docno[i].decode())
    if max_docs is not None:
        out = {q: docs[:max_docs] for q, docs in out.items()}
    return out


def reference(qrels, ranked, topics, gains, depth, make) -> dict:
    """{topic: [EU, ETU, EC, ETC, ED]} from cwl_eval on our ranking and gain table."""
    table = TrecQrelHandler(None)
    for q, judged in qrels.items():
        for d, level in judged.items():
            table.put_value(q, d, gain_of(level, gains))
    out = {}
    for q in topics:
        maker = RankingMaker(q, table, None, max_gain=1.0, min_gain=0.0, max_cost=1.0, min_cost=1.0, max_n=depth)
        for d in ranked.get(q, []):
            maker.add(d, "Q0")
        metric = make()
        metric.residuals = False
        with np.errstate(all="ignore"):  # cwl_u at depth 1 divides 0 by 0, as ours does
            metric.measure(maker.get_ranking())
        out[q] = metric.get_scores()
    return out


def close(ours: float, theirs: float) -> bool:
    if math.isnan(theirs):
        return math.isnan(ours)
    return abs(ours - theirs) <= 1e-9 * max(1.0, abs(theirs))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
@pytest.mark.slow
def test_every_cwl_measure_and_output_agrees_with_cwl_eval(case):
    qrels, run, depth, gains, options, families = case
    common = ([f"depth={depth}"] if depth else []) + [f"{k}={v}" for k, v in gains.items() if k != "level"]
    specs = {}
    for name, own, make in families:
        text = ",".join([x for x in [own] if x] + common + ["all"])
        specs.setdefault(name, []).append((f"{name}.{text}", make))
    ranked = ranked_docnos(run, options["compat"], options["max_docs"])
    # one -m per measure (the first parameters win, as in trec_eval): an evaluation per round
    for round_ in range(max(len(v) for v in specs.values())):
        chosen = [(name, v[round_]) for name, v in specs.items() if round_ < len(v)]
        ev = te.evaluate(qrels, run, [s for _, (s, _) in chosen],
                         relevance_level=gains.get("level", 1), **options)
        per_topic = ev.per_topic()
        for _name, (spec, make) in chosen:
            theirs = reference(qrels, ranked, ev.topics, gains, depth or 1000, make)
            sel = registry().resolve([spec])[0]
            for q in ev.topics:
                for out_name, want in zip(sel.names, theirs[q]):
                    got = per_topic[q][out_name]
                    assert close(got, want), (spec, q, out_name, got, want, ranked.get(q))
            if not (options["complete"] and options["compat"] == "9.0.8"):
                # the summary: the mean of the topics' values (9.0.8 with -c counts
                # topics without results as 0, as for every measure)
                for j, out_name in enumerate(sel.names):
                    total = 0.0
                    for q in ev.topics:
                        total += theirs[q][j]
                    assert close(float(ev.summary[out_name]), total / len(ev.topics)), (spec, out_name)


# ---- hand-worked cases ----

def _values(qrels, run, spec, **opts):
    ev = te.evaluate(qrels, run, [spec], **opts)
    return ev.per_topic(), ev.summary


def test_inst_hand_worked():
    # one relevant document at rank 1, T=1: C(1) = ((1+1+0-1)/(1+1+0))^2 = 1/4, then
    # T_i stays 0: C(i) = (i/(i+1))^2, so W(i) is proportional to 1/4 * (2/(i+1))^2 for i >= 2
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    per, _ = _values(qrels, run, "cwl_inst.depth=3,all")
    c1, c2 = 0.25, (2 / 3) ** 2
    before = [1.0, c1, c1 * c2]
    w = [x / sum(before) for x in before]
    c3 = (3 / 4) ** 2
    last = [1 - c1, c1 * (1 - c2), c1 * c2 * (1 - c3)]
    got = per["q"]
    assert got["cwl_inst_depth=3"] == pytest.approx(w[0], rel=1e-12)
    assert got["cwl_inst_depth=3_ETU"] == pytest.approx(sum(last), rel=1e-12)
    assert got["cwl_inst_depth=3_ETC"] == pytest.approx(last[0] + 2 * last[1] + 3 * last[2], rel=1e-12)
    assert got["cwl_inst_depth=3_ED"] == pytest.approx(sum(before), rel=1e-12)
    assert got["cwl_inst_depth=3_EC"] == pytest.approx(1.0, rel=1e-12)


def test_ap_divides_by_relevant_retrieved_not_judged():
    # relevant at ranks 1 and 3, two more judged relevant but not retrieved
    qrels = {"q": {"a": 1, "b": 0, "c": 1, "d": 1, "e": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    per, _ = _values(qrels, run, "cwl_ap")
    assert per["q"]["cwl_ap"] == pytest.approx((1 + 2 / 3) / 2, rel=1e-12)
    assert _values(qrels, run, "map")[0]["q"]["map"] == pytest.approx((1 + 2 / 3) / 4, rel=1e-12)


def test_sdcg_is_dcg_over_k_fully_relevant_documents():
    qrels = {"q": {"a": 2, "b": 1}}
    run = {"q": {"x": 3.0, "a": 2.0, "b": 1.0}}
    per, _ = _values(qrels, run, "SDCG(max_rel=2)@3")
    disc = [1 / math.log2(i + 1) for i in (1, 2, 3)]
    assert per["q"]["SDCG(max_rel=2)@3"] == pytest.approx((1.0 * disc[1] + 0.5 * disc[2]) / sum(disc), rel=1e-12)


def test_rr_graded_and_no_relevant():
    qrels = {"q": {"a": 1, "b": 2}, "r": {"z": 0}}
    run = {"q": {"x": 3.0, "a": 2.0, "b": 1.0}, "r": {"z": 1.0}}
    per, _ = _values(qrels, run, "cwl_rr.max_rel=2,depth=50,all")
    assert per["q"]["cwl_rr_max_rel=2,depth=50"] == pytest.approx(0.5 / 2, rel=1e-12)
    # no gain anywhere: the user reads all 50 ranks (ED) and never stops inside them (ETC 0)
    assert per["r"]["cwl_rr_max_rel=2,depth=50"] == 0.0
    assert per["r"]["cwl_rr_max_rel=2,depth=50_ED"] == pytest.approx(50.0, rel=1e-12)
    assert per["r"]["cwl_rr_max_rel=2,depth=50_ETC"] == 0.0


def test_binary_gains_follow_the_relevance_level():
    qrels = {"q": {"a": 1, "b": 2}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    assert _values(qrels, run, "cwl_P.k=2")[0]["q"]["cwl_P_k=2"] == 1.0
    assert _values(qrels, run, "cwl_P.k=2", relevance_level=2)[0]["q"]["cwl_P_k=2"] == 0.5
    # graded: levels 1 and 2 of max_rel=2 gain 0.5 and 1; -l no longer matters
    for level in (1, 2):
        got = _values(qrels, run, "cwl_P.k=2,max_rel=2", relevance_level=level)[0]["q"]["cwl_P_k=2,max_rel=2"]
        assert got == 0.75


def test_bpm_dynamic_hc_moves_the_cost_budget():
    # K=2, hc=2, med=0.5: a relevant document at rank 1 raises K to 3, so three ranks are read
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5}}
    spec = "cwl_bpm_dyn.T=5,K=2,hb=0,hc=2,med=0.5,ED"
    assert _values(qrels, run, spec)[0]["q"]["cwl_bpm_dyn_T=5,K=2,hb=0,hc=2,med=0.5_ED"] == 3.0
    spec = "cwl_bpm_dyn.T=5,K=2,hb=0,hc=0,med=0.5,ED"
    assert _values(qrels, run, spec)[0]["q"]["cwl_bpm_dyn_T=5,K=2,hb=0,hc=0,med=0.5_ED"] == 2.0


def test_empty_ranking_is_a_ranking_of_zero_gains():
    qrels = {"q": {"a": 1}, "empty": {"b": 1}}
    run = {"q": {"a": 1.0}}
    per, _ = _values(qrels, run, "cwl_insq.depth=4,all", complete=True)
    c = [((i + 1) / (i + 2)) ** 2 for i in (1, 2, 3)]
    before = [1.0, c[0], c[0] * c[1], c[0] * c[1] * c[2]]
    got = per["empty"]
    assert got["cwl_insq_depth=4"] == 0.0 and got["cwl_insq_depth=4_ETU"] == 0.0
    assert got["cwl_insq_depth=4_ED"] == pytest.approx(sum(before), rel=1e-12)


# ---- names, parameters, output ----

def test_output_names_and_selection():
    sel = registry().resolve(["cwl_inst.T=3,ED,etu"])[0]
    assert sel.names == ["cwl_inst_T=3_ETU", "cwl_inst_T=3_ED"]
    assert registry().resolve(["cwl_inst"])[0].names == ["cwl_inst"]
    assert registry().resolve(["cwl_rr.all"])[0].names == ["cwl_rr", "cwl_rr_ETU", "cwl_rr_EC", "cwl_rr_ETC",
                                                           "cwl_rr_ED"]
    assert {m.name for m in registry().nickname_members("cwl", "9.0.8")} == set(CWL_NAMES)


def test_a_second_parameter_list_of_one_measure_is_kept(tmp_path, capsysbinary):
    from support.golden import run_cli

    # first-wins is trec_eval's rule for its own measures (-m P.5 -m P.10 prints P_5);
    # a cwl_* measure cannot take k= twice in one spec, so each -m keeps its own list
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n")
    r.write_text("1 Q0 a 1 3 run\n1 Q0 b 2 2 run\n1 Q0 c 3 1 run\n")
    specs = ["cwl_P.k=2", "P.1", "cwl_P.k=1", "P.2", "cwl_P.k=2.0", "cwl_P.k=3"]
    code, out, err = run_cli([a for s in specs for a in ("-m", s)] + [str(q), str(r)], capsysbinary)
    assert code == 0 and err == ""
    rows = [line.split("\t") for line in out.splitlines()]
    # as asked for; k=2.0 asks again for k=2 and adds nothing
    assert [(n.strip(), v) for n, _, v in rows] == [("P_1", "1.0000"), ("cwl_P_k=2", "0.5000"),
                                                    ("cwl_P_k=1", "1.0000"), ("cwl_P_k=3", "0.6667")]
    ev = te.evaluate(str(q), str(r), specs)
    assert ev.summary == {"P_1": 1.0, "cwl_P_k=2": 0.5, "cwl_P_k=1": 1.0, "cwl_P_k=3": pytest.approx(2 / 3)}


@pytest.mark.parametrize("spec, message", [
    ("cwl_inst.T=0", "T= is the gain the user wants, a number above 0, not '0'"),
    ("cwl_inst.X=1", "no parameter 'X' (it takes: T, depth, min_rel, max_rel)"),
    ("cwl_inst.soon", "'soon' is neither a name=value pair"),
    ("cwl_inst.T=1,T=2", "T= is given twice"),
    ("cwl_rbp.p=1.5", "p= is the persistence, a number from 0 to 1, not '1.5'"),
    ("cwl_sdcg.k=2.5", "k= is the rank cutoff, a whole number of 1 or more, not '2.5'"),
    ("cwl_P.depth=0", "depth= is the ranks the user model runs over, a whole number of 1 or more"),
    ("cwl_P.depth=1000000", "depth= is at most 100000"),
    ("cwl_P.min_rel=1", "min_rel= needs max_rel="),
    ("cwl_P.min_rel=2,max_rel=2", "max_rel= must be above min_rel="),
    ("cwl_P.max_rel=-1", "max_rel= is the level that gains 1 (graded gains), a number above 0"),
    ("cwl_ap.T=1", "no parameter 'T' (it takes: depth, min_rel, max_rel)"),
])
def test_bad_parameters_are_refused_in_one_line(spec, message):
    with pytest.raises(MeasureError) as e:
        registry().resolve([spec])
    assert message in str(e.value) and "\n" not in str(e.value)


def test_cli_and_dataframe(tmp_path, capsysbinary):
    from support.golden import run_cli

    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 0 a 1\n1 0 b 0\n2 0 c 2\n")
    r.write_text("1 Q0 b 1 2 run\n1 Q0 a 2 1 run\n2 Q0 c 1 1 run\n")
    code, out, err = run_cli(["-q", "-m", "cwl_inst.T=2,all", "-m", "INSQ(T=2,max_rel=2)", str(q), str(r)],
                             capsysbinary)
    assert code == 0 and err == ""
    names = {line.split("\t")[0].strip() for line in out.splitlines()}
    assert names == {"cwl_inst_T=2", "cwl_inst_T=2_ETU", "cwl_inst_T=2_EC", "cwl_inst_T=2_ETC", "cwl_inst_T=2_ED",
                     "cwl_insq_T=2,max_rel=2"}
    pytest.importorskip("pandas")
    ev = te.evaluate(str(q), str(r), ["INST(T=2)", "cwl_tbg.h=10,ED"])
    frame = ev.to_dataframe(wide=True)
    assert {"INST(T=2)", "cwl_tbg_h=10_ED"} <= set(frame.columns)
    assert frame.loc["1", "INST(T=2)"] == ev.per_topic()["1"]["INST(T=2)"]
