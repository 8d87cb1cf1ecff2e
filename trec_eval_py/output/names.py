"""Names from a class folder made safe to print on a terminal.

A file name may hold any byte but ``/`` and NUL: a student can name a run
``\\x1b]0;...\\x07`` (a terminal escape that retitles the window or worse),
put a newline in it to forge a line of the output, or reverse the text
around it with a bidirectional override. Text output that names files
(``validate``'s findings, ``batch``'s failures and skipped files, the one
line of an error) passes every name through :func:`printable`: control
characters, format characters and lone surrogates (bytes that are not
UTF-8) are shown as Python escapes, everything else as it is.
"""
from __future__ import annotations

import re
import unicodedata

# C0 and C1 controls, DEL, line and paragraph separators, bidirectional controls
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(ch: str) -> str:
    n = ord(ch)
    if 0xDC80 <= n <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
        return f"\\x{n - 0xDC00:02x}"
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def printable(text: str) -> str:
    """``text`` with every character that could act on a terminal shown as an escape
    (tabs too: a name with a tab would shift a column)."""
    text = _UNSAFE.sub(lambda m: _escape(m.group(0)), text)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == " " or unicodedata.category(ch) != "Cf" else _escape(ch)
                   for ch in text)


__all__ = ["printable"]
