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

Faults (:func:`watched`): a cluster that fails the command ends it with a
:class:`~trec_eval_py.errors.ClusterError` (one line, exit status 5) in
bounded time, instead of a hang or an "internal error". A lost connection
to the scheduler cancels the client's tasks at once; no worker left (or
none that may run a task: all paused over their memory limit) for
``timeout`` seconds is found by a thread that looks at the cluster every
second, and cancels the tasks; workers that died running one task (dask
tries it on 4 workers) give dask's ``KilledWorker``, said with the memory
limit when the nanny restarted them for memory.

dask is an optional dependency (``pip install 'trec_eval_py[dask]'``),
imported only here and only when a cluster is asked for.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import threading
import time

from ...errors import ClusterError, TrecEvalError, UsageError

ENGINES = ("local", "dask")
#: seconds without a scheduler, or without a worker able to run a task, before a command gives up
DEFAULT_TIMEOUT = 60
#: how often the watch looks at the cluster (seconds)
_POLL = 1.0
#: the reason the watch gives the tasks it cancels
_CANCELLED = "trec_eval_py: cluster fault"


def _distributed():
    try:
        import dask
        import distributed
    except ImportError:
        raise UsageError("--engine dask needs dask.distributed: pip install 'trec_eval_py[dask]'") from None
    return dask, distributed


