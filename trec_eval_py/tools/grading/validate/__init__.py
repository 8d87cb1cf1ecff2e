"""Checking run files the way an evaluation campaign does before accepting them.

One validator gives one verdict: ``validate``, ``batch``, its report and the
students' feedback files all show the findings of :func:`validate_run`, with
the same severities and counts. A run with an error is not graded by
``batch`` (see :mod:`trec_eval_py.tools.grading.leaderboard`); warnings and notes
travel with its grade.

Unlike the readers, which stop at the first bad line, this is a linter: it
reads every line and reports every problem, each check **once per run** (a
:class:`Finding` counts its lines or topics and lists a few of them), so a
run of 50,000 lines with one mistake gets one finding, not 50,000. The first
finding names the real problem: a file that is not a run at all (a zip, a
binary, a qrels file, CR-only line endings) gets one error saying so; a
missing column is named from the shape of the other fields; a header only
when the first line differs from the rest; a comma-separated file as such.

Severities order the list:

``error``
    the file is malformed, is read differently from what was meant, or
    breaks a campaign rule (a second run id, too many documents): not graded;
``warning``
    well-formed, but something changes the values (scores that rise with the
    rank, a tie the docno tie-break decides across a cutoff, topics left out,
    most topics mostly unjudged);
``note``
    worth knowing, changes no value or little (the rank column, which is
    ignored; topics nobody judged; ties decided by the docno tie-break
    within a cutoff; a few topics mostly unjudged). ``tie`` and ``unjudged``
    are notes unless severe: nearly every run of a class has some tied scores
    and some unjudged documents, and a finding every run gets warns of
    nothing.

Checks, by code, in the order they are listed (the real problem first)::

    errors
      ``zip``              a zip archive (or a zip-based document such as .docx), not a text file
      ``binary``           another binary file (a PDF, NUL bytes near the start)
      ``looks-like-qrels`` every line is ``qid iter docno rel``: qrels and run given in swapped order
      ``line-endings``     lines end in CR alone (classic Mac): every reader sees one long line;
                           or a carriage return inside a line, which every reader rejects
      ``empty``            no result lines (nothing, or only comments)
      ``nul``              a NUL byte in a line
      ``separator``        fields separated by commas, semicolons or bars instead of blanks
      ``fields``           fewer than the six fields ``qid iter docno rank score runid`` (the
                           missing column is named from the other lines), or more than 32
      ``header``           the first line is a header (unlike every other line)
      ``score-type``       the score is not a decimal number (NaN, a decimal comma)
      ``duplicate-docno``  a document listed twice for one topic
      ``runid``            more than one run id in the file
      ``too-many-docs``    topics with more documents than allowed (default 1000)
      ``no-common-topics`` no topic of the run is in the qrels (or ``--topics``), with a hint
                           when the ids differ by a pattern (a prefix, zero padding, case)
      ``unreadable``       the file cannot be read (or the evaluation refused it)
      ``format``           a run in another results format (``-T``): its reader's first error
    warnings
      ``reversed-scores``  in most topics scores rise with the rank: trec_eval ranks by score,
                           higher first, so the ranking is evaluated upside down
      ``topic-not-in-run`` judged topics the run lacks (each scores 0 when every judged topic
                           counts, batch's default)
      ``tie``              (a note unless severe) equal scores where the tie-break (docno, not the
                           rank column) decides a value: with judgments, tied documents judged
                           differently and ranked otherwise by the run; without, a tie across a
                           cutoff (5, 10, 20, 100, 1000). A warning when a tie decides which
                           documents are inside a cutoff (with judgments: documents judged
                           differently), so a cutoff measure such as P@10 changes
      ``score-order``      in a few topics a score is higher than at the rank before it
      ``unjudged``         (a note unless severe) topics whose top 10 is more than half (default)
                           unjudged: their scores are underestimates. A warning when that is so
                           of more than half of the run's judged topics (its mean is then an
                           underestimate, not a few of its topics)
      ``comment``          ``#`` lines (trec_eval 10.0 skips them; 9.0.8 reads them as results)
      ``extra-fields``     more than six fields (the extra ones are ignored)
      ``bom``              a UTF-8 byte-order mark at the start: trec_eval reads it as part of the
                           first topic id (the readers of other formats skip it)
      ``encoding``         lines that are not valid UTF-8
    notes
      ``rank-sequence``    a topic's ranks are not 1, 2, ... n (the rank column is ignored)
      ``rank-type``        the rank is not an integer (the rank column is ignored)
      ``topic-not-in-qrels``  run topics without judgments (trec_eval ignores them)

``header`` is a warning instead when the header line is skipped on request
(``skip_header``, ``--skip-header``): the file is then graded without it.
Checks are turned off with ``ignore`` (or all but some with ``select``), as
a linter's are; a check without which the file cannot be read as meant
(those marked :attr:`Check.blocking`) cannot be ignored.

The topic checks need the qrels (``qrels``) or just their topic ids
(``topics``: one id per line, or a qrels file, whose first column is read), so
students can check their runs without seeing the judgments; ``unjudged`` and
the judgment rule of ``tie`` need the qrels. Windows (CRLF) line endings and
tabs are not findings: every reader takes them for blanks.

Memory and speed: a TREC run is read in pieces of about 8 MB
(``piece_bytes`` of :data:`~trec_eval_py.engine.join.policy.POLICY`, the
sizes every reader of runs follows), as the evaluation reads a large run. Each piece is
split by the readers' own scanner
(:func:`~trec_eval_py.engine.parse.fields.split_fields`) and checked column
by column; a piece with a line problem is looked at in parts of 64 KB
(:data:`PROBLEM_BYTES`), and only the parts with a problem are read line by
line, to find every bad line. The other checks run on groups of complete
topics as the pieces complete them (a run lists each topic's lines
together), and each check keeps its count, its first example and the lines
it lists: memory holds a piece's rows, a little per topic and per run id,
and the judgments, whatever the size of the file. The findings, their counts,
examples and order are those of the file checked whole.

A run that lists a topic in two places (its lines not together: runs
concatenated from several files, lines sorted by score across topics) is
read again in pieces: its line checks and run ids go in file order as
before, while each line's columns are written to one of several temporary
files chosen by a hash of its topic id (about a piece of the run each, at
most ``POLICY.max_spill_files``, as the evaluation regroups such a run); each file, every line of its topics in file
order, is then checked as one group. Memory is then that of a piece or of
one file's topics, not of the run (a topic's lines are always held
together). The temporary files live in a scratch folder removed when the
check ends, fails or is stopped (Ctrl-C, SIGTERM). The report is still the
whole check's, by construction rather than by the order of the files: a check
keeps the example the whole check finds first (the least first line of its
topic, or the least line) and the least lines it lists, whatever order its
groups of topics come in. Such a run costs a second reading, and the first
reading's work up to where a topic came back.
"""
from __future__ import annotations

