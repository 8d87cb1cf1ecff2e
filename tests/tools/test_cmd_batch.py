"""``trec_eval_py batch``: one qrels, many runs, a leaderboard.

The central property: every number on the board is the number the main
command prints for that run alone with -c (every judged topic counts), or
without it under --only-answered (text as printed, csv/json at full
precision, per-topic values included).
"""
from __future__ import annotations

import csv
import io
import json
import random

import pytest
from support.golden import GOLDEN, run_cli  # noqa: E402

from trec_eval_py.tools.grading.leaderboard import build_leaderboard


@pytest.fixture
def corpus(tmp_path):
    """A qrels and four runs of different quality (seeded), plus one broken run."""
    rng = random.Random(7)
    topics = ["1", "2", "10", "7"]
    docs = [f"D{i}" for i in range(40)]
    qrels = []
    for t in topics:
        for d in rng.sample(docs, 20):
            qrels.append(f"{t} 0 {d} {rng.choice([0, 0, 1, 2])}\n")
    (tmp_path / "qrels").write_text("".join(qrels))
    runs = tmp_path / "runs"
    runs.mkdir()
    for k, name in enumerate(["alice", "bob", "carol", "dave"]):
        lines = []
        for t in topics[: 4 - (k == 3)]:  # dave leaves out a topic
            for rank, d in enumerate(rng.sample(docs, 15), 1):
                lines.append(f"{t} Q0 {d} {rank} {round(20 - rank + rng.random() * k * 4, 2)} {name}_run\n")
        (runs / f"{name}.txt").write_text("".join(lines))
    (runs / "eve.txt").write_text("1 Q0 D1 1 0.5 eve\n1 Q0 D2 2 high eve\n")
    return tmp_path


def good_runs(corpus):
    return sorted(p for p in (corpus / "runs").iterdir() if p.name != "eve.txt")


def main_output(corpus, run, capsysbinary, *extra):
    code, out, err = run_cli([*extra, corpus / "qrels", run], capsysbinary)
    assert code == 0, err
    return out


def test_text_board_equals_main_command_per_run(corpus, capsysbinary):
    code, out, err = run_cli(["batch", corpus / "qrels", *good_runs(corpus), "-m", "map", "-m", "P.10",
                              "-m", "num_rel_ret"], capsysbinary)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["rank", "run", "runid", "topics", "findings", "map", "P_10", "num_rel_ret"]
    rows = [ln.split() for ln in lines[1:]]
    assert len(rows) == 4
    for _rank, path, runid, _topics, _warnings, *cells in rows:
        printed = main_output(corpus, path, capsysbinary, "-c", "-m", "map", "-m", "P.10", "-m", "num_rel_ret", "-m",
                              "runid")
        want = {ln.split()[0]: ln.split()[2] for ln in printed.splitlines()}
        assert runid == want["runid"]
        assert cells == [want["map"], want["P_10"], want["num_rel_ret"]]
    # best map first
    maps = [float(r[5]) for r in rows]
    assert maps == sorted(maps, reverse=True)
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]


def test_per_topic_csv_equals_main_command_csv(corpus, capsysbinary):
    code, out, err = run_cli(["batch", corpus / "qrels", corpus / "runs", "-m", "P.5", "-m", "map",
                              "--per-topic", "--format", "csv", "-c"], capsysbinary)
    assert code == 4  # eve's run is broken: the board is incomplete
    rows = list(csv.DictReader(io.StringIO(out)))
    for path in good_runs(corpus):
        printed = main_output(corpus, path, capsysbinary, "-m", "P.5", "-m", "map", "-q", "-c", "--format", "csv")
        want = {(r["topic"], r["measure"]): r["value"] for r in csv.DictReader(io.StringIO(printed))}
        # a run in a folder is named by its path as given: the folder's, then its own
        got = {(r["topic"], r["measure"]): r["value"] for r in rows if r["run"] == str(path)}
        assert got == want
    # the order of measures is the order asked for
    first = [r["measure"] for r in rows if r["run"] == str(good_runs(corpus)[0]) and r["topic"] == "1"]
    assert first == ["P_5", "map"]


