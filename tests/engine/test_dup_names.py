"""Two outputs printed alike are two columns (golden cases fz_dup_names*).

Cutoffs print with %3.2f, so ``iprec_at_recall.0.999,1`` has two outputs named
``iprec_at_recall_1.00``. trec_eval keeps them apart: two lines per topic and
two summaries, each of its own column. Reading such a name by name is an error.
"""
import json

import pytest
from support.paths import EXAMPLES

from trec_eval_py import evaluate
from trec_eval_py.errors import MeasureError, UsageError
from trec_eval_py.output.evaluation import render_evaluation

# R = 1000 relevant documents, 999 retrieved first: recall 0.999 is reached
# (precision 1), recall 1 is not (0).
QRELS = "".join(f"1 0 r{i:04d} 1\n" for i in range(1000)).encode()
RUN = "".join(f"1 Q0 r{i:04d} 1 {2000 - i} x\n" for i in range(999)).encode()
NAME = "iprec_at_recall_1.00"


def test_two_columns_two_values():
    ev = evaluate(QRELS, RUN, ["iprec_at_recall.0.999,1"])
    assert [c.name for c in ev.columns] == [NAME, NAME]
    assert [float(v[0]) for v in ev.column_values] == [1.0, 0.0]
    assert ev.column_summary == [1.0, 0.0]
    assert ev.to_text(query=True) == (
        f"{NAME}  \t1\t1.0000\n{NAME}  \t1\t0.0000\n{NAME}  \tall\t1.0000\n{NAME}  \tall\t0.0000\n")


def test_reading_an_ambiguous_name_is_an_error():
    ev = evaluate(QRELS, RUN, ["iprec_at_recall.0.999,1", "map"])
    assert NAME in ev.summary and ev.summary["map"] == pytest.approx(0.999)
    with pytest.raises(MeasureError, match="two outputs are named"):
        ev.summary[NAME]
    with pytest.raises(MeasureError):
        ev.values.get(NAME)
    with pytest.raises(MeasureError):
        ev.per_topic()
    with pytest.raises(UsageError, match="two outputs are named"):
        "".join(render_evaluation(ev, "json"))
    # csv is long format: both rows are there
    rows = "".join(render_evaluation(ev, "csv")).splitlines()
    assert [r.split(",")[3] for r in rows if f",{NAME}," in r] == ["1.0", "0.0"]
    assert json.loads("".join(render_evaluation(evaluate(QRELS, RUN, ["map"]), "json")))["summary"]["map"]


def test_zscores_per_column(tmp_path):
    z = tmp_path / "z"
    z.write_text(f"1 {NAME} 0.5 0.1\n")
    ev = evaluate(QRELS, RUN, ["iprec_at_recall.0.999,1"], zscore_file=str(z))
    assert [round(float(v[0]), 9) for v in ev.column_values] == [5.0, -5.0]
    assert ev.to_text().splitlines() == [f"Z{NAME}  \tall\t5.0000", f"Z{NAME}  \tall\t-5.0000"]


def test_one_measure_requested_twice_with_other_parameters():
    """`ndcg_cut.5` and `nDCG@10` both select ndcg_cut: each request keeps its own
    columns (they once landed in one column, twice as long as the topics)."""
    import trec_eval_py as te

    examples = EXAMPLES
    q, r = str(examples / "qrels.txt"), str(examples / "run_a.txt")
    both = te.evaluate(q, r, ["ndcg_cut.5", "nDCG@10", "P(rel=2)@5", "P.5"])
    alone5 = te.evaluate(q, r, ["ndcg_cut.5"])
    alone10 = te.evaluate(q, r, ["ndcg_cut.10"])
    p5_rel2 = te.evaluate(q, r, ["P.5"], relevance_level=2)
    p5 = te.evaluate(q, r, ["P.5"])
    got = {c.name: v for c, v in zip(both.columns, both.column_values)}
    assert list(got["ndcg_cut_5"]) == list(alone5.column_values[0])
    assert list(got["nDCG@10"]) == list(alone10.column_values[0])
    assert list(got["P(rel=2)@5"]) == list(p5_rel2.column_values[0])
    assert list(got["P_5"]) == list(p5.column_values[0])
    assert all(len(v) == len(both.topics) for v in both.column_values)


