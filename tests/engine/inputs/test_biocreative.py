"""BioCreative II.5 files (``-T``/``-R biocreative_int|ipt|act``): the page's
worked example through the campaign's own layouts, every rule of its result
format broken once (an error naming file and line), the rising-confidence
warning, ACT's joined ranking, and ``trr`` / ``avg_confidence`` against
hand-computed values."""
from __future__ import annotations

import numpy as np
import pytest
from support.golden import run_cli
from support.paths import SEEDS

from trec_eval_py import evaluate
from trec_eval_py.engine.join.batch import TopicBatch
from trec_eval_py.engine.measures import registry
from trec_eval_py.engine.parse.biocreative import read_biocreative_gold, read_biocreative_results
from trec_eval_py.errors import InputError, InputWarning


def bc(task, gold, run, measures, **kw):
    return evaluate(gold, run, measures, rel_format=f"biocreative_{task}", results_format=f"biocreative_{task}", **kw)


def tsv(*rows) -> bytes:
    return "".join("\t".join(map(str, r)) + "\n" for r in rows).encode()


# ---- the page's worked example (section 4.5), in all three layouts ----

@pytest.mark.parametrize("task", ["int", "ipt", "act"])
def test_seed_systems_a_and_b(task):
    gold = SEEDS / f"biocreative_{task}.gold"
    a = bc(task, gold, SEEDS / f"biocreative_A.{task}", ["auc_ipr", "trr"], complete=True)
    b = bc(task, gold, SEEDS / f"biocreative_B.{task}", ["auc_ipr", "trr"], complete=True)
    # A: precision 1 at recall 1/4, 0.2 at 1/2; B: 2/3 at 1/2 (its 0.5 at 1/4 interpolated away)
    assert a.summary["auc_ipr"] == pytest.approx((1.0 + 0.2) / 4, rel=1e-12)
    assert b.summary["auc_ipr"] == pytest.approx((2 / 3 + 2 / 3) / 4, rel=1e-12)
    # TRR, section 4.5: A 1 + 1/10 = 1.1, B 1/2 + 1/3 = 0.833
    assert a.summary["trr"] == pytest.approx(1.1, rel=1e-12)
    assert b.summary["trr"] == pytest.approx(1 / 2 + 1 / 3, rel=1e-12)


@pytest.mark.parametrize("task", ["int", "ipt", "act"])
def test_seed_systems_through_the_command_line(capsysbinary, task):
    for system, printed in (("A", "0.3000"), ("B", "0.3333")):
        code, out, err = run_cli(["-R", f"biocreative_{task}", "-T", f"biocreative_{task}", "-c", "-m", "auc_ipr",
                                  SEEDS / f"biocreative_{task}.gold", SEEDS / f"biocreative_{system}.{task}"],
                                 capsysbinary)
        assert (code, err) == (0, "")
        assert out == f"auc_ipr               \tall\t{printed}\n"


def test_seed_layouts_agree_with_the_qrels_version():
    # the same rankings written as qrels and TREC runs, ranked by their rank column
    for system in "AB":
        plain = evaluate(SEEDS / "biocreative.qrels", SEEDS / f"biocreative_{system}.run", ["auc_ipr", "trr", "P.5"],
                         order="rank")
        for task in ("int", "ipt", "act"):
            r = bc(task, SEEDS / f"biocreative_{task}.gold", SEEDS / f"biocreative_{system}.{task}",
                   ["auc_ipr", "trr", "P.5"])
            assert dict(r.summary) == dict(plain.summary), (system, task)


# ---- what the readers make of the files ----

