"""What an :class:`~trec_eval_py.engine.results.Evaluation` says of itself in a
notebook or the REPL: ``summary`` and ``values`` show their contents, and
``averaged_over`` says which topics the summary averages."""
from __future__ import annotations

import numpy as np
import pytest
from support.paths import EXAMPLES

import trec_eval_py as te

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


def _judged_more(tmp_path):
    """The example qrels with two judged topics the run has no results for."""
    qrels = tmp_path / "qrels"
    qrels.write_text(QRELS.read_text() + "999 0 zz 1\n998 0 zz 0\n")
    return qrels


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
def test_averaged_over_says_which_topics_and_how_many(tmp_path, compat):
    qrels = _judged_more(tmp_path)
    default = te.evaluate(qrels, RUN, ["map", "num_q"], compat=compat)
    complete = te.evaluate(qrels, RUN, ["map", "num_q"], compat=compat, complete=True)
    with_results = len(set(default.topics))
    assert default.averaged_over == ("topics with results", with_results)
    assert complete.averaged_over == ("judged topics", with_results + 2)
    for r in (default, complete):
        assert r.averaged_over[1] == r.summary["num_q"]
        # the mean is over that many topics
        assert r.summary["map"] == pytest.approx(float(np.sum(r.values["map"])) / r.averaged_over[1])


def test_averaged_over_of_a_summary_only_evaluation(tmp_path):
    qrels = _judged_more(tmp_path)
    assert te.evaluate(qrels, RUN, ["map"], per_topic=False).averaged_over == ("topics with results", None)
    assert te.evaluate(qrels, RUN, ["map", "num_q"], per_topic=False, complete=True).averaged_over == (
        "judged topics", te.evaluate(qrels, RUN, ["num_q"], complete=True).summary["num_q"])


def test_averaged_over_follows_a_format_that_always_counts_every_judged_topic(tmp_path):
    """``-R codiesp_x`` averages over every judged topic without ``-c``: so says averaged_over."""
    from support.paths import FIXTURES

    from trec_eval_py import evaluate

    gold = FIXTURES / "codiesp" / "toy_gs_X.tsv"
    topics = sorted({line.split("\t")[0] for line in gold.read_text().splitlines() if line})
    pred = tmp_path / "pred.tsv"  # the predictions of one topic only
    pred.write_text("".join(line + "\n" for line in (FIXTURES / "codiesp" / "toy_pred_X.tsv").read_text().splitlines()
                            if line.startswith(topics[0] + "\t")))
    ev = evaluate(gold, pred, ["num_q"], rel_format="codiesp_x", results_format="codiesp_x")
    assert ev.averaged_over == ("judged topics", len(topics)) and len(topics) > 1


def test_the_result_types_live_in_their_own_module_and_keep_their_old_names():
    # engine/results.py (and engine/options.py) stand without the orchestrator: reading what an
    # evaluation is does not load the pipeline; the names it had there still import from it
    import subprocess
    import sys

    code = ("import sys, trec_eval_py.engine.results, trec_eval_py.engine.options; "
            "print(sorted(m for m in sys.modules if m.startswith(('trec_eval_py.engine.pipeline', "
            "'trec_eval_py.tools'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    from trec_eval_py.engine import options, pipeline, results

    assert (pipeline.Evaluation, pipeline.Column, pipeline.ByName, pipeline.Options) == (
        results.Evaluation, results.Column, results.ByName, options.Options)
    assert (te.Evaluation, te.Options) == (results.Evaluation, options.Options)
    assert results.Evaluation.__module__ == "trec_eval_py.engine.results"