# the settings' defaults, the checks' tables, the output formats and the findings as a table
from ._findings import CHECK as CHECK
from ._findings import CHECKS, ERROR, NOTE, WARNING, Check, Finding, Report, check_codes, selected_checks
from ._findings import COMMON_CUTOFFS as COMMON_CUTOFFS
from ._findings import DEFAULT_DOC_LIMIT as DEFAULT_DOC_LIMIT
from ._findings import DEFAULT_MAX_PER_CHECK as DEFAULT_MAX_PER_CHECK
from ._findings import DEFAULT_MAX_UNJUDGED as DEFAULT_MAX_UNJUDGED
from ._findings import HINTS as HINTS
from ._findings import MAX_FIELDS as MAX_FIELDS
from ._findings import NOT_A_RUN as NOT_A_RUN
from ._findings import SEVERITIES as SEVERITIES
from ._findings import UNJUDGED_DEPTH as UNJUDGED_DEPTH
from ._lines import COLUMN_NAMES as COLUMN_NAMES
from ._lines import missing_columns
from ._reports import FORMATS as FORMATS
from ._reports import findings_table as findings_table
from ._reports import render_reports, total_counts, validate_runs
from ._run import unreadable_report, validate_run
from ._sniff import sniff
from ._topics import JUDGMENTS as JUDGMENTS
from ._topics import TopicSet, blank_line, checks_read, load_qrels, qrels_topics, read_topics, unjudged_at_top

__all__ = ["CHECKS", "Check", "ERROR", "Finding", "NOTE", "Report", "TopicSet", "WARNING", "blank_line",
           "check_codes", "checks_read", "load_qrels", "missing_columns", "qrels_topics", "read_topics",
           "render_reports", "selected_checks", "sniff", "total_counts", "unjudged_at_top",
           "unreadable_report", "validate_run", "validate_runs"]
