"""What an :class:`~trec_eval_py.engine.pipeline.Evaluation` says of itself in a
notebook or the REPL: ``summary`` and ``values`` show their contents."""
from __future__ import annotations

import trec_eval_py as te
from support.paths import EXAMPLES

QRELS, RUN = EXAMPLES / "qrels.txt", EXAMPLES / "run_a.txt"


def test_summary_and_values_show_their_contents_like_a_dict():
    r = te.evaluate(QRELS, RUN, ["map", "num_q", "runid"])
    for view in (r.summary, r.values):
        shown = repr(view)
        assert " object at 0x" not in shown
        assert shown == f"ByName({dict(view)!r})"
    assert repr(r.summary["map"]) in repr(r.summary) and "'runid': " + repr(r.runid) in repr(r.summary)
    assert repr(r.values["map"]) in repr(r.values)


def test_a_name_two_outputs_share_shows_no_value():
    r = te.evaluate(QRELS, RUN, ["iprec_at_recall.0.999,1", "map"])
    shown = repr(r.summary)
    assert "'iprec_at_recall_1.00': <two outputs: read them by column>" in shown
    assert repr(r.summary["map"]) in shown

