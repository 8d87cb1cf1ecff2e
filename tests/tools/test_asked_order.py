"""Measures keep the order they were asked for in every tool (compare's text,
LaTeX, Markdown, JSON and DataFrame, batch's board and DataFrames, an
evaluation's DataFrame), from one place (``Selected.asked``,
``in_asked_order``); trec_eval's text keeps its own print order."""
from __future__ import annotations

import itertools
import json

import pytest
from support.paths import EXAMPLES

import trec_eval_py as te
from trec_eval_py.engine.measures import in_asked_order, registry
from trec_eval_py.tools.compare.comparison import compare_runs
from trec_eval_py.tools.grading.leaderboard import BOARD_FIELDS, build_leaderboard, render_leaderboard

QRELS, RUNS = str(EXAMPLES / "qrels.txt"), [str(EXAMPLES / "run_a.txt"), str(EXAMPLES / "run_b.txt")]
NAMES = {"AP": "AP", "nDCG@10": "nDCG@10", "P@10": "P@10", "map": "map", "P.5": "P_5", "recip_rank": "recip_rank"}


@pytest.mark.parametrize("specs", list(itertools.permutations(["AP", "nDCG@10", "P@10"]))
                         + [["recip_rank", "map", "P.5"], ["P.5", "AP", "recip_rank"]])
def test_every_tool_keeps_the_order_asked(specs):
    want = [NAMES[s] for s in specs]
    c = compare_runs(QRELS, RUNS, specs)
    assert c.measures == want
    assert [r.measure for r in c.rows] == want
    text_rows = [line.split()[1] for line in c.to_text().splitlines()[-len(want):]]
    assert text_rows == want
    latex_head = next(line for line in c.to_latex().splitlines() if line.startswith("Run &"))
    assert [x.strip().replace("\\_", "_") for x in latex_head.rstrip("\\ ").split("&")[1:]] == want
    assert [r["measure"] for r in json.loads(c.to_json())] == want
    pytest.importorskip("pandas")
    assert c.to_dataframe()["measure"].tolist() == want

    board = build_leaderboard(QRELS, RUNS, list(specs), check=False)
    assert board.columns == want
    # the measures after the board's own columns (rank, run, runid, topics, findings...)
    assert [h for h in render_leaderboard(board, "csv").splitlines()[0].split(",") if h not in BOARD_FIELDS] == want
    assert list(board.to_dataframe().columns)[3:3 + len(want)] == want
    per = board.to_dataframe(per_topic=True)
    one = per[(per["run"] == board.entries[0].path) & (per["topic"] == per["topic"].iloc[0])]
    assert one["measure"].tolist() == want

    ev = te.evaluate(QRELS, RUNS[0], list(specs))
    assert list(ev.to_dataframe(wide=True).columns)[1:] == want
    # trec_eval's text: its own print order, whatever the order asked
    printed = [line.split()[0] for line in ev.to_text().splitlines()]
    first = [line.split()[0] for line in te.evaluate(QRELS, RUNS[0], sorted(specs)).to_text().splitlines()]
    assert printed == first


def test_nickname_members_stand_at_its_place():
    sel = in_asked_order(registry().resolve(["P.5", "official", "recip_rank"]))
    names = [s.measure.name for s in sel]
    assert names[0] == "P" and names[1:3] == ["runid", "num_q"] and "recip_rank" in names[3:]
    assert [s.asked for s in sel] == sorted(s.asked for s in sel)