def test_json_board_equals_main_command_json(corpus, capsysbinary):
    code, out, err = run_cli(["batch", corpus / "qrels", *good_runs(corpus), "-m", "map", "-m", "num_ret",
                              "--format", "json", "--per-topic"], capsysbinary)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["sort_by"] == "map" and doc["measures"] == ["map", "num_ret"]
    for item in doc["runs"]:
        printed = json.loads(main_output(corpus, item["run"], capsysbinary, "-m", "map", "-m", "num_ret", "-q",
                                         "-c", "--format", "json"))
        assert item["runid"] == printed["runid"]
        assert item["summary"] == {k: printed["summary"][k] for k in ("map", "num_ret")}
        assert item["per_topic"] == printed["per_topic"]
        assert item["error"] is None


def test_sort_by_a_count_when_asked(corpus, capsysbinary):
    code, out, _ = run_cli(["batch", corpus / "qrels", *good_runs(corpus), "-m", "num_ret", "-m", "map",
                            "--sort-by", "num_ret"], capsysbinary)
    rows = [ln.split() for ln in out.splitlines()[1:]]
    assert out.splitlines()[0].split()[5:] == ["num_ret", "map"]
    rets = [int(r[5]) for r in rows]
    assert rets == sorted(rets, reverse=True)
    # equal values share a rank; dave (one topic fewer) is last
    assert [r[0] for r in rows] == ["1", "1", "1", "4"]
    assert rows[-1][1].endswith("dave.txt") and rows[-1][3] == "3/4"


def test_broken_run_is_reported_and_others_still_evaluated(corpus, capsysbinary):
    code, out, err = run_cli(["batch", corpus / "qrels", corpus / "runs", corpus / "missing.txt"], capsysbinary)
    assert code == 4
    assert "Traceback" not in err
    lines = out.splitlines()
    assert len(lines) == 1 + 4 + 2
    eve = next(ln for ln in lines if "eve.txt" in ln)
    assert eve.startswith("-") and "error: line 2: score 'high' is not a number" in eve
    missing = next(ln for ln in lines if "missing.txt" in ln)
    assert "error: no such file" in missing
    # failures come last; default measures are map and P_10
    assert lines[0].split()[5:] == ["map", "P_10"]
    assert all(not ln.startswith("-") for ln in lines[1:5])


