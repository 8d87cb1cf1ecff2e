"""Every tool's numbers are ``evaluate()``'s (in the spirit of scikit-learn's
test_common.py): compare (both units), curves, plot's data, batch, the
report, validate's counts and the pytrec_eval drop-in, over the cartesian
product of -M, -J, -c, -l, --order and --compat, on seeded random inputs with
ties in score and rank, unjudged and negatively judged documents, topics
missing from a run and run topics without judgments.

Equality is exact: each tool reads the pipeline's stages, so its numbers are
the same additions in the same order as the measure's, not merely close.
"""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import trec_eval_py as te
from trec_eval_py.tools.compare.comparison import compare_runs
from trec_eval_py.tools.compare.positives import compare_positive_runs
from trec_eval_py.tools.curves.curves import compute_curves, compute_table
from trec_eval_py.tools.grading.leaderboard import build_leaderboard

#: measures with a mean as summary that never give NaN (compare refuses NaN)
MEASURES = ["map", "P.5", "ndcg_cut.10", "recip_rank", "auc_roc", "croc_exp.7", "cac_exp.7"]
AREAS = ["auc_roc", "croc_exp.7", "auc_ac", "cac_pow.2", "auc_proc", "auc_roc_t.0.3", "bedroc"]
BOARD = ["map", "P.5", "recip_rank"]
#: everything the tools are checked against, asked of evaluate() once per run
ALL = list(dict.fromkeys(MEASURES + AREAS + BOARD + ["iprec_at_recall", "num_rel"]))

PRODUCT = list(itertools.product([None, 3], [False, True], [False, True], [1, 2], ["score", "rank", "file"],
                                 ["9.0.8", "10.0"]))


def _collection(seed: int, tmp_path):
    """A qrels file and two runs; scores and ranks tie, the rank column disagrees
    with the scores, some documents are unjudged or judged -1, run 0 misses a
    topic, run 1 has a topic nobody judged."""
    rng = random.Random(seed)
    topics = [f"t{i}" for i in range(rng.randint(3, 5))]
    qrels = []
    for t in topics:
        docs = [f"{t}d{i}" for i in range(rng.randint(4, 14))]
        for d in docs:
            if rng.random() < 0.75:
                qrels.append(f"{t} 0 {d} {rng.choice([0, 0, 1, 1, 2, -1])}\n")
        qrels.append(f"{t} 0 {t}rel 2\n")  # every topic has a relevant document
    paths = []
    for k in range(2):
        lines = []
        for t in topics + (["tx"] if k == 1 else []):
            if k == 0 and t == topics[-1]:
                continue  # a judged topic without results (-c fills it)
            pool = [f"{t}d{i}" for i in range(16)] + [f"{t}rel"]
            for _i, d in enumerate(rng.sample(pool, rng.randint(1, len(pool)))):
                lines.append(f"{t} Q0 {d} {rng.randint(1, 12)} {rng.randint(0, 6) / 2} run{k}\n")
        p = tmp_path / f"run{k}"
        p.write_text("".join(lines))
        paths.append(str(p))
    q = tmp_path / "qrels"
    q.write_text("".join(qrels))
    return str(q), paths


def _options(max_docs, judged_only, complete, level, order, compat):
    return {"max_docs": max_docs, "judged_only": judged_only, "complete": complete, "relevance_level": level,
            "order": order, "compat": compat}


def _counted(qrels, run, specs, **opts):
    """evaluate()'s per-topic values as the -c summary counts them, by printed name."""
    ev = te.evaluate(qrels, run, specs, **opts)
    return ev, {c.name: v for c, v in zip(ev.columns, ev.counted_values())}


