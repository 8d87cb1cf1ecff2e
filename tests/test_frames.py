"""pandas DataFrames in and out, and the HTML tables notebooks show."""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from support.paths import ROOT

pd = pytest.importorskip("pandas")

import trec_eval_py as te  # noqa: E402
from trec_eval_py.errors import InputError  # noqa: E402
from trec_eval_py.tools.compare.comparison import compare_runs  # noqa: E402
from trec_eval_py.tools.grading.leaderboard import build_leaderboard  # noqa: E402

EXAMPLES = ROOT / "examples"
MEASURES = ["official", "ndcg_cut.5", "nDCG@10", "P(rel=2)@5", "RR(judged_only=True)", "relstring"]

# (topic, document, relevance, score, run id) column names of the libraries people use
NAMINGS = {
    "ir_measures": ("query_id", "doc_id", "relevance", "score", "run_id"),
    "pyterrier": ("qid", "docno", "label", "score", "name"),
    "ranx": ("q_id", "doc_id", "score", "score", "run"),
    "trec_eval_py": ("topic", "docno", "rel", "score", "runid"),
}


def random_rows(rng: random.Random):
    qrels, run = [], []
    topics = rng.sample(["1", "2", "10", "301", "a<b>&c", "q 7"[:1] + "7"], 4)
    for t in topics:
        docs = [f"d{i}" for i in rng.sample(range(40), 12)]
        for d in docs[:9]:
            qrels.append((t, d, rng.choice([-1, 0, 0, 1, 1, 2, 3])))
        if rng.random() < 0.85:
            for d in rng.sample(docs + ["x1", "x2"], 10):
                run.append((t, d, rng.choice([1.0, 2.5, 2.5, round(rng.uniform(-3, 3), 4)])))
    if not run:
        run.append((topics[0], "d0", 1.0))
    return qrels, run


def write_files(tmp_path, qrels, run, runid="myrun"):
    qf, rf = tmp_path / "qrels", tmp_path / "run"
    qf.write_text("".join(f"{t} 0 {d} {r}\n" for t, d, r in qrels))
    rf.write_text("".join(f"{t} Q0 {d} {i} {s!r} {runid}\n" for i, (t, d, s) in enumerate(run, 1)))
    return str(qf), str(rf)


def frames(qrels, run, naming, runid="myrun"):
    tcol, dcol, rcol, scol, idcol = NAMINGS[naming]
    q = pd.DataFrame(qrels, columns=[tcol, dcol, rcol])
    r = pd.DataFrame(run, columns=[tcol, dcol, scol])
    r[idcol] = runid
    r["rank"] = range(1, len(r) + 1)  # other columns are ignored
    return q, r


@pytest.mark.parametrize("naming", sorted(NAMINGS))
def test_dataframe_round_trip_equals_the_file_route(tmp_path, naming):
    rng = random.Random("frames " + naming)
    for _ in range(6):
        qrels, run = random_rows(rng)
        qf, rf = write_files(tmp_path, qrels, run)
        q, r = frames(qrels, run, naming)
        for opts in ({}, {"complete": True}, {"relevance_level": 2, "judged_only": True}):
            from_files = te.evaluate(qf, rf, MEASURES, **opts)
            from_frames = te.evaluate(q, r, MEASURES, **opts)
            assert from_frames.to_text(query=True) == from_files.to_text(query=True)
            for per_topic in (True, False):
                for wide in (False, True):
                    pd.testing.assert_frame_equal(from_frames.to_dataframe(per_topic, wide=wide),
                                                  from_files.to_dataframe(per_topic, wide=wide))
        # the readers themselves
        assert te.read_qrels(q).to_dict() == te.read_qrels(qf).to_dict()
        assert te.read_run(r).runid == "myrun"


def test_to_dataframe_long_and_wide_hold_the_evaluation():
    ev = te.evaluate(str(EXAMPLES / "qrels.txt"), str(EXAMPLES / "run_a.txt"), ["map", "P.5,10", "nDCG@10", "num_ret"])
    long = ev.to_dataframe()
    assert list(long.columns) == ["run", "topic", "measure", "value"]
    per = ev.per_topic()
    assert len(long) == sum(len(v) for v in per.values())
    for t, m, v in zip(long["topic"], long["measure"], long["value"]):
        assert v == per[t][m]
    assert set(long["run"]) == {ev.runid}
    summary = ev.to_dataframe(per_topic=False)
    assert list(summary["topic"].unique()) == ["all"]
    assert dict(zip(summary["measure"], summary["value"])) == {k: v for k, v in ev.summary.items()}
    wide = ev.to_dataframe(wide=True)
    assert list(wide.index) == ev.topics and wide.index.name == "topic"
    # the order asked for (-m map -m P.5,10 -m nDCG@10 -m num_ret), as every tool shows measures;
    # trec_eval's text keeps its print order
    assert list(wide.columns) == ["run", "map", "P_5", "P_10", "nDCG@10", "num_ret"]
    assert list(dict.fromkeys(long["measure"])) == ["map", "P_5", "P_10", "nDCG@10", "num_ret"]
    assert wide.loc["301", "nDCG@10"] == per["301"]["nDCG@10"]
    assert wide["num_ret"].dtype.kind == "i"


