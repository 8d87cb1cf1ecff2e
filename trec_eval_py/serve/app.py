"""The ASGI application: pages, the upload API, the teacher's pages.

Who is who:

* a **student** signs in with a one-time link (``/signin/TOKEN`` shows a button;
  pressing it spends the link, so a mail scanner that fetches the link spends
  nothing) and gets a session cookie (HttpOnly, SameSite=Lax, Secure when the
  base URL is https; the session's secret is kept hashed); ``curl`` uses an API
  token the student makes on their page (``Authorization: Bearer TOKEN``);
* the **teacher** signs in with the token of ``STATE/teacher-token`` (or sends
  it as a bearer token).

What each sees: a student, their own submissions (any other id is "not found",
the same answer as an id that does not exist) and the public board; the
private scores only once revealed (in every page, the JSON API and the CSV);
the teacher, everything but the judgments, which no route serves. Every form
carries the session's CSRF token and a POST without it is refused (a bearer
request carries no cookie, so it needs none); a POST whose ``Origin`` is not
the server's is refused too.

An upload is bounded (``max_upload`` bytes; a body without a length is
refused before it is read), counted against the student's daily limit in the
same transaction that records it, stored durably, and only then acknowledged
(see :mod:`.store`); the grading pool (:mod:`.worker`) grades it.
"""
from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import os
import re
import secrets
import time
from typing import Any

from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..engine.parse.source import show_size
from .export import board, board_csv, finals_of, grades, show, write_submissions_zip
from .pages import environment
from .store import LimitReached, Store

#: the longest file name kept of an upload
NAME_MAX = 100


class Settings:
    """What the app is told at start: the class's rules."""

    def __init__(self, *, course: str = "Leaderboard", base_url: str = "http://127.0.0.1:8000",
                 daily_limit: int = 5, finals: int = 2, deadline: float | None = None,
                 max_upload: int = 64 << 20, wait_seconds: float = 10.0) -> None:
        self.course = course
        self.base_url = base_url.rstrip("/")
        self.secure = self.base_url.startswith("https://")
        self.daily_limit = daily_limit
        self.finals = finals
        self.deadline = deadline
        self.max_upload = max_upload
        self.wait_seconds = wait_seconds

    @property
    def origin(self) -> str:
        m = re.match(r"^(https?://[^/]+)", self.base_url)
        return m.group(1) if m else self.base_url

    @property
    def cookie(self) -> str:
        # __Host-: only ever set by this host, over https, for every path
        return "__Host-session" if self.secure else "session"


class Who:
    """The one asking: a student, the teacher, or nobody; how (``session`` or ``bearer``)."""

    def __init__(self, student: Any = None, teacher: bool = False, csrf: str | None = None, via: str | None = None):
        self.student = student
        self.teacher = teacher
        self.csrf = csrf
        self.via = via

    @property
    def name(self) -> str:
        return self.student["name"] if self.student is not None else ("Teacher" if self.teacher else "")

    def __bool__(self) -> bool:
        return self.student is not None or self.teacher


def _utc(t: float) -> str:
    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


def _filename(name: str | None) -> str:
    """An upload's name as kept: its last part, printable, at most :data:`NAME_MAX` characters."""
    base = re.split(r"[/\\]", name or "")[-1]
    base = "".join(ch for ch in base if ch.isprintable()).strip()
    return base[-NAME_MAX:] or "run.txt"


