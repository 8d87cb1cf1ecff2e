"""A board's evaluations have evaluate()'s columns: each kept output under its
name with the index of that output among its kernel's outputs, trec_eval's
printed name and what the value is (``-m AP -m map``: one value, printed once)."""
from __future__ import annotations

import pytest
from support.paths import EXAMPLES

import trec_eval_py as te
from trec_eval_py.engine.measures import registry
from trec_eval_py.engine.pipeline import measure_columns
from trec_eval_py.tools.grading.leaderboard import build_leaderboard

QRELS, RUNS = str(EXAMPLES / "qrels.txt"), [str(EXAMPLES / "run_a.txt"), str(EXAMPLES / "run_b.txt")]


def _described(columns):
    return [(c.name, c.index, c.trec_name, c.identity, c.source, c.asked) for c in columns]


@pytest.mark.parametrize("specs", [["P@10", "AP", "map", "nDCG@10"], ["P.5,10", "R@5", "iprec_at_recall.0,.5"],
                                   ["AP(rel=2)", "P(judged_only=True)@5", "recip_rank"]])
def test_board_columns_are_evaluates(specs):
    board = build_leaderboard(QRELS, RUNS, specs, check=False)
    for e in board.entries:
        direct = te.evaluate(QRELS, e.path, specs, complete=True)
        assert _described(e.evaluation.columns) == _described(direct.columns)
        # what is printed from the board's evaluation is what evaluate() prints
        assert e.evaluation.to_text(query=True) == direct.to_text(query=True)


def test_a_kept_output_keeps_its_own_index():
    """A selection keeping one output of several (the second of P.5,10,15) is
    read at that output's index, not at its position among the kept ones."""
    sel = registry().resolve(["P.5,10,15"])[0]
    kept = type(sel)(sel.measure, sel.params, label="P@10", output="P_10")
    cols = measure_columns([kept])
    assert [(c.name, c.index, c.trec_name) for c in cols] == [("P@10", 1, "P_10")]
    selected = registry().resolve(["P.5,10,15", "P@10", "ndcg_cut.5,10", "AP", "map"]) + [kept]
    for c in measure_columns(selected):
        s = selected[c.source]
        assert s.measure.output_names(s.params)[c.index] == c.trec_name


def test_a_boards_csv_names_its_measures_apart():
    """Every csv column of a board that is not a measure is in BOARD_FIELDS, the
    set readers of a board (correlate) leave out when they take the measures,
    and correlate reads the board back to the values it shows."""
    import csv
    import io

    from trec_eval_py.tools.grading.leaderboard import BOARD_FIELDS, render_leaderboard
    from trec_eval_py.tools.organiser.correlation import read_evaluations

    board = build_leaderboard(QRELS, RUNS, ["map", "P.10"])
    text = render_leaderboard(board, "csv")
    header = next(csv.reader(io.StringIO(text)))
    assert [h for h in header if h not in BOARD_FIELDS] == ["map", "P_10"]
    runs = {r.run: r for r in read_evaluations(text.encode(), name="board.csv")}
    for e in board.entries:
        assert runs[e.path].values == {m: e.evaluation.summary[m] for m in ("map", "P_10")}
