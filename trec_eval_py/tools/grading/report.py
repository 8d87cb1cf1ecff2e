"""A grading report for a class: one folder a teacher can open or publish.

:func:`write_report` turns a :class:`~trec_eval_py.tools.grading.leaderboard.Leaderboard`
(built with ``curves=True`` for the precision/recall figures) into:

``index.html``
    the ranking (every column sorts on a click): each run's scores, its
    findings (the first finding's check and how many more), coverage and,
    for a run that could not be graded, the reason; then the runs not graded,
    the files left out, and the distribution of each measure over the class;
``runs/<run>.html``
    a page per run that starts with its verdict: the error that kept it off
    the board, or the warnings (what may change its values), one per check,
    collapsed (a click shows the message and the lines); then its scores
    against the class median and best, its values per topic (a bar per
    topic, labelled, against the class median and best) and its interpolated
    precision/recall curve against the class median; below, its notes;
``leaderboard.csv``, ``leaderboard.md``
    the board as ``batch --format csv|markdown`` prints it, the CSV's numbers
    rounded as shown;
``grades.csv``
    a row per student (per run when the submissions name no students; with
    ``--roster``, a row per student on the class list, its columns first):
    the grade columns rounded as shown, ready for an LMS's grade import;
``feedback/<run>.txt``
    plain text for the student: scores and rank, coverage, findings, and the
    topics where the run falls furthest below the class median.

Pages read at a glance on a laptop and a phone: long run names (an LMS's
``Full Name_12345_assignsubmission_file_/run.txt``) are shown by the student's
name or the part that tells runs apart, cut with an ellipsis (the full name
on hover), figures scale to the width, and on a narrow screen (600 px or
less) the leaderboard drops its less important columns (coverage, run id,
error: the runs not graded are listed with their reasons below it) and wraps
its heads and badges, so a 1,280 px window shows the whole board and a 390 px
phone shows it whole too, scrolling only down (other tables scroll inside
their own box if they must).

The report is written safely (:mod:`trec_eval_py.output.files`): each file
whole or not at all, never through a link (a link already in the folder is
replaced, its target untouched), and the folder is marked
(:data:`~trec_eval_py.tools.shared.submissions.REPORT_MARKER`) so that a report is
never graded as a submission. The marker is also the report's manifest: it
lists every file the report wrote. A report written again into the same
folder replaces it: the pages and feedback files the last report listed and
this one does not write again (runs no longer graded) are deleted, and
nothing else ever is (a file the report did not write, a folder without a
manifest, a name that is not one of the report's pages, a link's target).
File names come from run names made safe and
unique (:func:`slugs`), at most :data:`SLUG_MAX` characters. The work is
linear in the size of the class: what every page compares a run with (class
medians) is computed once.

Pages are self-contained: CSS, SVG figures and the sorting script are inline,
nothing is fetched from the network or from another file (links between the
report's own pages are the only references). The markup is well-formed XML as
well as HTML. What the board says about documents has already been redacted
when the board was built with ``hide_judgments``; the report adds no docno of
its own.
"""
from __future__ import annotations

import os
import re

import numpy as np

from ...output.evaluation import format_value
from ...output.names import printable
from ...output.table import html_escape
from ...engine.measures import Kind
from .board import Entry, Leaderboard, coverage, render_leaderboard
from .validate import NOTE

#: weakest topics listed in a student's feedback
WEAKEST = 5


def _e(s) -> str:
    # the output layer's escaping: control characters out too (the pages are XML as well)
    return html_escape(str(s))


#: longest file name stem of a run's page and feedback (a long LMS path keeps its end and a hash)
SLUG_MAX = 120


def slugs(names: list[str]) -> dict[str, str]:
    """A distinct, file-name-safe stem for each run name (``alice/run.txt`` -> ``alice_run``),
    at most :data:`SLUG_MAX` characters (a longer one keeps its end, after a hash of the whole name)."""
    import hashlib

    out: dict[str, str] = {}
    used: set[str] = set()
    for n in names:
        # the page is <slug>.html and the feedback <slug>.txt: not run.txt.txt
        stem = re.sub(r"\.(?:txt|run|res|trec|tsv|csv|out)(?:\.(?:gz|bz2|xz))?$", "", n, flags=re.I) or n
        base = re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._") or "run"
        if len(base) > SLUG_MAX:
            digest = hashlib.sha1(n.encode("utf-8", "surrogateescape")).hexdigest()[:10]
            base = f"{digest}_{base[-(SLUG_MAX - 20):].lstrip('._-')}"
        s, k = base, 2
        while s.lower() in used:
            s, k = f"{base}-{k}", k + 1
        used.add(s.lower())
        out[n] = s
    return out


