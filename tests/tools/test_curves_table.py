"""``curves --curve table``: LingPipe's per-rank table (ScoredPrecisionRecallEvaluation).

The class documentation's worked example (fixtures/seeds_examples/lingpipe.*)
is reproduced row by row; random runs are checked against a literal
rank-by-rank reference written from the documentation's definitions.
"""
from __future__ import annotations

import json
import math
import pathlib
import random

import numpy as np
import pytest
from support.golden import run_cli as golden_cli
from support.paths import SEEDS

from trec_eval_py.engine import pipeline
from trec_eval_py.errors import UsageError
from trec_eval_py.tools.curves.curves import TABLE_COLUMNS, compute_curves, compute_table


def run_cli(args, capsysbinary):
    """The curves command in-process: (exit code, stdout, stderr)."""
    return golden_cli(["curves", *args], capsysbinary)

QRELS, RUN = str(SEEDS / "lingpipe.qrels"), str(SEEDS / "lingpipe.run")

#: the documentation's table: rank (from 0), score, correct, recall, precision, rejection recall
LINGPIPE_TABLE = [
    (0, -1.21, False, 0.00, math.nan, 0.83),
    (1, -1.27, True, 0.25, 0.50, 0.83),
    (2, -1.39, False, 0.25, 0.33, 0.67),
    (3, -1.47, True, 0.50, 0.50, 0.67),
    (4, -1.60, True, 0.75, 0.60, 0.67),
    (5, -1.65, False, 0.75, 0.50, 0.50),
    (6, -1.79, False, 0.75, 0.43, 0.33),
    (7, -1.80, False, 0.75, 0.38, 0.17),
    (8, -2.01, True, 1.00, 0.44, 0.17),
    (9, -3.70, False, 1.00, 0.40, 0.00),
]


def test_lingpipe_worked_example():
    t = compute_table(QRELS, RUN)
    assert t.topics == ["lingpipe"]
    rows = t.rows["lingpipe"]
    assert rows.shape == (10, len(TABLE_COLUMNS))
    for row, (rank, score, correct, rec, prec, rej) in zip(rows, LINGPIPE_TABLE):
        assert row[0] == rank + 1  # ranks count from 1 here, from 0 on the page
        assert row[1] == score and row[2] == (1 if correct else 0)
        assert round(row[3], 2) == rec and round(row[5], 2) == rej
        if math.isnan(prec):
            # the page prints NaN after one wrong answer; 0 correct of 1 accepted is precision 0
            assert row[4] == 0.0
        else:
            assert round(row[4], 2) == prec
    # exact values behind the rounded ones: recall k/4, rejection recall (6 - FP)/6
    assert rows[4, 3] == 3 / 4 and rows[4, 5] == 4 / 6 and rows[4, 4] == 3 / 5
    # maximumFMeasure() = 0.67, at recall 0.75 and precision 0.60 (rank 4 on the page)
    best = int(np.argmax(rows[:, 6]))
    assert best == 4 and round(rows[best, 6], 2) == 0.67
    assert rows[best, 6] == 2 * 0.6 * 0.75 / (0.6 + 0.75)
    # the rows of the correct responses are prCurve(false)
    pr = compute_curves(QRELS, RUN, "pr").points["lingpipe"]
    assert rows[rows[:, 2] == 1][:, [3, 4]].tolist() == pr.tolist()


def test_max_f_of_the_relevant_rows_is_the_measure():
    t = compute_table(QRELS, RUN)
    rows = t.rows["lingpipe"]
    ev = pipeline.evaluate(QRELS, RUN, ["max_F"])
    assert max(rows[rows[:, 2] == 1][:, 6]) == ev.summary["max_F_1"]


def test_misses_count_in_recall_only(tmp_path):
    """LingPipe's addMisses(1): a relevant document the system never returned."""
    q = tmp_path / "q"
    q.write_text(pathlib.Path(QRELS).read_text() + "lingpipe 0 missed 1\n")
    rows = compute_table(str(q), RUN).rows["lingpipe"]
    assert len(rows) == 10  # no row for the miss
    assert rows[:, 3].tolist() == [c / 5 for c in np.cumsum(rows[:, 2])]
    assert rows[-1, 3] == 4 / 5  # recall never reaches 1
    base = compute_table(QRELS, RUN).rows["lingpipe"]
    assert rows[:, 5].tolist() == base[:, 5].tolist() and rows[:, 4].tolist() == base[:, 4].tolist()


def test_collection_size_adds_negatives():
    # -N 20: 20 - 4 relevant = 16 negatives, 10 of them never retrieved
    rows = compute_table(QRELS, RUN, num_docs_in_coll=20).rows["lingpipe"]
    fp = np.arange(1, 11) - np.cumsum(rows[:, 2])
    assert rows[:, 5].tolist() == ((16 - fp) / 16).tolist()
    assert rows[-1, 5] == 10 / 16


def _reference(qrels: dict, run: dict, level: int = 1, coll: int = 0, max_docs=None, judged_only=False):
    """Rank by score descending (distinct scores), then LingPipe's counts rank by rank."""
    out = {}
    for q in sorted(set(qrels) & set(run)):
        ranked = sorted(run[q].items(), key=lambda kv: -kv[1])
        if judged_only:
            ranked = [(d, s) for d, s in ranked if qrels[q].get(d, -1) >= 0]
        if max_docs is not None:
            ranked = ranked[:max_docs]
        num_rel = sum(1 for v in qrels[q].values() if v >= level and v >= 0)
        if num_rel == 0 or not ranked:
            out[q] = []
            continue
        is_rel = [qrels[q].get(d, -1) >= level and qrels[q].get(d, -1) >= 0 for d, _ in ranked]
        negatives = len(ranked) - sum(is_rel)
        if coll > 0:
            negatives = max(coll - num_rel, negatives)
        rows, tp = [], 0
        for k, ((_, score), rel) in enumerate(zip(ranked, is_rel), start=1):
            tp += rel
            fp = k - tp
            rec, prec = tp / num_rel, tp / k
            rej = (negatives - fp) / negatives if negatives else math.nan
            f1 = 2 * prec * rec / (prec + rec) if tp else 0.0
            rows.append([k, score, int(rel), rec, prec, rej, f1])
        out[q] = rows
    return out