@pytest.mark.parametrize("max_docs,judged_only,complete,level,order,compat", PRODUCT)
def test_every_tool_gives_evaluates_numbers(tmp_path, max_docs, judged_only, complete, level, order, compat):
    from trec_eval_py.engine.pipeline import read_judgments
    from trec_eval_py.tools.grading.report import class_topic_stats, median_curve

    seed = PRODUCT.index((max_docs, judged_only, complete, level, order, compat))
    qrels, runs = _collection(seed, tmp_path)
    opts = _options(max_docs, judged_only, complete, level, order, compat)
    every = {k: v for k, v in opts.items() if k != "complete"}  # compare, plot, positives: always -c
    q = read_judgments(qrels)
    ev = [te.evaluate(q, run, ALL, **opts) for run in runs]  # evaluate() once per run, as asked
    levels = [k for k in ev[0].summary if k.startswith("iprec_at_recall_")]
    if not complete:
        # compare (both units) and plot always take every topic of the qrels (-c): -c
        # changes nothing for them, so they are checked once, against evaluate() with -c
        _check_always_complete(q, runs, every, levels)

    # ---- curves: pr's precisions at the relevant documents add up to AP; the per-rank
    # table's precision at rank 5 is P_5. (ipr's average, the best precision at recall
    # >= level as LingPipe and BioCreative take it, is not iprec_at_recall, which turns
    # level R into a count by trec_eval's own rounding: 0.7 * 3 + 0.9 truncates to 2.)
    pr = compute_curves(q, runs[1], "pr", **opts)
    table = compute_table(q, runs[1], **opts)
    for i, qid in enumerate(ev[1].topics):
        num_rel = ev[1].values["num_rel"][i]
        if num_rel:
            ap = np.cumsum(pr.points[qid][:, 1])[-1] / num_rel if len(pr.points[qid]) else 0.0
            assert ap == ev[1].values["map"][i], qid
        rows = table.rows.get(qid)
        if rows is not None and len(rows) >= 5:
            assert rows[4, 4] == ev[1].values["P_5"][i], qid

    # ---- batch: every board's summary and per-topic values; the report's class numbers
    board = build_leaderboard(qrels, runs, BOARD, curves=True, check=False, **opts)
    for e in board.entries:
        assert e.ok, e.error
        k = next(k for k, r in enumerate(runs) if r.endswith(e.path))  # the board names a file as given
        cnt = {c.name: v for c, v in zip(ev[k].columns, ev[k].counted_values())}
        for m in board.columns:
            assert e.evaluation.summary[m] == ev[k].summary[m], (e.path, m)
            assert np.array_equal(e.evaluation.values[m], cnt[m]), (e.path, m)
        assert np.array_equal(e.curve[:, 1], [ev[k].summary[lv] for lv in levels], equal_nan=True)
    for qid, (median, best) in class_topic_stats(board, "map").items():
        vals = [e.evaluation.values["map"][e.evaluation.topics.index(qid)]
                for e in board.entries if qid in e.evaluation.topics]
        vals = [v for v in vals if v == v]
        assert (median, best) == (float(np.median(vals)), float(max(vals))), qid
    curves = np.stack([e.curve for e in board.entries])
    assert np.array_equal(median_curve(board)[:, 1], np.median(curves[:, :, 1], axis=0), equal_nan=True)