def test_integer_topic_ids_and_numpy_values():
    q = pd.DataFrame({"qid": [301, 301, 302], "docno": ["a", "b", "a"], "label": [1, 0, 2]})
    r = pd.DataFrame({"qid": [301, 301, 302], "docno": ["a", "b", "c"], "score": [2.0, 1.0, 5.0]})
    ev = te.evaluate(q, r, ["map"])
    assert ev.topics == ["301", "302"] and ev.per_topic()["301"]["map"] == 1.0


@pytest.mark.parametrize("q,r,message", [
    ({"qid": ["1", "1"], "docno": ["a", "a"], "label": [1, 0]}, None, "duplicate docno .a. in the same topic"),
    ({"qid": ["1"], "document": ["a"], "label": [1]}, None, "no document column"),
    ({"qid": ["1"], "docno": ["a"], "label": [0.5]}, None, None),
    (None, {"qid": ["1", "1"], "docno": ["a", "b"], "score": [1.0, 2.0], "run_id": ["x", "y"]}, "more than one run"),
    (None, {"qid": ["1"], "docno": ["a"]}, "no score column"),
    (None, {"qid": ["1"], "docno": ["a"], "score": [float("nan")]}, None),
])
def test_bad_frames_are_input_errors(q, r, message):
    good_q = pd.DataFrame({"qid": ["1"], "docno": ["a"], "label": [1]})
    good_r = pd.DataFrame({"qid": ["1"], "docno": ["a"], "score": [1.0]})
    with pytest.raises((InputError, TypeError), match=message):
        te.evaluate(good_q if q is None else pd.DataFrame(q), good_r if r is None else pd.DataFrame(r), ["map"])


def _parse_html(text: str):
    """Well-formed (as XML: every tag closed, every '<' and '&' escaped) or ParseError."""
    return ET.fromstring(f"<div>{text}</div>")


def _rows(table):
    return [[cell.text or "" for cell in tr] for tr in table.iter("tr")]


def test_evaluation_html_is_well_formed_and_holds_the_values(tmp_path):
    qrels = [("a<b>&c", "d1", 1), ("a<b>&c", "d2", 0), ("2", "d1", 2)]
    run = [("a<b>&c", "d1", 1.0), ("a<b>&c", "d2", 2.0), ("2", "d1", 1.0)]
    ev = te.evaluate(*frames(qrels, run, "ir_measures", runid='r"<1>'), ["map", "nDCG@10", "num_ret"])
    root = _parse_html(ev._repr_html_())
    summary, per_topic = root.findall("table")
    assert summary.find("caption").text == 'run r"<1>: 2 topics'
    assert _rows(summary) == [["measure", "all"], ["num_ret", "3"], ["map", "%6.4f" % ev.summary["map"]],
                              ["nDCG@10", "%6.4f" % ev.summary["nDCG@10"]]]
    rows = _rows(per_topic)
    assert rows[0] == ["topic", "num_ret", "map", "nDCG@10"]
    assert [r[0] for r in rows[1:]] == ["2", "a<b>&c"]  # escaped in the HTML, intact once parsed
    assert rows[2][2] == "%6.4f" % ev.per_topic()["a<b>&c"]["map"]


def test_comparison_and_leaderboard_as_frames_and_html():
    qrels = str(EXAMPLES / "qrels.txt")
    runs = [str(EXAMPLES / "run_a.txt"), str(EXAMPLES / "run_b.txt")]
    cmp = compare_runs(qrels, runs, ["map", "nDCG@10"], ["t", "wilcoxon"], permutations=50)
    df = cmp.to_dataframe()
    assert len(df) == len(cmp.rows) == 4
    for rec, (_, row) in zip(cmp.records(), df.iterrows()):
        for k, v in rec.items():
            assert (v is None and pd.isna(row[k])) or row[k] == v, k
    root = _parse_html(cmp._repr_html_())
    body = _rows(root.find("table"))[1:]
    assert [(r[0], r[2]) for r in body] == [(x.test, x.measure) for x in cmp.rows]

    board = build_leaderboard(qrels, runs + [str(ROOT / "no such run")], ["P(rel=1)@10", "map"])
    df = board.to_dataframe()
    assert list(df.columns) == ["rank", "run", "runid", "P(rel=1)@10", "map", "error"]
    for e, (_, row) in zip(board.entries, df.iterrows()):
        if e.ok:
            assert row["map"] == e.evaluation.summary["map"] and row["rank"] == e.rank
        else:
            assert row["error"] == e.error and pd.isna(row["map"])
    long = board.to_dataframe(per_topic=True)
    good = board.entries[0]
    mine = long[(long["run"] == good.path) & (long["measure"] == "map")]
    assert dict(zip(mine["topic"], mine["value"])) == {
        **{t: v["map"] for t, v in good.evaluation.per_topic().items()}, "all": good.evaluation.summary["map"]}
    rows = _rows(_parse_html(board._repr_html_()).find("table"))
    assert rows[0] == ["rank", "run", "runid", "P(rel=1)@10", "map"]
    assert rows[-1][2].startswith("error: ")

