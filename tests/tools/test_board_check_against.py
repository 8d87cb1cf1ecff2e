"""build_leaderboard(check_against=...): a board of some judged topics whose runs are
validated against all of them (what a class server's public board needs)."""
from __future__ import annotations

from support.serve_class import PUBLIC, make_run, write_qrels


def test_a_board_of_some_topics_validates_against_every_judged_topic(tmp_path):
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard
    from trec_eval_py.tools.grading.validate import load_qrels, validate_run

    qrels = tmp_path / "qrels.txt"
    write_qrels(qrels)
    part = tmp_path / "qrels.public"
    part.write_text("".join(line for line in qrels.read_text().splitlines(keepends=True)
                            if line.split()[0] in PUBLIC))
    run = tmp_path / "run.txt"
    run.write_bytes(make_run(1, topics=PUBLIC + ["407"]))  # answers one private topic, misses three
    whole = load_qrels(str(qrels))
    board = build_leaderboard(str(part), [str(run)], ["map"], check_against=whole)
    alone = build_leaderboard(str(part), [str(run)], ["map"])
    (e,), (a,) = board.entries, alone.entries
    # the numbers are the part's; the findings those of validate --qrels on the whole judgments
    assert e.result.summary["map"] == a.result.summary["map"]
    want = validate_run(str(run), whole, name=str(run))
    assert [(f.code, f.message) for f in e.findings] == [(f.code, f.message) for f in want.findings]
    # without it the run's private topics are findings of their own: topics not in the judgments
    assert "topic-not-in-qrels" in {f.code for f in a.findings}
    assert "topic-not-in-qrels" not in {f.code for f in e.findings}
