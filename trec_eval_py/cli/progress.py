"""A progress bar for long work, drawn on standard error and only on a terminal.

Long work (big files, many runs in ``batch``, many resamples in ``compare``)
reports how far it got through :class:`Progress`; nothing is drawn when
standard error is not a terminal (a pipe, a file, a CI log), so output files
and captured logs never contain it, and standard output is never touched.
A bar appears only after ``delay`` seconds, so quick jobs stay silent, and it
is redrawn at most every ``interval`` seconds, so it costs next to nothing
inside tight loops. ``TREC_EVAL_PY_PROGRESS=0`` turns it off, ``=1`` forces
it on (for a terminal that does not say it is one).

    from trec_eval_py.cli.progress import Progress, track

    for path in track(paths, desc="runs"):
        ...
    with Progress(total=n, desc="resamples", unit="") as bar:
        for chunk in chunks:
            ...
            bar.update(len(chunk))

``total`` may be unknown (``None``): the bar then shows the count and the
elapsed time only. ``unit="B"`` prints counts as bytes (KiB, MiB, ...).
"""
from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")

ENV = "TREC_EVAL_PY_PROGRESS"
BAR_WIDTH = 24


def enabled_for(stream: TextIO | None) -> bool:
    """Whether a bar should be drawn on ``stream`` (a terminal, unless the environment says otherwise)."""
    setting = os.environ.get(ENV, "").strip().lower()
    if setting in ("0", "no", "false", "off"):
        return False
    if stream is None:
        return False
    if setting in ("1", "yes", "true", "on"):
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # closed or not a real stream
        return False


def _count(n: float, unit: str) -> str:
    if unit == "B":
        for suffix in ("B", "KiB", "MiB", "GiB", "TiB"):
            if abs(n) < 1024 or suffix == "TiB":
                return f"{n:.0f} {suffix}" if suffix == "B" else f"{n:.1f} {suffix}"
            n /= 1024
    text = f"{int(n):,}"
    return f"{text} {unit}" if unit else text


def _clock(seconds: float) -> str:
    seconds = int(max(seconds, 0))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class Progress:
    """Counts work done and, on a terminal, draws it as one line on standard error.

    Parameters
    ----------
    total : how much work there is (same unit as :meth:`update`), or None if unknown.
    desc : a short label printed before the bar.
    unit : printed after counts; ``"B"`` prints bytes in KiB/MiB.
    stream : where to draw; standard error by default.
    enabled : force drawing on (True) or off (False); default: :func:`enabled_for` the stream.
    delay : seconds of work before the bar first appears.
    interval : least seconds between two redraws.
    """

    def __init__(self, total: float | None = None, desc: str = "", *, unit: str = "",
                 stream: TextIO | None = None, enabled: bool | None = None,
                 delay: float = 0.5, interval: float = 0.1, clock=time.monotonic):
        self.total = total if total is None or total > 0 else None
        self.desc = desc
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled_for(self.stream) if enabled is None else bool(enabled)
        self.delay = delay
        self.interval = interval
        self._clock = clock
        self.n: float = 0
        self._start = clock()
        self._last: float | None = None  # time of the last redraw
        self._width = 0  # length of the last line drawn, to blank it out
        self.closed = False

    def update(self, n: float = 1) -> None:
        """Add ``n`` units of work done; redraws when due."""
        self.n += n
        if not self.enabled or self.closed:
            return
        now = self._clock()
        if now - self._start < self.delay:
            return
        if self._last is not None and now - self._last < self.interval:
            return
        self._draw(now)

    def set_total(self, total: float | None) -> None:
        self.total = total if total is None or total > 0 else None

    def line(self, now: float | None = None) -> str:
        """The text of the bar as it would be drawn now."""
        now = self._clock() if now is None else now
        elapsed = now - self._start
        head = f"{self.desc}: " if self.desc else ""
        if self.total is None:
            return f"{head}{_count(self.n, self.unit)} [{_clock(elapsed)}]"
        frac = min(max(self.n / self.total, 0.0), 1.0)
        filled = int(frac * BAR_WIDTH)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        left = ""
        if 0 < frac < 1 and elapsed > 0:
            left = f"<{_clock(elapsed * (1 - frac) / frac)}"
        counts = f"{_count(self.n, self.unit)}/{_count(self.total, self.unit)}"
        return f"{head}{frac * 100:3.0f}% |{bar}| {counts} [{_clock(elapsed)}{left}]"

    def _draw(self, now: float) -> None:
        text = self.line(now)
        pad = " " * max(self._width - len(text), 0)
        try:
            self.stream.write("\r" + text + pad)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: stop drawing, keep working
            self.enabled = False
            return
        self._width = len(text)
        self._last = now

    def close(self) -> None:
        """Blank out the bar (if one was drawn), leaving the terminal line as it was."""
        if self.closed:
            return
        self.closed = True
        if self.enabled and self._width:
            try:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def track(items: Iterable[T], desc: str = "", *, total: float | None = None, **kw) -> Iterator[T]:
    """Yield ``items``, counting each one on a :class:`Progress` bar (closed at the end)."""
    if total is None:
        try:
            total = len(items)  # type: ignore[arg-type]
        except TypeError:
            total = None
    with Progress(total, desc, **kw) as bar:
        for item in items:
            yield item
            bar.update(1)