def test_act_joins_positives_with_the_negatives_inverted():
    run = read_biocreative_results(tsv(("a", 0, 1, 0.9), ("b", 1, 1, 0.8), ("c", 0, 2, 0.7),
                                       ("d", 1, 2, 0.6), ("e", 0, 3, 0.5)), "act")
    # P = 2 positives (b, d) ranked 1, 2; N = 3 negatives: rank r -> 2 + 3 - r + 1
    assert run.qid.tolist() == [b"ACT"] * 5
    assert dict(zip(run.docno.tolist(), run.rank.tolist())) == {b"b": 1, b"d": 2, b"e": 3, b"c": 4, b"a": 5}
    assert run.score.tolist() == [0.9, 0.8, 0.7, 0.6, 0.5]
    gold = tsv(("a", 0), ("b", 1), ("c", 1), ("d", 0), ("e", 0))
    r = bc("act", gold, run, ["relstring", "P.1,3"], max_docs=None)
    assert r.values["relstring"][0] == "'10010'"  # b d e c a
    # a system reporting only negatives: its surest negative last
    only_neg = tsv(("a", 0, 1, 0.9), ("c", 0, 2, 0.5))
    assert bc("act", gold, only_neg, ["relstring"]).values["relstring"][0] == "'10'"  # c, then a


def test_ipt_pairs_are_unordered():
    gold = tsv(("d1", "P1", "P2"), ("d1", "P3", "P3"))
    run = tsv(("d1", "P2", "P1", 1, 1), ("d1", "P3", "P3", 2, 0.5), ("d1", "P1", "P3", 3, 0.5))
    q = read_biocreative_gold(gold, "ipt")
    assert q.docno.tolist() == [b"P1|P2", b"P3|P3"]
    r = bc("ipt", gold, run, ["relstring", "num_rel_ret"])
    assert r.values["relstring"][0] == "'11-'" and r.values["num_rel_ret"][0] == 2


@pytest.mark.parametrize("task", ["int", "ipt"])
def test_articles_with_hits_by_default_every_gold_article_with_c(task):
    # bc-evaluate's default: the articles with hits; its --all (our -c): every gold
    # article, d3 (no hits) counting 0
    extra = ("Q9",) if task == "ipt" else ()
    gold = tsv(("d1", "P1", *extra), ("d2", "P2", *extra), ("d3", "P3", *extra))
    run = tsv(("d1", "P1", *extra, 1, 1), ("d2", "X", *extra, 1, 1), ("d2", "P2", *extra, 2, 0.5))
    r = bc(task, gold, run, ["auc_ipr", "num_q"])
    assert r.summary["auc_ipr"] == pytest.approx((1 + 0.5) / 2)
    assert r.summary["num_q"] == 2
    r = bc(task, gold, run, ["auc_ipr", "num_q"], complete=True)
    assert r.summary["auc_ipr"] == pytest.approx((1 + 0.5 + 0) / 3)
    assert r.summary["num_q"] == 3
    # a trec run against the same gold: the same choice
    trec = b"d1 Q0 P1 1 1 r\n" if task == "int" else b"d1 Q0 P1|Q9 1 1 r\n"
    assert evaluate(gold, trec, ["P.1"], rel_format=f"biocreative_{task}").summary["P_1"] == 1.0
    r = evaluate(gold, trec, ["P.1"], rel_format=f"biocreative_{task}", complete=True)
    assert r.summary["P_1"] == pytest.approx(1 / 3)


def test_rank_is_the_default_order_and_score_can_be_asked_for():
    gold = tsv(("d1", "P1"))
    run = tsv(("d1", "X", 1, 0.5), ("d1", "P1", 2, 0.25))
    assert bc("int", gold, run, ["recip_rank"]).summary["recip_rank"] == 0.5
    assert bc("int", gold, run, ["recip_rank"], order="rank").summary["recip_rank"] == 0.5
    # --order score ranks by confidence (P1's 0.75 first), the rank column aside
    with pytest.warns(InputWarning):
        run = tsv(("d1", "X", 1, 0.5), ("d1", "P1", 2, 0.75))
        assert bc("int", gold, run, ["recip_rank"], order="score").summary["recip_rank"] == 1.0
    # the CLI: no --order means the format's rank order
    from trec_eval_py.engine.pipeline import Options

    assert Options(results_format="biocreative_act").context.order == "rank"
    assert Options(results_format="biocreative_act", order="file").context.order == "file"
    assert Options().context.order == "score"


