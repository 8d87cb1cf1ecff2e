"""The report's numbers (the class's medians and spreads per measure and topic) and
its inline SVG figures (a measure's distribution, a run's curve, its topics)."""
from __future__ import annotations

import numpy as np

from ....engine.measures import Kind
from ....output.evaluation import format_value
from ....output.table import html_escape
from ..board import Leaderboard


def _e(s) -> str:
    # the output layer's escaping: control characters out too (the pages are XML as well)
    return html_escape(str(s))


def _num(kind: Kind, v) -> float | None:
    if kind is Kind.STR or v is None:
        return None
    v = float(v)
    return None if v != v else v


def _show(kind: Kind, v) -> str:
    return "" if v is None else format_value(kind, v)


def _numeric_columns(board: Leaderboard) -> list[str]:
    return [c for c in board.columns if board.kinds[c] is not Kind.STR]


def _topic_columns(board: Leaderboard) -> list[str]:
    """Board measures that have numeric per-topic values."""
    graded = board.graded
    if not graded:
        return []
    cols = {c.name: c for c in graded[0].result.columns}
    return [n for n in board.columns if n in cols and cols[n].measure.per_topic and cols[n].kind is not Kind.STR]


def _main_topic_column(board: Leaderboard, tcols: list[str]) -> str:
    """The measure a run's values per topic are shown for: the board's sort measure
    when it is one of ``tcols`` (:func:`_topic_columns`, not empty), else the first."""
    key = board.sort_by
    return key if key is not None and key in tcols else tcols[0]


def class_topic_stats(board: Leaderboard, measure: str) -> dict[str, tuple[float, float]]:
    """``{topic: (median, best)}`` of a measure over the graded runs that have the topic."""
    per: dict[str, list[float]] = {}
    for e in board.graded:
        ev = e.result
        vals = ev.values[measure]
        for t, qid in enumerate(ev.topics):
            v = float(vals[t])
            if v == v:
                per.setdefault(qid, []).append(v)
    return {q: (float(np.median(v)), float(max(v))) for q, v in per.items()}


def class_medians(board: Leaderboard) -> dict[str, float | None]:
    """The class median of each board column over the graded runs (None: no value)."""
    graded = board.graded
    out: dict[str, float | None] = {}
    for c in board.columns:
        k = board.kinds[c]
        xs = [x for x in (_num(k, g.result.summary.get(c)) for g in graded) if x is not None]
        out[c] = float(np.median(xs)) if xs else None
    return out


def median_curve(board: Leaderboard) -> np.ndarray | None:
    curves = [e.curve for e in board.graded if e.curve is not None]
    if not curves:
        return None
    stack = np.stack(curves)
    return np.column_stack([stack[0, :, 0], np.median(stack[:, :, 1], axis=0)])


_W, _H = 560, 260


def _axis_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if hi <= lo:
        return [lo]
    return [lo + (hi - lo) * i / (n - 1) for i in range(n)]


