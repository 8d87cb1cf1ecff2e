"""The renderers of ``output/`` read nothing of what they show but what their protocol
(``output/protocols.py``) names: an evaluation, a comparison and a leaderboard
seen through their protocols alone render exactly as the objects themselves."""
from __future__ import annotations

import pytest
from support.paths import ROOT

from trec_eval_py.output import notebook
from trec_eval_py.output.evaluation import evaluation_columns, render_evaluation
from trec_eval_py.output.protocols import (
    BoardEntry,
    BoardResult,
    ComparisonResult,
    ComparisonRow,
    EvaluationResult,
    MeasureInfo,
    PrintedColumn,
)

EXAMPLES = ROOT / "examples"
QRELS = str(EXAMPLES / "qrels.txt")
RUNS = [str(EXAMPLES / "run_a.txt"), str(EXAMPLES / "run_b.txt")]


class Only:
    """``obj`` seen through ``protocol``: a name the protocol does not declare cannot be read
    (``wrap`` sees a member's value through its own protocol)."""

    def __init__(self, obj, protocol, **wrap) -> None:
        self._obj, self._protocol, self._wrap = obj, protocol, wrap
        self._names = {n for n in vars(protocol) if not n.startswith("_")}

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._names:
            raise AttributeError(f"{self._protocol.__name__} does not name {name!r}")
        value = getattr(self._obj, name)
        return self._wrap[name](value) if name in self._wrap else value


def column(c):
    return Only(c, PrintedColumn, measure=lambda m: Only(m, MeasureInfo))


def evaluation(ev):
    return Only(ev, EvaluationResult, columns=lambda cs: [column(c) for c in cs])


def test_only_reads_what_the_protocol_names():
    import trec_eval_py as te

    ev = evaluation(te.evaluate({"q1": {"d1": 1}}, {"q1": {"d1": 1.0}}, ["map"]))
    assert ev.runid == "" and [c.trec_name for c in ev.columns] == ["map"]
    with pytest.raises(AttributeError, match="does not name 'options'"):
        ev.options  # noqa: B018  (an Evaluation has it; the protocol does not)


def test_an_evaluation_renders_through_its_protocol():
    import trec_eval_py as te

    # -m names one measure twice (printed once in trec_eval's text) and one with options
    # that print in its name: identity and trec_name are read
    ev = te.evaluate(QRELS, RUNS[0], ["map", "AP", "P(rel=2)@5", "relstring", "num_q"])
    seen = evaluation(ev)
    for fmt in ("trec", "csv"):
        for query in (False, True):
            assert list(render_evaluation(seen, fmt, query=query)) == list(render_evaluation(ev, fmt, query=query))
    assert evaluation_columns(seen, query=True, summary=True) == evaluation_columns(ev, query=True, summary=True)
    assert notebook.evaluation_html(seen) == notebook.evaluation_html(ev)
    ev = te.evaluate(QRELS, RUNS[0], ["map", "P(rel=2)@5"])  # (JSON keys must differ)
    assert list(render_evaluation(evaluation(ev), "json", query=True)) == list(render_evaluation(ev, "json",
                                                                                                  query=True))


def test_a_comparison_renders_through_its_protocol():
    from trec_eval_py.tools.compare.comparison import compare_runs

    cmp = compare_runs(QRELS, RUNS, ["map", "nDCG@10"], ["t"], permutations=20)
    seen = Only(cmp, ComparisonResult, rows=lambda rs: [Only(r, ComparisonRow) for r in rs])
    assert notebook.comparison_html(seen) == notebook.comparison_html(cmp)
    pd = pytest.importorskip("pandas")
    pd.testing.assert_frame_equal(notebook.comparison_frame(seen), notebook.comparison_frame(cmp))


def test_a_leaderboard_renders_through_its_protocol():
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard

    board = build_leaderboard(QRELS, RUNS + [str(ROOT / "no such run")], ["P(rel=1)@10", "map"])
    assert not board.entries[-1].ok  # a failed run: its result is never read
    seen = Only(board, BoardResult, entries=lambda es: [Only(e, BoardEntry, result=evaluation) for e in es])
    assert notebook.leaderboard_html(seen) == notebook.leaderboard_html(board)
    pd = pytest.importorskip("pandas")
    for per_topic in (False, True):
        pd.testing.assert_frame_equal(notebook.leaderboard_frame(seen, per_topic=per_topic),
                                      notebook.leaderboard_frame(board, per_topic=per_topic))
