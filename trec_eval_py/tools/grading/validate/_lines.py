"""The columns of a run: the fast scanner's, and the line scan that reads the lines
with a problem one by one (fields, separators, a header, numbers, encodings)."""
from __future__ import annotations

import functools
import itertools
import math
import re

import numpy as np

from ...._record import record
from ....engine.parse import Run
from ....engine.parse.fields import has_bare_cr, split_fields
from ....engine.parse.layouts import FLOAT as _F
from ....engine.parse.layouts import INT as _I
from ....engine.parse.layouts import TEXT as _T
from ....engine.parse.layouts import column_budget
from ....engine.parse.numbers import FLOAT_RE, INT_RE
from ....errors import InputError
from ._findings import ERROR, MAX_FIELDS, WARNING, Report, _Collector, _show, _shown_line


@record(frozen=False)
class _Cols:
    """The result lines of a run as columns (rank NaN where it is no integer)."""

    qid: np.ndarray
    docno: np.ndarray
    rank: np.ndarray
    score: np.ndarray
    runid: np.ndarray
    line: np.ndarray

    def __len__(self) -> int:
        return len(self.line)

    def take(self, idx) -> _Cols:
        return _Cols(self.qid[idx], self.docno[idx], self.rank[idx], self.score[idx], self.runid[idx], self.line[idx])

    def as_run(self, name: str = "", runid: str = "") -> Run:
        """The lines as the engine reads a run (topic, docno, score, line; ``name`` in its errors)."""
        return Run(self.qid, self.docno, self.score, self.line, runid, name)

    @staticmethod
    def empty() -> _Cols:
        text = np.zeros(0, dtype="S1")
        return _Cols(text, text, np.zeros(0), np.zeros(0), text, np.zeros(0, dtype=np.int64))

    @staticmethod
    def joined(parts: list, name: str = "") -> _Cols:
        """The rows of ``parts`` (:class:`_Cols`), one after the other. Text is stored at
        the width of its longest value: rows padded to a field far longer than the others'
        (a docno of megabytes after a topic of short ones) would fill the memory, so such
        a field is an error naming its line (the bound of the readers' columns,
        :func:`~trec_eval_py.engine.parse.layouts.column_budget`)."""
        parts = [p for p in parts if len(p)]
        if len(parts) <= 1:
            return parts[0] if parts else _Cols.empty()
        rows = sum(len(p) for p in parts)
        for number, column in ((1, "qid"), (3, "docno"), (6, "runid")):
            arrays = [getattr(p, column) for p in parts]
            width = max(a.itemsize for a in arrays)
            if width * rows > column_budget(sum(a.nbytes for a in arrays)):
                wide = max(parts, key=lambda p: getattr(p, column).itemsize)
                i = int(np.argmax(np.char.str_len(getattr(wide, column))))
                raise InputError(name, f"run field {number} is {width} bytes long: padding all {rows} lines to it "
                                       f"would need {width * rows / 2**30:.1f} GiB (fields are stored at the width "
                                       f"of the longest)", int(wide.line[i]))
        return _Cols(*(np.concatenate(cols) for cols in zip(*(
            (p.qid, p.docno, p.rank, p.score, p.runid, p.line) for p in parts))))

    def then(self, other: _Cols, name: str = "") -> _Cols:
        """These rows followed by ``other``'s (see :meth:`joined`)."""
        return _Cols.joined([self, other], name)


_COMMENT_LINE = re.compile(rb"(?:^|\n)[ \t\r\x0b\x0c]*#")


