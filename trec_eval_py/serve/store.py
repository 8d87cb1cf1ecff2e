"""The state folder: what a class's server keeps, and the only code that writes it.

``STATE/state.sqlite3`` is SQLite in WAL mode with ``synchronous=FULL`` (a
committed transaction survives a crash or a power cut); its schema carries a
version (table ``schema_version``) and is brought up to date by
:data:`MIGRATIONS` when the server starts. ``STATE/runs/`` holds every uploaded
run by the SHA-256 of its bytes; ``STATE/qrels`` and ``STATE/roster.csv`` are
the teacher's copies, never served; ``STATE/teacher-token`` (mode 0600) the
teacher's credential.

An upload is stored before it is evaluated: its bytes are written to a
temporary file, flushed to disk (``fsync``), renamed to their hash and the
folder flushed; then one transaction adds its row (``pending``); only then is
it acknowledged. A crash before the commit leaves at most a file that no row
names (never served, never graded); after it, the row and its file are both
there, and the next start grades every pending row. A grade is written in one
transaction too: a row is pending or graded, never half of either.

Secrets (sign-in links, sessions, API tokens, the teacher's token) are random
(``secrets.token_urlsafe``, 256 bits) and kept as their SHA-256 only: the state
folder (or a backup of it) does not hold a credential.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time

from ..errors import InputError, UsageError

#: the schema, one step a version: a state folder of version n runs steps n+1... on start
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE students (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
    CREATE TABLE signin_links (hash TEXT PRIMARY KEY, student_id INTEGER NOT NULL REFERENCES students(id),
                               created REAL NOT NULL, expires REAL NOT NULL, used REAL);
    CREATE TABLE sessions (hash TEXT PRIMARY KEY, student_id INTEGER REFERENCES students(id),
                           teacher INTEGER NOT NULL DEFAULT 0, csrf TEXT NOT NULL,
                           created REAL NOT NULL, expires REAL NOT NULL);
    CREATE TABLE api_tokens (hash TEXT PRIMARY KEY, student_id INTEGER NOT NULL REFERENCES students(id),
                             created REAL NOT NULL);
    CREATE TABLE submissions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        student_id INTEGER NOT NULL REFERENCES students(id),
        filename TEXT NOT NULL, sha256 TEXT NOT NULL, size INTEGER NOT NULL,
        received REAL NOT NULL, day TEXT NOT NULL, late INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'graded', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT, findings TEXT, runid TEXT, public TEXT, private TEXT, graded REAL,
        final INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX submissions_by_student ON submissions (student_id, day);
    CREATE INDEX submissions_pending ON submissions (status) WHERE status = 'pending';
    """,
    # 2: how many public topics a graded run answers (the feedback's "Topics answered")
    """
    ALTER TABLE submissions ADD COLUMN answered INTEGER;
    """,
    # 3: a graded run's values on each public topic (the feedback's weakest topics)
    """
    ALTER TABLE submissions ADD COLUMN per_topic TEXT;
    """,
)

#: how long a sign-in link, a session, may be used (seconds)
LINK_SECONDS = 14 * 86400
SESSION_SECONDS = 30 * 86400


def digest(secret: str) -> str:
    """What is kept of a secret: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def _fsync_folder(path: str) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_private(path: str, data: bytes) -> None:
    """Write ``data`` to a new file only its owner reads (0600), durably; never through a link."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    _fsync_folder(os.path.dirname(os.path.abspath(path)))


class LimitReached(Exception):
    """The student's daily limit is used up (the upload is not stored)."""


