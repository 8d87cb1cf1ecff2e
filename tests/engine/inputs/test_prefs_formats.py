"""The judgment formats prefs, qrels_prefs and qrels_jg: readers, join, errors, CLI."""
from __future__ import annotations

import numpy as np
import pytest
from support.prefs_cases import eval_prefs, prefs_bytes, run_bytes

from trec_eval_py import cli
from trec_eval_py.engine.join import EvalContext, iter_batches
from trec_eval_py.engine.join.prefs import build_prefs, transitive_closure
from trec_eval_py.engine.join.qrels_jg import build_qrels_jg
from trec_eval_py.engine.parse.prefs import read_prefs, read_qrels_prefs
from trec_eval_py.engine.parse.qrels_jg import read_qrels_jg
from trec_eval_py.engine.parse.run import read_run
from trec_eval_py.engine.pipeline import evaluate
from trec_eval_py.errors import InputError, MeasureError, UsageError

# ---------------------------------------------------------------- readers


def test_prefs_reader_columns_comments_and_hash_in_docno():
    p = read_prefs(b"# comment\n1 g s doc#1 2.5\n\n  # indented\n1\tg  t d2 0\n")
    assert p.qid.tolist() == [b"1", b"1"]
    assert p.jg.tolist() == [b"g", b"g"] and p.jsg.tolist() == [b"s", b"t"]
    assert p.docno.tolist() == [b"doc#1", b"d2"]
    assert p.level.tolist() == [2.5, 0.0]
    assert p.lineno.tolist() == [2, 5]


def test_qrels_prefs_reader_puts_every_line_in_one_sub_group():
    p = read_qrels_prefs(b"1 0 a 2\n1 1 b -1\n")
    assert p.jg.tolist() == [b"0", b"1"] and p.jsg.tolist() == [b"0", b"0"]
    assert p.docno.tolist() == [b"a", b"b"] and p.level.tolist() == [2.0, -1.0]


def test_qrels_jg_reader():
    q = read_qrels_jg(b"1 a d1 1\n1 b d1 0\n")
    assert q.jg.tolist() == [b"a", b"b"] and q.rel.tolist() == [1, 0]


@pytest.mark.parametrize(
    "reader,data,line,words",
    [
        (read_prefs, b"1 g s a 1\n1 g s b\n", 2, "4 fields"),
        (read_prefs, b"1 g s a 1\n1 g s b 1 extra\n", 2, "6 fields"),
        (read_prefs, b"1 g s a 1\n1 g s b high\n", 2, "not a number"),
        (read_prefs, b"1 g s a nan\n", 1, "not a number"),
        (read_qrels_prefs, b"1 0 a 1 x\n", 1, "5 fields"),
        (read_qrels_prefs, b"1 0 a one\n", 1, "not a number"),
        (read_qrels_jg, b"1 g a 1\n1 g b 1.5\n", 2, "not an integer"),
        (read_qrels_jg, b"1 g a\n", 1, "3 fields"),
    ],
)
def test_reader_errors_name_file_and_line(reader, data, line, words):
    with pytest.raises(InputError) as e:
        reader(data, name="judg.txt")
    assert e.value.line == line
    assert "judg.txt" in str(e.value) and f"line {line}" in str(e.value) and words in str(e.value)


@pytest.mark.parametrize("reader", [read_prefs, read_qrels_prefs, read_qrels_jg])
def test_empty_files_are_errors(reader):
    with pytest.raises(InputError, match="empty"):
        reader(b"# nothing\n\n", name="e.txt")


# ---------------------------------------------------------------- prefs join


def join(lines, run, **ctx):
    return build_prefs(read_prefs(prefs_bytes(lines)), read_run(run_bytes(run)), EvalContext(**ctx))


def test_document_ids_retrieved_by_rank_then_the_rest_by_docno():
    lines = [("1", "g", "s", d, 1) for d in ("c", "b", "a", "z")]
    run = [("1", "z", 1), ("1", "unjudged", 5), ("1", "b", 2), ("1", "a", 2)]
    t = join(lines, run).topic(0)
    assert (t.num_judged, t.num_judged_ret) == (4, 3)
    (g,) = t.jgs
    # ranking: unjudged, a (tie with b, smaller docno first), b, z; c is not retrieved
    # one class (all level 1): ids of lines a, b, z, c = 0, 1, 2, 3
    assert [e.tolist() for e in g.ecs] == [[0, 1, 2, 3]]