def _fast_columns(data: bytes, name: str, first_line: int = 1) -> tuple[_Cols, int] | None:
    """The columns of a run (or of a piece of one whose first line is ``first_line``)
    whose every line is a plain result (6 fields, a number as score, an integer as
    rank, UTF-8, no comment), split by the readers' own scanner, and the number of
    lines; None for any other (it is read line by line)."""
    if b"#" in data and _COMMENT_LINE.search(data):  # most runs hold no '#' at all
        return None
    try:
        data.decode("utf-8")
        f = split_fields(data, name, min_fields=6, max_fields=6, wanted={0: _T, 2: _T, 3: _I, 4: _F, 5: _T},
                         labels={3: "rank", 4: "score"}, what="run", first_line=first_line)
    except (InputError, UnicodeDecodeError):
        return None
    score = f.columns[4]
    if len(score) == 0 or np.isnan(score).any():
        return None
    rank = f.columns[3].astype(np.float64)
    return _Cols(f.columns[0], f.columns[2], rank, score.astype(np.float64, copy=False), f.columns[5],
                 f.lineno.astype(np.int64, copy=False)), f.num_lines


def _kind(tok: bytes) -> str:
    if INT_RE.fullmatch(tok):
        return "i"
    if FLOAT_RE.fullmatch(tok):
        return "f"
    return "w"


#: the six columns of a run, as messages name them
COLUMN_NAMES = ("topic id", "iter ('Q0')", "docno", "rank", "score", "run id")
_SEPARATORS = ((b",", "commas"), (b";", "semicolons"), (b"|", "bars ('|')"))


def _column_fit(col: list[bytes], position: int, qids: list[bytes] | None) -> float:
    """How well the tokens ``col`` fit the run's column ``position`` (0 to 1)."""
    n = len(col)
    if position == 0:  # topic ids come in runs of equal values
        return sum(a == b for a, b in zip(col, col[1:])) / max(n - 1, 1) if n > 1 else 0.5
    if position == 1:
        return max(sum(t in (b"Q0", b"q0", b"0") for t in col) / n, 0.5 * (len(set(col)) == 1 and n > 1))
    ints = [INT_RE.fullmatch(t) is not None for t in col]
    # ranks count up by one within a topic; scores and docnos do not
    steps = [int(b) - int(a) == 1 for a, b, ia, ib in zip(col, col[1:], ints, ints[1:]) if ia and ib]
    counting = sum(steps) / len(steps) if steps else 0.0
    if position == 2:
        if len(set(col)) <= 1 and n > 1:
            return 0.0
        decimals = sum(b"." in t and FLOAT_RE.fullmatch(t) is not None for t in col) / n
        return 1.0 - 0.6 * max(counting, decimals)
    if position == 3 or position == 4:
        if position == 3:
            return sum(ints) / n * (0.5 + 0.5 * counting)
        floats = sum(FLOAT_RE.fullmatch(t) is not None for t in col) / n
        return floats * (1.0 - 0.5 * counting)
    # the run id: one word on every line
    return 1.0 if len(set(col)) == 1 and FLOAT_RE.fullmatch(col[0]) is None else 0.0


def missing_columns(rows: list[list[bytes]]) -> tuple[int, ...] | None:
    """Which of the six columns lines of fewer fields lack, from the shape of their
    fields (``rows``: the fields of such lines, all of one length), if one answer
    fits clearly better than the others; else None."""
    if not rows:
        return None
    k = len(rows[0])
    if not 2 <= k < 6:
        return None
    sample = rows[:400]
    cols = [[r[i] for r in sample] for i in range(k)]
    fits = []
    for missing in itertools.combinations(range(6), 6 - k):
        positions = [p for p in range(6) if p not in missing]
        fits.append((sum(_column_fit(c, p, None) for c, p in zip(cols, positions)), missing))
    fits.sort(reverse=True)
    best, runner = fits[0], fits[1] if len(fits) > 1 else (-1.0, ())
    if best[0] >= k - 1 and best[0] - runner[0] >= 0.3:
        return best[1]
    return None


