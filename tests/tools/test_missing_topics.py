"""A topic a run lacks counts in compare, batch and plots as the -c summary counts it.

9.0.8 never evaluates such a topic: it adds 0 to every sum. Its empty ranking's
own values can be undefined (iprec_at_recall is 0/0), which once made compare
refuse any run that missed a topic.
"""
from __future__ import annotations

import numpy as np
import pytest
from support.golden import GOLDEN

import trec_eval_py as te
from trec_eval_py.tools.compare.comparison import compare_runs

QRELS = GOLDEN / "inputs" / "qrels.test"
RUN = GOLDEN / "inputs" / "results.test"
MEASURES = ["map", "iprec_at_recall.0", "11pt_avg", "P.5", "gm_map"]


@pytest.fixture
def missing_run(tmp_path):
    p = tmp_path / "miss.run"
    p.write_bytes(b"".join(ln for ln in RUN.read_bytes().splitlines(keepends=True) if not ln.startswith(b"302")))
    return p


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
def test_compare_means_are_the_complete_summaries(missing_run, compat):
    result = compare_runs(str(QRELS), [str(RUN), str(missing_run)], MEASURES, ["t"], compat=compat)
    summary = te.evaluate(str(QRELS), str(missing_run), MEASURES, complete=True, compat=compat).summary
    rows = {r.measure: r for r in result.rows}
    for name in ("map", "iprec_at_recall_0.00", "11pt_avg", "P_5"):
        assert rows[name].mean == pytest.approx(summary[name], abs=1e-12), name


def test_counted_values_add_up_to_the_summary(missing_run):
    e = te.evaluate(str(QRELS), str(missing_run), MEASURES, complete=True)
    assert e.filled.tolist() == [False, True, False]
    counted = {c.name: v for c, v in zip(e.columns, e.counted_values())}
    assert np.isnan(e.values["iprec_at_recall_0.00"][1])  # the empty ranking's own value: 0/0
    assert counted["iprec_at_recall_0.00"][1] == 0
    for name in ("map", "iprec_at_recall_0.00", "P_5"):
        assert counted[name].sum() / 3 == pytest.approx(e.summary[name], abs=1e-12)


def test_batch_board_counts_the_missing_topic(missing_run, tmp_path):
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard

    board = build_leaderboard(str(QRELS), [str(RUN), str(missing_run)], MEASURES)
    summary = te.evaluate(str(QRELS), str(missing_run), MEASURES, complete=True).summary
    entry = [e for e in board.entries if str(missing_run) in str(e.path)][0]
    assert entry.evaluation.summary["iprec_at_recall_0.00"] == pytest.approx(summary["iprec_at_recall_0.00"])
