"""Grading stored runs in a bounded pool of worker processes.

``workers`` processes grade (each got the :class:`~.grading.Grading` once, the
read limits and a bound on its memory); a thread of the server hands them the
pending rows of the store, at most two a worker at a time, oldest first, and
writes each grade back in one transaction. On start it finds every row left
pending (by a crash, a ``kill -9``, a restart) and grades it: nothing
acknowledged waits for a person to notice.

A run that kills its worker (past the memory bound, a crash of the process)
breaks the pool: a new one is made, and the runs the broken pool had are
graded again one at a time (which one broke it is not known otherwise); a run
that breaks a pool while alone in it is tried up to :data:`ATTEMPTS` times,
then recorded as failed with the reason. The others are graded as usual. A run that takes longer than the read
limits' ``max_seconds`` is an error row, as in ``batch``.
"""
from __future__ import annotations

import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

#: tries at grading a run whose worker died under it
ATTEMPTS = 3


class GradingPool:
    """The pool, and the thread that feeds it from ``store``."""

    def __init__(self, store, grading, *, workers: int = 2, limits=None, max_memory: int = 0,
                 task=None) -> None:
        from ..engine.parse.source import read_limits
        from .grading import grade_stored

        self.store = store
        self.grading = grading
        self.workers = max(1, workers)
        self.limits = limits if limits is not None else read_limits()
        self.max_memory = max_memory
        #: what a worker runs on (stored path, name): a module-level function (it is sent by name)
        self.task = task or grade_stored
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.RLock()  # a done callback may run inside _feed (a future already done)
        self._inflight: dict[int, tuple[Future, int]] = {}  # submission -> (its future, its pool's number)
        self._generation = 0  # the number of the pool in use (one more each new pool)
        self._lost: dict[int, frozenset] = {}  # a pool that broke -> the runs it had then
        self._suspects: set[int] = set()  # runs in a pool that broke with others: graded alone next
        self._pool: ProcessPoolExecutor | None = None
        self._thread: threading.Thread | None = None
        #: called with a submission's id once its grade is written (from the pool's thread)
        self.listeners: list = []

    def _new_pool(self) -> ProcessPoolExecutor:
        import multiprocessing

        from .grading import init_worker

        # forkserver: a worker never inherits the server's threads, sockets or database connections
        ctx = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=init_worker,
                                   initargs=(self.grading, self.limits, self.max_memory))

    def start(self) -> None:
        self._pool = self._new_pool()
        self._generation += 1
        # the executor starts a process per task it is given until it has them all: started now,
        # the first uploads do not wait for the workers' start-up (imports, the judgments)
        for _ in range(self.workers):
            self._pool.submit(int)
        self._thread = threading.Thread(target=self._feed, name="grading", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """A new pending row: look now."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)
        if self._pool is not None:
            # the executor keeps its processes privately; a grading in progress is not waited for
            procs = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                p.terminate()

    def _feed(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(1.0)
            self._wake.clear()
            with self._lock:
                if self._pool is None:
                    self._pool = self._new_pool()
                    self._generation += 1
                self._submit_pending()

    def _submit_pending(self) -> None:
        room = 2 * self.workers - len(self._inflight)
        rows = [r for r in self.store.pending(room + len(self._inflight)) if r["id"] not in self._inflight]
        suspects = [r for r in rows if r["id"] in self._suspects]
        if suspects:
            # which of a broken pool's runs broke it is learnt by grading each alone
            rows = suspects[:1] if not self._inflight else []
        for r in rows[:max(0, room)]:
            try:
                fut = self._pool.submit(self.task, self.store.run_path(r["sha256"]), r["filename"])  # type: ignore[union-attr]
            except (BrokenProcessPool, RuntimeError):
                self._renew()
                return
            self._inflight[r["id"]] = (fut, self._generation)
            fut.add_done_callback(self._callback(r["id"], self._generation))

    def _callback(self, sid: int, generation: int):
        return lambda fut: self._done(sid, generation, fut)

    def _renew(self) -> None:
        old, self._pool = self._pool, None
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)
        self._wake.set()

    def _done(self, sid: int, generation: int, fut: Future) -> None:
        try:
            result = fut.result()
        except BrokenProcessPool:
            # a worker died: this run, or another the pool had, killed it. Counted before a new
            # pool is made, so that a run failed for good is not handed to it again
            with self._lock:
                group = self._lost.setdefault(generation, frozenset(
                    s for s, (_, g) in self._inflight.items() if g == generation))
                self._inflight.pop(sid, None)
                if len(group) > 1:
                    self._suspects.add(sid)  # not counted against it: it is tried again alone
                elif self.store.add_attempt(sid) >= ATTEMPTS:
                    self.store.record_grade(sid, {"error": "grading it stopped its worker process (past the "
                                                           "memory bound, or a crash) every time it was tried",
                                                  "findings": []})
                    self._suspects.discard(sid)
                    self._tell(sid)
                if self._pool is not None and self._generation == generation:
                    self._renew()
            self._wake.set()
            return
        except Exception as e:  # cancelled on stop, or a bug: the row stays pending for the next start
            if self._stop.is_set():
                return
            result = {"error": f"internal error ({type(e).__name__}: {e})", "findings": []}
        self.store.record_grade(sid, result)
        with self._lock:
            self._inflight.pop(sid, None)
            self._suspects.discard(sid)
        self._wake.set()
        self._tell(sid)

    def _tell(self, sid: int) -> None:
        for listen in list(self.listeners):
            listen(sid)
