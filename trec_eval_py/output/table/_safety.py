"""Text made safe for where it lands: one line of printable text, Markdown, LaTeX,
HTML, and spreadsheets (no cell that a spreadsheet would run as a formula)."""
from __future__ import annotations

import re

from ..names import printable
from ._model import Raw


def clean(s: str) -> str:
    """``s`` safe to show on a terminal: :func:`~trec_eval_py.output.names.printable`
    (control characters, escape sequences, bidirectional overrides and undecodable
    bytes shown as Python escapes, ``\\x1b``), the one rule for every text output."""
    return s if s.isprintable() else printable(s)


def _one_line(s: str) -> str:
    """``s`` for a cell of a markup format: line breaks as spaces (a row stays one
    line), then :func:`clean`."""
    if s.isprintable():
        return s
    return clean(s.replace("\r\n", " ").replace("\n", " ").replace("\r", " "))


_MD_SPECIAL = re.compile(r"([\\|<>&*_`\[\]#~])")


def markdown_escape(s: str) -> str:
    """Text for a markdown table cell or paragraph (see the module doc)."""
    return _MD_SPECIAL.sub(r"\\\1", _one_line(s))


_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
        "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
        ">": r"\textgreater{}", "|": r"\textbar{}"}
_TEX_SPECIAL = re.compile(r"[\\&%$#_{}~^<>|]")


def latex_escape(s: str) -> str:
    """Text for LaTeX: every special character written as itself."""
    if isinstance(s, Raw):
        return str(s)
    return _TEX_SPECIAL.sub(lambda m: _TEX[m.group(0)], _one_line(s))


def html_escape(s: str) -> str:
    from html import escape

    return escape(_one_line(s), quote=True)


_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*\Z")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
#: look-alikes of a formula's first character that NFKC leaves as they are (the minus sign)
_FORMULA_LOOKALIKE = frozenset("\u2212")


def _formula_first(s: str) -> bool:
    """Whether ``s`` starts as a formula would: ``= + - @``, a tab, a carriage return, or a
    Unicode look-alike of one (fullwidth ``＝``, small ``﹢``, the minus sign ``−``...),
    found by NFKC, since some spreadsheets fold them to the ASCII sign."""
    c = s[:1]
    if c in _FORMULA:
        return True
    if c < "\x80":
        return False
    import unicodedata

    return c in _FORMULA_LOOKALIKE or unicodedata.normalize("NFKC", c)[:1] in _FORMULA


def spreadsheet_safe(s: str) -> str:
    """A text cell for csv/tsv: a leading ``'`` if a spreadsheet would run it as a formula."""
    if _formula_first(s) and not _NUMBER.match(s):
        return "'" + s
    return s


def spreadsheet_text(s: str) -> str:
    """The text :func:`spreadsheet_safe` was given (for readers of our own csv)."""
    if s[:1] == "'" and _formula_first(s[1:]) and not _NUMBER.match(s[1:]):
        return s[1:]
    return s
