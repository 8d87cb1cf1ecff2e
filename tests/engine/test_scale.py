"""Evaluation cut into ranges of topics: the fold of the summaries, sharded
datasets and a dask cluster must all give what one pass over every topic gives,
bit for bit (the golden corpus runs the sharded and folded paths too: see
test_golden.py)."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import FIXTURES

from trec_eval_py.engine.pipeline import evaluate
from trec_eval_py.errors import InputError

FIX = FIXTURES


def _collection(path: Path):
    """A small collection whose topic ids sort differently as numbers and as
    bytes (1, 10, 100, 11...), graded levels, topics judged and not retrieved
    and retrieved and not judged, tied scores."""
    rng = np.random.default_rng(7)
    q, r = [], []
    for t in range(1, 130):
        docs = [f"d{k}" for k in rng.choice(400, 30, replace=False)]
        if t % 11 != 3:
            for d in docs[:15]:
                q.append(f"{t} 0 {d} {int(rng.choice([0, 0, 1, 2, 3]))}\n")
        if t % 13 != 5:
            for rank, d in enumerate(docs[5:]):
                r.append(f"{t} Q0 {d} {rank + 1} {round(float(rng.random()), 1)} run{t % 2}\n")
    path.mkdir(parents=True, exist_ok=True)
    (path / "qrels").write_text("".join(q))
    (path / "run").write_text("".join(r))
    return path / "qrels", path / "run"


import tempfile  # noqa: E402

QRELS, RUN = _collection(Path(tempfile.mkdtemp(prefix="test_scale-")))


def _topics() -> list[bytes]:
    ids = {line.split()[0] for line in QRELS.read_bytes().splitlines() if line.strip()}
    ids |= {line.split()[0] for line in RUN.read_bytes().splitlines() if line.strip()}
    return sorted(ids)


TOPICS = _topics()


def _text(ev) -> str:
    return ev.to_text(query=True)


#: cut points: topic ids, bytes between them, bytes before and after all of them
_cut = st.one_of(st.sampled_from(TOPICS), st.binary(min_size=1, max_size=4).filter(lambda b: b"\0" not in b))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cuts=st.lists(_cut, max_size=8, unique=True),
       flags=st.sampled_from([{}, {"complete": True}, {"complete": True, "compat": "10.0"},
                              {"compat": "10.0", "max_docs": 3}, {"judged_only": True, "relevance_level": 2}]))
def test_any_cuts_give_the_whole_evaluation(cuts, flags):
    """Random cut points (ranges that may be empty, hold one topic or all of
    them): per-topic values and summary equal the whole evaluation's, byte for byte."""
    cuts = sorted(cuts)
    whole = evaluate(QRELS, RUN, "all_trec", **flags)
    sharded = evaluate(QRELS, RUN, "all_trec", shards=cuts, **flags)
    assert _text(sharded) == _text(whole)
    summary = evaluate(QRELS, RUN, "all_trec", shards=cuts, per_topic=False, **flags)
    assert summary.to_text() == whole.to_text()
    assert summary.topics == []


def test_cuts_must_increase():
    with pytest.raises(ValueError, match="strictly increasing"):
        evaluate(QRELS, RUN, "map", shards=[b"2", b"1"])


@pytest.mark.parametrize("shards", [2, 3, "each"])
def test_micro_averages_fold(shards):
    """CodiEsp-X's micro-averaged summaries (counts added over topics, then
    divided) fold over ranges like the means do."""
    kw = dict(rel_format="codiesp_x", results_format="codiesp_x")
    m = ["codiesp_x", "num_ret", "num_rel", "num_rel_ret"]
    whole = evaluate(FIX / "codiesp" / "toy_gs_X.tsv", FIX / "codiesp" / "toy_pred_X.tsv", m, **kw)
    part = evaluate(FIX / "codiesp" / "toy_gs_X.tsv", FIX / "codiesp" / "toy_pred_X.tsv", m, shards=shards, **kw)
    assert _text(part) == _text(whole)
    assert part.summary["codiesp_x_F"] == whole.summary["codiesp_x_F"]


def test_negative_only_topic_is_one_range():
    """A topic judged only negatively reads the levels of the topic before it:
    the evaluation is then not cut (and still right)."""
    q, r = FIX / "negative_levels" / "qrels", FIX / "negative_levels" / "run"
    whole = evaluate(q, r, "all_trec")
    assert _text(evaluate(q, r, "all_trec", shards="each")) == _text(whole)


