"""gm_map: average precision per topic, geometric mean over topics."""
import math

from support.ranked_reference import average_precision, random_topics, run

from trec_eval_py import evaluate
from trec_eval_py.engine.measures import registry


def test_per_topic_value_is_average_precision():
    rels, judged = random_topics(3, 200)
    got = run("gm_map", rels, judged)[:, 0]
    assert list(got) == [average_precision(c, q) for c, q in zip(rels, judged)]


def test_summary_is_floored_geometric_mean_and_no_topic_lines():
    qrels = {"1": {"a": 1, "b": 1}, "2": {"c": 1}, "3": {"d": 1}}
    run_ = {"1": {"a": 3.0, "x": 2.0, "b": 1.0}, "2": {"y": 1.0}, "3": {"d": 1.0}}
    ev = evaluate(qrels, run_, ["gm_map"])
    aps = [(1 + 2 / 3) / 2, 0.0, 1.0]
    total = 0.0
    for ap in aps:
        total += math.log(max(ap, 0.00001))
    assert ev.summary["gm_map"] == math.exp(total / 3)
    assert ev.to_text(query=True) == "gm_map                \tall\t%6.4f\n" % math.exp(total / 3)


def test_declared_as_trec_eval_has_it():
    m = registry()["gm_map"]
    assert not m.per_topic and m.in_nickname("official", "9.0.8")
    assert [x.name for x in registry()][6] == "gm_map"  # trec_eval's table: after map, before Rprec