def _check_always_complete(q, runs, every, levels):
    from trec_eval_py.engine.pipeline import Options
    from trec_eval_py.errors import UsageError
    from trec_eval_py.tools.compare.positives import area_spec, positives_by_area
    from trec_eval_py.tools.curves.plotting import plot_data

    evc, counted = [], []
    for run in runs:  # evaluate() as the tools that read every judged topic count it
        e, cnt = _counted(q, run, ALL, complete=True, **every)
        evc.append(e)
        counted.append(cnt)

    # ---- compare, --unit topics: per-topic values and means are evaluate()'s under -c
    c = compare_runs(q, runs, MEASURES, ["t"], **every)
    means = c.means()
    for k, lab in enumerate(c.runs):
        assert evc[k].topics == c.topics
        for m in c.measures:
            assert np.array_equal(c.values[lab][m], counted[k][m]), (lab, m)
            assert means[lab][m] == evc[k].summary[m], (lab, m)
    for r in c.rows:
        assert (r.baseline_mean, r.mean) == (means[r.baseline][r.measure], means[r.run][r.measure])

    # ---- compare, --unit positives: the values shown are evaluate()'s; the per-positive
    # values of an area add up to it exactly (those of bedroc are cac_exp's: not its mean)
    popts = Options(**{**every, "complete": True})
    printed = {m: area_spec(m, popts).output for m in AREAS}
    pc = compare_positive_runs(q, runs, AREAS, tests=["t-paired"], **every)
    for r in pc.rows:
        for lab, value in ((r.baseline, r.baseline_value), (r.run, r.value)):
            col = counted[pc.runs.index(lab)][printed[r.measure]]
            assert value == col[c.topics.index(r.topic)], (lab, r.measure, r.topic)
    specs = [area_spec(m, popts) for m in AREAS if m != "bedroc"]
    for k, run in enumerate(runs):
        for a, vals in zip(specs, positives_by_area(q, run, specs, popts)):
            col = counted[k][a.output]
            for i, qid in enumerate(evc[k].topics):
                assert (vals[qid].area if qid in vals else 0.0) == col[i], (a.spec, qid)

    # ---- plot's data: the numbers every figure draws
    if any(np.isnan(e.summary[k]) for e in evc[:2] for k in levels):
        # a ranking emptied by -J: trec_eval's iprec_at_recall is -nan there; nothing to draw
        with pytest.raises(UsageError, match="nan"):
            plot_data("pr", q, runs, **every)
    else:
        for s, e in zip(plot_data("pr", q, runs, **every).series, evc):
            assert s.value == e.summary["map"] and s.y.tolist() == [e.summary[k] for k in levels]
    for s, e in zip(plot_data("croc", q, runs, croc_alpha=7, **every).series, evc):
        assert s.value == e.summary["croc_exp_7"]  # (its curve: compute_curves', as curves prints it)
    data = plot_data("per-topic", q, runs, measure="P.5", **every)
    d = counted[1]["P_5"] - counted[0]["P_5"]
    assert [d[evc[0].topics.index(t)] for t in data.series[0].x] == data.series[0].y.tolist()
    assert sorted(data.series[0].y.tolist()) == sorted(d.tolist())


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
@pytest.mark.parametrize("seed", range(4))
def test_validate_counts_are_the_engines(tmp_path, compat, seed):
    """validate reads raw lines to diagnose them; what it counts is what the
    readers read, and its unjudged-at-the-top counts are the engine's judged.10."""
    from trec_eval_py.engine.pipeline import read_results
    from trec_eval_py.tools.grading.validate import UNJUDGED_DEPTH, validate_run

    qrels, runs = _collection(100 + seed, tmp_path)
    for run in runs:
        rep = validate_run(run, qrels, compat=compat, doc_limit=0)
        r = read_results(run)
        assert rep.results == len(r) and rep.topics == len(set(r.qid.tolist()))
        ev = te.evaluate(qrels, run, [f"judged.{UNJUDGED_DEPTH}"], compat=compat)
        judged = dict(zip(ev.topics, ev.values[f"judged_{UNJUDGED_DEPTH}"]))
        assert set(rep.unjudged) == set(judged)
        for qid, (unjudged, top) in rep.unjudged.items():
            assert (top - unjudged) / top == judged[qid], qid


@pytest.mark.parametrize("judged_only", [False, True])
@pytest.mark.parametrize("level", [0, 1, 2])
def test_pytrec_eval_drop_in_gives_evaluates_numbers(tmp_path, judged_only, level):
    from trec_eval_py.compat.pytrec_eval import RelevanceEvaluator, parse_qrel, parse_run

    qrels, runs = _collection(200 + level + 3 * judged_only, tmp_path)
    with open(qrels) as f:
        qd = parse_qrel(f)
    specs = ["map", "P.5", "recip_rank", "ndcg_cut.10", "bpref"]
    evaluator = RelevanceEvaluator(qd, ["map", "P_5", "recip_rank", "ndcg_cut_10", "bpref"],
                                   relevance_level=level, judged_docs_only_flag=judged_only)
    for run in runs:
        with open(run) as f:
            rd = parse_run(f)
        got = evaluator.evaluate(rd)
        ev = te.evaluate(qrels, run, specs, relevance_level=level, judged_only=judged_only)
        assert list(got) == [t for t in rd if t in ev.topics]
        for i, qid in enumerate(ev.topics):
            for name, key in (("map", "map"), ("P_5", "P_5"), ("recip_rank", "recip_rank"),
                              ("ndcg_cut_10", "ndcg_cut_10"), ("bpref", "bpref")):
                assert got[qid][key] == float(ev.values[name][i]), (qid, name)
