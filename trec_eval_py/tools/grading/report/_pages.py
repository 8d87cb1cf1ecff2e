"""The report's pages and files' contents: the index, a page per run, a student's
feedback text, the grades CSV, and the file names they go in (:func:`slugs`)."""
from __future__ import annotations

import os
import re

from ....engine.measures import Kind
from ....output.names import printable
from ..board import Entry, Leaderboard, coverage
from ..validate import NOTE
from ._figures import (
    _e,
    _main_topic_column,
    _num,
    _numeric_columns,
    _show,
    _topic_columns,
    class_medians,
    svg_curve,
    svg_distribution,
    svg_topics,
)

#: weakest topics listed in a student's feedback
WEAKEST = 5

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


# (a backslash ending a line of the style sheet or the script continues that line: no newline there)
_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:16px auto;max-width:1240px;\
padding:0 12px;color:#1d2330;background:#fff;overflow-wrap:anywhere}
h1{font-size:1.45em;margin:4px 0}h2{font-size:1.1em;margin-top:26px;border-bottom:1px solid #d8dce4;padding-bottom:4px}
.muted{color:#667085;fill:#667085}.meta{color:#4a5263;margin:4px 0 12px}
.scroll{overflow-x:auto;max-width:100%;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:14px}th,td{padding:5px 8px;border-bottom:1px solid #e4e7ec;text-align:left;\
vertical-align:top}
th{background:#f3f5f9}
table.sortable th{cursor:pointer;user-select:none;white-space:nowrap}
table.sortable th:hover{background:#e5eaf3}
th[aria-sort=descending]::after{content:" \\25BE"}th[aria-sort=ascending]::after{content:" \\25B4"}
td.id{white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.name{max-width:22em}td.name a,td.name span.cut{display:block;overflow:hidden;text-overflow:ellipsis;\
white-space:nowrap}
td.name small{display:block;color:#667085;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
td.why{min-width:14em;max-width:30em;white-space:normal}
tr.failed td{background:#fff4f2}.err{color:#b42318}.warn{color:#a15c07}.note{color:#475467}
.badge{display:inline-block;text-align:center;border-radius:9px;padding:0 7px;font-size:12px;white-space:nowrap}
.badge.error{background:#fee4e2;color:#912018}.badge.warning{background:#fef0c7;color:#7a4a00}
.badge.note{background:#eaecf0;color:#344054}.badge.none{background:#ecfdf3;color:#05603a}
.cov{display:inline-block;width:48px;height:8px;background:#e4e7ec;border-radius:4px;margin-right:6px;\
vertical-align:middle}
.cov i{display:block;height:8px;border-radius:4px;background:#2e90fa}.cov.low i{background:#f79009}
.dist{display:flex;flex-wrap:wrap;gap:10px 28px}.dist figure{margin:0;max-width:100%}.dist figcaption{font-weight:600;\
font-size:13px}
figure{margin:8px 0}svg{max-width:100%;height:auto}
svg text{font-size:11px;fill:#4a5263}.axis{stroke:#98a2b3;stroke-width:1}.grid{stroke:#eaecf0;stroke-width:1}
.frame{fill:none;stroke:#d0d5dd}.dot{fill:#2e90fa;fill-opacity:.75}.dot.hl{fill:#d92d20;fill-opacity:1}
.median{stroke:#f79009;stroke-width:2}.best{stroke:#12b76a;stroke-width:2}.bar{fill:#84adff}
.line-run{fill:none;stroke:#2e90fa;stroke-width:2.5}.line-median{fill:none;stroke:#f79009;stroke-width:2;\
stroke-dasharray:5 3}
.legend{margin:4px 0}.legend span{margin-right:16px;white-space:nowrap}.key{display:inline-block;width:14px;\
height:4px;vertical-align:middle;margin-right:4px}
table.scores td.n{min-width:5.5em}table.scores td.first{font-weight:600}
details{border:1px solid #e4e7ec;border-radius:6px;margin:6px 0;padding:6px 10px}
details summary{cursor:pointer}details p{margin:6px 0}
code{background:#f3f5f9;padding:0 3px;border-radius:3px}
@media (max-width:600px){body{margin:8px auto;padding:0 8px}td.name{max-width:9em}td.why{min-width:10em}
th,td{padding:4px 6px}.hide-narrow{display:none}
#board{font-size:13px}#board th,#board td{padding:4px 3px}#board td.name{max-width:6.5em}
#board th{white-space:normal}#board th:first-child{white-space:nowrap}#board td.id,#board .badge{white-space:normal}\
#board .badge{padding:0 4px}}
"""

#: sorting by a click on a column head; wrapped so that the page is well-formed XML too
_SORT_JS = """//<![CDATA[
(function(){
  function key(td){var v=td.getAttribute('data-v');if(v===null){v=td.textContent.trim();}return v;}
  function sort(table,col,th){
    var num=th.getAttribute('data-type')==='num';
    var cur=th.getAttribute('aria-sort');
    var dir=cur?(cur==='descending'?'ascending':'descending'):\
(th.getAttribute('data-first')||(num?'descending':'ascending'));
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
            f"{_averaging(board)}; ordered by <b>{_e(board.sort_by or 'name')}</b>, best first; "
            "equal values share a rank.")
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
            cov = (f'<td class="n hide-narrow" data-v="{e.topics}"><span class="cov{low}">'
                   f'<i style="width:{share * 100:.0f}%"></i>'
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
                    '<p class="muted">One dot per graded run; the orange line is the class median.</p>'
                    '<div class="dist">')
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
            more = " ..." if f.count > len(f.lines) else ""
            lines = f'<p class="muted">lines {", ".join(str(n) for n in f.lines)}{more}</p>'
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
                    f'<th>class median</th><th>class best</th></tr></thead><tbody>{"".join(rows)}</tbody>'
                    '</table></div>')
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
                for _gap, q, v, (med, best) in gaps[:WEAKEST]:
                    note = "  not answered" if ev.filled[ev.topics.index(q)] else ""
                    out.append(f"  topic {q:<12}{v:8.4f}{med:10.4f}{best:10.4f}{note}\n")
    # read in a terminal too (cat, less): escapes in a name or run id are shown, never sent
    return "\n".join(printable(line) for line in "".join(out).split("\n"))


def grades_csv(board: Leaderboard) -> str:
    """``grades.csv``: a row per student (the run graded, or with several the best
    ranked), numbers rounded as shown; with a roster, its rows first, in its order,
    a student without a graded run with an empty grade and the reason."""
    from ....output.table import csv_rows as csv_text

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