def test_max_docs_cuts_before_ids_are_given():
    lines = [("1", "g", "s", "a", 1), ("1", "g", "s", "b", 0)]
    t = join(lines, [("1", "x", 3), ("1", "b", 2), ("1", "a", 1)], max_docs=2).topic(0)
    assert t.num_judged_ret == 1  # only b of the judged docs is in the top 2


def test_one_sub_group_is_a_class_list_several_make_an_array():
    lines = [("1", "g1", "s", "a", 2), ("1", "g1", "s", "b", 0),
             ("1", "g2", "x", "a", 1), ("1", "g2", "y", "b", 1), ("1", "g2", "y", "c", 0)]
    t = join(lines, [("1", "a", 1)]).topic(0)
    g1, g2 = t.jgs
    assert g1.is_class_list and not g2.is_class_list
    assert g2.closure.tolist() == [[False, False, False], [False, False, True], [False, False, False]]


def test_transitive_closure():
    a = np.zeros((4, 4), dtype=bool)
    a[0, 1] = a[1, 2] = a[2, 3] = True
    c = transitive_closure(a)
    assert c.tolist() == [[j > i for j in range(4)] for i in range(4)]


def test_pair_counts_add_groups():
    lines = [("1", "g1", "s", "a", 1), ("1", "g1", "s", "b", 0),
             ("1", "g2", "s", "a", 1), ("1", "g2", "s", "b", 0),
             ("1", "g3", "s", "b", 1), ("1", "g3", "s", "a", 0)]
    t = join(lines, [("1", "a", 2), ("1", "b", 1)]).topic(0)
    assert t.pair_counts.tolist() == [[0, 2], [1, 0]]


@pytest.mark.parametrize(
    "lines,line,words",
    [
        ([("1", "g", "s", "a", 2), ("1", "g", "s", "b", 1), ("1", "g", "s", "a", 1)], 3, "two different levels"),
        ([("1", "g", "s1", "a", 2), ("1", "g", "s1", "b", 0), ("1", "g", "s2", "b", 1), ("1", "g", "s2", "c", 0)],
         3, "not relevant (level 0) and relevant"),
        ([("1", "g", "s1", "a", 2), ("1", "g", "s1", "b", 1), ("1", "g", "s2", "b", 2), ("1", "g", "s2", "a", 1)],
         None, "contradictory"),
    ],
)
def test_inconsistent_groups_are_input_errors(lines, line, words):
    with pytest.raises(InputError) as e:
        eval_prefs(lines, [("1", "a", 1)])
    assert words in str(e.value)
    assert e.value.line is not None and (line is None or e.value.line == line)


def test_different_groups_may_disagree():
    lines = [("1", "g1", "s", "a", 2), ("1", "g1", "s", "b", 1), ("1", "g2", "s", "b", 2), ("1", "g2", "s", "a", 1)]
    assert eval_prefs(lines, [("1", "a", 1)])["1"]["prefs_num_prefs_poss"] == 2


def test_duplicate_run_document_is_an_error():
    with pytest.raises(InputError, match="duplicate docno 'a'"):
        eval_prefs([("1", "g", "s", "a", 1)], [("1", "a", 1), ("1", "a", 2)])


def test_topics_without_results_are_evaluated_as_empty_with_c():
    lines = [("1", "g", "s", "a", 1), ("1", "g", "s", "b", 0), ("2", "g", "s", "a", 1), ("2", "g", "s", "b", 0)]
    run = [("1", "a", 1)]
    assert list(eval_prefs(lines, run)) == ["1"]
    ev = evaluate(prefs_bytes(lines), run_bytes(run), ["prefs"], rel_format="prefs", complete=True)
    assert ev.topics == ["1", "2"] and ev.summary["num_q"] == 2
    assert ev.values["prefs_num_prefs_poss"].tolist() == [1, 1]
    assert ev.values["prefs_simp"].tolist() == [1.0, 0.0]


