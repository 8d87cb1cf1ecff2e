"""A dask cluster that fails a command ends it with one line naming what was
lost and exit status 5 (``ClusterError``), within bounded time
(``--cluster-timeout``), leaving no process behind: every worker lost, the
scheduler lost, workers killed for memory, workers killed again and again.

Each test runs the command in a process of its own (a session of its own, so
that whatever it starts can be found afterwards) through a small driver
script that makes each range of topics slow, or big, on the worker: the
faults happen while ranges are in flight."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.paths import ROOT
from support.processes import session as _session

pytestmark = pytest.mark.slow
pytest.importorskip("distributed")
pytest.importorskip("pyarrow")

EXAMPLES = ROOT / "examples"

#: the command, each range measured slower (T_SLEEP seconds) or bigger (T_HOG bytes)
#: on the worker; a marker file says a range has started; T_MEMORY: the memory
#: limit of the workers of the command's own cluster
DRIVER = '''
import os, sys, time

MARK, SLEEP, HOG = os.environ["T_MARK"], float(os.environ.get("T_SLEEP", "0")), int(os.environ.get("T_HOG", "0"))


def slow_measure_range(*args, **kwargs):
    import trec_eval_py.engine._ranged as ranged

    open(MARK, "a").close()
    junk = b"x" * HOG
    time.sleep(SLEEP)
    return getattr(ranged, "_real_measure_range", ranged.measure_range)(*args, **kwargs)


if __name__ == "__main__":
    import trec_eval_py.engine._ranged as ranged
    import trec_eval_py.tools.shared.cluster as cluster

    ranged._real_measure_range = ranged.measure_range
    ranged.measure_range = slow_measure_range
    if os.environ.get("T_MEMORY"):
        local = cluster.local_cluster
        cluster.local_cluster = lambda workers, **kw: local(workers, memory_limit=os.environ["T_MEMORY"], **kw)
    from trec_eval_py.cli import entry

    entry()
'''


def _env(**extra) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "tests")]
                                        + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.update({k: str(v) for k, v in extra.items()})
    return env


def _dataset(tmp_path: Path) -> Path:
    out = tmp_path / "ds"
    subprocess.run([sys.executable, "-m", "trec_eval_py", "shard", str(EXAMPLES / "run_a.txt"), "-o", str(out),
                    "--shards", "3"], check=True, capture_output=True, env=_env(), cwd=ROOT)
    return out


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) == pid and b"resource_tracker" not in cmd:
                out.append(int(entry))
    return out


def _start(tmp_path, args, **env) -> tuple[subprocess.Popen, Path]:
    mark = tmp_path / "started"
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    p = subprocess.Popen([sys.executable, str(driver), *map(str, args)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=_env(T_MARK=mark, **env), cwd=tmp_path,
                         start_new_session=True)
    return p, mark


def _wait_for(path: Path, p: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.time() + seconds
    while not path.exists():
        assert p.poll() is None, p.communicate()
        assert time.time() < deadline, "no range started"
        time.sleep(0.05)


def _ends(p: subprocess.Popen, seconds: float) -> tuple[int, str, str]:
    try:
        out, err = p.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise AssertionError(f"the command did not end within {seconds} s") from None
    time.sleep(0.5)  # a process killed as the command ends is gone a moment later
    left = _session(p.pid)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "processes outlived the command"
    return p.returncode, out, err


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("trec_eval_py: --engine dask: "), err
    return err


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and one worker in processes (sessions) of their own: its
    address and the two processes."""
    file = tmp_path / "scheduler.json"
    procs = []
    start = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=_env(), cwd="/")
    procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                   "--port", "0", "--no-dashboard", "--scheduler-file", str(file)], **start))
    deadline = time.time() + 60
    while not file.exists() or not file.read_text().strip():
        assert time.time() < deadline
        time.sleep(0.1)
    time.sleep(0.2)
    address = json.loads(file.read_text())["address"]
    procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--nthreads", "1",
                                   "--no-dashboard", "--scheduler-file", str(file)], **start))
    import distributed

    with distributed.Client(address, timeout=60) as client:
        client.wait_for_workers(1, timeout=60)
    yield address, procs[0], procs[1]
    for p in procs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def test_every_worker_lost(tmp_path, cluster):
    """The cluster's only worker (and its nanny) killed while ranges are in
    flight: the tasks waited for a worker for ever, without a word."""
    address, _, worker = cluster
    ds = _dataset(tmp_path)
    p, mark = _start(tmp_path, ["--engine", "dask", "--scheduler", address, "--cluster-timeout", "3", "-m", "map",
                                EXAMPLES / "qrels.txt", ds], T_SLEEP=5)
    _wait_for(mark, p)
    os.killpg(worker.pid, signal.SIGKILL)
    t0 = time.time()
    code, out, err = _ends(p, 60)
    assert (code, out) == (5, "")
    assert "lost every dask worker, for 3 s (--cluster-timeout)" in _one_line(err)
    assert time.time() - t0 < 3 + 20


