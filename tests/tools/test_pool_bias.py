"""pool-bias: a hand-worked leave-one-run-out and leave-one-group-out, checked
against evaluations of hand-reduced judgments, and bad input."""
from __future__ import annotations

from support.golden import run_cli

from trec_eval_py import evaluate
from trec_eval_py.tools.organiser.pool_bias import pool_bias


def write(path, text):
    path.write_text(text)
    return str(path)


def test_leave_one_run_out_by_hand(tmp_path):
    """Depth 2. A pools d1 d2 (topic 1) and d1 d5 (topic 2); B pools d3 d4 and d9.
    Every pooled document has one contributor, so leaving A out removes its
    four, leaving B out its three (two of them relevant: d4, d9)."""
    a = write(tmp_path / "a", "1 Q0 d1 1 3 A\n1 Q0 d2 2 2 A\n1 Q0 d3 3 1 A\n2 Q0 d1 1 3 A\n2 Q0 d5 2 2 A\n")
    b = write(tmp_path / "b", "1 Q0 d3 1 9 B\n1 Q0 d4 2 8 B\n1 Q0 d1 3 7 B\n2 Q0 d9 1 1 B\n")
    q = write(tmp_path / "q", "1 0 d1 1\n1 0 d3 0\n1 0 d4 1\n2 0 d1 0\n2 0 d9 1\n")
    rep = pool_bias(q, [a, b], "map", depth=2)
    full_a, full_b = evaluate(q, a, "map").summary["map"], evaluate(q, b, "map").summary["map"]
    q_without_a = write(tmp_path / "qa", "1 0 d3 0\n1 0 d4 1\n2 0 d9 1\n")
    q_without_b = write(tmp_path / "qb", "1 0 d1 1\n2 0 d1 0\n")
    left_a = evaluate(q_without_a, a, "map").summary["map"]
    ra, rb = rep.runs
    assert (ra.run, ra.removed, ra.removed_relevant, ra.score, ra.score_left_out) == ("A", 4, 1, full_a, left_a)
    assert (rb.run, rb.removed, rb.removed_relevant, rb.score) == ("B", 3, 2, full_b)
    assert rb.score_left_out == evaluate(q_without_b, b, "map", complete=False).summary["map"]
    assert (rb.rank, rb.rank_left_out) == (1, 2) and rb.change < 0


def test_groups_share_their_documents(tmp_path, capsysbinary):
    """team-1 and team-2 both pool d1: it is unique to the group 'team', not to
    either run, so leaving one run out removes nothing from the other's score
    but leaving the group out removes d1 too."""
    t1 = write(tmp_path / "t1", "1 Q0 d1 1 2 team-1\n1 Q0 d2 2 1 team-1\n")
    t2 = write(tmp_path / "t2", "1 Q0 d1 1 2 team-2\n1 Q0 d3 2 1 team-2\n")
    o = write(tmp_path / "o", "1 Q0 d4 1 2 other\n1 Q0 d1 2 1 other\n")
    q = write(tmp_path / "q", "1 0 d1 1\n1 0 d2 1\n1 0 d3 0\n1 0 d4 1\n")
    by_run = pool_bias(q, [t1, t2, o], "P.2", depth=1)
    assert [r.removed for r in by_run.runs] == [0, 0, 1]
    groups = write(tmp_path / "g.csv", "run,group\nteam-1,team\nteam-2,team\nother,other\n")
    code, out, err = run_cli(["pool-bias", q, t1, t2, o, "-k", "1", "-m", "P.2", "--groups", groups, "--format", "csv"],
                             capsysbinary)
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "run,group,removed,removed_rel,P_2,left_out,change,rank,rank_left_out",
        "team-1,team,1,1,1.0000,0.5000,-0.5000,1,2",   # left out: 0.5, below other's 1.0
        "team-2,team,1,1,0.5000,0.0000,-0.5000,3,3",
        "other,other,1,1,1.0000,0.5000,-0.5000,1,2"]
    code, out2, _ = run_cli(["pool-bias", q, t1, t2, o, "-k", "1", "-m", "P.2", "--group-separator", "-",
                             "--format", "csv"], capsysbinary)
    assert out2 == out


def test_bad_input_is_one_line(tmp_path, capsysbinary):
    a = write(tmp_path / "a", "1 Q0 d1 1 3 A\n")
    b = write(tmp_path / "b", "1 Q0 d2 1 3 B\n")
    q = write(tmp_path / "q", "1 0 d1 1\n1 0 d2\n")
    code, out, err = run_cli(["pool-bias", q, a, b], capsysbinary)
    assert code == 2 and out == "" and err.startswith(f"trec_eval_py: {q}, line 2: ") and err.count("\n") == 1
    q = write(tmp_path / "q2", "1 0 d1 1\n")
    g = write(tmp_path / "g.csv", "A,x\nB\n")
    code, out, err = run_cli(["pool-bias", q, a, b, "--groups", g], capsysbinary)
    assert code == 2 and err == f"trec_eval_py: {g}, line 2: expected 2 fields (run,group), found 1: 'B'\n"
    code, out, err = run_cli(["pool-bias", q, a], capsysbinary)
    assert code == 1 and "at least two runs" in err