def svg_distribution(board: Leaderboard, measure: str, highlight: str | None = None) -> str:
    """Every graded run's value of ``measure`` as a dot on one axis, with the class median."""
    kind = board.kinds[measure]
    raw = [(e, _num(kind, e.result.summary.get(measure))) for e in board.graded]
    pts = [(e, v) for e, v in raw if v is not None]
    w, h, pad = 520, 64, 24
    if not pts:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="24" role="img">'
                '<text x="0" y="16" class="muted">no values</text></svg>')
    vals = [v for _, v in pts]
    lo, hi = min(0.0, min(vals)), max(vals)
    if kind is Kind.FLOAT and min(vals) >= 0.0 and hi <= 1.0:
        lo, hi = 0.0, 1.0
    span = (hi - lo) or 1.0

    def x(v):
        return pad + (v - lo) / span * (w - 2 * pad)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="distribution of {_e(measure)}">',
             f'<line x1="{pad}" y1="40" x2="{w - pad}" y2="40" class="axis"/>']
    for t in _axis_ticks(lo, hi):
        parts.append(f'<line x1="{x(t):.1f}" y1="37" x2="{x(t):.1f}" y2="43" class="axis"/>'
                     f'<text x="{x(t):.1f}" y="58" text-anchor="middle" class="tick">{_e(_fmt_tick(t, kind))}</text>')
    med = float(np.median(vals))
    parts.append(f'<line x1="{x(med):.1f}" y1="12" x2="{x(med):.1f}" y2="46" class="median"/>'
                 f'<text x="{x(med):.1f}" y="10" text-anchor="middle" class="tick">'
                 f'median {_e(_fmt_tick(med, kind))}</text>')
    for e, v in pts:
        cls = "dot hl" if e.path == highlight else "dot"
        parts.append(f'<circle cx="{x(v):.1f}" cy="30" r="{6 if e.path == highlight else 4}" class="{cls}">'
                     f'<title>{_e(e.path)}: {_e(_show(kind, v))}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)


def _fmt_tick(v: float, kind: Kind) -> str:
    if kind is Kind.INT:
        return str(int(round(v)))
    return f"{v:.2f}"


def svg_curve(run: np.ndarray | None, median: np.ndarray | None, label: str) -> str:
    """Interpolated precision at recall levels: the run against the class median (the
    legend is the page's, in HTML, so that no name is cut)."""
    w, h, left, r, t, b = 420, 260, 44, 14, 12, 34
    pw, ph = w - left - r, h - t - b

    def xy(px, py):
        return left + px * pw, t + (1 - py) * ph

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="precision/recall curve of {_e(label)} against the class median">',
             f'<rect x="{left}" y="{t}" width="{pw}" height="{ph}" class="frame"/>']
    for k in range(6):
        v = k / 5
        x0, _ = xy(v, 0)
        _, y0 = xy(0, v)
        parts.append(f'<line x1="{x0:.1f}" y1="{t}" x2="{x0:.1f}" y2="{t + ph}" class="grid"/>'
                     f'<text x="{x0:.1f}" y="{t + ph + 14}" text-anchor="middle" class="tick">{v:.1f}</text>'
                     f'<line x1="{left}" y1="{y0:.1f}" x2="{left + pw}" y2="{y0:.1f}" class="grid"/>'
                     f'<text x="{left - 6}" y="{y0 + 4:.1f}" text-anchor="end" class="tick">{v:.1f}</text>')
    parts.append(f'<text x="{left + pw / 2:.1f}" y="{h - 4}" text-anchor="middle" class="tick">recall</text>'
                 f'<text x="12" y="{t + ph / 2:.1f}" text-anchor="middle" class="tick" '
                 f'transform="rotate(-90 12 {t + ph / 2:.1f})">precision</text>')
    for curve, cls in ((median, "line-median"), (run, "line-run")):
        if curve is None:
            continue
        pts = " ".join("%.1f,%.1f" % xy(float(px), float(py)) for px, py in curve)
        parts.append(f'<polyline points="{pts}" class="{cls}"/>')
    parts.append("</svg>")
    return "".join(parts)


#: most topics labelled one by one under the per-topic bars (past it, every k-th)
TOPIC_LABELS = 60


def svg_topics(topics: list[str], values: list[float | None], stats: dict, measure: str) -> str:
    """One bar per topic (the run's value) with the class median and best as ticks,
    each topic labelled under its bar (every k-th past :data:`TOPIC_LABELS` topics)."""
    n = max(len(topics), 1)
    bw = max(6, min(28, 640 // n))
    longest = max((len(q) for q in topics), default=1)
    b = 14 + min(longest, 16) * 6
    w, h, left, t = 44 + bw * n + 10, 150 + b, 44, 10
    ph = h - t - b
    allv = [v for v in values if v is not None] + [s[1] for s in stats.values()]
    hi = max([1.0] + allv) if all(0 <= v <= 1 for v in allv) else max(allv + [1e-9])
    step = max(1, -(-n // TOPIC_LABELS))
    font = 11 if bw >= 12 else 9

    def y(v):
        return t + ph * (1 - v / hi)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="{_e(measure)} per topic against the class median and best">',
             f'<line x1="{left}" y1="{t + ph}" x2="{w - 10}" y2="{t + ph}" class="axis"/>']
    for k in range(5):
        v = hi * k / 4
        parts.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{w - 10}" y2="{y(v):.1f}" class="grid"/>'
                     f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" class="tick">{v:.2f}</text>')
    for i, (q, v) in enumerate(zip(topics, values)):
        x0 = left + i * bw
        med, best = stats.get(q, (None, None))
        if v is not None:
            parts.append(f'<rect x="{x0 + 1}" y="{y(v):.1f}" width="{bw - 2}" height="{t + ph - y(v):.1f}" class="bar">'
                         f'<title>topic {_e(q)}: {v:.4f}</title></rect>')
        if med is not None:
            parts.append(f'<line x1="{x0}" y1="{y(med):.1f}" x2="{x0 + bw}" y2="{y(med):.1f}" class="median"/>'
                         f'<line x1="{x0}" y1="{y(best):.1f}" x2="{x0 + bw}" y2="{y(best):.1f}" class="best"/>')
        if i % step == 0:
            cx = x0 + bw / 2 + font / 3
            shown = q if len(q) <= 16 else q[:15] + "\u2026"
            parts.append(f'<text x="{cx:.1f}" y="{t + ph + 6}" text-anchor="end" class="tick topic" '
                         f'style="font-size:{font}px" transform="rotate(-90 {cx:.1f} {t + ph + 6})">{_e(shown)}</text>')
    parts.append("</svg>")
    return "".join(parts)
