"""The server's pages: Jinja2 templates, every value escaped as the batch report
escapes it (:func:`~trec_eval_py.output.table.html_escape`: HTML's characters,
and control characters shown, never sent), whatever a template forgets."""
from __future__ import annotations

_BASE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }} - {{ course }}</title>
<style>
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1b1f24;background:#fafafa}
header{background:#24364b;color:#fff;padding:.6em 1em;display:flex;flex-wrap:wrap;gap:.4em 1.2em;align-items:center}
header a{color:#fff}header .who{margin-left:auto}
main{max-width:1100px;margin:0 auto;padding:1em}
h1{font-size:1.4em;margin:.3em 0 .6em}h2{font-size:1.15em;margin:1.4em 0 .5em}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;background:#fff;min-width:60%}
th,td{border:1px solid #d5d9de;padding:.3em .6em;text-align:left;vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.error{color:#a30000}.warning{color:#8a5300}.note{color:#335}
.badge{display:inline-block;border-radius:.7em;padding:0 .5em;font-size:.85em;background:#e8ebef}
.badge.late{background:#ffe2b8}.badge.pending{background:#dde9ff}.badge.failed{background:#ffd6d6}
.badge.final{background:#d7f5dc}
form.inline{display:inline}
.box{background:#fff;border:1px solid #d5d9de;border-radius:6px;padding:.8em 1em;margin:.8em 0}
button,input[type=submit]{font:inherit;padding:.35em .9em;border-radius:4px;border:1px solid #24364b;
 background:#24364b;color:#fff;cursor:pointer}
code,pre{background:#eef0f3;padding:.1em .3em;border-radius:3px;white-space:pre-wrap;word-break:break-all}
pre#feedback{word-break:normal;overflow-wrap:anywhere;padding:.5em .7em}
.flash{background:#fff7d1;border:1px solid #e5cf6a;padding:.5em .8em;border-radius:4px}
.muted{color:#666}
</style></head><body>
<header><strong>{{ course }}</strong>
{% if me %}<a href="/">Board</a>{% if me.student %}<a href="/me">My submissions</a>{% endif %}
{% if me.teacher %}<a href="/teacher">Teacher</a>{% endif %}
<span class="who">{{ me.name }}
<form class="inline" method="post" action="/signout"><input type="hidden" name="csrf" value="{{ me.csrf }}">
<button type="submit">Sign out</button></form></span>{% endif %}
</header><main>
{% if flash %}<p class="flash" id="flash">{{ flash }}</p>{% endif %}
{% block body %}{% endblock %}
</main></body></html>
"""

_BOARD_TABLE = """{% macro board_table(rows, columns, sort_by, me_id, link) -%}
<div class="scroll"><table class="board"><thead><tr><th class="num">#</th><th>Student</th>
{% for c in columns %}<th class="num">{{ c }}{% if c == sort_by %} &#9660;{% endif %}</th>{% endfor %}
<th class="num">Runs</th></tr></thead><tbody>
{% for r in rows %}<tr{% if r.student_id == me_id %} class="mine"{% endif %}><td class="num">{{ r.rank }}</td>
<td>{% if link %}<a href="/submissions/{{ r.submission }}">{{ r.student }}</a>{% else %}{{ r.student }}{% endif %}
{% if r.student_id == me_id %} <span class="badge">you</span>{% endif %}</td>
{% for c in columns %}<td class="num">{{ show(r.scores[c]) }}</td>{% endfor %}
<td class="num">{{ r.runs }}</td></tr>
{% else %}<tr><td colspan="{{ columns|length + 3 }}" class="muted">No graded run yet.</td></tr>{% endfor %}
</tbody></table></div>
{%- endmacro %}"""

_SUBMISSIONS_TABLE = """{% macro submissions_table(subs, columns, show_private, finals_form) -%}
<div class="scroll"><table class="subs"><thead><tr>{% if finals_form %}<th>Final</th>{% endif %}
<th>#</th><th>File</th><th>Received (UTC)</th><th>Status</th>
{% for c in columns %}<th class="num">{{ c }} (public)</th>{% endfor %}
{% if show_private %}{% for c in columns %}<th class="num">{{ c }} (private)</th>{% endfor %}{% endif %}
<th>Findings</th></tr></thead><tbody>
{% for s in subs %}<tr>{% if finals_form %}<td>{% if s.can_be_final %}<input type="checkbox" name="final"
 value="{{ s.id }}" aria-label="final {{ s.id }}"{% if s.final %} checked{% endif %}>{% endif %}</td>{% endif %}
<td><a href="/submissions/{{ s.id }}">{{ s.id }}</a></td><td>{{ s.filename }}</td><td>{{ s.when }}</td>
<td><span class="badge {{ s.status }}">{{ s.status }}</span>{% if s.late %} <span class="badge late">late</span>{% endif %}
{% if s.is_final %} <span class="badge final">final</span>{% endif %}</td>
{% for c in columns %}<td class="num">{{ show(s.public[c]) if s.public else "" }}</td>{% endfor %}
{% if show_private %}{% for c in columns %}<td class="num">{{ show(s.private[c]) if s.private else "" }}</td>{% endfor %}{% endif %}
<td>{{ s.headline }}</td></tr>
{% else %}<tr><td colspan="99" class="muted">No submission yet.</td></tr>{% endfor %}
</tbody></table></div>
{%- endmacro %}"""

TEMPLATES = {
    "base.html": _BASE,
    "macros.html": _BOARD_TABLE + "\n" + _SUBMISSIONS_TABLE,
    "board.html": """{% extends "base.html" %}{% from "macros.html" import board_table %}{% block body %}
<h1>Leaderboard</h1>
<p class="muted">Public board: {{ n_public }} of {{ n_topics }} topics; every judged topic of them counts
(a topic a run does not answer scores 0). Best run of each student, ranked by {{ sort_by }}.</p>
{{ board_table(public, columns, sort_by, me_id, false) }}
{% if revealed %}<h2>Private board (revealed)</h2>
<p class="muted">The other {{ n_topics - n_public }} topics; each student's best final run.</p>
{{ board_table(private, columns, sort_by, me_id, false) }}
{% else %}<p class="muted" id="private-hidden">The private board is hidden until the teacher reveals it.</p>{% endif %}
<p><a href="/board.csv">CSV</a> &middot; <a href="/api/board">JSON</a></p>
{% endblock %}""",
    "signin.html": """{% extends "base.html" %}{% block body %}
<h1>Sign in</h1>
{% if token %}<form method="post" action="/signin" class="box">
<input type="hidden" name="token" value="{{ token }}"><input type="hidden" name="csrf" value="{{ csrf }}">
<p>This link signs you in once.</p><button type="submit" id="signin">Sign in</button></form>
{% else %}<p>Open the sign-in link your teacher gave you. Teachers: <a href="/teacher/login">sign in here</a>.</p>
{% endif %}{% endblock %}""",
    "teacher_login.html": """{% extends "base.html" %}{% block body %}
<h1>Teacher sign-in</h1><form method="post" action="/teacher/login" class="box">
<input type="hidden" name="csrf" value="{{ csrf }}">
<label>Teacher token (the file teacher-token in the state folder)<br>
<input type="password" name="token" autocomplete="off" size="50"></label>
<button type="submit">Sign in</button></form>{% endblock %}""",
    "me.html": """{% extends "base.html" %}{% from "macros.html" import submissions_table %}{% block body %}
<h1>{{ me.name }}</h1>
<div class="box"><h2>Upload a run</h2>
<form method="post" action="/submissions" enctype="multipart/form-data">
<input type="hidden" name="csrf" value="{{ me.csrf }}">
<input type="file" name="run" required> <button type="submit" id="upload">Upload</button></form>
<p class="muted">{{ used }} of {{ daily_limit or "unlimited" }} uploads used today (UTC).
{% if deadline %}Deadline: {{ deadline }} UTC{% if past_deadline %} (passed: new runs are kept but marked late and not ranked){% endif %}.{% endif %}
Most {{ max_upload }}.</p></div>
<h2>My submissions</h2>
<form method="post" action="/finals"><input type="hidden" name="csrf" value="{{ me.csrf }}">
{{ submissions_table(subs, columns, false, true) }}
<p>Tick up to {{ finals }} final run{{ "s" if finals != 1 }} (the private board ranks your best final; without a tick,
your {{ finals }} best public one{{ "s" if finals != 1 }}). <button type="submit" id="save-finals">Save finals</button></p></form>
<div class="box"><h2>Upload from a terminal</h2>
<form method="post" action="/token"><input type="hidden" name="csrf" value="{{ me.csrf }}">
<button type="submit">New API token</button></form>
{% if new_token %}<p>Your token (shown once; a new one replaces it):</p><pre id="token">{{ new_token }}</pre>{% endif %}
<pre>curl -H "Authorization: Bearer TOKEN" -F run=@run.txt {{ base_url }}/api/submissions</pre></div>
{% endblock %}""",
    "submission.html": """{% extends "base.html" %}{% block body %}
<h1>Submission {{ s.id }}: {{ s.filename }}</h1>
<p>{% if owner %}Student: {{ owner }}. {% endif %}Received {{ s.when }} UTC; <span class="badge {{ s.status }}">{{ s.status }}</span>
{% if s.late %}<span class="badge late">late</span>{% endif %}{% if s.is_final %} <span class="badge final">final</span>{% endif %}
&middot; <a href="/submissions/{{ s.id }}/run">the run as uploaded</a> &middot; SHA-256 <code>{{ s.sha256 }}</code></p>
{% if s.status == "pending" %}<p id="pending">Being graded: this page shows the result when it is done.
<script>setTimeout(function(){location.reload()},1500)</script></p>{% endif %}
{% if s.error %}<p class="error" id="not-graded">Not graded: {{ s.error }}</p>{% endif %}
{% if s.public %}<h2>Scores</h2><div class="scroll"><table id="scores"><thead><tr><th>Measure</th>
<th class="num">Public topics ({{ n_public }})</th>{% if show_private %}<th class="num">Private topics</th>{% endif %}
<th class="num">Class median (public)</th></tr></thead><tbody>
{% for c in columns %}<tr><td>{{ c }}</td><td class="num">{{ show(s.public[c]) }}</td>
{% if show_private %}<td class="num">{{ show(s.private[c]) if s.private else "" }}</td>{% endif %}
<td class="num">{{ show(medians[c]) }}</td></tr>{% endfor %}</tbody></table></div>
<p class="muted">Run id: {{ s.runid }}. The public numbers are those of <code>trec_eval_py -c</code> on the public topics' judgments.</p>{% endif %}
{% if feedback %}<h2>Feedback</h2><p class="muted">As the batch report gives it, on the public topics; the findings
are those of <code>trec_eval_py validate --qrels</code>.</p><pre id="feedback">{{ feedback|lines }}</pre>{% endif %}
{% endblock %}""",
    "teacher.html": """{% extends "base.html" %}{% from "macros.html" import board_table %}{% block body %}
<h1>Teacher</h1>
<div class="box"><p>{{ n_students }} students, {{ n_subs }} submissions ({{ n_pending }} being graded,
{{ n_failed }} not graded, {{ n_late }} late). Public topics: {{ n_public }} of {{ n_topics }}.</p>
{% if revealed %}<p id="revealed">The private board is revealed.</p>{% else %}
<form method="post" action="/teacher/reveal" class="inline"><input type="hidden" name="csrf" value="{{ me.csrf }}">
<button type="submit" id="reveal">Reveal the private board</button></form>{% endif %}
<form method="post" action="/teacher/links" class="inline"><input type="hidden" name="csrf" value="{{ me.csrf }}">
<button type="submit">New sign-in links (CSV)</button></form>
<p><a href="/teacher/grades.csv">grades.csv</a> &middot; <a href="/teacher/submissions.zip">every submission (zip)</a>
&middot; <a href="/board.csv">board CSV</a></p></div>
<h2>Public board</h2>{{ board_table(public, columns, sort_by, none, true) }}
<h2>Private board{% if not revealed %} (hidden from students){% endif %}</h2>{{ board_table(private, columns, sort_by, none, true) }}
<h2>Students</h2><div class="scroll"><table><thead><tr><th>Student</th><th>Id</th><th class="num">Runs</th>
<th class="num">Not graded</th><th>Last findings</th></tr></thead><tbody>
{% for s in students %}<tr><td><a href="/teacher/students/{{ s.id }}">{{ s.name }}</a></td><td>{{ s.key }}</td>
<td class="num">{{ s.runs }}</td><td class="num">{{ s.failed }}</td><td>{{ s.last }}</td></tr>{% endfor %}
</tbody></table></div>{% endblock %}""",
    "student_history.html": """{% extends "base.html" %}{% from "macros.html" import submissions_table %}{% block body %}
<h1>{{ student.name }} <span class="muted">({{ student.key }})</span></h1>
{{ submissions_table(subs, columns, true, false) }}
<form method="post" action="/teacher/links"><input type="hidden" name="csrf" value="{{ me.csrf }}">
<input type="hidden" name="student" value="{{ student.id }}"><button type="submit">New sign-in link (CSV)</button></form>
{% endblock %}""",
    "message.html": """{% extends "base.html" %}{% block body %}<h1>{{ title }}</h1><p id="message">{{ message }}</p>
{% endblock %}""",
}


def environment():
    """The Jinja2 environment of :data:`TEMPLATES`, autoescaping, every value through
    the report's escaping (``None`` shows as nothing)."""
    from jinja2 import DictLoader, Environment, StrictUndefined
    from markupsafe import Markup

    from ..output.table import html_escape

    def finalize(value):
        if value is None:
            return ""
        if isinstance(value, Markup):
            return value
        return Markup(html_escape(str(value)))

    def lines(text) -> Markup:
        # a text of several lines (the feedback) for a <pre>: each line escaped as above
        return Markup("\n".join(html_escape(line) for line in str(text).split("\n")))

    env = Environment(loader=DictLoader(TEMPLATES), autoescape=True, finalize=finalize, undefined=StrictUndefined)
    env.filters["lines"] = lines
    return env
