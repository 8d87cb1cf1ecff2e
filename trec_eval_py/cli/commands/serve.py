"""``trec_eval_py serve QRELS --roster CSV``: a live class leaderboard (the ``[serve]`` extra)."""
from __future__ import annotations

import typer

from ..flags import evaluation_flags, read_limit_flags
from ..help import exit_codes_epilog

app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})


@app.command(epilog=exit_codes_epilog())
@read_limit_flags()
@evaluation_flags("measures", help={"measures": "Measure of the boards (repeatable; first start only). Default: map, "
                                                "P.10; map orders the boards when shown."})
def serve(
    qrels: str = typer.Argument(..., metavar="QRELS", help="Relevance judgments (kept in the state folder; never served)."),
    roster: str | None = typer.Option(None, "--roster", metavar="CSV", help="Class list: a header row, then a row per student (id from a column named id, username or email; else the first). Needed on the first start; later, new rows are added."),
    state: str = typer.Option("serve-state", "--state", metavar="DIR", help="The class's state folder (SQLite database, every upload, the teacher's token). Back it up."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (behind a reverse proxy: keep 127.0.0.1)."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    base_url: str | None = typer.Option(None, "--base-url", metavar="URL", help="The address students use (https://leaderboard.example.edu behind a proxy): sign-in links start with it; cookies are Secure when it is https. Default: http://HOST:PORT."),
    course: str = typer.Option("Leaderboard", "--title", help="The class's name on every page."),
    public_topics: str | None = typer.Option(None, "--public-topics", metavar="FILE", help="The public topics (first field of each line); the other judged topics are private. First start only."),
    public_share: float = typer.Option(0.5, "--public-share", help="Without --public-topics: the share of judged topics drawn as public (first start only)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the drawn split (the same seed, the same split)."),
    daily_limit: int = typer.Option(5, "--daily-limit", help="Uploads a student may make a day (UTC); 0: no limit."),
    finals: int = typer.Option(2, "--finals", metavar="K", help="Final runs a student may mark (default: their K best public ones)."),
    deadline: str | None = typer.Option(None, "--deadline", metavar="WHEN", help="ISO date and time (UTC unless it says otherwise), e.g. 2026-12-15T23:59. Later uploads are kept, marked late and not ranked."),
    workers: int = typer.Option(2, "-j", "--workers", metavar="N", help="Processes that grade uploads."),
    max_upload: str = typer.Option("64M", "--max-upload", metavar="SIZE", help="Largest upload (e.g. 64M)."),
    max_memory: str = typer.Option("2G", "--max-memory", metavar="SIZE", help="Memory a grading process may use (0: no bound)."),
    links: str | None = typer.Option(None, "--links", metavar="CSV", help="Write new one-time sign-in links for every student to CSV (a new file) and exit."),
    export: str | None = typer.Option(None, "--export", metavar="DIR", help="Write grades.csv, board.csv and submissions.zip from the state folder into DIR and exit (no server)."),
    *,
    limits: dict,
    options: dict,
) -> int:
    """Serve a live leaderboard for a class: students sign in with one-time links,
    upload runs (browser, or curl -H "Authorization: Bearer TOKEN" -F run=@run.txt
    URL/api/submissions), get validate's findings and their public scores within
    seconds; the teacher reveals the private board and downloads grades.csv.

    Scores are those of `trec_eval_py -c` on the public (or private) topics'
    judgments. Every upload is stored before it is graded; a restart grades what
    was left pending. The teacher's token is printed once and kept in
    DIR/teacher-token (mode 0600). See docs/guide/serve.md.
    """
    import datetime as dt
    import importlib.util

    from ...engine.parse.source import parse_size, read_limits, set_read_limits
    from ...errors import ExitCode, UsageError
    from ..output import tell

    missing = [m for m in ("starlette", "uvicorn", "jinja2", "multipart") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"serve needs {', '.join(missing)}: python3 -m pip install 'trec_eval_py[serve]'")
    from ...serve.app import Settings
    from ...serve.export import export as write_export
    from ...serve.service import open_class, write_links
    from ...serve.service import serve as run_server

    when = None
    if deadline is not None:
        try:
            d = dt.datetime.fromisoformat(deadline)
        except ValueError:
            raise UsageError(f"--deadline {deadline!r}: expected an ISO date and time, e.g. 2026-12-15T23:59") from None
        when = (d if d.tzinfo else d.replace(tzinfo=dt.UTC)).timestamp()
    for name, value in (("--daily-limit", daily_limit), ("--finals", finals), ("--workers", workers)):
        if value < (0 if name == "--daily-limit" else 1):
            raise UsageError(f"{name} must be at least {0 if name == '--daily-limit' else 1}")
    upload_bytes = parse_size(max_upload, "--max-upload")
    memory = parse_size(max_memory, "--max-memory")
    url = base_url or f"http://{host}:{port}"
    with set_read_limits(**limits):
        store, grading = open_class(qrels, roster, state, public_topics=public_topics, public_share=public_share,
                                    seed=seed, measures=options["measures"] or None, tell=tell)
        if store.setting("finals") is None:
            store.set_setting("finals", finals)
        k = store.setting("finals")
        if export is not None:
            for path in write_export(store, grading, export, k):
                tell(f"wrote {path}")
            return ExitCode.OK
        if links is not None:
            n = write_links(store, url, links)
            tell(f"wrote {n} sign-in links to {links} (each works once, for 14 days)")
            return ExitCode.OK
        token = store.teacher_token()
        if token is not None:
            tell(f"the teacher's token (also in {store.root}/teacher-token, mode 0600): {token}")
        settings = Settings(course=course, base_url=url, daily_limit=daily_limit, finals=k, deadline=when,
                            max_upload=upload_bytes)
        run_server(store, grading, settings, host=host, port=port, workers=workers, limits=read_limits(),
                   max_memory=memory, tell=tell)
    return ExitCode.OK