def test_duplicate_in_a_later_range_is_the_error_a_whole_read_reports(tmp_path):
    run = tmp_path / "run"
    run.write_bytes(RUN.read_bytes() + b"77 Q0 dup 1 5.0 x\n" * 2 + b"2 Q0 dup 1 5.0 x\n" * 2)
    with pytest.raises(InputError) as whole:
        evaluate(QRELS, run, "map")
    with pytest.raises(InputError) as part:
        evaluate(QRELS, run, "map", shards="each")
    assert str(part.value) == str(whole.value)


# ---- sharded Parquet datasets ----

pa = pytest.importorskip("pyarrow")


def _shard(tmp_path, run=RUN, shards=3):
    from trec_eval_py.engine.join.dataset import write_dataset

    out = tmp_path / "ds"
    m = write_dataset(run, out, shards=shards)
    return out, m


@pytest.mark.parametrize("shards", [1, 3, 7])
@pytest.mark.parametrize("flags", [{}, {"complete": True}, {"complete": True, "compat": "10.0"}])
def test_dataset_evaluates_as_its_run(tmp_path, shards, flags):
    out, m = _shard(tmp_path, shards=shards)
    assert len(m["shards"]) == len(m["cuts"]) + 1 <= shards
    assert m["lines"] == len([x for x in RUN.read_bytes().splitlines() if x.strip()])
    whole = evaluate(QRELS, RUN, "all_trec", **flags)
    assert _text(evaluate(QRELS, out, "all_trec", **flags)) == _text(whole)
    assert evaluate(QRELS, out, "all_trec", per_topic=False, **flags).to_text() == whole.to_text()


def test_shards_hold_ranges_in_order(tmp_path):
    import pyarrow.parquet as pq

    out, m = _shard(tmp_path, shards=4)
    cuts = [c.encode() for c in m["cuts"]]
    assert cuts == sorted(cuts) and len(set(cuts)) == len(cuts)
    seen = set()
    for i, s in enumerate(m["shards"]):
        t = pq.read_table(out / s["file"])
        q = t.column("qid").to_pylist()
        assert q == sorted(q)  # grouped by topic, in byte order
        assert not (set(q) & seen)  # a topic is never split
        seen |= set(q)
        assert (i == 0 or q[0] >= cuts[i - 1]) and (i == len(cuts) or q[-1] < cuts[i])


def test_bad_line_names_the_source_file_and_line(tmp_path):
    run = tmp_path / "bad.run"
    lines = RUN.read_bytes().splitlines(keepends=True)
    lines[40] = b"40 Q0 doc 1 notanumber x\n"
    run.write_bytes(b"".join(lines))
    with pytest.raises(InputError) as e:
        _shard(tmp_path, run=run)
    assert e.value.path == str(run) and e.value.line == 41


def test_bad_value_in_a_shard_names_the_source_line(tmp_path):
    import pyarrow.parquet as pq

    out, m = _shard(tmp_path, shards=2)
    path = out / m["shards"][1]["file"]
    t = pq.read_table(path)
    score = t.column("score").to_numpy().copy()
    score[5] = np.nan
    pq.write_table(t.set_column(2, "score", pa.array(score)), path)
    with pytest.raises(InputError) as e:
        evaluate(QRELS, out, "map")
    assert e.value.path == str(RUN) and e.value.line == int(t.column("line")[5].as_py())