def test_gold_files_read_as_qrels_with_trec_runs():
    gold = tsv(("d1", "P1"), ("d1", "P2"))  # one article: -c changes nothing
    r = evaluate(gold, b"d1 Q0 P2 1 0.9 r\nd1 Q0 X 2 0.8 r\n", ["map"], rel_format="biocreative_int")
    assert r.summary["map"] == 0.5


def test_runid_is_the_file_name(tmp_path, capsysbinary):
    (tmp_path / "g").write_bytes(tsv(("d1", "P1")))
    (tmp_path / "team1_run2.txt").write_bytes(tsv(("d1", "P1", 1, 1)))
    code, out, _ = run_cli(["-R", "biocreative_int", "-T", "biocreative_int", "-m", "runid",
                            tmp_path / "g", tmp_path / "team1_run2.txt"], capsysbinary)
    assert out == "runid                 \tall\tteam1_run2.txt\n"


def test_comments_blank_lines_and_crlf():
    run = read_biocreative_results(b"# INT run\n\nd1\tP1\t1\t1\r\nd1\tP2\t2\t.5\r\n", "int")
    assert run.docno.tolist() == [b"P1", b"P2"] and run.lineno.tolist() == [3, 4]


# ---- every rule broken once: an error naming the file and line ----

BAD_RESULTS = [
    # (task, lines, bad line, words of the message)
    ("int", [("d1", "P1", 1)], 1, "has 3 tab-separated columns, needs 4"),
    ("ipt", [("d1", "P1", "P2", 1, 1), ("d1", "P1", "P3", 2)], 2, "has 4 tab-separated columns, needs 5"),
    ("act", [("d1", 1, 1, 1, "x")], 1, "has 5 tab-separated columns, needs 4"),
    ("int", [("d1", "", 1, 1)], 1, "column 2 is empty"),
    ("int", [("d1", "P1 ", 1, 1)], 1, "column 2 holds a blank"),
    ("int", [("d1", "P1", "one", 1)], 1, "rank must be a whole number"),
    ("int", [("d1", "P1", 0, 1)], 1, "rank must be a whole number from 1 up, not '0'"),
    ("int", [("d1", "P1", "1.0", 1)], 1, "rank must be a whole number"),
    ("int", [("d1", "P1", 2, 1)], 1, "ranks of article d1 start at 2, not 1"),
    ("int", [("d1", "P1", 1, 1), ("d1", "P2", 1, 1)], 2, "rank 1 of article d1 is given twice (also line 1)"),
    ("int", [("d1", "P1", 1, 1), ("d1", "P2", 2, 1), ("d1", "P3", 1, 1)], 3,
     "comes after rank 2 (line 2): ranks must ascend"),
    ("int", [("d1", "P1", 1, 1), ("d1", "P2", 3, 1)], 2, "follows rank 1 (line 1): ranks must be consecutive"),
    ("int", [("d1", "P1", 1, 0)], 1, "confidence 0 is outside ]0, 1]"),
    ("int", [("d1", "P1", 1, "1.5")], 1, "confidence 1.5 is outside ]0, 1]"),
    ("int", [("d1", "P1", 1, "nan")], 1, "confidence is not a number"),
    ("int", [("d1", "P1", 1, "high")], 1, "confidence is not a number"),
    ("int", [("d1", "P1", 1, 1), ("d1", "P1", 2, 1)], 2, "accession P1 of article d1 is listed twice (also line 1)"),
    ("ipt", [("d1", "P1", "P2", 1, 1), ("d1", "P2", "P1", 2, 1)], 2, "repeats line 1's pair with its columns swapped"),
    ("ipt", [("d1", "P1", "P2", 1, 1), ("d1", "P1", "P2", 2, 1)], 2, "pair P1 P2 of article d1 is listed twice"),
    ("ipt", [("d1", "sp|P1", "P2", 1, 1)], 1, "holds '|'"),
    ("act", [("d1", 2, 1, 1)], 1, "class must be 0 (negative) or 1 (positive), not '2'"),
    ("act", [("d1", 1, 1, 1), ("d1", 0, 1, 1)], 2, "article d1 is listed twice (also line 1)"),
    ("act", [("d1", 1, 1, 1), ("d2", 0, 2, 1)], 2, "ranks of class 0 (negative hits) start at 2, not 1"),
]