def _examples():
    examples = EXAMPLES
    return str(examples / "qrels.txt"), str(examples / "run_a.txt")


@pytest.mark.parametrize("specs,plain", [
    (["AP", "map"], ["map"]),
    (["map", "AP", "MAP"], ["map"]),
    (["P.5", "P@5"], ["P.5"]),
    (["P", "P@10"], ["P"]),  # P's default cutoffs include 10
    (["ndcg_cut.10", "nDCG@10", "NDCG@10"], ["ndcg_cut.10"]),
    (["nDCG(gains={1:2})@5", "ndcg_gain_cut.5,1=2"], ["ndcg_gain_cut.5,1=2"]),
    (["RBP(rel=2)", "RBP(p=0.8,rel=2)"], ["RBP(rel=2)"]),
])
def test_one_measure_under_two_names_prints_once(specs, plain):
    """trec_eval prints a measure named twice once: so does the text output when two
    names (trec_eval's and ir_measures') ask for the same value; JSON/CSV keep both."""
    q, r = _examples()
    both, alone = evaluate(q, r, specs), evaluate(q, r, plain)
    assert both.to_text(query=True) == alone.to_text(query=True)
    assert both.to_text() == alone.to_text()
    summary = json.loads("".join(render_evaluation(both, "json")))["summary"]
    for name in [c.name for c in both.columns]:
        assert name in summary
    assert len(both.columns) > len(alone.columns)


def test_cli_prints_a_measure_asked_twice_once(capsys):
    from trec_eval_py.cli import main

    q, r = _examples()

    def run(*argv):
        main(list(argv))
        return capsys.readouterr().out

    assert run("-q", "-m", "AP", "-m", "map", q, r) == run("-q", "-m", "map", q, r)
    csv_rows = run("--format", "csv", "-m", "AP", "-m", "map", q, r).splitlines()
    assert {row.split(",")[2] for row in csv_rows[1:]} == {"AP", "map"}


@pytest.mark.parametrize("specs", [
    ["nDCG(gains={1:2})@5", "nDCG(gains={1:3})@5"],
])
def test_same_printed_name_other_value_prints_both(specs):
    q, r = _examples()
    ev = evaluate(q, r, specs)
    lines = ev.to_text().splitlines()
    assert len(lines) == 2 and lines[0].split("\t")[0] == lines[1].split("\t")[0]


@pytest.mark.parametrize("specs, names, alone", [
    (["P.5", "P(rel=2)@5"], ["P_5", "P_5_rel=2"], {"relevance_level": 2}),
    (["P@5", "P(judged_only=True)@5"], ["P_5", "P_5_judged_only=True"], {"judged_only": True}),
    (["P.5", "P(rel=1)@5"], ["P_5", "P_5_rel=1"], {"relevance_level": 1}),  # the name, not -l, decides
])
def test_other_options_print_under_their_own_name(specs, names, alone, capsys):
    """An ir_measures name that sets rel= or judged_only= computes another value
    than trec_eval's spelling: the text output names the option after trec_eval's
    name instead of printing two P_5 lines; JSON and CSV keep the names asked for."""
    from trec_eval_py.cli import main

    q, r = _examples()
    ev = evaluate(q, r, specs, per_topic=True)
    lines = [line.split("\t") for line in ev.to_text(query=True).splitlines()]
    assert [n.strip() for n, t, _ in lines if t == "all"] == names
    other = evaluate(q, r, ["P.5"], **alone)
    assert [v for n, t, v in lines if n.strip() == names[1]] == \
        [v for _, _, v in (x.split("\t") for x in other.to_text(query=True).splitlines())]
    assert [c.name for c in ev.columns][1] == specs[1]
    main(["-m", specs[0], "-m", specs[1], q, r])
    assert [x.split("\t")[0].strip() for x in capsys.readouterr().out.splitlines()] == names


def test_outputs_of_one_request_all_print():
    """Several outputs of one measure are different values even when its parameters
    are not cutoffs (croc_exp.7,14,80: one parameter list, three outputs)."""
    q, r = _examples()
    ev = evaluate(q, r, ["croc_exp.7,14,80", "map", "AP"])
    names = [line.split("\t")[0].strip() for line in ev.to_text().splitlines()]
    assert names == ["map", "croc_exp_7", "croc_exp_14", "croc_exp_80"]
