"""Dask clusters for ``--engine dask``: one started on this machine, or an existing one.

``evaluate(..., client=)`` and ``batch(..., client=)`` take any
``dask.distributed.Client``; this module makes the one the command line
uses: ``--workers N`` starts a ``LocalCluster`` of N worker processes (one
thread each: the measures are numpy code holding the GIL), ``--scheduler
ADDRESS`` connects to a running scheduler.

The cluster started here drops ``MALLOC_TRIM_THRESHOLD_`` from its workers'
environment. Dask's nanny sets it to 64 KiB by default so that workers give
memory back to the system sooner; on this workload (many short-lived numpy
arrays of a few MB) glibc then returns and refaults pages all the time, and
an evaluation took about twice as long. Workers of a cluster started
elsewhere (``--scheduler``) keep what their nanny sets: start them with
``distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_`` set to null
(see docs/guide/scale.md).

dask is an optional dependency (``pip install 'trec_eval_py[dask]'``),
imported only here and only when a cluster is asked for.
"""
from __future__ import annotations

import contextlib

from ..errors import UsageError

ENGINES = ("local", "dask")


def _distributed():
    try:
        import dask
        import distributed
    except ImportError:
        raise UsageError("--engine dask needs dask.distributed: pip install 'trec_eval_py[dask]'") from None
    return dask, distributed


def check_engine(engine: str, workers: int | None, scheduler: str | None) -> None:
    """A usage error for flags that do not go together."""
    if engine not in ENGINES:
        raise UsageError(f"unknown --engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine != "dask" and (workers is not None or scheduler is not None):
        raise UsageError("--workers and --scheduler go with --engine dask")
    if workers is not None and scheduler is not None:
        raise UsageError("--workers starts a cluster and --scheduler uses one: give one of them")
    if workers is not None and workers < 1:
        raise UsageError("--workers must be at least 1")


def local_cluster(workers: int, *, quiet: bool = False, **kwargs):
    """A ``LocalCluster`` of ``workers`` processes, one thread each, without the
    nanny's ``MALLOC_TRIM_THRESHOLD_`` (see the module doc) and without a dashboard.
    ``quiet``: the workers log only critical events (a command's own cluster: a
    worker that loses its scheduler as the command stops logs an error with a
    traceback, which is no news to the user; a failed task still reaches the
    client as an exception)."""
    dask, distributed = _distributed()
    environ: dict = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
    if quiet:  # read by distributed when a worker process imports it
        environ["distributed.nanny.pre-spawn-environ.DASK_LOGGING__DISTRIBUTED"] = "critical"
    with dask.config.set(environ):
        # no dashboard; the scheduler's small HTTP server (health checks) still starts, so
        # it takes any free port of this machine instead of the usual 8787 (another
        # cluster may hold that one, and dask would then warn on stderr)
        kwargs.setdefault("dashboard_address", None)
        kwargs.setdefault("scheduler_kwargs", {"dashboard": False, "dashboard_address": "127.0.0.1:0"})
        kwargs.setdefault("threads_per_worker", 1)
        return distributed.LocalCluster(n_workers=workers, processes=True, **kwargs)


@contextlib.contextmanager
def client_for(engine: str, workers: int | None = None, scheduler: str | None = None):
    """The client the command line evaluates with: None for the local engine;
    for dask a cluster of ``workers`` processes started (and stopped) here, or the
    scheduler at ``scheduler`` (default: one worker process per core)."""
    check_engine(engine, workers, scheduler)
    if engine != "dask":
        yield None
        return
    _, distributed = _distributed()
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout="30s")
        except (OSError, TimeoutError) as e:
            raise UsageError(f"cannot reach the dask scheduler at {scheduler}: {e}") from None
        with client:
            yield client
        return
    import logging
    import os

    # the cluster is this command's own: its start and stop are no news on stderr
    # (a worker slow to stop is killed, which dask reports as a warning)
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        with local_cluster(workers or os.cpu_count() or 1, quiet=True) as cluster, distributed.Client(cluster) as client:
            yield client
    finally:
        quiet.setLevel(level)


def map_on_cluster(client, func, items: list, shared, *, progress=None, on_error=None) -> list:
    """``func(item, shared)`` for every item, one task each on ``client``'s
    cluster, ``shared`` (the judgments, the options) sent to every worker once;
    the results in the order of ``items``, gathered as tasks finish.

    ``progress(done, total, index)`` hears of each finished task.
    ``on_error(index, exception)`` gives the result of a task that failed on
    every worker that tried it (a worker lost mid-task is retried by the
    scheduler first); without it the first failure is raised (the tasks still
    running are cancelled when the client goes)."""
    from distributed import as_completed

    # one object (a tuple would be scattered element by element): every task on a
    # worker then gets the same ``shared``, which a task may set itself up from once
    handle = client.scatter([shared], broadcast=True)[0]
    futures = {client.submit(func, item, handle, pure=False): i for i, item in enumerate(items)}
    results: list = [None] * len(items)
    for done, fut in enumerate(as_completed(list(futures)), 1):
        i = futures[fut]
        try:
            results[i] = fut.result()
        except Exception as e:
            if on_error is None:
                for other in futures:
                    other.cancel()
                raise
            results[i] = on_error(i, e)
        fut.release()
        if progress is not None:
            progress(done, len(items), i)
    return results