@pytest.mark.parametrize("task,rows,line,words", BAD_RESULTS)
def test_results_rules(tmp_path, task, rows, line, words):
    path = tmp_path / f"run.{task}"
    path.write_bytes(tsv(*rows))
    with pytest.raises(InputError) as e:
        read_biocreative_results(str(path), task)
    assert e.value.path == str(path) and e.value.line == line
    assert words in e.value.reason
    assert e.value.text == "\t".join(map(str, rows[line - 1]))
    assert str(e.value).startswith(f"{path}, line {line}: ")


BAD_GOLD = [
    ("int", [("d1", "P1", 1)], 1, "INT gold line has 3 tab-separated columns, needs 2"),
    ("ipt", [("d1", "P1", "P2"), ("d1", "P2", "P1")], 2, "with its columns swapped"),
    ("int", [("d1", "P1"), ("d1", "P1")], 2, "listed twice (also line 1)"),
    ("act", [("d1", "yes")], 1, "class must be 0 (negative) or 1 (positive)"),
]


@pytest.mark.parametrize("task,rows,line,words", BAD_GOLD)
def test_gold_rules(tmp_path, task, rows, line, words):
    path = tmp_path / f"gold.{task}"
    path.write_bytes(tsv(*rows))
    with pytest.raises(InputError) as e:
        read_biocreative_gold(str(path), task)
    assert (e.value.path, e.value.line) == (str(path), line) and words in e.value.reason


def test_spaces_instead_of_tabs_are_named():
    with pytest.raises(InputError, match="separated by single tabs, not spaces") as e:
        read_biocreative_results(b"d1\tP1\t1\t1\nd1 P2 2 0.5\n", "int")
    assert e.value.line == 2


@pytest.mark.parametrize("data,line,words", [
    (b"d1\tP1\t1\t1\nd1\tP\x002\t2\t1\n", 2, "NUL byte"),
    (b"d1\tP1\t1\t1\rd1\tP2\t2\t1\n", 1, "carriage return inside a line"),
])
def test_bytes_the_readers_refuse(data, line, words):
    with pytest.raises(InputError, match=words) as e:
        read_biocreative_results(data, "int")
    assert e.value.line == line


@pytest.mark.parametrize("reader,words", [(read_biocreative_results, "empty INT results file"),
                                          (read_biocreative_gold, "empty INT gold file")])
def test_empty_files(reader, words):
    with pytest.raises(InputError, match=words):
        reader(b"# nothing\n\n", "int")


def test_an_error_fails_the_command_with_one_line(tmp_path, capsysbinary):
    (tmp_path / "g").write_bytes(tsv(("d1", "P1")))
    (tmp_path / "r").write_bytes(tsv(("d1", "P1", 1, 1), ("d1", "P2", 3, 0.5)))
    code, out, err = run_cli(["-R", "biocreative_int", "-T", "biocreative_int", tmp_path / "g", tmp_path / "r"],
                             capsysbinary)
    assert code != 0 and out == ""
    assert err == (f"trec_eval_py: {tmp_path / 'r'}, line 2: rank 3 of article d1 follows rank 1 (line 1): "
                   "ranks must be consecutive: 'd1\\tP2\\t3\\t0.5'\n")


# ---- the warning: confidences rising with rank ----