class Store:
    """The state folder ``root`` (made if missing): one SQLite connection a thread."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        if os.path.islink(self.root):
            raise UsageError(f"--state {root}: a symbolic link; give the folder itself")
        os.makedirs(os.path.join(self.root, "runs"), mode=0o700, exist_ok=True)
        os.chmod(self.root, 0o700)
        self.path = os.path.join(self.root, "state.sqlite3")
        self._local = threading.local()
        self.migrate()

    # ---- the database ----

    def db(self) -> sqlite3.Connection:
        c = getattr(self._local, "db", None)
        if c is None:
            c = sqlite3.connect(self.path, timeout=60, isolation_level=None, check_same_thread=True)
            c.row_factory = sqlite3.Row
            c.execute("PRAGMA journal_mode=WAL")
            c.execute("PRAGMA synchronous=FULL")
            c.execute("PRAGMA foreign_keys=ON")
            c.execute("PRAGMA busy_timeout=60000")
            self._local.db = c
        return c

    def transaction(self):
        """``with store.transaction() as db:`` one write transaction, taken at once
        (BEGIN IMMEDIATE: two writers never both read, then both write)."""
        return _Transaction(self.db())

    def migrate(self) -> int:
        """Bring the schema to the newest version; the version it is at."""
        with self.transaction() as db:
            db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM schema_version").fetchone()
            version = row[0] if row else 0
            if version > len(MIGRATIONS):
                raise UsageError(f"--state {self.root}: written by a newer trec_eval_py (schema {version})")
            for step in MIGRATIONS[version:]:
                for statement in step.split(";"):
                    if statement.strip():
                        db.execute(statement)
            if row is None:
                db.execute("INSERT INTO schema_version VALUES (?)", (len(MIGRATIONS),))
            else:
                db.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS),))
        return len(MIGRATIONS)

    def setting(self, key: str, default=None):
        row = self.db().execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, key: str, value) -> None:
        with self.transaction() as db:
            db.execute("INSERT INTO settings VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       (key, json.dumps(value)))

    # ---- the class ----

    def add_students(self, students: list[tuple[str, str]]) -> int:
        """Add the roster's (key, name) students not yet known (a name is updated); how many are new."""
        with self.transaction() as db:
            (before,) = db.execute("SELECT count(*) FROM students").fetchone()
            db.executemany("INSERT INTO students (key, name) VALUES (?, ?) ON CONFLICT(key) DO UPDATE "
                           "SET name = excluded.name", students)
            (after,) = db.execute("SELECT count(*) FROM students").fetchone()
        return after - before

    def students(self) -> list[sqlite3.Row]:
        return self.db().execute("SELECT * FROM students ORDER BY id").fetchall()

    def student(self, student_id: int) -> sqlite3.Row | None:
        return self.db().execute("SELECT * FROM students WHERE id = ?", (student_id,)).fetchone()

    def teacher_token(self) -> str | None:
        """A new teacher's token when there is none yet (written to ``teacher-token``, 0600), else None."""
        if self.setting("teacher_hash") is not None:
            return None
        token = new_secret()
        path = os.path.join(self.root, "teacher-token")
        if os.path.lexists(path):
            os.unlink(path)  # ours: written by an earlier start that did not get to record its hash
        write_private(path, (token + "\n").encode())
        self.set_setting("teacher_hash", digest(token))
        return token

    def is_teacher_token(self, token: str) -> bool:
        want = self.setting("teacher_hash")
        return want is not None and secrets.compare_digest(want, digest(token))

    # ---- sign-in links, sessions, tokens ----

    def new_links(self, student_ids: list[int] | None = None, seconds: float = LINK_SECONDS) -> list[tuple]:
        """A new one-time sign-in token for each student (all by default): (student row, token).
        Earlier unused links of theirs stop working."""
        now = time.time()
        out = []
        with self.transaction() as db:
            rows = db.execute("SELECT * FROM students ORDER BY id").fetchall()
            for s in rows:
                if student_ids is not None and s["id"] not in student_ids:
                    continue
                db.execute("UPDATE signin_links SET expires = ? WHERE student_id = ? AND used IS NULL",
                           (now, s["id"]))
                token = new_secret()
                db.execute("INSERT INTO signin_links VALUES (?, ?, ?, ?, NULL)",
                           (digest(token), s["id"], now, now + seconds))
                out.append((s, token))
        return out

    def use_link(self, token: str) -> int | None:
        """The student a sign-in token names, once: None if unknown, used or expired."""
        now = time.time()
        with self.transaction() as db:
            row = db.execute("UPDATE signin_links SET used = ? WHERE hash = ? AND used IS NULL AND expires > ? "
                             "RETURNING student_id", (now, digest(token), now)).fetchone()
        return None if row is None else row[0]

    def new_session(self, student_id: int | None, teacher: bool = False) -> tuple[str, str]:
        """A new session: (its cookie's secret, its CSRF token)."""
        token, csrf, now = new_secret(), new_secret(), time.time()
        with self.transaction() as db:
            db.execute("DELETE FROM sessions WHERE expires < ?", (now,))
            db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?)",
                       (digest(token), student_id, int(teacher), csrf, now, now + SESSION_SECONDS))
        return token, csrf

    def session(self, token: str) -> sqlite3.Row | None:
        return self.db().execute("SELECT * FROM sessions WHERE hash = ? AND expires > ?",
                                 (digest(token), time.time())).fetchone()

    def end_session(self, token: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM sessions WHERE hash = ?", (digest(token),))

    def new_api_token(self, student_id: int) -> str:
        """A student's API token (for ``curl``); the earlier one stops working."""
        token = new_secret()
        with self.transaction() as db:
            db.execute("DELETE FROM api_tokens WHERE student_id = ?", (student_id,))
            db.execute("INSERT INTO api_tokens VALUES (?, ?, ?)", (digest(token), student_id, time.time()))
        return token

    def api_student(self, token: str) -> int | None:
        row = self.db().execute("SELECT student_id FROM api_tokens WHERE hash = ?", (digest(token),)).fetchone()
        return None if row is None else row[0]

    # ---- submissions ----

    def run_path(self, sha: str) -> str:
        return os.path.join(self.root, "runs", sha[:2], sha)

    def keep_bytes(self, data: bytes) -> str:
        """Store ``data`` durably under its SHA-256 (once: the same bytes twice are one file); the hash."""
        sha = hashlib.sha256(data).hexdigest()
        final = self.run_path(sha)
        folder = os.path.dirname(final)
        if os.path.exists(final) and os.path.getsize(final) == len(data):
            return sha
        os.makedirs(folder, mode=0o700, exist_ok=True)
        tmp = os.path.join(folder, f".{sha}.{secrets.token_hex(8)}.part")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, final)
        except BaseException:
            if os.path.lexists(tmp):
                os.unlink(tmp)
            raise
        _fsync_folder(folder)
        return sha

    def add_submission(self, student_id: int, filename: str, data: bytes, *, daily_limit: int,
                       deadline: float | None, now: float | None = None) -> int:
        """Store an upload, then record it as pending: its id. Raises :class:`LimitReached`
        (nothing recorded) when the student already has ``daily_limit`` uploads this UTC
        day (0: no limit); the count and the new row are one transaction, so concurrent
        uploads cannot pass the limit together."""
        now = time.time() if now is None else now
        day = dt.datetime.fromtimestamp(now, dt.UTC).strftime("%Y-%m-%d")
        if daily_limit and self.count_today(student_id, day) >= daily_limit:
            raise LimitReached()  # before writing: a refused upload costs no disk
        sha = self.keep_bytes(data)
        late = int(deadline is not None and now > deadline)
        with self.transaction() as db:
            if daily_limit:
                (n,) = db.execute("SELECT count(*) FROM submissions WHERE student_id = ? AND day = ?",
                                  (student_id, day)).fetchone()
                if n >= daily_limit:
                    raise LimitReached()
            (sid,) = db.execute("INSERT INTO submissions (student_id, filename, sha256, size, received, day, late) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                                (student_id, filename, sha, len(data), now, day, late)).fetchone()
        return sid

    def count_today(self, student_id: int, day: str) -> int:
        return self.db().execute("SELECT count(*) FROM submissions WHERE student_id = ? AND day = ?",
                                 (student_id, day)).fetchone()[0]

    def submission(self, sid: int) -> sqlite3.Row | None:
        return self.db().execute("SELECT * FROM submissions WHERE id = ?", (sid,)).fetchone()

    def submissions(self, student_id: int | None = None) -> list[sqlite3.Row]:
        if student_id is None:
            return self.db().execute("SELECT * FROM submissions ORDER BY id").fetchall()
        return self.db().execute("SELECT * FROM submissions WHERE student_id = ? ORDER BY id",
                                 (student_id,)).fetchall()

    def pending(self, limit: int = 1000) -> list[sqlite3.Row]:
        return self.db().execute("SELECT * FROM submissions WHERE status = 'pending' ORDER BY id LIMIT ?",
                                 (limit,)).fetchall()

    def record_grade(self, sid: int, result: dict) -> None:
        """Write a grade (one transaction): graded, or failed with the reason."""
        status = "graded" if result.get("error") is None else "failed"
        with self.transaction() as db:
            db.execute("UPDATE submissions SET status = ?, error = ?, findings = ?, runid = ?, public = ?, "
                       "private = ?, answered = ?, per_topic = ?, graded = ? WHERE id = ? AND status = 'pending'",
                       (status, result.get("error"), json.dumps(result.get("findings") or []),
                        result.get("runid") or "", _json(result.get("public")), _json(result.get("private")),
                        result.get("answered"), _json(result.get("per_topic")), time.time(), sid))

    def add_attempt(self, sid: int) -> int:
        """Count one more attempt at grading ``sid`` (a worker died under it); the attempts."""
        with self.transaction() as db:
            (n,) = db.execute("UPDATE submissions SET attempts = attempts + 1 WHERE id = ? RETURNING attempts",
                              (sid,)).fetchone()
        return n

    def set_finals(self, student_id: int, ids: list[int], most: int) -> None:
        """Mark ``ids`` (the student's own graded, on-time submissions) as their finals, the others not."""
        if len(ids) > most:
            raise UsageError(f"at most {most} final submissions")
        with self.transaction() as db:
            ok = {r[0] for r in db.execute("SELECT id FROM submissions WHERE student_id = ? AND status = 'graded' "
                                           "AND late = 0", (student_id,))}
            if not set(ids) <= ok:
                raise InputError("finals", "only your own graded submissions made before the deadline can be finals")
            db.execute("UPDATE submissions SET final = 0 WHERE student_id = ?", (student_id,))
            db.executemany("UPDATE submissions SET final = 1 WHERE id = ?", [(i,) for i in ids])


def _json(v) -> str | None:
    return None if v is None else json.dumps(v)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, value, tb) -> None:
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