def check_engine(engine: str, workers: int | None, scheduler: str | None, timeout: float | None = None) -> None:
    """A usage error for flags that do not go together."""
    if engine not in ENGINES:
        raise UsageError(f"unknown --engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine != "dask" and (workers is not None or scheduler is not None or timeout is not None):
        raise UsageError("--workers, --scheduler and --cluster-timeout go with --engine dask")
    if timeout is not None and not timeout > 0:
        raise UsageError("--cluster-timeout must be a number of seconds above 0")
    if workers is not None and scheduler is not None:
        raise UsageError("--workers starts a cluster and --scheduler uses one: give one of them")
    if workers is not None and workers < 1:
        raise UsageError("--workers must be at least 1")


def local_cluster(workers: int, *, quiet: bool = False, local_directory: str | None = None, **kwargs):
    """A ``LocalCluster`` of ``workers`` processes, one thread each, without the
    nanny's ``MALLOC_TRIM_THRESHOLD_`` (see the module doc) and without a dashboard.
    ``quiet``: the workers log only critical events (a command's own cluster: a
    worker that loses its scheduler as the command stops logs an error with a
    traceback, which is no news to the user; a failed task still reaches the
    client as an exception). ``local_directory``: the folder of the scheduler's and
    the workers' files (default: dask's, in the system's temporary folder)."""
    dask, distributed = _distributed()
    environ: dict = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
    if local_directory is not None:  # the scheduler's (it reads the setting), the workers'
        environ["temporary-directory"] = kwargs["local_directory"] = local_directory
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
def client_for(engine: str, workers: int | None = None, scheduler: str | None = None,
               timeout: float | None = None):
    """The client the command line evaluates with: None for the local engine;
    for dask a cluster of ``workers`` processes started (and stopped) here, or the
    scheduler at ``scheduler`` (default: one worker process per core), its
    faults turned into a :class:`ClusterError` (see :func:`watched`) after
    ``timeout`` seconds (default :data:`DEFAULT_TIMEOUT`)."""
    check_engine(engine, workers, scheduler, timeout)
    if engine != "dask":
        yield None
        return
    _, distributed = _distributed()
    timeout = DEFAULT_TIMEOUT if timeout is None else timeout
    # dask's own logs are no news on stderr: the start and stop of the command's own
    # cluster (a worker slow to stop is killed, which dask reports as a warning), and
    # the faults, which the command says in its one line (the client logs a lost
    # scheduler with tracebacks; the scheduler of the command's own cluster, in this
    # process, logs a task that killed its workers)
    quiet = _Quiet()
    stopping = False
    try:
        if scheduler is not None:
            try:
                client = distributed.Client(scheduler, timeout=f"{timeout}s")
            except (OSError, TimeoutError) as e:
                raise UsageError(f"cannot reach the dask scheduler at {scheduler}: {e}") from None
            with client, watched(client, timeout, f"the dask scheduler at {scheduler}"):
                yield client
            return
        # the cluster's folders (dask's scratch space, its lock files) are the command's
        # own: in a temporary folder deleted with the cluster, even when the command is stopped
        folder = tempfile.mkdtemp(prefix="trec_eval_py-dask-")
        try:
            with contextlib.ExitStack() as stack:
                cluster = _start_cluster(stack, workers or os.cpu_count() or 1, folder)
                client = stack.enter_context(distributed.Client(cluster))
                stack.enter_context(watched(client, timeout, "the dask scheduler"))
                yield client
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    except BaseException as e:
        stopping = not isinstance(e, Exception)  # Ctrl-C, SIGTERM (the CLI's Stopped), an exit
        raise
    finally:
        if not stopping:
            quiet.restore()
        # else the process is stopping, and a stopped cluster is still going away: its
        # event loop's threads, and the tasks they leave, log as they end, and at exit


class _Quiet:
    """dask's loggers (and asyncio's: the scheduler of a command's own cluster runs
    its event loop in this process) quiet, until :meth:`restore` gives back their
    levels (dask's configuration gives some of its loggers levels of their own:
    each is quieted)."""

    def __init__(self) -> None:
        import logging

        names = ["asyncio", "distributed",
                 *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
        self.loggers = [logging.getLogger(name) for name in names]
        self.levels = [logger.level for logger in self.loggers]
        for logger in self.loggers:
            logger.setLevel(logging.CRITICAL)

    def restore(self) -> None:
        for logger, level in zip(self.loggers, self.levels):
            logger.setLevel(level)


#: seconds a command stopped while its cluster starts waits for the start to end (to stop the cluster)
_START_WAIT = 60


def _start_cluster(stack: contextlib.ExitStack, workers: int, folder: str):
    """Start the command's own cluster (:func:`local_cluster`, quiet, its files in
    ``folder``) and return it, ``stack`` closing it, even when the
    command is stopped (Ctrl-C, SIGTERM) while it starts: the start then ends
    first, the cluster is closed, and the stop goes on.

    It starts in a thread of its own, with SIGINT blocked: the cluster's threads,
    and the processes they start (now, or later: a worker restarted), inherit
    that mask and never hear Ctrl-C. Ctrl-C on a terminal reaches the whole
    process group, and each worker would print a traceback of its own; the
    command alone answers it, and stops its cluster. The command's own thread
    hears both signals at once."""
    import signal

    done: list = []
    finished = threading.Event()

    def start() -> None:
        try:
            if hasattr(signal, "pthread_sigmask"):  # POSIX
                from multiprocessing import resource_tracker

                # multiprocessing's resource tracker, when the first worker starts it,
                # unblocks SIGINT in the thread that starts it: started here first
                resource_tracker.ensure_running()
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            done.append(local_cluster(workers, quiet=True, local_directory=folder))
        except BaseException as e:
            done.append(e)
        finally:
            finished.set()

    def close() -> None:
        if done and not isinstance(done[0], BaseException):
            done[0].close()

    threading.Thread(target=start, name="trec_eval_py cluster start", daemon=True).start()
    stack.callback(close)
    try:
        finished.wait()
    except BaseException:  # stopped while the cluster starts: it ends starting, and is closed
        finished.wait(_START_WAIT)
        raise
    if isinstance(done[0], BaseException):
        raise done[0]
    return done[0]


class _Watch:
    """A thread that looks at the cluster every :data:`_POLL` seconds. When the
    client has lost its scheduler, or no worker can run a task (none is left,
    or every one is paused over its memory limit), for ``timeout`` seconds, it
    notes the fault and cancels every task of the client (again each time it
    looks, for tasks submitted since): whatever waits for one then raises."""

    def __init__(self, client, timeout: float, scheduler: str):
        self.client = client
        self.timeout = timeout
        self.scheduler = scheduler
        self.fault: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="trec_eval_py cluster watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(self.timeout + 2 * _POLL)

    def problem(self) -> str | None:
        """What keeps the cluster from running tasks now, or None."""
        client = self.client
        if client.status != "running":
            return f"lost {self.scheduler}"
        try:
            info = client.sync(client.scheduler.identity, n_workers=-1,
                               callback_timeout=max(_POLL, min(self.timeout, 10.0)))
        except Exception:  # an answer that does not come, a connection that breaks
            return f"{self.scheduler} does not answer"
        workers = info.get("workers") or {}
        if not workers:
            return "lost every dask worker"
        if not any(w.get("status") == "running" for w in workers.values()):
            statuses = sorted({str(w.get("status")) for w in workers.values()})
            return (f"no dask worker can run a task (every one is {' or '.join(statuses)}; "
                    "paused: over its memory limit)")
        return None

    def _run(self) -> None:
        since = None
        while not self._stop.wait(_POLL):
            if self.fault is None:
                problem = self.problem()
                if problem is None:
                    since = None
                    continue
                if since is None:
                    since = time.monotonic()
                if time.monotonic() - since < self.timeout:
                    continue
                self.fault = f"{problem}, for {self.timeout:g} s (--cluster-timeout)"
            self._cancel()

    def _cancel(self) -> None:
        client = self.client

        def cancel() -> None:  # in the client's event loop, where future states live
            for state in list(client.futures.values()):
                if state.status not in ("finished", "error", "cancelled"):
                    state.cancel(reason=_CANCELLED, msg=self.fault)

        # (an error: the loop is gone, and the client's own close has cancelled them)
        with contextlib.suppress(Exception):
            client.loop.add_callback(cancel)


def fault(error: BaseException, client=None, scheduler: str = "the dask scheduler") -> str | None:
    """What a dask exception says of the cluster, as one line (None: it is no
    cluster fault, e.g. a bug in a task): ``KilledWorker`` (workers died running
    one task; with their memory limit when the nanny restarted them for memory),
    tasks cancelled because the client lost the scheduler, a broken connection."""
    import asyncio
    import concurrent.futures

    from distributed.comm import CommClosedError

    name = type(error).__name__
    if name == "KilledWorker":
        died = getattr(error, "allowed_failures", None)
        times = f"{died + 1} times " if isinstance(died, int) else ""
        memory = _memory_restarts(client)
        if memory:
            limit = getattr(getattr(error, "last_worker", None), "memory_limit", None)
            of = f" of {limit / 1e6:,.0f} MB" if isinstance(limit, (int, float)) and limit else ""
            return (f"dask workers died {times}running one task: over their memory limit{of} (the nanny restarted "
                    f"a worker at 95 % of it {memory} times); give the workers more memory, or cut the work "
                    "smaller (more shards)")
        return (f"dask workers died {times}running one task (killed, or over their memory limit); "
                "see the workers' logs")
    if isinstance(error, (asyncio.CancelledError, concurrent.futures.CancelledError)):
        reason = getattr(error, "reason", None)
        if reason == _CANCELLED:  # by the watch, which says why
            return getattr(error, "msg", None) or "the cluster failed"
        if reason == "scheduler-connection-lost" or (client is not None and client.status != "running"):
            return f"lost {scheduler}"
        return None
    if isinstance(error, CommClosedError) or (isinstance(error, OSError) and client is not None
                                              and client.status != "running"):
        return f"lost {scheduler}"
    return None


def _memory_restarts(client) -> int:
    """How many times a nanny restarted a worker over its memory limit (0: unknown)."""
    if client is None or client.status != "running":
        return 0
    try:
        return len(client.sync(client.scheduler.events, topic="worker-restart-memory", callback_timeout=5))
    except Exception:
        return 0


@contextlib.contextmanager
def watched(client, timeout: float = DEFAULT_TIMEOUT, scheduler: str = "the dask scheduler"):
    """Run the block with ``client``'s cluster watched (see :class:`_Watch`); a
    cluster fault that ends it (one the watch found, or a dask exception that
    :func:`fault` reads as one) is raised as a :class:`ClusterError`.
    ``scheduler`` names the scheduler in messages."""
    watch = _Watch(client, timeout, scheduler)
    watch.start()
    try:
        yield client
    except ClusterError:
        raise
    except Exception as e:
        if isinstance(e, TrecEvalError):  # the command's own error (a bad input line...)
            raise
        said = watch.fault or fault(e, client, scheduler)
        if said is None:
            raise
        raise ClusterError(f"--engine dask: {said}") from None
    finally:
        watch.stop()


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

    items = [located(item) for item in items]
    if isinstance(shared, tuple):
        shared = tuple(located(x) if isinstance(x, dict) else x for x in shared)
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
            if on_error is None or _lost_cluster(e, client):
                for other in futures:
                    other.cancel()
                raise
            said = fault(e, client)  # workers that died on this task: its own failure, said as such
            results[i] = on_error(i, e if said is None else ClusterError(said))
        fut.release()
        if progress is not None:
            progress(done, len(items), i)
    return results


def _lost_cluster(error: Exception, client) -> bool:
    """Whether a task's failure is the cluster's (every task would fail alike: the
    command ends) rather than its own (``on_error`` speaks for it). Workers
    dying on one task are that task's: a run too big for a worker's memory."""
    return type(error).__name__ != "KilledWorker" and fault(error, client) is not None


#: the evaluation options that name files a worker reads
PATH_OPTIONS = ("zscore_file", "valid_codes")


def located(value):
    """``value`` with the files it names made absolute, before it is sent to a
    cluster: a worker runs in a folder of its own (``--scheduler``: another
    machine's), where a relative path names another file or none. A
    :class:`~.submissions.Submission` (its ``path``; its ``name``, for messages,
    stays as given), a path that exists here, or a dict of evaluation options
    (:data:`PATH_OPTIONS`); anything else as it is."""
    from .submissions import Submission

    if isinstance(value, Submission):
        if value.path in ("-", "") or os.path.isabs(value.path) and (not value.beneath
                                                                       or os.path.isabs(value.beneath[0])):
            return value
        from ..._record import replace

        # a file found in a folder is opened from that folder, one name at a time: the folder too
        beneath = (os.path.abspath(value.beneath[0]), *value.beneath[1:]) if value.beneath else ()
        return replace(value, path=os.path.abspath(value.path), beneath=beneath)
    if isinstance(value, (str, os.PathLike)):
        text = os.fspath(value)
        return os.path.abspath(text) if text not in ("-", "") and os.path.exists(text) else value
    if isinstance(value, dict):
        out = dict(value)
        for key in PATH_OPTIONS:
            v = out.get(key)
            if isinstance(v, (list, tuple)):
                out[key] = type(v)(located(x) for x in v)
            elif v is not None:
                out[key] = located(v)
        return out
    return value
