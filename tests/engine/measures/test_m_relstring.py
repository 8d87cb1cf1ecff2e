"""relstring: the relevance of the top documents, as a quoted string."""
from support.ranked_reference import random_topics, run

from trec_eval_py import evaluate
from trec_eval_py.engine.measures import registry


def reference(codes, n=10):
    chars = []
    for c in codes[: max(n, 0)]:
        if c > 9:
            chars.append(">")
        elif c >= 0:
            chars.append(str(c))
        elif c == -1:
            chars.append("-")
        elif c == -2:
            chars.append(".")
        else:
            chars.append("<")
    return "'" + "".join(chars) + "'"


def test_hand_worked():
    out = run("relstring", [[0, 3, -1, -2, 12, 1], []], [[0, 3, -1, 12, 1], [1]])[:, 0]
    assert list(out) == ["'03-.>1'", "''"]


def test_length_parameter_and_name():
    codes = [1, 0] * 15
    assert run("relstring", [codes], [[1, 0]])[0, 0] == "'" + "10" * 5 + "'"
    assert run("relstring", [codes], [[1, 0]], "20")[0, 0] == "'" + "10" * 10 + "'"
    assert run("relstring", [codes], [[1, 0]], "-3")[0, 0] == "''"
    m = registry()["relstring"]
    assert m.output_names(m.params.parse(m.name, "20")) == ["relstring_20"]
    assert m.output_names(m.params.parse(m.name, None)) == ["relstring"]


def test_printed_per_topic_only():
    ev = evaluate({"1": {"a": 1, "b": 0}}, {"1": {"a": 2.0, "b": 1.0, "c": 0.5}}, ["relstring"])
    assert ev.to_text(query=True) == "relstring             \t1\t'10-'\n"


def test_matches_reference():
    rels, judged = random_topics(101, 300)
    for n in (10, 3):
        got = run("relstring", rels, judged, str(n))[:, 0]
        assert list(got) == [reference(c, n) for c in rels]