def test_rising_confidence_warns_once_a_line():
    data = tsv(("d1", "P1", 1, 0.5), ("d1", "P2", 2, 0.7), ("d1", "P3", 3, 0.7), ("d2", "P1", 1, 0.1),
               ("d1", "P4", 4, 0.9))
    with pytest.warns(InputWarning) as caught:
        run = read_biocreative_results(data, "int", name="r.int")
    found = [(w.message.line, w.message.reason) for w in caught if isinstance(w.message, InputWarning)]
    assert found == [
        (2, "confidence 0.7 at rank 2 of article d1 is higher than 0.5 at rank 1 (line 1): "
            "confidences should fall as ranks go down"),
        (5, "confidence 0.9 at rank 4 of article d1 is higher than 0.7 at rank 3 (line 3): "
            "confidences should fall as ranks go down"),
    ]
    assert len(run) == 5  # read all the same


def test_act_warns_within_each_class():
    data = tsv(("a", 1, 1, 0.5), ("b", 0, 1, 0.9), ("c", 1, 2, 0.4), ("d", 0, 2, 0.95))
    with pytest.warns(InputWarning) as caught:
        read_biocreative_results(data, "act")
    assert [w.message.line for w in caught if isinstance(w.message, InputWarning)] == [4]


def test_the_command_prints_warnings_on_stderr_and_succeeds(tmp_path, capsysbinary):
    (tmp_path / "g").write_bytes(tsv(("d1", "P1")))
    (tmp_path / "w").write_bytes(tsv(("d1", "X", 1, 0.2), ("d1", "P1", 2, 0.3), ("d1", "Y", 3, 0.4)))
    code, out, err = run_cli(["-R", "biocreative_int", "-T", "biocreative_int", "-m", "recip_rank",
                              tmp_path / "g", tmp_path / "w"], capsysbinary)
    assert code == 0 and out == "recip_rank            \tall\t0.5000\n"
    lines = err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"trec_eval_py: warning: {tmp_path / 'w'}, line 2: confidence 0.3 at rank 2")
    assert lines[1].startswith(f"trec_eval_py: warning: {tmp_path / 'w'}, line 3: confidence 0.4 at rank 3")


# ---- trr and avg_confidence against hand-computed values ----

def test_trr_page_examples():
    m = registry()["trr"]
    # section 4.1: the 2nd and 4th answers correct: 1/2 + 1/4; the first alone: 1; 2nd and 3rd: 0.833
    b = TopicBatch.from_lists([[0, 1, 0, 1], [1, 0, 0], [0, 1, 1]], [[1, 1], [1], [1, 1]])
    assert m.compute(b, m.params.parse("trr", None))[:, 0].tolist() == [0.75, 1.0, 1 / 2 + 1 / 3]


def test_avg_confidence_by_hand():
    gold = tsv(("d1", "P1"), ("d2", "P2"), ("d3", "P3"))
    run = tsv(("d1", "P1", 1, 0.9), ("d1", "X", 2, 0.6), ("d1", "Y", 3, 0.3), ("d2", "Z", 1, 0.5))
    r = bc("int", gold, run, ["avg_confidence", "auc_ipr"], complete=True)
    d1 = (0.9 + 0.6 + 0.3) / 3
    assert r.topics == ["d1", "d2", "d3"]
    assert r.values["avg_confidence"].tolist() == [d1, 0.5, 0.0]  # d3: no hits, an empty ranking
    # -M cuts the scores with the ranking
    r = bc("int", gold, run, ["avg_confidence"], max_docs=2)
    assert r.values["avg_confidence"].tolist()[:2] == [(0.9 + 0.6) / 2, 0.5]
    # the articles with hits by default; with -c every gold article: d3 has no hits,
    # 9.0.8 counts it 0, 10.0 measures its placeholder (one document, scored 1)
    assert bc("int", gold, run, ["avg_confidence"]).summary["avg_confidence"] == (d1 + 0.5) / 2
    assert bc("int", gold, run, ["avg_confidence"], complete=True).summary["avg_confidence"] == (d1 + 0.5) / 3
    r = bc("int", gold, run, ["avg_confidence"], complete=True, compat="10.0")
    assert r.values["avg_confidence"].tolist() == [d1, 0.5, 1.0]


