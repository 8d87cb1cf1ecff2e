"""pool: hand-worked examples of each method (TREC's depth-k pool; the
rank-biased weights of Moffat, Webber & Zobel 2007; Cormack, Palmer & Clarke's
move-to-front), a slow reference on random runs, the streamed reading against
the whole one, and bad input."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.golden import run_cli

from trec_eval_py.tools.organiser.pooling import pool
from trec_eval_py.tools.shared import runs as runs_mod


def write(path, lines: str) -> str:
    path.write_text(lines)
    return str(path)


@pytest.fixture
def three(tmp_path):
    """Three runs of two topics; scores put the documents in the order listed."""
    a = write(tmp_path / "a", "1 Q0 d1 1 0.9 A\n1 Q0 d2 2 0.8 A\n1 Q0 d3 3 0.7 A\n2 Q0 d7 1 0.5 A\n")
    b = write(tmp_path / "b", "1 Q0 d2 1 5 B\n1 Q0 d4 2 4 B\n1 Q0 d1 3 3 B\n2 Q0 d8 1 1 B\n2 Q0 d7 2 0 B\n")
    c = write(tmp_path / "c", "1 Q0 d5 1 1 C\n1 Q0 d2 2 1 C\n")  # tied: d5 before d2 (docno descending)
    return a, b, c


def test_depth_pool_by_hand(three):
    """Depth 2: topic 1 pools A's d1 d2, B's d2 d4, C's d5 d2 (the tie falls to
    docno descending: d5 first); topic 2 pools d7 (A 1, B 2) and d8 (B 1)."""
    p = pool(list(three), "depth", depth=2)
    assert p.entries() == [
        ("1", "d1", {"A": 1}), ("1", "d2", {"A": 2, "B": 1, "C": 2}), ("1", "d4", {"B": 2}),
        ("1", "d5", {"C": 1}), ("2", "d7", {"A": 1, "B": 2}), ("2", "d8", {"B": 1})]
    assert p.stats.size == [4, 2] and p.stats.total == 6
    # unique contributions (Zobel 1998): A d1; B d4, d8; C d5
    assert p.stats.contributed.tolist() == [3, 4, 2] and p.stats.unique.tolist() == [1, 2, 1]


def test_union_gives_each_run_its_depth(three):
    p = pool(list(three), "union", depth=1, run_depths={"B": 3, "C": 0})
    assert [(t, d) for t, d, _ in p.entries()] == [("1", "d1"), ("1", "d2"), ("1", "d4"), ("2", "d7"), ("2", "d8")]
    assert p.entries()[1] == ("1", "d2", {"B": 1})  # C is left out; A's depth 1 stops at d1


def test_rbp_weights_by_hand(tmp_path):
    """p = 0.5: rank r weighs (1 - p) p^(r-1) = 0.5, 0.25, 0.125. d1: 0.5 (A 1);
    d2: 0.25 (A 2) + 0.5 (B 1) = 0.75; d3: 0.125; d4: 0.25 (B 2). Budget 3:
    d2, d1, d4."""
    a = write(tmp_path / "a", "1 Q0 d1 1 3 A\n1 Q0 d2 2 2 A\n1 Q0 d3 3 1 A\n")
    b = write(tmp_path / "b", "1 Q0 d2 1 3 B\n1 Q0 d4 2 2 B\n")
    p = pool([a, b], "rbp", budget=3, p=0.5, depth=None)
    assert [d for _, d, _ in p.entries()] == ["d2", "d1", "d4"]
    assert p.entries()[0][2] == {"A": 2, "B": 1}


def test_rbp_adapts_to_judgments_by_hand(tmp_path):
    """p = 0.5. Judged: x1 relevant; y1, y2, z1 not. Bases: A 0.5, B 0, C 0.
    Residuals (unjudged weight + p^n): A 0.25 + 0.25 = 0.5; B 0.125 + 0.125 =
    0.25; C 0.25 + 0.125 + 0.125 = 0.5. B's best case, 0.25, is below A's 0.5:
    B is out of contention and y3 weighs nothing. x2 and z2 weigh 0.25 (a tie:
    z2 first, docno descending), z3 0.125. Without the judgments y3 would weigh
    0.125 and come before z3 (docno descending)."""
    a = write(tmp_path / "a", "1 Q0 x1 1 3 A\n1 Q0 x2 2 2 A\n")
    b = write(tmp_path / "b", "1 Q0 y1 1 3 B\n1 Q0 y2 2 2 B\n1 Q0 y3 3 1 B\n")
    c = write(tmp_path / "c", "1 Q0 z1 1 3 C\n1 Q0 z2 2 2 C\n1 Q0 z3 3 1 C\n")
    judged = write(tmp_path / "j", "1 0 x1 1\n1 0 y1 0\n1 0 y2 0\n1 0 z1 0\n")
    p = pool([a, b, c], "rbp", budget=3, p=0.5, depth=None, judged=judged)
    assert [d for _, d, _ in p.entries()] == ["z2", "x2", "z3"]
    static = pool([a, b, c], "rbp", budget=9, p=0.5, depth=None)
    assert [d for _, d, _ in static.entries()] == ["z1", "y1", "x1", "z2", "y2", "x2", "z3", "y3"]


@pytest.mark.parametrize("compat", ["9.0.8", "10.0"])
def test_rbp_orders_weights_as_doubles(tmp_path, compat):
    """p = 0.5. z: A's rank 1, 0.5. a: B's rank 1 and A's rank 26, 0.5 + 0.5^26 =
    0.5 + 1.5e-8: heavier, by less than half a float's step at 0.5 (2^-25), so as
    floats (the 9.0.8 ranking rule's scores) the two tie and the docno order
    (descending) would put z first; the weights are ordered as the doubles they
    are, as trectools and ranx order them."""
    fill = "".join(f"1 Q0 f{r:02d} {r} {30 - r} A\n" for r in range(2, 26))
    a = write(tmp_path / "a", "1 Q0 z 1 30 A\n" + fill + "1 Q0 a 26 1 A\n")
    b = write(tmp_path / "b", "1 Q0 a 1 1 B\n")
    assert float(np.float32(0.5 + 0.5 ** 26)) == 0.5  # a float cannot tell them apart
    p = pool([a, b], "rbp", budget=2, p=0.5, depth=None, compat=compat)
    assert [d for _, d, _ in p.entries()] == ["a", "z"]


@pytest.mark.parametrize("order", ["rank", "file"])
def test_rbp_orders_weights_whatever_ranks_the_runs(tmp_path, order):
    # --order says how each run's ranks are read; the chosen documents are still the heaviest first
    a = write(tmp_path / "a", "1 Q0 d1 1 3 A\n1 Q0 d2 2 2 A\n1 Q0 d3 3 1 A\n")
    b = write(tmp_path / "b", "1 Q0 d2 1 3 B\n1 Q0 d4 2 2 B\n")
    p = pool([a, b], "rbp", budget=3, p=0.5, depth=None, order=order)
    assert [d for _, d, _ in p.entries()] == ["d2", "d1", "d4"]


def test_move_to_front_by_hand(tmp_path):
    """A: a1 a2 a3; B: b1 b2; judged a1 relevant, a2 not. A goes first (equal
    priorities, first named): a1 relevant (free, A keeps its turn), a2 not
    (free, A drops to -1); B: b1 is chosen and, unjudged, counts as not
    relevant (B -1); A again (first among equals): a3 chosen. Budget 2: b1, a3.
    Without judgments: a1 (A -1), b1 (B -1), a2."""
    a = write(tmp_path / "a", "1 Q0 a1 1 3 A\n1 Q0 a2 2 2 A\n1 Q0 a3 3 1 A\n")
    b = write(tmp_path / "b", "1 Q0 b1 1 3 B\n1 Q0 b2 2 2 B\n")
    judged = write(tmp_path / "j", "1 0 a1 1\n1 0 a2 0\n")
    assert [d for _, d, _ in pool([a, b], "mtf", budget=2, judged=judged, depth=None).entries()] == ["b1", "a3"]
    assert [d for _, d, _ in pool([a, b], "mtf", budget=3, depth=None).entries()] == ["a1", "b1", "a2"]
    # a relevant run keeps the turn: with a1, a2 and a3 relevant A supplies everything first
    judged = write(tmp_path / "j2", "1 0 a1 1\n1 0 a2 2\n")
    assert [d for _, d, _ in pool([a, b], "mtf", budget=2, judged=judged, depth=None).entries()] == ["a3", "b1"]


def slow_depth_pool(runs: list[dict], depth: int):
    """Reference: sort each topic's list by (score desc, docno desc) as trec_eval 9.0.8
    (scores as float32), take the top ``depth``, union."""
    import numpy as np

    pooled: dict = {}
    for i, run in enumerate(runs):
        for q, docs in run.items():
            by_docno = sorted(docs, key=str.encode, reverse=True)  # ties: docno descending, byte order
            ranked = sorted(by_docno, key=lambda d: -np.float32(docs[d]))  # stable
            for r, d in enumerate(ranked[:depth], 1):
                pooled.setdefault((q, d), {})[f"R{i}"] = r
    return sorted(((q, d, c) for (q, d), c in pooled.items()), key=lambda x: (x[0].encode(), x[1].encode()))


@st.composite
def random_runs(draw):
    n = draw(st.integers(1, 4))
    out = []
    for _ in range(n):
        topics = draw(st.lists(st.sampled_from(["1", "2", "10", "7a"]), min_size=1, max_size=4, unique=True))
        run = {}
        for q in sorted(topics, key=str.encode):
            docs = draw(st.lists(st.sampled_from([f"D{i}" for i in range(15)]), min_size=1, max_size=8, unique=True))
            run[q] = {d: draw(st.sampled_from([0.0, 1.0, 1.5, -2.0, 3.25])) for d in docs}
        out.append(run)
    return out


def dump(path, run, tag):
    path.write_text("".join(f"{q} Q0 {d} 0 {s} {tag}\n" for q, ds in run.items() for d, s in ds.items()))
    return str(path)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(runs=random_runs(), depth=st.integers(1, 6), shuffle=st.booleans())
def test_depth_pool_equals_slow_reference_streamed_or_not(tmp_path_factory, monkeypatch, runs, depth, shuffle):
    """Read whole, or piece by piece (tiny pieces, tiny blocks) with the runs'
    topics in byte order or not: the same pool as the reference."""
    tmp = tmp_path_factory.mktemp("pool")
    if shuffle:  # topics in another order in some runs: the streamed reading must notice
        runs = [dict(reversed(list(r.items()))) if i % 2 else r for i, r in enumerate(runs)]
    paths = [dump(tmp / f"r{i}", r, f"R{i}") for i, r in enumerate(runs)]
    want = slow_depth_pool(runs, depth)
    assert pool(paths, "depth", depth=depth).entries() == want
    with monkeypatch.context() as m:
        m.setattr(runs_mod.POLICY, "many_stream_min_bytes", 0)
        m.setattr(runs_mod.POLICY, "min_piece", 16)
        m.setattr(runs_mod.POLICY, "read_ahead", 16)
        m.setattr(runs_mod.POLICY, "block_rows", 3)
        assert pool(paths, "depth", depth=depth).entries() == want


def test_the_more_runs_the_smaller_a_run_read_whole(tmp_path, monkeypatch):
    """A run is read whole below the policy's many_stream_min_bytes when it is one
    of few, but only below whole_bytes / n among n runs: with many runs the same small
    files are streamed, and the pool is the same."""
    runs = [{str(q): {f"d{(7 * q + 3 * i + j) % 40}": 100 - j for j in range(12)} for q in range(1, 9)}
            for i in range(6)]
    paths = [dump(tmp_path / f"r{i}", r, f"R{i}") for i, r in enumerate(runs)]
    size = max(len((tmp_path / f"r{i}").read_bytes()) for i in range(6))
    want = pool(paths, "depth", depth=5).entries()
    whole = []
    real = runs_mod.read_ranked
    monkeypatch.setattr(runs_mod, "read_ranked", lambda *a: whole.append(a[0]) or real(*a))
    monkeypatch.setattr(runs_mod.POLICY, "min_piece", 64)
    monkeypatch.setattr(runs_mod.POLICY, "read_ahead", 64)
    monkeypatch.setattr(runs_mod.POLICY, "many_stream_min_bytes", size + 1)
    monkeypatch.setattr(runs_mod.POLICY, "whole_bytes", 6 * (size + 1))
    assert pool(paths, "depth", depth=5).entries() == want and whole == paths  # 6 runs: each read whole
    whole.clear()
    assert runs_mod.stream_min_bytes(7) <= size
    more = paths + [dump(tmp_path / "r6", runs[0], "R6")]  # a seventh run, a copy of the first
    got = pool(more, "depth", depth=5).entries()
    assert whole == []  # 7 runs: every one streamed
    assert got == [(t, d, {**c, "R6": c["R0"]} if "R0" in c else c) for t, d, c in want]


def test_a_big_run_out_of_topic_order_is_regrouped_never_read_whole(tmp_path, monkeypatch):
    """Runs read in pieces, one listing its topics backwards and coming back to
    one: the pool starts again with that run regrouped in ascending order of
    topics through temporary files (ranges of ~5 rows), never holding a run
    whole, and equals the pool of the runs read whole; fuse and pool-bias too."""
    from trec_eval_py.tools.organiser.fusion import fuse

    runs = [{str(q): {f"d{(5 * q + 3 * i + j) % 30}": 50 - j for j in range(6)} for q in range(1, 12)}
            for i in range(3)]
    paths = [dump(tmp_path / f"r{i}", r, f"R{i}") for i, r in enumerate(runs)]
    lines = (tmp_path / "r1").read_text().splitlines(keepends=True)
    (tmp_path / "r1").write_text("".join(lines[::-1][:20] + lines[::-1][20:][::2] + lines[::-1][20:][1::2]))
    want = pool(paths, "depth", depth=4).entries()
    want_fused = fuse(paths, "rrf")
    monkeypatch.setattr(runs_mod.POLICY, "many_stream_min_bytes", 0)
    monkeypatch.setattr(runs_mod.POLICY, "min_piece", 64)
    monkeypatch.setattr(runs_mod.POLICY, "read_ahead", 64)
    monkeypatch.setattr(runs_mod.POLICY, "block_rows", 15)  # regrouped in ranges of ~5 rows a run

    def never(*a):
        raise AssertionError(f"{a[0]} read whole")

    monkeypatch.setattr(runs_mod, "read_ranked", never)
    assert pool(paths, "depth", depth=4).entries() == want
    fused = fuse(paths, "rrf")
    assert (fused.topic.tolist(), fused.docno.tolist(), fused.score.tolist()) == (
        want_fused.topic.tolist(), want_fused.docno.tolist(), want_fused.score.tolist())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r0", "r1", "r2"]


def test_shards_concatenated_pool_as_the_grouped_run(tmp_path, monkeypatch):
    """A run written as shards concatenated (every topic in every shard, topics
    ascending within each) looks in order until its second shard comes back to
    the first topic: by then topics were handed on with a quarter of their
    documents. The pool and the fused run must be those of the same lines grouped
    (they were not: the documents of those topics in later shards were dropped)."""
    from trec_eval_py.tools.organiser.fusion import fuse

    grouped = {str(q): {f"d{(7 * q + j) % 50}": 100.0 - j for j in range(16)} for q in range(10, 40)}
    other = {str(q): {f"d{(3 * q + j) % 50}": 100.0 - j for j in range(16)} for q in range(10, 40)}
    paths = [dump(tmp_path / "a", grouped, "A"), dump(tmp_path / "b", other, "B")]
    lines = (tmp_path / "a").read_text().splitlines(keepends=True)
    (tmp_path / "sharded").write_text("".join("".join(lines[k::4]) for k in range(4)))
    sharded = [str(tmp_path / "sharded"), paths[1]]
    monkeypatch.setattr(runs_mod.POLICY, "many_stream_min_bytes", 0)
    monkeypatch.setattr(runs_mod.POLICY, "min_piece", 256)
    monkeypatch.setattr(runs_mod.POLICY, "read_ahead", 512)
    monkeypatch.setattr(runs_mod.POLICY, "block_rows", 40)

    def by_doc(entries):
        return [(t, d, sorted(c.values())) for t, d, c in entries]

    assert by_doc(pool(sharded, "depth", depth=10).entries()) == by_doc(pool(paths, "depth", depth=10).entries())
    a, b = fuse(sharded, "rrf"), fuse(paths, "rrf")
    assert (a.topic.tolist(), a.docno.tolist(), a.score.tolist()) == (b.topic.tolist(), b.docno.tolist(),
                                                                      b.score.tolist())


def test_cli_formats_and_stats(three, tmp_path, capsysbinary):
    code, out, err = run_cli(["pool", *three, "-k", "1", "--stats", "-"], capsysbinary)
    assert code == 0
    assert out == "1 d1 A:1\n1 d2 B:1\n1 d5 C:1\n2 d7 A:1\n2 d8 B:1\n"
    assert err.splitlines()[:4] == ["topic  pooled", "1           3", "2           2", "all         5"]
    code, out, _ = run_cli(["pool", *three, "-k", "1", "--format", "qrels"], capsysbinary)
    assert out == "1 0 d1 -1\n1 0 d2 -1\n1 0 d5 -1\n2 0 d7 -1\n2 0 d8 -1\n"
    code, out, _ = run_cli(["pool", *three, "-k", "1", "--format", "json"], capsysbinary)
    assert json.loads(out)[0] == {"topic": "1", "docno": "d1", "runs": {"A": 1}}
    stats = tmp_path / "s.json"
    code, out, _ = run_cli(["pool", *three, "-k", "1", "--format", "csv", "--stats", stats, "--stats-format", "json"],
                           capsysbinary)
    assert out.splitlines()[:2] == ["topic,docno,runs", "1,d1,A:1"]
    assert json.loads(stats.read_text())["runs"]["B"] == {"contributed": 2, "unique": 2}


@pytest.mark.parametrize("args, message, exit_code", [
    (["--method", "bogus"], "unknown pooling method 'bogus'", 1),
    (["--method", "rbp", "--budget", "0"], "--budget must be 1 or more", 1),
    (["--method", "rbp", "--p", "1"], "--p (RBP persistence) must lie strictly between 0 and 1", 1),
    (["--method", "union", "--run-depth", "Z=3"], "--run-depth names no run given: Z", 1),
    (["--run-depth", "A"], "--run-depth wants NAME=DEPTH", 1),
    (["--format", "xml"], "unknown --format 'xml'", 1),
])
def test_bad_options_are_one_line(three, capsysbinary, args, message, exit_code):
    code, out, err = run_cli(["pool", *three, *args], capsysbinary)
    assert code == exit_code and out == "" and message in err and err.count("\n") == 1


def test_bad_runs_name_file_and_line(three, tmp_path, capsysbinary):
    bad = write(tmp_path / "bad", "1 Q0 d1 1 0.5 X\n1 Q0 d2\n")
    code, out, err = run_cli(["pool", *three, bad], capsysbinary)
    assert code == 2 and out == "" and err.startswith(f"trec_eval_py: {bad}, line 2: ") and err.count("\n") == 1
    judged = write(tmp_path / "j", "1 0 d1\n")
    code, out, err = run_cli(["pool", *three, "--method", "mtf", "--judged", judged], capsysbinary)
    assert code == 2 and out == "" and err.startswith(f"trec_eval_py: {judged}, line 1: ")