def _missing_message(missing: tuple[int, ...] | None, k: int) -> str:
    need = "a result line has 6: qid Q0 docno rank score runid (e.g. '401 Q0 DOC1 1 12.5 myrun')"
    if missing is None:
        return f"{k} field{'s' * (k != 1)}; {need}"
    names = [COLUMN_NAMES[m] for m in missing]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    shape = " ".join(("qid", "Q0", "docno", "rank", "score", "runid")[p] for p in range(6) if p not in missing)
    return (f"the {what} column{'s are' if len(names) > 1 else ' is'} missing: the lines have {k} fields "
            f"({shape}); {need}")


#: content lines that settle whether the first one is a header (it and the 200 after it)
_HEADER_PROBE = 201
#: lines of one short shape looked at to name the missing column
_SHAPE_SAMPLE = 400


class _LineScan:
    """Every line looked at on its own (a run with a line problem), fed in file order
    one piece or more at a time: every line problem goes to the collector, the
    result lines come back as columns.

    What needs lines further on is kept, not the lines: the first content lines
    until it is settled whether the first is a header (it is when it holds no
    number and the next :data:`_HEADER_PROBE` - 1 mostly do), and per number of
    fields of the short lines, their count and the fields of the first
    :data:`_SHAPE_SAMPLE` (a missing column is named from them when the file is done).
    """

    def __init__(self, out: _Collector, skip_header: bool, report: Report):
        self.out = out
        self.skip_header = skip_header
        self.report = report
        #: content lines (not blank, not a comment, the header left out)
        self.content = 0
        #: whether any line holds more than blanks
        self.any_text = False
        self.held: list | None = []  # content lines until the header question is settled; then None
        self.short: dict[int, list] = {}  # number of fields -> [lines, the first ones' fields]

    def plain(self, cols: _Cols) -> bool:
        """Take the result lines ``cols`` of a piece of plain result lines (every one a
        result, read by the fast scanner), if the header question allows: True if so
        (they have no problem to report); False when lines are held, and the piece
        must be fed line by line."""
        if self.held:
            return False
        # its first line has numbers, so it is no header: the question is settled
        self.held = None
        self.content += len(cols)
        self.any_text = self.any_text or len(cols) > 0
        return True

    def feed(self, lines: list[bytes], first_no: int = 1) -> _Cols:
        """The result lines among ``lines`` (the first is line ``first_no``) as columns."""
        content = self._line_checks(lines, first_no)
        if self.held is None:
            return self._results(content)
        self.held += content
        held = self.held
        if not held or (len(held) < _HEADER_PROBE and not any(_kind(t) != "w" for t in held[0][2][1:])):
            return _Cols.empty()
        self.held = None
        return self._results(self._header(held))

    def finish(self) -> _Cols:
        """The result lines still held (the file was done before the header question was)."""
        if self.held is None:
            return _Cols.empty()
        held, self.held = self.held, None
        return self._results(self._header(held))

    def _line_checks(self, lines: list[bytes], first_no: int) -> list[tuple[int, bytes, list[bytes]]]:
        out = self.out
        content: list[tuple[int, bytes, list[bytes]]] = []
        for no, raw in enumerate(lines, first_no):
            if b"\0" in raw:
                out.hit("nul", no, "NUL byte in the line; the file cannot be read")
                self.any_text = True
                continue
            if has_bare_cr(raw):  # the readers stop here, so it is an error, not a field count
                out.hit("line-endings", no, "carriage return inside the line: evaluation rejects it; save the "
                        "file with LF or CRLF line endings")
                self.any_text = True
                continue
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as e:
                out.hit("encoding", no, f"not valid UTF-8 (byte {raw[e.start]:#04x} at column {e.start + 1})")
            f = raw.split()
            if not f:
                continue
            self.any_text = True
            if f[0].startswith(b"#"):
                out.hit("comment", no, "a comment line: skipped by trec_eval 10.0 and this package, read as a "
                        "result by trec_eval 9.0.8; delete it")
                continue
            content.append((no, raw, f))
        return content

    def _header(self, content: list) -> list:
        """``content`` (the first content lines: all, or at least :data:`_HEADER_PROBE`)
        without its first line if that is a header."""
        # a header: the first line, unlike the others, holds no number where they hold some
        if len(content) <= 1:
            return content
        no, raw, f = content[0]
        kinds = [_kind(t) for t in f]
        shapes: dict[tuple, int] = {}
        for _, _, g in content[1:_HEADER_PROBE]:
            key = (len(g), tuple(_kind(t) != "w" for t in g))
            shapes[key] = shapes.get(key, 0) + 1
        common, seen = max(shapes.items(), key=lambda kv: kv[1])
        numbers_elsewhere = sum(common[1])
        if sum(k != "w" for k in kinds[1:]) == 0 and numbers_elsewhere >= 2 and \
                (len(f), tuple(k != "w" for k in kinds)) != common:
            if self.skip_header:
                self.out.add(no, WARNING, "header", f"a header line ({_shown_line(raw)}), not a result: "
                             "skipped (--skip-header); trec_eval reads it as a result, so delete it")
                self.report.skipped_header = no
            else:
                self.out.add(no, ERROR, "header", f"a header line ({_shown_line(raw)}), unlike every other "
                             "line: a run has no header, trec_eval reads it as a result; delete it (or grade "
                             "the file with --skip-header)")
            return content[1:]
        return content

    def _missing(self, k: int) -> str:
        """What the first line of ``k`` (< 6) fields is told, from every such line of the file."""
        n, rows = self.short[k]
        return _missing_message(missing_columns(rows) if n >= 5 or n == self.content else None, k)

    def _results(self, content: list) -> _Cols:
        out = self.out
        self.content += len(content)
        for _, _, f in content:
            if len(f) < 6:
                seen = self.short.setdefault(len(f), [0, []])
                seen[0] += 1
                if len(seen[1]) < _SHAPE_SAMPLE:
                    seen[1].append(f)
        qid, docno, rank, score, runid, line = [], [], [], [], [], []
        for no, raw, f in content:
            if len(f) < 6:
                sep = next(((s, what) for s, what in _SEPARATORS
                            if len([x for x in raw.strip().split(s)]) >= 6 and len(f) < len(raw.strip().split(s))),
                           None)
                if sep is not None:
                    out.hit("separator", no, f"the fields are separated by {sep[1]} ({_shown_line(raw)}): "
                            "a run separates them by blanks (spaces or tabs)")
                else:
                    out.hit("fields", no, functools.partial(self._missing, len(f)))
                continue
            if len(f) > MAX_FIELDS:
                out.hit("fields", no, f"{len(f)} fields: several lines run together? (at most {MAX_FIELDS} are read)")
                continue
            if len(f) > 6:
                out.hit("extra-fields", no, f"{len(f)} fields; everything after the 6th (run id) is ignored")
            r = float(int(f[3])) if INT_RE.fullmatch(f[3]) else math.nan
            if r != r:
                out.hit("rank-type", no, f"rank {_show(f[3])} is not an integer (the rank column is ignored: "
                        "documents are ranked by score)")
            s = float(f[4]) if FLOAT_RE.fullmatch(f[4]) else math.nan
            if s != s:
                if re.fullmatch(rb"[+-]?\d+,\d+", f[4]):
                    out.hit("score-type", no, f"score {_show(f[4])} has a decimal comma: write "
                            f"{f[4].replace(b',', b'.').decode()} (a point)")
                else:
                    out.hit("score-type", no, f"score {_show(f[4])} is not a number")
                continue
            qid.append(f[0])
            docno.append(f[2])
            rank.append(r)
            score.append(s)
            runid.append(f[5])
            line.append(no)

        def arr(xs):
            return np.array(xs, dtype="S") if xs else np.zeros(0, dtype="S1")

        return _Cols(arr(qid), arr(docno), np.array(rank, dtype=np.float64), np.array(score, dtype=np.float64),
                     arr(runid), np.array(line, dtype=np.int64))