# ---------------------------------------------------------------- qrels_jg join


def test_qrels_jg_rows_per_group_and_combine():
    qj = read_qrels_jg(b"1 b d1 1\n1 a d1 0\n2 a d2 1\n")
    rk = build_qrels_jg(qj, read_run(b"1 Q0 d1 0 1 r\n2 Q0 d2 0 1 r\n"), EvalContext())
    (batch,) = list(iter_batches(rk))
    assert batch.qids == ["1", "2"] and batch.num_jgs.tolist() == [2, 1]
    # rows: topic 1 group a (d1 not relevant), topic 1 group b (relevant), topic 2 group a
    assert batch.rows.rel[:, 0].tolist() == [0, 1, 1]
    assert batch.combine(np.array([0.25, 0.5, 0.75])).tolist() == [0.375, 0.75]


def test_qrels_jg_duplicate_in_one_group_is_an_error():
    qj = read_qrels_jg(b"1 a d1 1\n1 b d1 1\n1 a d1 0\n", name="q.jg")
    with pytest.raises(InputError) as e:
        build_qrels_jg(qj, read_run(b"1 Q0 d1 0 1 r\n"), EvalContext())
    assert e.value.line == 3 and "judgment group" in str(e.value)


# ---------------------------------------------------------------- options and CLI


def test_measure_and_format_must_fit():
    with pytest.raises(MeasureError, match="needs '-R prefs' or '-R qrels_prefs' judgments, not '-R qrels'$"):
        evaluate(b"1 0 a 1\n", b"1 Q0 a 0 1 r\n", ["prefs_simp"])
    # a format whose batches qrels measures read is named as typed, not as 'qrels'
    for spec in ("prefs_simp", "map_avgjg"):
        with pytest.raises(MeasureError, match=r"judgments, not '-R codiesp'$"):
            evaluate(b"c1\tA01\n", b"c1\tA01\n", [spec], rel_format="codiesp", results_format="codiesp")
    with pytest.raises(MeasureError, match="needs '-R qrels_jg'"):
        evaluate(b"1 0 0 a 1\n", b"1 Q0 a 0 1 r\n", ["map_avgjg"], rel_format="prefs")
    with pytest.raises(MeasureError, match="needs '-R qrels'"):
        evaluate(b"1 0 a 1\n", b"1 Q0 a 0 1 r\n", ["map"], rel_format="qrels_jg")
    with pytest.raises(UsageError, match="unknown judgments format"):
        evaluate(b"1 0 a 1\n", b"1 Q0 a 0 1 r\n", ["map"], rel_format="trec")


def test_nicknames():
    from trec_eval_py.engine.measures import registry

    reg = registry()
    names = lambda nick: [m.name for m in reg.nickname_members(nick, "9.0.8")]  # noqa: E731
    assert names("prefs") == ["runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
                              "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg"]
    assert len(names("all_prefs")) == 16
    assert names("qrels_jg") == ["runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"]


@pytest.mark.parametrize("fmt,words", [("prefs", "qid  jg  jsg  docno  level"),
                                       ("qrels_prefs", "qid  iter  docno  rel"),
                                       ("qrels_jg", "qid  jg  docno  rel")])
def test_help_describes_the_format(fmt, words, capsysbinary):
    cli.main(["-h", "-R", fmt])
    out = capsysbinary.readouterr().out.decode()
    assert f"Judgments format '{fmt}'" in out and words in out


def test_cli_reports_bad_prefs_line(tmp_path, capsysbinary):
    p = tmp_path / "bad.prefs"
    p.write_bytes(b"1 g s a 1\n1 g s b\n")
    r = tmp_path / "run"
    r.write_bytes(b"1 Q0 a 0 1 r\n")
    with pytest.raises(SystemExit) as e:
        cli.main(["-R", "prefs", "-m", "prefs", str(p), str(r)])
    assert e.value.code != 0
    err = capsysbinary.readouterr().err.decode()
    assert "bad.prefs, line 2" in err and "Traceback" not in err