def test_manifest_ranges_are_checked(tmp_path):
    import json

    out, m = _shard(tmp_path, shards=3)
    m["cuts"] = list(reversed(m["cuts"]))
    (out / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(InputError, match="strictly increasing"):
        evaluate(QRELS, out, "map")


def _move_rows(out, m, count: int, *, statistics: bool = True, group_rows: int | None = None,
               fix_manifest: bool = True) -> str:
    """Move shard 0's first ``count`` rows (of its first topic) to the front of
    shard 1, as a tool that splits a topic between shards would; shard 1's
    rows stay in topic order. Returns shard 1's path."""
    import json

    import pyarrow.parquet as pq

    first, second = (out / s["file"] for s in m["shards"][:2])
    a, b = pq.read_table(first), pq.read_table(second)
    assert len(set(a.column("qid").to_pylist()[:count])) == 1
    pq.write_table(a.slice(count), first)
    pq.write_table(pa.concat_tables([a.slice(0, count), b]), second, write_statistics=statistics,
                   row_group_size=group_rows)
    if fix_manifest:  # the row counts agree: only the ids give the rows away
        m["shards"][0]["rows"] -= count
        m["shards"][1]["rows"] += count
        (out / "manifest.json").write_text(json.dumps(m))
    return str(second)


@pytest.mark.parametrize("statistics, group_rows", [(True, None), (False, None), (True, 4)])
def test_rows_outside_a_shards_range_are_an_error(tmp_path, statistics, group_rows):
    """Rows of a topic put in the next shard would be evaluated without their
    judgments (wrong numbers, no error): each row group's topics are checked
    against the shard's range, through its statistics (a group of 4 rows
    wholly outside) or the ids read (a group partly outside, or no statistics)."""
    out, m = _shard(tmp_path, shards=3)
    second = _move_rows(out, m, 4, statistics=statistics, group_rows=group_rows)
    for per_topic in (True, False):
        with pytest.raises(InputError, match="outside this shard's range") as e:
            evaluate(QRELS, out, "map", per_topic=per_topic)
        assert e.value.path == second
        assert ("its statistics" in str(e.value)) == (statistics and group_rows == 4)


def test_a_shards_row_count_is_the_manifests(tmp_path):
    out, m = _shard(tmp_path, shards=3)
    _move_rows(out, m, 4, fix_manifest=False)
    with pytest.raises(InputError, match="holds .* rows where the manifest says") as e:
        evaluate(QRELS, out, "map")
    assert e.value.path == str(out / m["shards"][0]["file"])


def test_topic_split_between_shards_is_one_line_and_status_2(tmp_path, capsys):
    """The example run sharded in 3, topic 301's top 100 rows moved into the
    second shard: the evaluation printed map 0.1742 instead of 0.1785, with status 0."""
    import pyarrow.parquet as pq

    from trec_eval_py import cli

    out = tmp_path / "ds"
    examples = Path(__file__).resolve().parents[2] / "examples"
    cli.main(["shard", str(examples / "run_a.txt"), "-o", str(out), "--shards", "3"])
    capsys.readouterr()
    m = __import__("json").loads((out / "manifest.json").read_text())
    first = pq.read_table(out / m["shards"][0]["file"])
    top = np.argsort(-first.column("score").to_numpy(), kind="stable")[:100]
    moved = np.zeros(len(first), bool)
    moved[top] = True
    pq.write_table(first.filter(pa.array(~moved)), out / m["shards"][0]["file"])
    second = out / m["shards"][1]["file"]
    pq.write_table(pa.concat_tables([first.filter(pa.array(moved)), pq.read_table(second)]), second)
    m["shards"][0]["rows"] -= 100
    m["shards"][1]["rows"] += 100
    (out / "manifest.json").write_text(__import__("json").dumps(m))
    with pytest.raises(SystemExit) as e:
        cli.main(["-m", "map", "-m", "P.10", "-m", "num_ret", str(examples / "qrels.txt"), str(out)])
    assert e.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and str(second) in captured.err and "'301'" in captured.err


@pytest.mark.parametrize("command", [["validate"], ["batch", str(QRELS)]])
def test_validate_and_batch_say_a_dataset_is_one(tmp_path, capsys, command):
    """A dataset folder given to validate or batch: its Parquet files were read as
    text runs ('a binary file... save the run as plain text'); now one line
    says what the folder is and what to do, with the usage status."""
    from trec_eval_py import cli

    out, _ = _shard(tmp_path, shards=2)
    with pytest.raises(SystemExit) as e:
        cli.main([*command, str(out)])
    captured = capsys.readouterr()
    assert e.value.code == 1 and captured.out == ""
    assert captured.err == (f"trec_eval_py: {out} is a sharded run dataset made by trec_eval_py shard, not a folder "
                            f"of run files: evaluate it with 'trec_eval_py QRELS {out}'; to check or grade the run, "
                            f"give the run file it was made from: {RUN}\n")


def test_shard_command(tmp_path, capsys):
    from trec_eval_py import cli

    out = tmp_path / "ds"
    cli.main(["shard", str(RUN), "-o", str(out), "--shards", "2"])
    assert "2 shards" in capsys.readouterr().out
    cli.main(["-m", "all_trec", str(QRELS), str(out)])
    sharded = capsys.readouterr().out
    cli.main(["-m", "all_trec", str(QRELS), str(RUN)])
    assert sharded == capsys.readouterr().out


# ---- a dask cluster ----


@pytest.mark.slow
def test_local_cluster_with_a_worker_killed(tmp_path):
    """Two worker processes; one is killed while ranges are in flight: its
    ranges are measured again elsewhere and the output is unchanged."""
    distributed = pytest.importorskip("distributed")
    from trec_eval_py.tools.shared.cluster import local_cluster

    whole = evaluate(QRELS, RUN, "all_trec", complete=True)
    out, _ = _shard(tmp_path, shards=len(TOPICS))
    with local_cluster(2) as cluster, distributed.Client(cluster) as client:
        env = client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_"))
        assert set(env.values()) == {None}  # the nanny's setting is dropped
        assert _text(evaluate(QRELS, RUN, "all_trec", complete=True, client=client, shards=5)) == _text(whole)
        pids = client.run(os.getpid)
        result = {}

        def go():
            result["ev"] = evaluate(QRELS, out, "all_trec", complete=True, client=client)

        # a summary alone folds on the workers (the fold's state travels from range to
        # range, the per-topic payloads stay put): the same bytes, for these flags too
        for flags in ({}, {"compat": "10.0", "max_docs": 3}, {"judged_only": True, "relevance_level": 2}):
            ref = evaluate(QRELS, RUN, "all_trec", complete=True, per_topic=False, **flags).to_text()
            assert evaluate(QRELS, RUN, "all_trec", complete=True, per_topic=False, client=client, shards="each",
                            **flags).to_text() == ref
        kw = dict(rel_format="codiesp_x", results_format="codiesp_x")
        m = ["codiesp_x", "num_ret", "num_rel", "num_rel_ret"]
        gs, pred = FIX / "codiesp" / "toy_gs_X.tsv", FIX / "codiesp" / "toy_pred_X.tsv"
        assert (evaluate(gs, pred, m, per_topic=False, client=client, shards=3, **kw).to_text()
                == evaluate(gs, pred, m, **kw).to_text())
        bad = tmp_path / "bad_run"  # the error a whole read reports, from a later range
        bad.write_bytes(RUN.read_bytes() + b"77 Q0 dup 1 5.0 x\n" * 2 + b"2 Q0 dup 1 5.0 x\n" * 2)
        with pytest.raises(InputError) as whole_error:
            evaluate(QRELS, bad, "map")
        with pytest.raises(InputError) as cluster_error:
            evaluate(QRELS, bad, "map", per_topic=False, client=client, shards="each")
        assert str(cluster_error.value) == str(whole_error.value)

        summary_only = {}

        def summarise():
            summary_only["ev"] = evaluate(QRELS, out, "all_trec", complete=True, per_topic=False, client=client)

        t = threading.Thread(target=go)
        t2 = threading.Thread(target=summarise)
        t.start()
        t2.start()
        deadline = time.time() + 20
        while time.time() < deadline and not any(client.processing().values()):
            time.sleep(0.01)
        victim = next(iter(pids.values()))
        os.kill(victim, 9)
        t.join(120)
        t2.join(120)
        assert not t.is_alive() and not t2.is_alive()
        assert _text(result["ev"]) == _text(whole)
        assert summary_only["ev"].to_text() == whole.to_text()


@pytest.mark.slow
def test_batch_on_a_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    from trec_eval_py.tools.grading.leaderboard import build_leaderboard, render_leaderboard
    from trec_eval_py.tools.shared.cluster import local_cluster

    runs = []
    for i in range(4):
        p = tmp_path / f"r{i}"
        # one run id a file: a second one is an error that keeps a run off the board
        lines = RUN.read_bytes().replace(b" run1\n", b" run0\n").splitlines(keepends=True)
        p.write_bytes(b"".join(x for k, x in enumerate(lines) if i == 0 or k % (i + 2)))
        runs.append(str(p))
    local = build_leaderboard(QRELS, runs, ["map", "P.10", "num_q"], per_topic=False)
    with local_cluster(2) as cluster, distributed.Client(cluster) as client:
        remote = build_leaderboard(QRELS, runs, ["map", "P.10", "num_q"], per_topic=False, client=client)
    assert render_leaderboard(remote) == render_leaderboard(local)
    assert len(remote.graded) == 4 and all(e.evaluation.topics == [] for e in remote.entries)


@pytest.mark.slow
def test_validate_and_compare_on_a_cluster(tmp_path):
    """validate and compare take one task a run on a cluster and give what they
    give here; an error of the judgments still stops them, with its own message."""
    distributed = pytest.importorskip("distributed")
    from trec_eval_py.tools.compare.comparison import compare_runs
    from trec_eval_py.tools.grading.validate import render_reports, validate_runs
    from trec_eval_py.tools.shared.cluster import local_cluster

    runs = []
    for i in range(3):
        p = tmp_path / f"r{i}"
        lines = RUN.read_bytes().splitlines(keepends=True)
        p.write_bytes(b"".join(x for k, x in enumerate(lines) if i == 0 or k % (i + 2)))
        runs.append(str(p))
    (tmp_path / "qrels_given_as_run").write_bytes(QRELS.read_bytes())
    checked = runs + [str(tmp_path / "qrels_given_as_run")]
    twice = tmp_path / "judged_twice"
    twice.write_bytes(QRELS.read_bytes() + QRELS.read_bytes().splitlines(keepends=True)[0])
    measures = ["map", "P.10", "ndcg_cut.10"]
    with local_cluster(2) as cluster, distributed.Client(cluster) as client:
        for kw in ({}, {"compat": "10.0"}):
            assert (render_reports(validate_runs(checked, QRELS, client=client, **kw), "json")
                    == render_reports(validate_runs(checked, QRELS, **kw), "json"))
        for kw in ({}, {"max_docs": 5, "judged_only": True}, {"topics_from": "intersection"}):
            here = compare_runs(QRELS, runs, measures, ["t", "randomization"], permutations=2000, **kw)
            there = compare_runs(QRELS, runs, measures, ["t", "randomization"], permutations=2000, client=client, **kw)
            assert there.to_json() == here.to_json()
        with pytest.raises(InputError) as here_error:
            compare_runs(twice, runs, measures)
        with pytest.raises(InputError) as there_error:
            compare_runs(twice, runs, measures, client=client)
        assert str(there_error.value) == str(here_error.value)


def test_evaluations_cross_processes():
    """An evaluation pickles (what a cluster's task returns): its measures travel
    by name and come back as the registry's own, so every measure and output
    name survives, and the result prints the same."""
    import pickle

    from trec_eval_py.engine.measures import registry

    names = [m.name for m in registry() if not m.name.startswith(("prefs", "codiesp", "bc_", "cwl"))]
    ev = evaluate(QRELS, RUN, ["all_trec"] + ["nDCG@10", "P(rel=2)@5", "ndcg_cut.3,7"], complete=True)
    back = pickle.loads(pickle.dumps(ev))
    assert back.to_text(query=True) == ev.to_text(query=True)
    assert [c.measure for c in back.columns] == [c.measure for c in ev.columns]
    assert all(a.measure is b.measure for a, b in zip(back.columns, ev.columns))
    done = 0
    for name in names:
        try:
            one = evaluate(QRELS, RUN, [name])
        except (InputError, ValueError):  # a measure of another judgment format
            continue
        assert pickle.loads(pickle.dumps(one)).to_text(query=True) == one.to_text(query=True), name
        done += 1
    assert done > 60


@pytest.mark.slow
def test_own_cluster_says_nothing_when_the_usual_dashboard_port_is_taken():
    """The command's own cluster keeps off port 8787 (another cluster may hold it,
    and dask then warns on stderr): stderr stays empty, the output is the one
    of the local engine."""
    pytest.importorskip("distributed")
    import socket
    import subprocess
    import sys

    holder = socket.socket()
    try:
        holder.bind(("127.0.0.1", 8787))
        holder.listen()
    except OSError:
        pass  # already held by someone: the case this test is about
    try:
        cmd = [sys.executable, "-m", "trec_eval_py", "-m", "map", "-m", "P.10", str(QRELS), str(RUN)]
        local = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        dask = subprocess.run(cmd[:3] + ["--engine", "dask", "--workers", "1"] + cmd[3:], capture_output=True,
                              text=True, timeout=120)
    finally:
        holder.close()
    assert dask.returncode == 0 and dask.stderr == "" and dask.stdout == local.stdout


@pytest.mark.slow
def test_ranges_sent_to_a_cluster_raise_no_large_graph_warning():
    """A range's rows travel inside its task on purpose (a lost worker's range can run
    elsewhere): dask's warning about a large graph is not shown for them, however low
    its threshold, and the numbers are the one process's."""
    import warnings

    import dask

    distributed = pytest.importorskip("distributed")
    from trec_eval_py.tools.shared.cluster import local_cluster

    whole = evaluate(QRELS, RUN, "all_trec", complete=True)
    with (dask.config.set({"distributed.admin.large-graph-warning-threshold": "1kB"}),
          local_cluster(1) as cluster, distributed.Client(cluster) as client,
          warnings.catch_warnings(record=True) as seen):
        warnings.simplefilter("always")
        remote = evaluate(QRELS, RUN, "all_trec", complete=True, client=client, shards=3)
    assert _text(remote) == _text(whole)
    assert not [w for w in seen if "large graph" in str(w.message)]