def test_scheduler_lost(tmp_path, cluster):
    """The scheduler killed while ranges are in flight: it was status 70, an
    'internal error' (the tasks cancelled: CancelledError)."""
    address, scheduler, _ = cluster
    ds = _dataset(tmp_path)
    p, mark = _start(tmp_path, ["--engine", "dask", "--scheduler", address, "--cluster-timeout", "3", "-m", "map",
                                EXAMPLES / "qrels.txt", ds], T_SLEEP=5)
    _wait_for(mark, p)
    os.killpg(scheduler.pid, signal.SIGKILL)
    code, out, err = _ends(p, 60)
    assert (code, out) == (5, "")
    assert f"lost the dask scheduler at {address}" in _one_line(err)


def test_workers_killed_for_memory(tmp_path):
    """Each range needs more memory than a worker may have: the nanny restarts
    the worker, dask gives up on the task after 4 deaths (KilledWorker), which
    was status 70, an 'internal error'."""
    ds = _dataset(tmp_path)
    p, _ = _start(tmp_path, ["--engine", "dask", "--workers", "1", "-m", "map", EXAMPLES / "qrels.txt", ds],
                  T_SLEEP=1, T_HOG=600_000_000, T_MEMORY="300MB")
    code, out, err = _ends(p, 120)
    assert (code, out) == (5, "")
    assert "dask workers died 4 times running one task: over their memory limit of 300 MB" in _one_line(err)


def test_workers_killed_again_and_again(tmp_path):
    """Every worker process of the command's own cluster killed as soon as
    its nanny starts it again: no worker is left long enough to take a task
    (or one that does dies on it, again and again). The command waited for
    one for ever."""
    ds = _dataset(tmp_path)
    p, mark = _start(tmp_path, ["--engine", "dask", "--workers", "2", "--cluster-timeout", "5", "-m", "map",
                                EXAMPLES / "qrels.txt", ds], T_SLEEP=5)
    _wait_for(mark, p)
    deadline = time.time() + 120
    while p.poll() is None and time.time() < deadline:
        for pid in _children(p.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)
    code, out, err = _ends(p, 10)
    assert (code, out) == (5, "")
    line = _one_line(err)
    assert ("lost every dask worker, for 5 s (--cluster-timeout)" in line
            or "dask workers died 4 times running one task (killed, or over their memory limit)" in line)


def test_relative_paths_reach_the_workers(tmp_path, cluster):
    """With --scheduler, a worker runs in a folder of its own (here /): the
    dataset's shards, a -Z file and the runs of batch named relative to the
    command's folder must still be found (they were 'cannot read this shard')."""
    import shutil

    address = cluster[0]
    shutil.copy(EXAMPLES / "qrels.txt", tmp_path / "qrels")
    (tmp_path / "runs").mkdir()
    shutil.copy(EXAMPLES / "run_a.txt", tmp_path / "runs" / "a.run")
    shutil.copy(EXAMPLES / "run_b.txt", tmp_path / "runs" / "b.run")
    (tmp_path / "z").write_text("".join(f"{t} map 0.1 0.05\n" for t in (301, 302, 303)))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "trec_eval_py", *args], capture_output=True, text=True,
                              env=_env(), cwd=tmp_path, timeout=300)

    assert run("shard", "runs/a.run", "-o", "ds", "--shards", "3").returncode == 0
    for flags in (["-m", "map", "-m", "P.10"], ["-m", "map", "-Z", "z"]):
        here = run(*flags, "qrels", "runs/a.run")
        there = run("--engine", "dask", "--scheduler", address, *flags, "qrels", "ds")
        assert (there.returncode, there.stderr) == (0, "") and there.stdout == here.stdout
    here = run("batch", "-m", "map", "qrels", "runs")
    there = run("batch", "--engine", "dask", "--scheduler", address, "-m", "map", "qrels", "runs")
    assert (there.returncode, there.stderr) == (0, "") and there.stdout == here.stdout
    # compare ships one evaluator: the files its options name travel made absolute too
    for name in ("toy_gs_D.tsv", "toy_codes_D.tsv", "toy_pred_D.tsv"):
        shutil.copy(ROOT / "fixtures" / "codiesp" / name, tmp_path / name)
    flags = ["-R", "codiesp", "-T", "codiesp", "--valid-codes", "toy_codes_D.tsv", "-m", "map", "toy_gs_D.tsv",
             "toy_pred_D.tsv", "toy_pred_D.tsv"]
    here = run("compare", *flags)
    there = run("compare", "--engine", "dask", "--scheduler", address, *flags)
    assert here.returncode == 0 and (there.returncode, there.stderr) == (0, "") and there.stdout == here.stdout
