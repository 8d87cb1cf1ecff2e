"""Tables on the page: one model, one writer per format.

Every tool that prints rows and columns (compare, batch, validate, diff,
curves, the notebook views) builds a :class:`Table` and hands it to
:func:`render`; how a format escapes text, aligns columns or writes numbers
is decided here and nowhere else.

Formats (``--format`` everywhere; :data:`ALIASES` gives other spellings):

``text``
    aligned columns two spaces apart. Control characters (terminal escape
    sequences with them), bidirectional overrides and undecodable bytes in a
    cell are shown as Python escapes (``\\x1b``; :func:`clean`, the one rule
    of :mod:`~trec_eval_py.output.names`), so a run id cannot move the
    cursor, set the window title or reorder what is shown.
``markdown`` (``md``)
    a GitHub/CommonMark table. ``\\ | < > & * _ ` [ ] # ~`` are escaped
    with a backslash and line breaks become spaces (other controls are
    escaped as in text), so a cell can neither split a row nor carry HTML
    or emphasis.
``latex``
    a booktabs ``tabular`` (inside a ``table`` float when there is a
    caption or label); text is escaped, ``digits`` sets the decimals.
``html``
    a standalone page (``<meta charset="utf-8">``, a small style sheet) or,
    with ``fragment=True``, the ``<table>`` alone for embedding and
    notebooks. Everything is escaped; the table has a ``<thead>`` and a
    ``<tbody>``, as sorting scripts expect.
``csv``
    one header line, then a line per row, at full precision. Safe to open
    in a spreadsheet (OWASP's rule against CSV injection): a text cell that
    starts with ``= + - @``, a tab or a carriage return gets a leading
    ``'`` (text that is a plain number is left alone), numbers stay
    numbers, and a fraction is written as two (or more) numeric columns,
    never as ``3/4``, which a spreadsheet reads as a date.
``tsv``
    tab-separated, numbers as people see them (the column's digits); tabs
    and line breaks inside a cell become spaces; the same spreadsheet
    rules as csv (fractions in columns of their own too).
``json``
    a list of objects keyed by column (full precision; NaN and infinities
    as ``null``); several tables: ``{"tables": [{"title", "rows"}...]}``.

A cell is a plain value (``str``, ``int``, ``float``, ``None``, a tuple
for a fraction) or a :class:`Cell`, which adds the text people see
(``text``), emphasis (``bold``), arrows (``marks``: ``up``, ``down``) and
a superscript (``sup``); machine formats (csv, tsv's numbers, json) take
the value and drop the decoration.
"""
from __future__ import annotations

from ._model import (
                     ALIASES,
                     FORMATS,
                     Cell,
                     Column,
                     Raw,
                     Table,
                     canonical,
                     check_format,
                     check_sections,
                     check_typeset,
                     choices_text,
                     spellings,
)

# the formats' tables and the values' constants, as the tools name them
from ._model import ALIGNS as ALIGNS
from ._model import DEFAULT_DIGITS as DEFAULT_DIGITS
from ._model import KINDS as KINDS
from ._model import MACHINE as MACHINE
from ._model import MARKS as MARKS
from ._safety import clean, html_escape, latex_escape, markdown_escape, spreadsheet_safe, spreadsheet_text
from ._values import ABSENT as ABSENT
from ._values import P_FLOOR as P_FLOOR
from ._values import float_text, pvalue_text
from ._writers import csv_rows, json_text, json_value, paused_gc, records, render, render_sections

__all__ = ["ALIASES", "FORMATS", "Cell", "Column", "Raw", "Table", "canonical", "check_format", "check_typeset",
           "check_sections", "choices_text", "clean", "csv_rows", "float_text", "html_escape", "json_text",
           "json_value", "latex_escape", "markdown_escape", "paused_gc", "pvalue_text", "records", "render",
           "render_sections", "spellings", "spreadsheet_safe", "spreadsheet_text"]
