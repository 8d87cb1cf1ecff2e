"""gm_bpref: per-topic bpref, geometric mean summary, no per-topic lines."""
import math

from trec_eval_py.engine.measures import Agg, registry
from trec_eval_py.engine.pipeline import evaluate

QRELS = {"1": {"a": 1, "b": 0, "c": 1}, "2": {"d": 1, "e": 0}, "3": {"f": 1}}
RUN = {"1": {"a": 3.0, "b": 2.0, "c": 1.0}, "2": {"e": 2.0, "d": 1.0}, "3": {"x": 1.0}}


def test_declaration():
    m = registry()["gm_bpref"]
    assert m.aggregate is Agg.GMEAN and not m.per_topic


def test_summary_is_geometric_mean_with_floor():
    ev = evaluate(QRELS, RUN, ["bpref", "gm_bpref"])
    per = [ev.values["bpref"][i] for i in range(3)]
    assert per == [0.5, 0.0, 0.0]  # topic 1: (1 + 0)/2; topic 2: rel below the only nonrel
    want = math.exp((math.log(0.5) + 2 * math.log(0.00001)) / 3)
    assert ev.summary["gm_bpref"] == want
    text = ev.to_text(query=True)
    assert "gm_bpref" in text and all(not ln.startswith("gm_bpref") or "\tall\t" in ln for ln in text.splitlines())