def _same(a, b) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


@pytest.mark.parametrize("seed", range(6))
def test_random_runs_match_the_reference(seed):
    rng = random.Random(f"lingpipe table {seed}")
    qrels, run = {}, {}
    for q in rng.sample(["1", "2", "3", "10", "a"], rng.randint(1, 5)):
        qrels[q] = {f"d{i}": rng.choice([-1, 0, 0, 1, 2]) for i in rng.sample(range(30), rng.randint(1, 15))}
    for q in rng.sample(["1", "2", "3", "10", "a", "z"], rng.randint(1, 6)):
        docs = rng.sample(range(40), rng.randint(1, 20))
        scores = rng.sample(range(-500, 500), len(docs))  # distinct, exact in float32
        run[q] = {f"d{d}": s / 8 for d, s in zip(docs, scores)}
    if not set(qrels) & set(run):
        run[next(iter(qrels))] = {"d0": 1.0}
    for opts in ({}, {"relevance_level": 2}, {"num_docs_in_coll": 60}, {"max_docs": 5}, {"judged_only": True}):
        t = compute_table(qrels, run, **opts)
        ref = _reference(qrels, run, opts.get("relevance_level", 1), opts.get("num_docs_in_coll", 0),
                         opts.get("max_docs"), opts.get("judged_only", False))
        assert t.topics == sorted(ref, key=lambda q: q.encode())
        for q in t.topics:
            got = t.rows[q].tolist()
            assert len(got) == len(ref[q]), (q, opts)
            for g, w in zip(got, ref[q]):
                assert all(_same(x, y) for x, y in zip(g, w)), (q, opts, g, w)


def test_file_order_keeps_each_documents_score(tmp_path):
    r = tmp_path / "r"
    r.write_text("lingpipe Q0 case9 1 -3.7 x\nlingpipe Q0 case1 2 -1.27 x\nlingpipe Q0 case0 3 -1.21 x\n")
    rows = compute_table(QRELS, str(r), order="file").rows["lingpipe"]
    assert rows[:, 1].tolist() == [-3.7, -1.27, -1.21] and rows[:, 2].tolist() == [0, 1, 0]


def test_cli_formats(capsysbinary):
    code, out, err = run_cli([QRELS, RUN, "--curve", "table"], capsysbinary)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "topic\trank\tscore\trelevant\trecall\tprecision\trej_recall\tf1"
    assert lines[5] == "lingpipe\t5\t-1.6\t1\t0.750000\t0.600000\t0.666667\t0.666667"
    code, out, _ = run_cli([QRELS, RUN, "--curve", "table", "--format", "text"], capsysbinary)
    text = out.splitlines()
    assert text[0].split() == ["topic", *TABLE_COLUMNS] and len(text) == 11
    assert text[2].split() == ["lingpipe", "2", "-1.27", "1", "0.2500", "0.5000", "0.8333", "0.3333"]
    code, out, _ = run_cli([QRELS, RUN, "--curve", "table", "--format", "json", "--topic", "lingpipe"], capsysbinary)
    d = json.loads(out)
    assert d["curve"] == "table" and d["columns"] == list(TABLE_COLUMNS)
    assert d["topics"]["lingpipe"][0] == [1, -1.21, 0, 0.0, 0.0, 5 / 6, 0.0]


def test_no_negatives_is_nan(tmp_path, capsysbinary):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("1 0 a 1\n1 0 b 1\n")
    r.write_text("1 Q0 a 1 2.5 x\n")
    rows = compute_table(str(q), str(r)).rows["1"]
    assert rows.shape == (1, 7) and math.isnan(rows[0, 5]) and rows[0, 3] == 0.5
    code, out, _ = run_cli([q, r, "--curve", "table"], capsysbinary)
    assert out.splitlines()[1] == "1\t1\t2.5\t1\t0.500000\t1.000000\tNaN\t0.666667"
    assert json.loads(run_cli([q, r, "--curve", "table", "--format", "json"],
                              capsysbinary)[1])["topics"]["1"][0][5] is None


def test_cli_errors(capsysbinary):
    base = [QRELS, RUN, "--curve", "table"]
    for extra in (["--topic", "all"], ["--format", "xml"], ["--topic", "nope"]):
        code, out, err = run_cli(base + extra, capsysbinary)
        assert code != 0 and out == "" and err.startswith("trec_eval_py: ") and "Traceback" not in err
    code, out, err = run_cli([QRELS, RUN, "--curve", "pr", "--format", "text"], capsysbinary)
    assert code != 0 and "--curve table only" in err
    with pytest.raises(UsageError):
        compute_table(QRELS, RUN, rel_format="prefs")


def test_measures_do_not_pay_for_scores():
    """Scores ride along only when asked for: evaluations keep the plain join."""
    from trec_eval_py.engine.join import EvalContext
    from trec_eval_py.engine.pipeline import batches

    assert all(b.scores is None for b in batches(QRELS, RUN))
    b = next(iter(batches(QRELS, RUN, ctx=EvalContext(keep_scores=True))))
    assert b.scores[0].tolist() == [-1.21, -1.27, -1.39, -1.47, -1.6, -1.65, -1.79, -1.8, -2.01, -3.7]