def test_avg_confidence_breaks_the_tie_between_equal_systems():
    gold = tsv(("d1", "P1"))
    sure = tsv(("d1", "P1", 1, 0.9), ("d1", "X", 2, 0.8))
    unsure = tsv(("d1", "P1", 1, 0.3), ("d1", "X", 2, 0.2))
    a, b = (bc("int", gold, run, ["auc_ipr", "avg_confidence"]) for run in (sure, unsure))
    assert a.summary["auc_ipr"] == b.summary["auc_ipr"] == 1.0
    assert a.summary["avg_confidence"] > b.summary["avg_confidence"]


def test_avg_confidence_of_trec_runs_is_the_mean_score():
    # the join keeps scores only when asked (the reference path then ranks);
    # the other measures must not change
    rng = np.random.default_rng(5)
    rows, qrels = [], []
    for q in range(1, 30):
        for d in range(int(rng.integers(1, 40))):
            score = float(rng.choice([0.25, 0.5, rng.random(), 1 + 1e-9]))
            rows.append((str(q), f"D{d}", score))
            if rng.random() < 0.3:
                qrels.append(f"{q} 0 D{d} {int(rng.integers(0, 3))}\n")
    run = "".join(f"{q} Q0 {d} 0 {s!r} r\n" for q, d, s in rows).encode()
    qr = "".join(qrels).encode()
    for compat in ("9.0.8", "10.0"):
        both = evaluate(qr, run, ["avg_confidence", "map", "P.5", "ndcg"], max_docs=7, compat=compat)
        alone = evaluate(qr, run, ["map", "P.5", "ndcg"], max_docs=7, compat=compat)
        for name in ("map", "P_5", "ndcg"):
            assert both.summary[name] == alone.summary[name]
        # slow reference: trec_eval's ranking (score, as a float in 9.0.8; ties by docno
        # descending), the 7 first, summed in rank order
        for q, v in zip(both.topics, both.values["avg_confidence"]):
            docs = sorted(((d, s) for t, d, s in rows if t == q), key=lambda x: x[0].encode(), reverse=True)
            key = (lambda x: -np.float32(x[1])) if compat == "9.0.8" else (lambda x: -x[1])
            top = sorted(docs, key=key)[:7]
            total = 0.0
            for _, s in top:
                total += s
            assert v == total / len(top), q


def test_help_names_the_formats(capsysbinary):
    code, out, _ = run_cli(["-h", "-R", "biocreative_ipt"], capsysbinary)
    assert code == 0 and "'biocreative_ipt'" in out and "unordered" in out


# ---- a byte-order mark ----

@pytest.mark.parametrize("task", ["int", "ipt", "act"])
def test_a_leading_bom_is_skipped(tmp_path, task):
    # kept, it would be part of the first article id: a misleading "ranks start at 2" for
    # the real article's second line, or an article the gold lacks
    gold, run = SEEDS / f"biocreative_{task}.gold", SEEDS / f"biocreative_A.{task}"
    (tmp_path / "gold").write_bytes(b"\xef\xbb\xbf" + gold.read_bytes())
    (tmp_path / "run").write_bytes(b"\xef\xbb\xbf" + run.read_bytes())
    plain = bc(task, gold, run, ["auc_ipr", "trr", "num_ret"], complete=True)
    for g, r in ((tmp_path / "gold", run), (gold, tmp_path / "run")):
        marked = bc(task, g, r, ["auc_ipr", "trr", "num_ret"], complete=True)
        assert marked.summary == plain.summary


def test_validate_says_a_bom_is_skipped_and_reads_the_rest(tmp_path):
    from trec_eval_py.tools.grading.validate import validate_run

    (tmp_path / "run").write_bytes(b"\xef\xbb\xbf" + tsv(("d1", "P1", 1, 1), ("d1", "P2", 2, 0.5)))
    rep = validate_run(str(tmp_path / "run"), results_format="biocreative_int")
    assert [f.code for f in rep.findings] == ["bom"] and rep.results == 2 and rep.passed()
