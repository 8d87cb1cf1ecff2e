"""What kind of file it is: a zip or another binary file, its line endings, a
byte-order mark, and whether it looks like a qrels file (:func:`sniff`)."""
from __future__ import annotations

from ....engine.parse.numbers import FLOAT_RE, INT_RE
from ....engine.parse.source import BINARY_HEAD, binary_reason
from ._findings import ERROR, WARNING, _Collector, _show

_ZIP = (b"PK\x03\x04", b"PK\x05\x06")


def _not_text(data: bytes, out: _Collector) -> bool:
    """One error for a file that is no text at all; True if so."""
    if data.startswith(_ZIP):
        out.add(None, ERROR, "zip",
                "this is a zip archive (or a zip-based document such as .docx or .odt), not a text run file; "
                "hand in the run file itself, as plain text")
        return True
    reason = binary_reason(data[:BINARY_HEAD])
    if reason is not None:
        out.add(None, ERROR, "binary", reason)
        return True
    return False


def _line_ends(data: bytes, out: _Collector) -> bytes:
    """``data`` (a file whole) with CR-only line endings made LF, said once as an error."""
    if b"\r" in data and b"\n" not in data.rstrip(b"\r\n") and data.rstrip(b"\r\n").count(b"\r") >= 1:
        out.add(None, ERROR, "line-endings",
                "lines end in CR alone (an old Mac convention): trec_eval and every reader here see the whole "
                "file as one line; save it with LF or CRLF line endings")
        data = data.replace(b"\r", b"\n")
    return data


def _split_lines(data: bytes, out: _Collector) -> list[bytes]:
    lines = _line_ends(data, out).split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return lines


#: results formats read as trec_eval reads them, byte for byte (a byte-order mark included)
_TREC_EVAL_FORMATS = ("trec_results",)


def _check_bom(data: bytes, results_format: str, out: _Collector) -> None:
    """A UTF-8 byte-order mark at the start of the file (Notepad writes one): said once,
    with what the evaluation makes of it."""
    from ....engine.parse.source import BOM

    if not data.startswith(BOM):
        return
    if results_format in _TREC_EVAL_FORMATS:
        first = data[3:].split(None, 1)[:1]
        shown = _show(BOM + first[0]) if first else "''"
        out.add(1, WARNING, "bom",
                f"the file starts with a UTF-8 byte-order mark: trec_eval reads it as part of the first "
                f"topic id ({shown}), which matches no topic of judgments saved without it; save the file "
                "without it (as UTF-8, not 'UTF-8 with BOM')")
    else:
        out.add(1, WARNING, "bom",
                "the file starts with a UTF-8 byte-order mark: it is skipped, as the format's official "
                "scripts skip it; saving the file without it is safer")


def sniff(data: bytes, probe: int = 20) -> str | None:
    """``'run'``, ``'qrels'`` or None: what the first content lines look like."""
    shapes: list[str | None] = []
    for raw in _first_lines(data, 200):
        f = raw.split()
        if not f or f[0].startswith(b"#"):
            continue
        if len(f) == 4 and INT_RE.fullmatch(f[3]):
            shapes.append("qrels")
        elif len(f) >= 6 and FLOAT_RE.fullmatch(f[4]):
            shapes.append("run")
        else:
            shapes.append(None)
        if len(shapes) >= probe:
            break
    if shapes and all(s == shapes[0] for s in shapes):
        return shapes[0]
    return None


def _first_lines(data: bytes, n: int) -> list[bytes]:
    """``data.split(b"\\n", n)[:n]`` without copying the rest of a big file."""
    if n <= 0:
        return []
    end = -1
    for _ in range(n):
        end = data.find(b"\n", end + 1)
        if end < 0:
            return data.split(b"\n", n)[:n]
    return data[:end].split(b"\n")