def test_run_without_common_topics_is_a_failed_row(corpus, capsysbinary, tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("99 Q0 D1 1 1.0 x\n")
    code, out, _ = run_cli(["batch", corpus / "qrels", good_runs(corpus)[0], other], capsysbinary)
    assert code == 4
    assert "error: line 1: no topic of the run is in" in out and "the run has '99'" in out


def test_markdown_and_csv_tables(corpus, capsysbinary):
    code, out, _ = run_cli(["batch", corpus / "qrels", corpus / "runs", "--format", "md"], capsysbinary)
    lines = out.splitlines()
    assert lines[0] == "| rank | run | runid | topics | findings | map | P\\_10 |"  # markdown-escaped
    assert lines[1] == "|---|---|---|---|---|---|---|"
    assert len(lines) == 2 + 5 and all(ln.startswith("| ") and ln.endswith(" |") for ln in lines[2:])
    assert "error: line 2" in lines[-1]
    code, out, _ = run_cli(["batch", corpus / "qrels", corpus / "runs", "--format", "csv"], capsysbinary)
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["rank", "run", "runid", "topics", "topics_total", "errors", "warnings", "notes", "checks",
                       "map", "P_10", "error"]
    assert rows[1][4] == "4" and rows[1][3] in ("3", "4")  # numbers, not "4/4"
    assert rows[-1][1].endswith("eve.txt") and rows[-1][-1].startswith("line 2:")
    assert all(r[-1] == "" for r in rows[1:-1])


@pytest.mark.parametrize(
    "args,code,message",
    [
        (["-m", "no_such_measure"], 1, "unknown measure"),
        (["--format", "xml"], 1, "unknown --format"),
        (["--compat", "8.0"], 1, "unknown --compat"),
    ],
)
def test_bad_options(corpus, capsysbinary, args, code, message):
    got, out, err = run_cli(["batch", corpus / "qrels", *good_runs(corpus), *args], capsysbinary)
    assert got == code and message in err and out == "" and "Traceback" not in err


def test_bad_qrels_stops_the_board(corpus, capsysbinary, tmp_path):
    bad = tmp_path / "bad.qrels"
    bad.write_text("1 0 D1 x\n")
    code, out, err = run_cli(["batch", bad, *good_runs(corpus)], capsysbinary)
    assert code == 2 and out == "" and "bad.qrels, line 1" in err


def test_qrels_read_once(corpus, monkeypatch):
    import trec_eval_py.tools.grading.leaderboard as lb

    calls = []
    real = lb.load_qrels
    monkeypatch.setattr(lb, "load_qrels", lambda src, *rest: calls.append(src) or real(src, *rest))
    board = build_leaderboard(str(corpus / "qrels"), [str(p) for p in good_runs(corpus)], ["map"])
    assert len(calls) == 1 and len(board.entries) == 4 and not board.failed


def test_a_validated_run_is_read_once(corpus, monkeypatch):
    """With the validator on, the evaluation takes the run as the validator read it
    (the engine's run reader never splits a plain run file again), and the board is
    the one of the runs read by the evaluation itself."""
    from trec_eval_py.engine.parse import run as run_reader

    runs = [str(p) for p in good_runs(corpus)]
    want = build_leaderboard(str(corpus / "qrels"), runs, ["map", "P.10"], check=False)
    calls = []
    real = run_reader._split
    monkeypatch.setattr(run_reader, "_split", lambda *a, **kw: calls.append(a[1]) or real(*a, **kw))
    got = build_leaderboard(str(corpus / "qrels"), runs, ["map", "P.10"], check=True)
    assert calls == []
    def board(b):
        return [(e.name, e.evaluation.runid, e.evaluation.to_text()) for e in b.entries]

    assert board(got) == board(want) and len(got.entries) == 4


def test_tie_findings_follow_the_compat_ranking_rule(tmp_path, capsysbinary):
    # 1.00000001 and 1.0 are one single-precision value: tied in 9.0.8 (docno 'b' first), not in 10.0
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 0\n")
    (tmp_path / "run").write_text("1 Q0 a 1 1.00000001 r\n1 Q0 b 2 1.0 r\n")
    found = {}
    for compat in ("9.0.8", "10.0"):
        code, out, err = run_cli(["batch", tmp_path / "qrels", tmp_path / "run", "--format", "json",
                                  "--compat", compat, "-j", "1"], capsysbinary)
        assert code == 0, err
        found[compat] = [f["code"] for f in json.loads(out)["runs"][0]["findings"]]
    assert "tie" in found["9.0.8"]
    assert "tie" not in found["10.0"]


def test_runs_of_other_results_formats_are_validated_too(tmp_path, capsysbinary):
    # -T codiesp submissions go through the validator in their own format: its
    # findings (first bad line, topics matching none of the gold's) name the cause
    codiesp = GOLDEN.parent / "codiesp"
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "good.tsv").write_bytes((codiesp / "toy_pred_D.tsv").read_bytes())
    (subs / "bad.tsv").write_bytes(b"S0004-06142006000900013-1\tq64.4\nS0004-06142006000900013-1\n")
    (subs / "offtopic.tsv").write_bytes(b"nosuchcase\tq64.4\n")
    code, out, err = run_cli(["batch", "-R", "codiesp", "-T", "codiesp", "-m", "map", codiesp / "toy_gs_D.tsv", subs],
                             capsysbinary)
    assert code == 4, err
    rows = {line.split()[1].rsplit("/", 1)[-1]: line for line in out.splitlines()[1:]}
    assert rows["good.tsv"].split()[0] == "1"
    assert "error: line 2: expected 2 tab-separated fields (clinical case, code), found 1" in rows["bad.tsv"]
    assert "error: line 1: no topic of the run is in" in rows["offtopic.tsv"]
    assert "the run has 'nosuchcase'" in rows["offtopic.tsv"]
