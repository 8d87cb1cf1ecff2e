"""Setting a class up in its state folder, and running the server.

The first start takes the judgments, the roster and the split and keeps them in
the state folder (``qrels``, ``roster.csv``, the public topics and the measures
in its settings); a later start with the same folder must be given the same
judgments (a changed qrels file would change every grade: it is refused), and
takes new students from the roster. The split, the measures and the finals'
number are the first start's: changing them midway would change what the
class was told.
"""
from __future__ import annotations

import hashlib
import os
import sys

from ..errors import UsageError
from .grading import Grading, class_of, split_topics, topic_ids
from .store import Store, write_private


def open_class(qrels: str, roster: str | None, state: str, *, public_topics: str | None = None,
               public_share: float = 0.5, seed: int = 0, measures=None, tell=None) -> tuple[Store, Grading]:
    """The class of the state folder ``state``, set up on its first start (see the module)."""
    from ..engine.parse.source import read_source

    tell = tell or (lambda text: print(text, file=sys.stderr))
    data = read_source(qrels)
    store = Store(state)
    kept = os.path.join(store.root, "qrels")
    sha = hashlib.sha256(data).hexdigest()
    first = store.setting("qrels_sha256") is None
    if first:
        if roster is None:
            raise UsageError("--roster is needed on the class's first start")
        # the split and the measures are checked before anything is kept
        public = split_topics(topic_ids(qrels), public_topics, public_share, seed)
        Grading(qrels, public, measures)
        if os.path.lexists(kept):
            os.unlink(kept)  # a copy left by a first start that did not finish
        write_private(kept, data)
        grading = Grading(kept, public, measures)
        store.set_setting("public_topics", public)
        store.set_setting("measures", grading.specs)
        store.set_setting("columns", grading.columns)
        store.set_setting("sort_by", grading.sort_by)
        store.set_setting("qrels_sha256", sha)
    else:
        if store.setting("qrels_sha256") != sha:
            raise UsageError(f"{qrels} is not the qrels this class was started with ({kept}): "
                             "grades would change; start a new --state folder for new judgments")
        if public_topics is not None or measures:
            tell("the public topics and the measures are those of the class's first start")
        grading = Grading(kept, store.setting("public_topics"), store.setting("measures"))
    if roster is not None:
        students, _ = class_of(roster)
        roster_copy = os.path.join(store.root, "roster.csv")
        if os.path.lexists(roster_copy):
            os.unlink(roster_copy)  # ours: the newest roster given
        write_private(roster_copy, read_source(roster))
        new = store.add_students(students)
        if new:
            tell(f"{new} new student{'s' * (new != 1)} from {roster}")
    elif not store.students():
        raise UsageError("--roster is needed on the class's first start")
    return store, grading


def write_links(store: Store, base_url: str, path: str) -> int:
    """New sign-in links for every student into ``path`` (a new file, 0600); how many."""
    from .app import links_csv

    if os.path.lexists(path):
        raise UsageError(f"{path} exists: sign-in links are written to a new file only")
    text = links_csv(store, base_url)
    write_private(path, text.encode("utf-8"))
    return text.count("\n") - 1


def serve(store: Store, grading: Grading, settings, *, host: str, port: int, workers: int, limits,
          max_memory: int, tell=None) -> None:
    """Run the server until it is stopped (Ctrl-C, SIGTERM): the pool grades what is pending first."""
    import uvicorn

    from .app import create_app
    from .worker import GradingPool

    tell = tell or (lambda text: print(text, file=sys.stderr))
    lock = _only_server(store)
    pool = GradingPool(store, grading, workers=workers, limits=limits, max_memory=max_memory)
    pending = len(store.pending())
    pool.start()
    if pending:
        tell(f"grading {pending} submission{'s' * (pending != 1)} left pending")
        pool.wake()
    app = create_app(store, grading, settings, pool)
    tell(f"serving {settings.course!r} on http://{host}:{port} (base URL {settings.base_url})")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", proxy_headers=True,
                    forwarded_allow_ips="127.0.0.1", timeout_graceful_shutdown=5)
    finally:
        pool.stop()
        os.close(lock)


def _only_server(store: Store) -> int:
    """Hold ``STATE/server.lock`` while serving (an open file, locked: the lock goes with the
    process, however it ends). A second server on one state folder would grade every upload
    twice and answer with other settings: it is refused."""
    import fcntl

    fd = os.open(os.path.join(store.root, "server.lock"),
                 os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise UsageError(f"another server is serving {store.root}: stop it first") from None
    return fd
