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

# the class's numbers and the feedback's length, as the tests and the tools name them
from ._figures import TOPIC_LABELS as TOPIC_LABELS
from ._figures import class_medians, svg_curve, svg_distribution, svg_topics
from ._figures import class_topic_stats as class_topic_stats
from ._figures import median_curve as median_curve
from ._files import SUBFOLDERS, TOP_FILES, check_report, report_writes, write_report
from ._pages import SLUG_MAX, class_best, feedback_text, grades_csv, short_names, slugs
from ._pages import WEAKEST as WEAKEST

__all__ = ["SUBFOLDERS", "TOP_FILES", "check_report", "report_writes", "class_best", "class_medians", "feedback_text",
           "grades_csv", "short_names", "write_report", "SLUG_MAX", "slugs", "svg_curve", "svg_distribution",
           "svg_topics"]