def create_app(store: Store, grading, settings: Settings, pool=None) -> Starlette:
    """The application over ``store``; ``pool`` (a :class:`~.worker.GradingPool`) is woken
    by each upload (None: no grading here, as in tests of the pages alone)."""
    env = environment()
    env.globals["show"] = show  # the macros' too (they are imported without the page's values)
    columns: list[str] = store.setting("columns")
    sort_by: str = store.setting("sort_by")
    n_topics = len(grading.topics)
    n_public = len(grading.public)

    # ---- who is asking ----

    def who(request: Request) -> Who:
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            token = auth[7:].strip()
            sid = store.api_student(token)
            if sid is not None:
                return Who(store.student(sid), via="bearer")
            if store.is_teacher_token(token):
                return Who(teacher=True, via="bearer")
            return Who()
        cookie = request.cookies.get(settings.cookie)
        if cookie:
            row = store.session(cookie)
            if row is not None:
                student = store.student(row["student_id"]) if row["student_id"] is not None else None
                return Who(student, bool(row["teacher"]), row["csrf"], "session")
        return Who()

    def revealed() -> bool:
        return bool(store.setting("revealed", False))

    def page(name: str, me: Who, status: int = 200, **values) -> HTMLResponse:
        values.setdefault("flash", None)
        values.setdefault("title", "")
        html = env.get_template(name).render(course=settings.course, me=me if me else None, show=show, **values)
        return HTMLResponse(html, status_code=status, headers=_headers())

    def message(me: Who, title: str, text: str, status: int) -> HTMLResponse:
        return page("message.html", me, status, title=title, message=text)

    def not_found(request: Request, me: Who) -> Response:
        if _wants_json(request):
            return JSONResponse({"error": "not found"}, 404, headers=_headers())
        return message(me, "Not found", "There is nothing of yours here.", 404)

    def denied(request: Request, me: Who) -> Response:
        if _wants_json(request) or me.via == "bearer" or request.headers.get("authorization"):
            return JSONResponse({"error": "sign in first (a session, or Authorization: Bearer TOKEN)"}, 401,
                                headers=_headers())
        return RedirectResponse("/signin", 303)

    async def checked_form(request: Request, me: Who):
        """The form of a POST made with ``me``'s session: None if its CSRF token or origin is wrong."""
        origin = request.headers.get("origin")
        if origin is not None and origin != settings.origin:
            return None
        form = await request.form(max_files=0, max_fields=50, max_part_size=64 << 10)
        sent = form.get("csrf")
        if me.csrf is None or not isinstance(sent, str) or not secrets.compare_digest(sent, me.csrf):
            return None
        return form

    def forbidden(me: Who) -> Response:
        return message(me, "Refused", "This form is out of date or was not sent from this site: reload the page "
                                      "and try again.", 403)

    def set_session(response: Response, token: str) -> None:
        response.set_cookie(settings.cookie, token, max_age=30 * 86400, path="/", secure=settings.secure,
                            httponly=True, samesite="lax")

    # ---- submissions as shown ----

    def shown(row, student_finals: set | None = None) -> dict:
        findings = json.loads(row["findings"]) if row["findings"] else []
        first = findings[0] if findings else None
        more = len(findings) - 1
        headline = "-" if first is None else first["code"] + (f" +{more}" if more > 0 else "")
        return {"id": row["id"], "filename": row["filename"], "when": _utc(row["received"]),
                "status": row["status"], "late": bool(row["late"]), "error": row["error"], "findings": findings,
                "public": json.loads(row["public"]) if row["public"] else None,
                "private": json.loads(row["private"]) if row["private"] else None,
                "runid": row["runid"], "sha256": row["sha256"], "final": bool(row["final"]),
                "is_final": student_finals is not None and row["id"] in student_finals,
                "can_be_final": row["status"] == "graded" and not row["late"], "headline": headline}

    def api_shown(row, private: bool) -> dict:
        s = shown(row)
        out = {k: s[k] for k in ("id", "filename", "status", "late", "error", "findings", "public", "runid",
                                 "sha256")}
        out["received"] = s["when"]
        if private:
            out["private"] = s["private"]
        return out

    def finals_ids(student_id: int) -> set:
        return {r["id"] for r in finals_of(store, student_id, settings.finals)}

    # ---- pages anyone reaches ----

    async def home(request: Request) -> Response:
        me = who(request)
        if not me:
            return RedirectResponse("/signin", 303)
        show_private = revealed()
        return page("board.html", me, title="Leaderboard", public=board(store, "public", settings.finals),
                    private=board(store, "private", settings.finals) if show_private else [],
                    revealed=show_private, columns=columns, sort_by=sort_by, n_public=n_public, n_topics=n_topics,
                    me_id=me.student["id"] if me.student is not None else None)

    async def signin_page(request: Request) -> Response:
        token = request.path_params.get("token")
        csrf = request.cookies.get("signin_csrf") or secrets.token_urlsafe(16)
        r = page("signin.html", Who(), title="Sign in", token=token, csrf=csrf)
        r.set_cookie("signin_csrf", csrf, path="/", secure=settings.secure, httponly=True, samesite="strict")
        return r

    async def signin(request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=10, max_part_size=4096)
        token, csrf = form.get("token"), form.get("csrf")
        cookie = request.cookies.get("signin_csrf")
        # login CSRF: the form's token must be the one this browser was given (double submit)
        if not (isinstance(csrf, str) and cookie and secrets.compare_digest(csrf, cookie)):
            return forbidden(Who())
        sid = store.use_link(token) if isinstance(token, str) else None
        if sid is None:
            return message(Who(), "Link not valid", "This sign-in link was used already, has expired or is not "
                                                    "one: ask your teacher for a new one.", 403)
        session, _ = store.new_session(sid)
        r = RedirectResponse("/me", 303)
        set_session(r, session)
        r.delete_cookie("signin_csrf", path="/")
        return r

    async def teacher_login_page(request: Request) -> Response:
        csrf = request.cookies.get("signin_csrf") or secrets.token_urlsafe(16)
        r = page("teacher_login.html", Who(), title="Teacher sign-in", csrf=csrf)
        r.set_cookie("signin_csrf", csrf, path="/", secure=settings.secure, httponly=True, samesite="strict")
        return r

    async def teacher_login(request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=10, max_part_size=4096)
        token, csrf = form.get("token"), form.get("csrf")
        cookie = request.cookies.get("signin_csrf")
        if not (isinstance(csrf, str) and cookie and secrets.compare_digest(csrf, cookie)):
            return forbidden(Who())
        if not (isinstance(token, str) and store.is_teacher_token(token.strip())):
            return message(Who(), "Not signed in", "That is not the teacher's token.", 403)
        session, _ = store.new_session(None, teacher=True)
        r = RedirectResponse("/teacher", 303)
        set_session(r, session)
        r.delete_cookie("signin_csrf", path="/")
        return r

    async def signout(request: Request) -> Response:
        me = who(request)
        if me.via != "session" or await checked_form(request, me) is None:
            return forbidden(me)
        store.end_session(request.cookies.get(settings.cookie, ""))
        r = RedirectResponse("/signin", 303)
        r.delete_cookie(settings.cookie, path="/")
        return r

    # ---- a student's pages ----

    async def me_page(request: Request, new_token: str | None = None, flash: str | None = None,
                      status: int = 200) -> Response:
        me = who(request)
        if me.student is None:
            return denied(request, me)
        sid = me.student["id"]
        finals = finals_ids(sid)
        subs = [shown(r, finals) for r in reversed(store.submissions(sid))]
        today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
        deadline = settings.deadline
        return page("me.html", me, status, title="My submissions", subs=subs, columns=columns,
                    used=store.count_today(sid, today), daily_limit=settings.daily_limit,
                    deadline=_utc(deadline) if deadline else None,
                    past_deadline=deadline is not None and time.time() > deadline,
                    max_upload=show_size(settings.max_upload), finals=settings.finals, new_token=new_token,
                    base_url=settings.base_url, flash=flash)

    async def read_upload(request: Request):
        """(file name, bytes) of the upload, or a response saying why not."""
        length = request.headers.get("content-length")
        if length is None or not length.isdigit():
            return JSONResponse({"error": "send the upload with a Content-Length"}, 411)
        if int(length) > settings.max_upload + (64 << 10):
            return JSONResponse({"error": f"the upload is larger than {show_size(settings.max_upload)}"}, 413)
        form = await request.form(max_files=1, max_fields=10, max_part_size=64 << 10)
        run = form.get("run")
        if run is None or isinstance(run, str):
            return form, JSONResponse({"error": "no run: send it as the form field 'run' (-F run=@run.txt)"}, 400)
        data = await run.read(settings.max_upload + 1)
        await run.close()
        if len(data) > settings.max_upload:
            return form, JSONResponse({"error": f"the upload is larger than {show_size(settings.max_upload)}"}, 413)
        if not data:
            return form, JSONResponse({"error": "the run is empty"}, 400)
        return form, (_filename(run.filename), data)

    async def store_upload(student_id: int, name: str, data: bytes):
        try:
            sid = await asyncio.to_thread(store.add_submission, student_id, name, data,
                                          daily_limit=settings.daily_limit, deadline=settings.deadline)
        except LimitReached:
            return None
        if pool is not None:
            pool.wake()
        return sid

    async def upload_form(request: Request) -> Response:
        me = who(request)
        if me.student is None or me.via != "session":
            return denied(request, me)
        origin = request.headers.get("origin")
        if origin is not None and origin != settings.origin:
            return forbidden(me)
        got = await read_upload(request)
        if isinstance(got, Response):
            return await me_page(request, flash=json.loads(bytes(got.body))["error"], status=got.status_code)
        form, what = got
        sent = form.get("csrf")
        if not isinstance(sent, str) or not secrets.compare_digest(sent, me.csrf or ""):
            return forbidden(me)
        if isinstance(what, Response):
            return await me_page(request, flash=json.loads(bytes(what.body))["error"], status=what.status_code)
        sid = await store_upload(me.student["id"], *what)
        if sid is None:
            return await me_page(request, flash=f"Daily limit reached ({settings.daily_limit} uploads a day, UTC): "
                                                "try again tomorrow.", status=429)
        return RedirectResponse(f"/submissions/{sid}", 303)

    async def submission_page(request: Request) -> Response:
        me = who(request)
        if not me:
            return denied(request, me)
        row = _own(request, me)
        if row is None:
            return not_found(request, me)
        show_private = me.teacher or revealed()
        subs = [r for r in store.submissions() if r["status"] == "graded" and not r["late"]]
        medians = {c: _median([json.loads(r["public"]).get(c) for r in subs]) for c in columns}
        student = store.student(row["student_id"])
        owner = student["name"] if me.teacher and student is not None else None
        text = None
        if row["status"] != "pending":
            text = await asyncio.to_thread(feedback, row)
        return page("submission.html", me, title=f"Submission {row['id']}",
                    s=shown(row, finals_ids(row["student_id"])), columns=columns, show_private=show_private,
                    medians=medians, n_public=n_public, owner=owner, feedback=text)

    def feedback(row) -> str:
        """The batch report's feedback of ``row`` among the class's on-time runs (public topics)."""
        students = {s["id"]: s for s in store.students()}
        runs = [r for r in store.submissions() if r["status"] != "pending" and (not r["late"] or r["id"] == row["id"])]
        return grading.feedback([{"id": r["id"], "name": r["filename"], "student": students[r["student_id"]]["name"],
                                  "key": students[r["student_id"]]["key"], "runid": r["runid"], "error": r["error"],
                                  "public": json.loads(r["public"]) if r["public"] else None,
                                  "answered": r["answered"], "findings": json.loads(r["findings"] or "[]"),
                                  "per_topic": json.loads(r["per_topic"]) if r["per_topic"] else None}
                                 for r in runs], row["id"])

    def _own(request: Request, me: Who):
        """The submission of the path's id if ``me`` may see it (theirs, or the teacher), else None."""
        try:
            sid = int(request.path_params["sid"])
        except (KeyError, ValueError):
            return None
        row = store.submission(sid)
        if row is None:
            return None
        if me.teacher or (me.student is not None and row["student_id"] == me.student["id"]):
            return row
        return None

    async def submission_run(request: Request) -> Response:
        me = who(request)
        if not me:
            return denied(request, me)
        row = _own(request, me)
        if row is None:
            return not_found(request, me)
        return FileResponse(store.run_path(row["sha256"]), media_type="text/plain; charset=utf-8",
                            filename=f"{row['id']}-{row['filename']}", headers=_headers())

    async def set_finals(request: Request) -> Response:
        me = who(request)
        if me.student is None or me.via != "session":
            return denied(request, me)
        form = await checked_form(request, me)
        if form is None:
            return forbidden(me)
        try:
            ids = [int(x) for x in form.getlist("final") if isinstance(x, str)]
            store.set_finals(me.student["id"], sorted(set(ids)), settings.finals)
        except ValueError as e:
            return await me_page(request, flash=str(e), status=400)
        return await me_page(request, flash="Finals saved.")

    async def new_token(request: Request) -> Response:
        me = who(request)
        if me.student is None or me.via != "session":
            return denied(request, me)
        if await checked_form(request, me) is None:
            return forbidden(me)
        return await me_page(request, new_token=store.new_api_token(me.student["id"]))

    # ---- the API ----

    async def api_upload(request: Request) -> Response:
        me = who(request)
        if me.student is None or me.via != "bearer":
            # a cookie never uploads through the API: only a bearer token does (no CSRF there)
            return JSONResponse({"error": "send your API token: Authorization: Bearer TOKEN"}, 401)
        got = await read_upload(request)
        if isinstance(got, Response):
            return got
        _, what = got
        if isinstance(what, Response):
            return what
        sid = await store_upload(me.student["id"], *what)
        if sid is None:
            return JSONResponse({"error": f"daily limit reached ({settings.daily_limit} uploads a day, UTC)"}, 429)
        wait = _seconds(request.query_params.get("wait"), settings.wait_seconds)
        row = await _graded(sid, wait)
        return JSONResponse(api_shown(row, revealed()), 201,
                            headers={"Location": f"/api/submissions/{sid}", **_headers()})

    waiting: dict[int, list] = {}  # submission -> the events of the requests waiting for its grade

    def graded_now(sid: int) -> None:  # the pool's thread: wake the requests waiting for sid
        for loop, event in waiting.pop(sid, []):
            loop.call_soon_threadsafe(event.set)

    if pool is not None and hasattr(pool, "listeners"):
        pool.listeners.append(graded_now)

    async def _graded(sid: int, wait: float) -> Any:
        """The row of ``sid`` once graded, or as it is after ``wait`` seconds: woken by the
        pool when the grade is written (and looking again every half second all the same)."""
        end = time.monotonic() + wait
        row: Any = store.submission(sid)
        while row["status"] == "pending" and time.monotonic() < end:
            event = asyncio.Event()
            waiting.setdefault(sid, []).append((asyncio.get_running_loop(), event))
            row = store.submission(sid)  # graded between the first look and the registration?
            if row["status"] != "pending":
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(0.5, max(0.0, end - time.monotonic())))
            row = store.submission(sid)
        return row

    async def api_submission(request: Request) -> Response:
        me = who(request)
        if not me:
            return JSONResponse({"error": "sign in first"}, 401)
        row = _own(request, me)
        if row is None:
            return JSONResponse({"error": "not found"}, 404)
        wait = _seconds(request.query_params.get("wait"), 0)
        row = await _graded(row["id"], wait)
        return JSONResponse(api_shown(row, me.teacher or revealed()), headers=_headers())

    async def api_submissions(request: Request) -> Response:
        me = who(request)
        if me.student is None:
            return JSONResponse({"error": "sign in first"}, 401)
        return JSONResponse([api_shown(r, revealed()) for r in store.submissions(me.student["id"])],
                            headers=_headers())

    async def api_board(request: Request) -> Response:
        me = who(request)
        if not me:
            return JSONResponse({"error": "sign in first"}, 401)
        out: dict = {"columns": columns, "sort_by": sort_by, "revealed": revealed(),
                     "public": _api_rows(board(store, "public", settings.finals))}
        if me.teacher or revealed():
            out["private"] = _api_rows(board(store, "private", settings.finals))
        return JSONResponse(out, headers=_headers())

    async def board_csv_route(request: Request) -> Response:
        me = who(request)
        if not me:
            return denied(request, me)
        parts = ("public", "private") if me.teacher or revealed() else ("public",)
        return Response(board_csv(store, parts, settings.finals), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="board.csv"', **_headers()})

    # ---- the teacher ----

    def teacher(request: Request) -> Who | None:
        me = who(request)
        return me if me.teacher else None

    async def teacher_page(request: Request) -> Response:
        me = teacher(request)
        if me is None:
            return RedirectResponse("/teacher/login", 303)
        rows = store.submissions()
        per: dict[int, list] = {}
        for r in rows:
            per.setdefault(r["student_id"], []).append(r)
        students = []
        for s in store.students():
            mine = per.get(s["id"], [])
            last = shown(mine[-1])["headline"] if mine else ""
            students.append({"id": s["id"], "name": s["name"], "key": s["key"], "runs": len(mine),
                             "failed": sum(r["status"] == "failed" for r in mine), "last": last})
        return page("teacher.html", me, title="Teacher", public=board(store, "public", settings.finals),
                    private=board(store, "private", settings.finals), revealed=revealed(), columns=columns,
                    sort_by=sort_by, students=students, n_students=len(students), n_subs=len(rows),
                    n_pending=sum(r["status"] == "pending" for r in rows),
                    n_failed=sum(r["status"] == "failed" for r in rows), n_late=sum(r["late"] for r in rows),
                    n_public=n_public, n_topics=n_topics)

    async def teacher_student(request: Request) -> Response:
        me = teacher(request)
        if me is None:
            return RedirectResponse("/teacher/login", 303)
        try:
            student = store.student(int(request.path_params["stid"]))
        except ValueError:
            student = None
        if student is None:
            return not_found(request, me)
        finals = finals_ids(student["id"])
        subs = [shown(r, finals) for r in reversed(store.submissions(student["id"]))]
        return page("student_history.html", me, title=student["name"], student=student, subs=subs,
                    columns=columns)

    async def reveal(request: Request) -> Response:
        me = teacher(request)
        if me is None:
            return denied(request, who(request))
        if me.via == "session" and await checked_form(request, me) is None:
            return forbidden(me)
        store.set_setting("revealed", True)
        store.set_setting("revealed_at", time.time())
        return RedirectResponse("/teacher", 303)

    async def links(request: Request) -> Response:
        me = teacher(request)
        if me is None:
            return denied(request, who(request))
        form = await checked_form(request, me) if me.via == "session" else await request.form(max_files=0)
        if form is None:
            return forbidden(me)
        only = form.get("student")
        ids = [int(only)] if isinstance(only, str) and only.isdigit() else None
        return Response(links_csv(store, settings.base_url, ids), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="signin-links.csv"', **_headers()})

    async def grades_route(request: Request) -> Response:
        me = teacher(request)
        if me is None:
            return denied(request, who(request))
        text = await asyncio.to_thread(grades, store, grading, settings.finals)
        return Response(text, media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="grades.csv"', **_headers()})

    async def zip_route(request: Request) -> Response:
        me = teacher(request)
        if me is None:
            return denied(request, who(request))
        folder = os.path.join(store.root, "tmp")
        os.makedirs(folder, mode=0o700, exist_ok=True)
        path = os.path.join(folder, f"submissions-{secrets.token_hex(8)}.zip")

        def write() -> None:
            with open(path, "wb") as f:
                write_submissions_zip(store, f)

        await asyncio.to_thread(write)
        return FileResponse(path, media_type="application/zip", filename="submissions.zip",
                            background=BackgroundTask(os.unlink, path), headers=_headers())

    routes = [
        Route("/", home), Route("/signin", signin_page), Route("/signin/{token}", signin_page),
        Route("/signin", signin, methods=["POST"]), Route("/signout", signout, methods=["POST"]),
        Route("/teacher/login", teacher_login_page), Route("/teacher/login", teacher_login, methods=["POST"]),
        Route("/me", me_page), Route("/submissions", upload_form, methods=["POST"]),
        Route("/submissions/{sid}", submission_page), Route("/submissions/{sid}/run", submission_run),
        Route("/finals", set_finals, methods=["POST"]), Route("/token", new_token, methods=["POST"]),
        Route("/api/submissions", api_upload, methods=["POST"]), Route("/api/submissions", api_submissions),
        Route("/api/submissions/{sid}", api_submission), Route("/api/board", api_board),
        Route("/board.csv", board_csv_route),
        Route("/teacher", teacher_page), Route("/teacher/students/{stid}", teacher_student),
        Route("/teacher/reveal", reveal, methods=["POST"]), Route("/teacher/links", links, methods=["POST"]),
        Route("/teacher/grades.csv", grades_route), Route("/teacher/submissions.zip", zip_route),
    ]
    return Starlette(routes=routes)


def links_csv(store: Store, base_url: str, student_ids: list[int] | None = None) -> str:
    """New one-time sign-in links as CSV (key, name, link, expires UTC): the earlier unused ones stop working."""
    from ..output.table import csv_rows

    rows = [["student_id", "name", "link", "expires_utc"]]
    for s, token in store.new_links(student_ids):
        rows.append([s["key"], s["name"], f"{base_url.rstrip('/')}/signin/{token}",
                     _utc(time.time() + 14 * 86400)])
    return csv_rows(rows)


def _api_rows(rows: list[dict]) -> list[dict]:
    return [{"rank": r["rank"], "student": r["student"], "scores": r["scores"], "runs": r["runs"]} for r in rows]


def _median(xs: list) -> float | None:
    import statistics

    vals = [float(x) for x in xs if x is not None]
    return statistics.median(vals) if vals else None


def _seconds(text: str | None, default: float) -> float:
    try:
        return min(60.0, max(0.0, float(text))) if text is not None else default
    except ValueError:
        return default


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "")


def _headers() -> dict[str, str]:
    # no page of this server is framed, sniffed or cached, nor named to another site (same-origin: a form
    # post still carries its Origin, which the CSRF check compares)
    return {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
            "Cache-Control": "no-store",
            "Content-Security-Policy": "default-src 'self'; style-src 'unsafe-inline'; "
                                       "script-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'"}