# ---- numbers ----

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


# ---- inline SVG figures ----

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
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="24" role="img"><text x="0" y="16" class="muted">no values</text></svg>'
    vals = [v for _, v in pts]
    lo, hi = min(0.0, min(vals)), max(vals)
    if kind is Kind.FLOAT and 0.0 <= min(vals) and hi <= 1.0:
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
                 f'<text x="{x(med):.1f}" y="10" text-anchor="middle" class="tick">median {_e(_fmt_tick(med, kind))}</text>')
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
    w, h, l, r, t, b = 420, 260, 44, 14, 12, 34
    pw, ph = w - l - r, h - t - b

    def xy(px, py):
        return l + px * pw, t + (1 - py) * ph

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="precision/recall curve of {_e(label)} against the class median">',
             f'<rect x="{l}" y="{t}" width="{pw}" height="{ph}" class="frame"/>']
    for k in range(6):
        v = k / 5
        x0, _ = xy(v, 0)
        _, y0 = xy(0, v)
        parts.append(f'<line x1="{x0:.1f}" y1="{t}" x2="{x0:.1f}" y2="{t + ph}" class="grid"/>'
                     f'<text x="{x0:.1f}" y="{t + ph + 14}" text-anchor="middle" class="tick">{v:.1f}</text>'
                     f'<line x1="{l}" y1="{y0:.1f}" x2="{l + pw}" y2="{y0:.1f}" class="grid"/>'
                     f'<text x="{l - 6}" y="{y0 + 4:.1f}" text-anchor="end" class="tick">{v:.1f}</text>')
    parts.append(f'<text x="{l + pw / 2:.1f}" y="{h - 4}" text-anchor="middle" class="tick">recall</text>'
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
    w, h, l, t = 44 + bw * n + 10, 150 + b, 44, 10
    ph = h - t - b
    allv = [v for v in values if v is not None] + [s[1] for s in stats.values()]
    hi = max([1.0] + allv) if all(0 <= v <= 1 for v in allv) else max(allv + [1e-9])
    step = max(1, -(-n // TOPIC_LABELS))
    font = 11 if bw >= 12 else 9

    def y(v):
        return t + ph * (1 - v / hi)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="{_e(measure)} per topic against the class median and best">',
             f'<line x1="{l}" y1="{t + ph}" x2="{w - 10}" y2="{t + ph}" class="axis"/>']
    for k in range(5):
        v = hi * k / 4
        parts.append(f'<line x1="{l}" y1="{y(v):.1f}" x2="{w - 10}" y2="{y(v):.1f}" class="grid"/>'
                     f'<text x="{l - 6}" y="{y(v) + 4:.1f}" text-anchor="end" class="tick">{v:.2f}</text>')
    for i, (q, v) in enumerate(zip(topics, values)):
        x0 = l + i * bw
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


# ---- pages ----

_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:16px auto;max-width:1240px;padding:0 12px;color:#1d2330;background:#fff;overflow-wrap:anywhere}
h1{font-size:1.45em;margin:4px 0}h2{font-size:1.1em;margin-top:26px;border-bottom:1px solid #d8dce4;padding-bottom:4px}
.muted{color:#667085;fill:#667085}.meta{color:#4a5263;margin:4px 0 12px}
.scroll{overflow-x:auto;max-width:100%;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:14px}th,td{padding:5px 8px;border-bottom:1px solid #e4e7ec;text-align:left;vertical-align:top}
th{background:#f3f5f9}
table.sortable th{cursor:pointer;user-select:none;white-space:nowrap}
table.sortable th:hover{background:#e5eaf3}
th[aria-sort=descending]::after{content:" \\25BE"}th[aria-sort=ascending]::after{content:" \\25B4"}
td.id{white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.name{max-width:22em}td.name a,td.name span.cut{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
td.name small{display:block;color:#667085;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
td.why{min-width:14em;max-width:30em;white-space:normal}
tr.failed td{background:#fff4f2}.err{color:#b42318}.warn{color:#a15c07}.note{color:#475467}
.badge{display:inline-block;text-align:center;border-radius:9px;padding:0 7px;font-size:12px;white-space:nowrap}
.badge.error{background:#fee4e2;color:#912018}.badge.warning{background:#fef0c7;color:#7a4a00}
.badge.note{background:#eaecf0;color:#344054}.badge.none{background:#ecfdf3;color:#05603a}
.cov{display:inline-block;width:48px;height:8px;background:#e4e7ec;border-radius:4px;margin-right:6px;vertical-align:middle}
.cov i{display:block;height:8px;border-radius:4px;background:#2e90fa}.cov.low i{background:#f79009}
.dist{display:flex;flex-wrap:wrap;gap:10px 28px}.dist figure{margin:0;max-width:100%}.dist figcaption{font-weight:600;font-size:13px}
figure{margin:8px 0}svg{max-width:100%;height:auto}
svg text{font-size:11px;fill:#4a5263}.axis{stroke:#98a2b3;stroke-width:1}.grid{stroke:#eaecf0;stroke-width:1}
.frame{fill:none;stroke:#d0d5dd}.dot{fill:#2e90fa;fill-opacity:.75}.dot.hl{fill:#d92d20;fill-opacity:1}
.median{stroke:#f79009;stroke-width:2}.best{stroke:#12b76a;stroke-width:2}.bar{fill:#84adff}
.line-run{fill:none;stroke:#2e90fa;stroke-width:2.5}.line-median{fill:none;stroke:#f79009;stroke-width:2;stroke-dasharray:5 3}
.legend{margin:4px 0}.legend span{margin-right:16px;white-space:nowrap}.key{display:inline-block;width:14px;height:4px;vertical-align:middle;margin-right:4px}
table.scores td.n{min-width:5.5em}table.scores td.first{font-weight:600}
details{border:1px solid #e4e7ec;border-radius:6px;margin:6px 0;padding:6px 10px}
details summary{cursor:pointer}details p{margin:6px 0}
code{background:#f3f5f9;padding:0 3px;border-radius:3px}
@media (max-width:600px){body{margin:8px auto;padding:0 8px}td.name{max-width:9em}td.why{min-width:10em}
th,td{padding:4px 6px}.hide-narrow{display:none}
#board{font-size:13px}#board th,#board td{padding:4px 3px}#board td.name{max-width:6.5em}
#board th{white-space:normal}#board th:first-child{white-space:nowrap}#board td.id,#board .badge{white-space:normal}#board .badge{padding:0 4px}}
"""

#: sorting by a click on a column head; wrapped so that the page is well-formed XML too
_SORT_JS = """//<![CDATA[
(function(){
  function key(td){var v=td.getAttribute('data-v');if(v===null){v=td.textContent.trim();}return v;}
  function sort(table,col,th){
    var num=th.getAttribute('data-type')==='num';
    var cur=th.getAttribute('aria-sort');
    var dir=cur?(cur==='descending'?'ascending':'descending'):(th.getAttribute('data-first')||(num?'descending':'ascending'));
    var heads=table.tHead.rows[0].cells;
    for(var i=0;i<heads.length;i++){heads[i].removeAttribute('aria-sort');}
    th.setAttribute('aria-sort',dir);
    var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
    var sign=dir==='ascending'?1:-1;
    rows.sort(function(a,b){
      var x=key(a.cells[col]),y=key(b.cells[col]);
      if(num){
        var ex=(x===''),ey=(y==='');
        if(ex||ey){return ex===ey?0:(ex?1:-1);}
        return sign*(parseFloat(x)-parseFloat(y));
      }
      return sign*x.localeCompare(y);
    });
    rows.forEach(function(r){body.appendChild(r);});
  }
  var tables=document.querySelectorAll('table.sortable');
  Array.prototype.forEach.call(tables,function(table){
    var heads=table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads,function(th,col){
      th.setAttribute('tabindex','0');
      th.addEventListener('click',function(){sort(table,col,th);});
      th.addEventListener('keydown',function(ev){if(ev.key==='Enter'){sort(table,col,th);}});
    });
  });
})();
//]]>"""


def _page(title: str, body: str, script: bool = False) -> str:
    js = f"<script>{_SORT_JS}</script>" if script else ""
    return ("<!DOCTYPE html>\n"
            '<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><meta charset="utf-8"/>'
            '<meta name="viewport" content="width=device-width, initial-scale=1"/>'
            f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>{body}{js}</body></html>\n")


def _averaging(board: Leaderboard) -> str:
    if board.complete:
        return "every judged topic counts; a topic a run does not answer scores 0"
    return "each run is averaged over the topics it answers (trec_eval's default)"


def short_names(board: Leaderboard) -> dict[str, str]:
    """What the pages call each run: the student's name when known, else its name
    without the folder every run shares (``download/``)."""
    paths = [e.path for e in board.entries]
    common = os.path.commonpath(paths) if len(paths) > 1 and all("/" in p for p in paths) else ""
    if common and any(p == common for p in paths):
        common = os.path.dirname(common)
    out = {}
    for e in board.entries:
        if e.student is not None:
            out[e.path] = e.student.name
        else:
            rest = e.path[len(common):].lstrip("/") if common else e.path
            out[e.path] = rest or e.path
    return out


def _name_cell(e: Entry, slug: dict, label: str) -> str:
    sub = "" if label == e.path else f'<small title="{_e(e.path)}">{_e(e.path)}</small>'
    return (f'<td class="name" data-v="{_e(label)}"><a href="runs/{_e(slug[e.path])}.html" title="{_e(e.path)}">'
            f"{_e(label)}</a>{sub}</td>")


def _findings_badge(e: Entry) -> str:
    if not e.findings:
        return '<span class="badge none">none</span>'
    f = e.findings[0]
    more = len(e.findings) - 1
    tip = "; ".join(f"{x.severity} {x.code}" for x in e.findings)
    return (f'<span class="badge {_e(f.severity)}" title="{_e(tip)}">{_e(f.code)}</span>'
            + (f' <span class="muted">+{more}</span>' if more else ""))


def _index(board: Leaderboard, slug: dict[str, str], title: str) -> str:
    graded, failed = board.graded, board.failed
    label = short_names(board)
    meta = (f"{len(board.entries)} runs: {len(graded)} graded, {len(failed)} not graded (errors); "
            f"{board.topics_total} judged topics; "
            f"{_averaging(board)}; ordered by <b>{_e(board.sort_by or 'name')}</b>, best first; equal values share a rank.")
    who = "student" if board.has_students else "run"
    heads = ['<th data-type="num" data-first="ascending">rank</th>', f"<th>{who}</th>"]
    heads += [f'<th data-type="{"text" if board.kinds[c] is Kind.STR else "num"}">{_e(c)}</th>' for c in board.columns]
    heads += ['<th data-type="num" data-first="descending">findings</th>',
              '<th data-type="num" data-first="ascending" class="hide-narrow">topics</th>',
              '<th class="hide-narrow">runid</th>', '<th class="hide-narrow">error</th>']
    rows = []
    most = max((e.topics for e in graded), default=0)
    for e in board.entries:
        # findings sort by how bad: errors, then warnings, then notes
        weight = e.count("error") * 10000 + e.count("warning") * 100 + e.count("note")
        fcell = f'<td class="id" data-v="{weight}">{_findings_badge(e)}</td>'
        if e.ok:
            share = e.topics / e.topics_total if e.topics_total else 0.0
            low = " low" if e.topics < most else ""
            cov = (f'<td class="n hide-narrow" data-v="{e.topics}"><span class="cov{low}"><i style="width:{share * 100:.0f}%"></i>'
                   f"</span>{_e(coverage(e))}</td>")
            cells = []
            for c in board.columns:
                v = e.result.summary.get(c)
                k = board.kinds[c]
                nv = _num(k, v)
                dv = "" if nv is None else repr(nv)
                cells.append(f'<td class="n" data-v="{dv}">{_e(_show(k, v))}</td>' if k is not Kind.STR
                             else f"<td>{_e(_show(k, v))}</td>")
            rows.append(f'<tr><td class="n" data-v="{e.rank}">{e.rank}</td>{_name_cell(e, slug, label[e.path])}'
                        f'{"".join(cells)}{fcell}{cov}<td class="id hide-narrow">{_e(e.runid)}</td>'
                        '<td class="hide-narrow"></td></tr>')
        else:
            blanks = "".join('<td class="n" data-v=""></td>' for _ in board.columns)
            rows.append(f'<tr class="failed"><td class="n" data-v="">-</td>{_name_cell(e, slug, label[e.path])}'
                        f'{blanks}{fcell}<td class="n hide-narrow" data-v=""></td><td class="hide-narrow"></td>'
                        f'<td class="err why hide-narrow">{_e(e.error)}</td></tr>')
    table = (f'<div class="scroll"><table class="sortable" id="board"><thead><tr>{"".join(heads)}</tr></thead>'
             f'<tbody>{"".join(rows)}</tbody></table></div>')
    body = [f"<h1>{_e(title)}</h1>", f'<p class="meta">{meta}</p>', "<h2>Ranking</h2>",
            '<p class="muted">Click a column head to sort by it; click again to reverse. A name links to the '
            "run's page: its scores, per topic, and what the validator found.</p>", table]
    if failed:
        body.append("<h2>Runs not graded</h2><ul>")
        body += [f'<li><a href="runs/{_e(slug[e.path])}.html" title="{_e(e.path)}">{_e(label[e.path])}</a>: '
                 f'<span class="err">{_e(e.error)}</span></li>' for e in failed]
        body.append("</ul>")
    if board.skipped:  # found in the class folder but never read: links, pipes, hidden files, READMEs...
        body.append("<h2>Files not graded</h2><ul>")
        body += [f"<li><code>{_e(k.path)}</code>: {_e(k.reason)}</li>" for k in board.skipped]
        body.append("</ul>")
    nums = _numeric_columns(board)
    if nums and graded:
        body.append("<h2>Distribution over the class</h2>"
                    '<p class="muted">One dot per graded run; the orange line is the class median.</p><div class="dist">')
        body += [f"<figure><figcaption>{_e(c)}</figcaption>{svg_distribution(board, c)}</figure>" for c in nums]
        body.append("</div>")
    return _page(title, "".join(body), script=True)


def _findings_section(e: Entry, findings: list) -> str:
    """One collapsed block per check of ``findings`` (``e``'s): severity, check, count; a
    click shows the message and lines."""
    out = []
    for f in findings:
        where = "" if f.line is None else (f"line {f.line}" if f.path == e.path else f"{f.path}:{f.line}")
        lines = ""
        if len(f.lines) > 1:
            lines = f'<p class="muted">lines {", ".join(str(n) for n in f.lines)}{" ..." if f.count > len(f.lines) else ""}</p>'
        out.append(f'<details class="finding"><summary><span class="badge {_e(f.severity)}">{_e(f.severity)}</span> '
                   f"<code>{_e(f.code)}</code> {_e(f.counted())}{(' from ' + _e(where)) if where else ''}</summary>"
                   f"<p>{_e(f.message)}</p>{lines}</details>")
    return "".join(out)


def _verdict(e: Entry) -> str:
    """What decides a run's grade, first on its page: the error that kept it off the board,
    or its warnings (each may change a value), with their findings; notes are left for
    the bottom of the page (they change no value)."""
    decisive = [f for f in e.findings if f.severity != NOTE]
    notes = len(e.findings) - len(decisive)
    later = f" {notes} note{'s' * (notes != 1)} at the bottom of the page." if notes else ""
    if not e.ok:
        head = f'<p class="err">Not graded: {_e(e.error)}</p>'
    elif decisive:
        n = len(decisive)
        head = (f'<p class="warn">Graded, with {n} warning{"s" * (n != 1)}: what {"they say" if n != 1 else "it says"} '
                f"may change the values below.{_e(later)}</p>")
    elif notes:
        head = f"<p>Graded: no warnings.{_e(later)}</p>"
    else:
        head = "<p>Graded: no findings, the file is well-formed.</p>"
    return f'<div id="verdict">{head}{_findings_section(e, decisive)}</div>'


def _run_page(board: Leaderboard, e: Entry, med_curve, stats_by_measure: dict, title: str,
              medians: dict | None = None, n_graded: int | None = None, tcols: list | None = None,
              best: dict | None = None, label: str | None = None) -> str:
    medians = class_medians(board) if medians is None else medians
    best = class_best(board) if best is None else best
    label = label or e.path
    body = [f'<p><a href="../index.html">&#8592; {_e(title)}</a></p>', f"<h1>{_e(label)}</h1>"]
    sub = f"<code>{_e(e.path)}</code>" + (f"; run id <code>{_e(e.runid)}</code>" if e.ok else "")
    if e.ok:
        n = len(board.graded) if n_graded is None else n_graded
        sub += f"; rank {e.rank} of {n}; answers {e.topics} of {e.topics_total} judged topics ({_averaging(board)})"
    # the verdict first: what decides the grade comes before the scores and the charts
    body += [f'<p class="meta">{sub}.</p>', _verdict(e)]
    if e.ok:
        rows = []
        for i, c in enumerate(board.columns):
            k = board.kinds[c]
            if k is Kind.STR:
                continue
            m, b = medians[c], best[c]
            first = ' class="n first"' if i == 0 else ' class="n"'
            rows.append(f"<tr><td>{_e(c)}</td><td{first}>{_e(_show(k, e.result.summary.get(c)))}</td>"
                        f'<td class="n">{_e(_show(Kind.FLOAT, m) if m is not None else "")}</td>'
                        f'<td class="n">{_e(_show(k, b) if b is not None else "")}</td></tr>')
        body.append('<div class="scroll"><table class="scores" id="scores"><thead><tr><th>measure</th><th>this run</th>'
                    f'<th>class median</th><th>class best</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')
    if e.ok:
        tcols = _topic_columns(board) if tcols is None else tcols
        ev = e.result
        idx = {q: i for i, q in enumerate(ev.topics)}
        if tcols:
            main = _main_topic_column(board, tcols)
            topics = sorted(stats_by_measure[main], key=lambda q: q.encode("utf-8", "surrogateescape"))
            vals = [float(ev.values[main][idx[q]]) if q in idx else None for q in topics]
            body.append(f"<h2>{_e(main)} per topic</h2>"
                        '<p class="legend muted"><span><i class="key" style="background:#84adff"></i>this run</span>'
                        '<span><i class="key" style="background:#f79009"></i>class median</span>'
                        '<span><i class="key" style="background:#12b76a"></i>class best</span></p>')
            body.append(f'<figure class="topics">{svg_topics(topics, vals, stats_by_measure[main], main)}</figure>')
        if e.curve is not None:
            body.append("<h2>Interpolated precision/recall</h2>"
                        '<p class="legend muted"><span><i class="key" style="background:#2e90fa"></i>this run</span>'
                        '<span><i class="key" style="background:#f79009"></i>class median (dashed)</span></p>'
                        '<p class="muted">Best precision at each recall level or above, averaged over topics.</p>')
            body.append(f"<figure>{svg_curve(e.curve, med_curve, label)}</figure>")
    notes = [f for f in e.findings if f.severity == NOTE]
    if notes:
        body.append(f'<h2 id="notes">Notes</h2><p class="muted">Worth knowing; they change no value, or little.</p>'
                    f"{_findings_section(e, notes)}")
    if e.ok and tcols:
        heads = "".join(f"<th>{_e(c)}</th><th>median</th><th>best</th>" for c in tcols)
        rows = []
        for q in topics:
            cells = []
            for c in tcols:
                st = stats_by_measure[c].get(q)
                v = float(ev.values[c][idx[q]]) if q in idx else None
                kind = next(col.kind for col in ev.columns if col.name == c)
                cells.append(f'<td class="n">{_e(_show(kind, v))}</td>'
                             f'<td class="n muted">{_e(_show(Kind.FLOAT, st[0]) if st else "")}</td>'
                             f'<td class="n muted">{_e(_show(kind, st[1]) if st else "")}</td>')
            missing = "" if q in idx and not ev.filled[idx[q]] else ' <span class="warn">(not answered)</span>'
            rows.append(f"<tr><td>{_e(q)}{missing}</td>{''.join(cells)}</tr>")
        body.append('<h2>Per-topic values</h2><details><summary>Every topic against the class median and best'
                    f'</summary><div class="scroll"><table class="sortable"><thead><tr><th>topic</th>{heads}</tr>'
                    f'</thead><tbody>{"".join(rows)}</tbody></table></div></details>')
    return _page(f"{label}: {title}", "".join(body), script=True)


def class_best(board: Leaderboard) -> dict[str, float | None]:
    """The best value of each board column over the graded runs (None: no value)."""
    out: dict[str, float | None] = {}
    for c in board.columns:
        k = board.kinds[c]
        xs = [x for x in (_num(k, g.result.summary.get(c)) for g in board.graded) if x is not None]
        out[c] = max(xs) if xs else None
    return out


def feedback_text(board: Leaderboard, e: Entry, stats_by_measure: dict, medians: dict | None = None,
                  n_graded: int | None = None, tcols: list | None = None) -> str:
    """What a student reads: scores and rank, coverage, findings, weakest topics; plain
    text whose control characters (a terminal's escapes in a run id) are shown as escapes.
    (``medians`` (:func:`class_medians`), ``n_graded`` (the graded runs) and ``tcols``
    (the measures with per-topic values) are computed when not given: the report
    computes them once for the whole class.)"""
    medians = class_medians(board) if medians is None else medians
    n_graded = len(board.graded) if n_graded is None else n_graded
    out = [f"Run: {e.path}\n"]
    if e.student is not None:
        out.append(f"Student: {e.student.name}{f' ({e.student.id})' if e.student.id else ''}\n")
    if not e.ok:
        out.append(f"Not graded: {e.error}\n")
    else:
        out.append(f"Run id: {e.runid}\nRank: {e.rank} of {n_graded}"
                   f"{f' (by {board.sort_by})' if board.sort_by else ''}\n")
        out.append(f"Topics answered: {e.topics} of {e.topics_total} ({_averaging(board)})\n\nScores (class median):\n")
        for c in board.columns:
            k = board.kinds[c]
            if k is Kind.STR:
                continue
            med = _show(Kind.FLOAT, medians[c]) if medians[c] is not None else ""
            out.append(f"  {c:<24}{_show(k, e.result.summary.get(c)):>10}   ({med})\n")
    out.append("\nFindings (validate gives the same):\n")
    if e.findings:
        out += [f"  {f.short(e.path)}\n" for f in e.findings]
    else:
        out.append("  none\n")
    if e.ok:
        tcols = _topic_columns(board) if tcols is None else tcols
        if tcols:
            main = _main_topic_column(board, tcols)
            ev = e.result
            st = stats_by_measure[main]
            gaps = []
            for i, q in enumerate(ev.topics):
                v = float(ev.values[main][i])
                if q in st and v == v:
                    gaps.append((v - st[q][0], q, v, st[q]))
            gaps.sort(key=lambda g: (g[0], g[1].encode("utf-8", "surrogateescape")))
            if gaps:
                out.append(f"\nWeakest topics by {main} (yours, class median, class best):\n")
                for gap, q, v, (med, best) in gaps[:WEAKEST]:
                    note = "  not answered" if ev.filled[ev.topics.index(q)] else ""
                    out.append(f"  topic {q:<12}{v:8.4f}{med:10.4f}{best:10.4f}{note}\n")
    # read in a terminal too (cat, less): escapes in a name or run id are shown, never sent
    return "\n".join(printable(line) for line in "".join(out).split("\n"))


def grades_csv(board: Leaderboard) -> str:
    """``grades.csv``: a row per student (the run graded, or with several the best
    ranked), numbers rounded as shown; with a roster, its rows first, in its order,
    a student without a graded run with an empty grade and the reason."""
    from ...output.table import csv_rows as csv_text

    nums = [c for c in board.columns if board.kinds[c] is not Kind.STR]
    by_student: dict = {}
    for e in board.entries:  # board order: the best ranked first, the failed last
        key = e.student.key if e.student is not None else e.path
        by_student.setdefault(key, []).append(e)

    def grade_cells(es: list) -> list[str]:
        best = es[0]
        if not best.ok:
            return [""] * len(nums) + ["", best.path, f"not graded: {best.error}"]
        note = f"best of {len(es)} runs" if len(es) > 1 else ""
        return [_show(board.kinds[c], best.result.summary.get(c)) for c in nums] + [str(best.rank), best.path, note]

    tail = [*nums, "rank", "run", "note"]
    roster = board.roster
    if roster is not None:
        rows = [list(roster.header) + tail]
        matched: set = set()
        keys_of_row: dict[int, list] = {}
        for key, es in by_student.items():
            i = roster.row_of(es[0].student)
            if i is not None:
                keys_of_row.setdefault(i, []).extend(es)
                matched.add(key)
        width = len(roster.header)
        for i, row in enumerate(roster.rows):
            row = list(row) + [""] * (width - len(row))
            es = keys_of_row.get(i)
            if es:
                es.sort(key=lambda x: (not x.ok, x.rank or 0))
                rows.append(row[:width] + grade_cells(es))
            else:
                rows.append(row[:width] + [""] * (len(nums) + 2) + ["no submission"])
        for key, es in by_student.items():  # handed in, but not on the roster
            if key not in matched:
                who = es[0].student.name if es[0].student is not None else es[0].path
                rows.append([who] + [""] * (width - 1) + grade_cells(es)[:-1] + ["not on the roster"])
        return csv_text(rows)
    students = board.has_students
    head = (["student", "student_id"] if students else []) + tail
    rows = [head]
    for es in by_student.values():
        who = ([es[0].student.name, es[0].student.id or ""] if es[0].student is not None else ["", ""]) \
            if students else []
        rows.append(who + grade_cells(es))
    return csv_text(rows)


def check_report(directory) -> None:
    """Raise :class:`~trec_eval_py.errors.OutputError` now if a report cannot be written
    into ``directory`` later (a file or a link in its place, a read-only folder, a name
    too long): before the grading, not after it."""
    from ...output.files import check_folder

    check_folder(os.fspath(directory), SUBFOLDERS)


#: files of its own a report writes at its top (a report written again replaces them)
TOP_FILES = ("index.html", "leaderboard.csv", "leaderboard.md", "grades.csv")
#: the report's subfolders: a page and a feedback file per run
SUBFOLDERS = ("runs", "feedback")


def report_writes(rel: str) -> bool:
    """Whether a report may write the file ``rel`` (a path relative to its folder, ``/``
    separated): its top files, its marker, anything in its subfolders. An input there
    would be overwritten."""
    from ..shared.submissions import REPORT_MARKER

    return rel in TOP_FILES or rel == REPORT_MARKER or rel.split("/", 1)[0] in SUBFOLDERS


#: a line of the manifest that names a page or feedback file (slugs: never a '/' or a leading '.')
_LISTED = re.compile(r"(?:runs|feedback)/[A-Za-z0-9_-][A-Za-z0-9._-]*")
_MANIFEST_HEAD = ("# A report written by trec_eval_py batch --report: never graded as a submission.\n"
                  "# The files it wrote, which a report written again here may replace or delete:\n")
#: the most of a manifest read (a class of 100,000 runs lists about 30 MB)
_MANIFEST_MAX = 64 << 20


def _manifest(out) -> set[str]:
    """The pages and feedback files the report last written in ``out`` (a Folder) listed
    in its marker; empty when there is none (a folder that is no report, a report of an
    older version that kept no list: nothing of them is ever deleted)."""
    from ..shared.submissions import REPORT_MARKER

    try:
        fd = os.open(REPORT_MARKER, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0),
                     dir_fd=out.fd)
    except OSError:
        return set()
    try:
        import stat

        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return set()
        data = os.read(fd, _MANIFEST_MAX)
    except OSError:
        return set()
    finally:
        os.close(fd)
    text = data.decode("utf-8", "replace")
    return {ln for ln in text.splitlines() if _LISTED.fullmatch(ln)}


def _write_manifest(out, listed) -> str:
    from ..shared.submissions import REPORT_MARKER

    return out.write(REPORT_MARKER, [_MANIFEST_HEAD, *(f"{rel}\n" for rel in sorted(listed))])


def write_report(board: Leaderboard, directory, *, title: str = "Leaderboard") -> list[str]:
    """Write the report of ``board`` into ``directory`` (created if needed). Returns the files written.

    Each file is written whole or not at all, never through a link (see
    :mod:`trec_eval_py.output.files`); the folder is marked as a report, so a
    later walk for submissions leaves it out. In a folder already marked, the
    pages and feedback files the last report listed in its manifest and this one does
    not write again (runs no longer on the board) are deleted; nothing else is."""
    from ...output.files import Folder

    check_report(directory)
    slug = slugs([e.path for e in board.entries])
    label = short_names(board)
    tcols = _topic_columns(board)
    stats = {c: class_topic_stats(board, c) for c in tcols}
    med = median_curve(board)
    medians = class_medians(board)
    best = class_best(board)
    n_graded = len(board.graded)
    written = []
    pages = [(f"{sub}/{slug[e.path]}.{ext}", e) for e in board.entries for sub, ext in (("runs", "html"),
                                                                                        ("feedback", "txt"))]
    with Folder(os.fspath(directory)) as out:
        before = _manifest(out)
        # listed first, old and new: a write that stops half-way leaves every file of ours known
        _write_manifest(out, before | {rel for rel, _ in pages})
        written.append(out.write("index.html", [_index(board, slug, title)]))
        written.append(out.write("leaderboard.csv", [render_leaderboard(board, "csv", rounded=True)]))
        written.append(out.write("leaderboard.md", [render_leaderboard(board, "markdown")]))
        written.append(out.write("grades.csv", [grades_csv(board)]))
        for rel, e in pages:
            if rel.startswith("runs/"):
                text = _run_page(board, e, med, stats, title, medians, n_graded, tcols, best, label[e.path])
            else:
                text = feedback_text(board, e, stats, medians, n_graded, tcols)
            written.append(out.write(rel, [text]))
        now = {rel for rel, _ in pages}
        _remove_stale(out, before - now)
        _write_manifest(out, now)
    return written


def _remove_stale(out, stale: set) -> None:
    """Delete the pages and feedback files ``stale`` (names the last report's manifest
    listed: ``runs/NAME`` or ``feedback/NAME``), unlinked through the folder's
    descriptor (a link there is removed, its target untouched; a folder is left)."""
    import stat

    for rel in sorted(stale):
        sub, name = rel.split("/", 1)
        fd = out.subfolder(sub)
        try:
            st = os.lstat(name, dir_fd=fd)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode):
            try:
                os.unlink(name, dir_fd=fd)
            except OSError:
                pass


__all__ = ["SUBFOLDERS", "TOP_FILES", "check_report", "report_writes", "class_best", "class_medians", "feedback_text", "grades_csv",
           "short_names", "write_report", "SLUG_MAX", "slugs", "svg_curve", "svg_distribution", "svg_topics"]
