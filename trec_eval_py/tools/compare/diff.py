"""Comparing two evaluation outputs: the regression check of a pipeline.

Either side may be any output ``trec_eval_py`` (or trec_eval) writes:

* trec_eval's text, ``measure topic value`` per line, with or without ``-q``;
* ``--format json``: ``{"runid", "per_topic": {topic: {measure: value}},
  "summary": {measure: value}}`` (summary values under topic ``all``);
* ``--format csv``: the header ``runid,topic,measure,value``, then one value a row.

The format is recognised from the content. Values are matched by measure and
topic. Numbers are compared as the decimals written, so a tolerance of
``1e-4`` accepts exactly a change in the fourth decimal of trec_eval's text
and nothing more (JSON and CSV carry full precision: comparing them with text
needs a tolerance of at least 5e-5, half the last printed decimal). Text
values (the run id, ``relstring``) must match exactly; any other value that is
not a number makes the file unreadable (:class:`InputError`, naming the file,
the line and its text), so that a broken file is never read as numbers that
moved. Measures can be left out
(``ignore``, e.g. ``runid``) and given their own tolerance; names may be
shell-style patterns (``iprec_at_recall_*``).
"""
from __future__ import annotations

import csv
import fnmatch
import io
import json
import math
from collections import Counter
from decimal import Decimal, InvalidOperation

from ..._record import field, record
from ...engine.parse.source import read_source, source_name
from ...errors import InputError, UsageError, quoted
from ...output.table import spreadsheet_text

CHANGED = "changed"
ONLY_OLD = "only in old"
ONLY_NEW = "only in new"

CSV_HEADER = ("runid", "topic", "measure", "value")


@record
class Value:
    """A value as written, the line it is on (0 in JSON), and whether it was
    not written as a value of its own (the run id of a JSON or CSV document,
    compared only when the other side has a run id too)."""

    text: str
    line: int
    implicit: bool = False

    @property
    def number(self) -> Decimal | None:
        try:
            return Decimal(self.text)
        except InvalidOperation:
            return None


@record
class Difference:
    kind: str
    measure: str
    topic: str
    old: Value | None
    new: Value | None

    @property
    def delta(self) -> Decimal | None:
        if self.old is None or self.new is None:
            return None
        a, b = self.old.number, self.new.number
        if a is None or b is None or a.is_nan() or b.is_nan():
            return None
        return b - a

    def __str__(self) -> str:
        if self.kind == CHANGED:
            assert self.old is not None and self.new is not None  # a changed value has both
            d = self.delta
            extra = "" if d is None or d.is_infinite() else f"  ({d:+})"
            return f"{self.kind:<12}{self.measure:<24}{self.topic:<10}{self.old.text} -> {self.new.text}{extra}"
        v = self.old if self.kind == ONLY_OLD else self.new
        assert v is not None  # the one side that has the value
        return f"{self.kind:<12}{self.measure:<24}{self.topic:<10}{v.text}"


def _tol_text(t: Decimal) -> str:
    return str(t)


@record(frozen=False)
class DiffReport:
    old: str
    new: str
    tolerance: Decimal
    compared: int = 0
    differences: list[Difference] = field(factory=list)
    tolerances: dict[str, Decimal] = field(factory=dict)
    ignored: list[str] = field(factory=list)

    @property
    def same(self) -> bool:
        return not self.differences

    def _beyond(self) -> str:
        if not self.tolerances:
            return f"beyond {_tol_text(self.tolerance)}"
        own = ", ".join(f"{k} {_tol_text(v)}" for k, v in self.tolerances.items())
        return f"beyond tolerance ({_tol_text(self.tolerance)}; {own})"

    def summary(self) -> str:
        n = len(self.differences)
        ignored = f"; ignored: {' '.join(self.ignored)}" if self.ignored else ""
        if not n:
            return f"no differences {self._beyond()} ({self.compared} values compared{ignored})"
        counts = {k: sum(d.kind == k for d in self.differences) for k in (CHANGED, ONLY_OLD, ONLY_NEW)}
        parts = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
        return (f"{n} difference{'s' * (n != 1)} {self._beyond()}: {parts} "
                f"({self.compared} values compared{ignored})")

    def by_measure(self) -> list[tuple[str, int]]:
        """Differences per measure, in order of first appearance."""
        return list(Counter(d.measure for d in self.differences).items())

    def by_topic(self) -> list[tuple[str, int]]:
        """Differences per topic, in order of first appearance."""
        return list(Counter(d.topic for d in self.differences).items())

    def to_dict(self) -> dict:
        """The report as JSON: settings, counts, and every difference (values as written)."""
        return {"old": self.old, "new": self.new, "same": self.same, "compared": self.compared,
                "tolerance": str(self.tolerance), "tolerances": {k: str(v) for k, v in self.tolerances.items()},
                "ignored": list(self.ignored), "summary": self.summary(),
                "by_measure": dict(self.by_measure()), "by_topic": dict(self.by_topic()),
                "differences": [{"kind": d.kind, "measure": d.measure, "topic": d.topic,
                                 "old": None if d.old is None else d.old.text,
                                 "new": None if d.new is None else d.new.text,
                                 "delta": _delta_number(d),
                                 "old_line": None if d.old is None or not d.old.line else d.old.line,
                                 "new_line": None if d.new is None or not d.new.line else d.new.line}
                                for d in self.differences]}

    def breakdown(self) -> list[str]:
        """Two lines: how many differences each measure and each topic has."""
        if not self.differences:
            return []
        return ["by measure:  " + ", ".join(f"{k} {v}" for k, v in self.by_measure()),
                "by topic:    " + ", ".join(f"{k} {v}" for k, v in self.by_topic())]


def _delta_number(d: Difference) -> float | None:
    x = d.delta
    return None if x is None or not x.is_finite() else float(x)


#: diff's --format
FORMATS = ("text", "csv", "json")


def differences_table(report: DiffReport):
    """One row per difference: kind, measure, topic, the old and new values as written, the change."""
    from ...output.table import Column, Table

    cols = [Column("kind", "text"), Column("measure", "text"), Column("topic", "text"), Column("old", "text"),
            Column("new", "text"), Column("delta", "float")]
    return Table(cols, [[d.kind, d.measure, d.topic, None if d.old is None else d.old.text,
                         None if d.new is None else d.new.text, _delta_number(d)] for d in report.differences])


def render_diff(report: DiffReport, fmt: str = "text", *, quiet: bool = False) -> str:
    """A report as text (each difference, the breakdown, a summary line; with ``quiet``
    the summary only), csv (one difference a row) or json (:meth:`DiffReport.to_dict`).
    Text is for a terminal: names and values read from the files are shown without
    control characters or escape sequences."""
    from ...output.table import check_format, clean, json_text, render

    fmt = check_format(fmt, FORMATS)
    if fmt == "json":
        return json_text(report.to_dict())
    if fmt == "csv":
        return render(differences_table(report), "csv")
    lines = [] if quiet else [str(d) for d in report.differences] + report.breakdown()
    lines.append(report.summary())
    return "".join(clean(x) + "\n" for x in lines)


def text_measure(measure: str) -> bool:
    """Whether ``measure``, as an output names it, has text values rather than numbers:
    ``runid``, ``relstring``, ``relstring_20`` (the measures of kind ``str``; a
    parameter is written after an underscore). An unknown name has numbers."""
    from ...engine.measures import Kind, registry

    measures = registry()
    parts = measure.split("_")
    for n in range(len(parts), 0, -1):
        base = "_".join(parts[:n])
        if base in measures:
            return measures[base].kind is Kind.STR
    return False


def _add(out: dict, name: str, measure: str, topic: str, value: Value, text: str) -> None:
    key = (measure, topic)
    if "\x00" in measure or "\x00" in topic or "\x00" in value.text:
        raise InputError(name, "a NUL byte in a value", value.line or None, text.replace("\x00", "\\0"))
    # a value that is not a number is unreadable input (2), not a change of the numbers (3)
    if value.number is None and not text_measure(measure):
        raise InputError(name, f"{measure} for topic {topic}: {quoted(value.text)} is not a number",
                         value.line or None, text)
    if key in out and not out[key].implicit:
        where = f" (first on line {out[key].line})" if out[key].line else ""
        raise InputError(name, f"{measure} for topic {topic} given twice{where}", value.line or None, text)
    out[key] = value


def _json_text(v) -> str:
    if v is None:
        return "nan"
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, float):
        return "nan" if math.isnan(v) else repr(v)
    return str(v)


def _read_json(data: bytes, name: str) -> dict[tuple[str, str], Value]:
    try:
        doc = json.loads(data.decode("utf-8", "surrogateescape"))
    except (ValueError, UnicodeDecodeError) as e:
        raise InputError(name, f"not valid JSON: {e}") from None
    except RecursionError:  # an output of this package is three levels deep
        raise InputError(name, "JSON nested too deeply: not an output of trec_eval_py --format json") from None
    if not isinstance(doc, dict) or not ({"per_topic", "summary"} & set(doc)):
        raise InputError(name, "JSON without 'per_topic' or 'summary': not an output of trec_eval_py --format json")
    out: dict[tuple[str, str], Value] = {}
    sections = [(t, vals) for t, vals in (doc.get("per_topic") or {}).items()]
    if "summary" in doc:
        sections.append(("all", doc["summary"] or {}))
    if "runid" in doc and "runid" not in (doc.get("summary") or {}):
        out[("runid", "all")] = Value(str(doc["runid"]), 0, implicit=True)
    for topic, vals in sections:
        if not isinstance(vals, dict):
            raise InputError(name, f"topic {topic}: expected an object of measure values")
        for measure, v in vals.items():
            if isinstance(v, (dict, list)):
                raise InputError(name, f"{measure} for topic {topic}: expected a number or text")
            _add(out, name, measure, str(topic), Value(_json_text(v), 0), f"{measure}: {v}")
    return out


def _read_csv(data: bytes, name: str) -> dict[tuple[str, str], Value]:
    out: dict[tuple[str, str], Value] = {}
    text = data.decode("utf-8", "surrogateescape")
    reader = csv.reader(io.StringIO(text))
    no = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as e:  # a NUL byte, an over-long field, a broken quote
            raise InputError(name, f"not readable as CSV: {e}", reader.line_num or None) from None
        no = reader.line_num
        if no == 1 or not row:
            continue
        if len(row) != 4:
            raise InputError(name, f"expected 'runid,topic,measure,value', found {len(row)} fields", no, ",".join(row))
        runid, topic, measure, value = (spreadsheet_text(x) for x in row)
        _add(out, name, measure, topic, Value(value, no), ",".join(row))
        if ("runid", "all") not in out:
            out[("runid", "all")] = Value(runid, no, implicit=True)
    return out


def _read_text(data: bytes, name: str) -> dict[tuple[str, str], Value]:
    out: dict[tuple[str, str], Value] = {}
    for no, raw in enumerate(data.split(b"\n"), 1):
        f = raw.split()
        if not f:
            continue
        text = raw.decode("utf-8", "surrogateescape").rstrip("\r")
        if len(f) != 3:
            raise InputError(name, f"expected 'measure topic value', found {len(f)} fields", no, text)
        measure, topic, value = (x.decode("utf-8", "surrogateescape") for x in f)
        _add(out, name, measure, topic, Value(value, no), text)
    return out


def output_format(data: bytes) -> str:
    """``json``, ``csv`` or ``trec``: which output ``data`` is."""
    head = data.lstrip()
    if head[:1] == b"{":
        return "json"
    first = head.split(b"\n", 1)[0].strip()
    if tuple(x.strip() for x in first.decode("utf-8", "replace").split(",")) == CSV_HEADER:
        return "csv"
    return "trec"


def read_output(source, *, name: str | None = None) -> dict[tuple[str, str], Value]:
    """``{(measure, topic): Value}`` from an output in any of the three formats, in file order.

    Raises :class:`InputError` for a line that does not fit its format, or a
    measure and topic given twice.
    """
    name = name or source_name(source)
    data = read_source(source)
    reader = {"json": _read_json, "csv": _read_csv, "trec": _read_text}[output_format(data)]
    out = reader(data, name)
    if not out:
        raise InputError(name, "no evaluation lines")
    return out


def _decimal(text, what: str) -> Decimal:
    try:
        t = Decimal(str(text))
    except InvalidOperation:
        raise UsageError(f"{what} {text!r} is not a number") from None
    if not t.is_finite() or t < 0:
        raise UsageError(f"{what} must be a non-negative number, not {text}")
    return t


def parse_tolerances(specs) -> tuple[Decimal, dict[str, Decimal]]:
    """``--tol`` values: a bare number is the default tolerance (1e-4 if none);
    ``MEASURE=NUMBER`` sets one measure's (a shell-style pattern may stand for several)."""
    if isinstance(specs, (str, int, float, Decimal)):
        specs = [specs]
    default = Decimal("1e-4")
    own: dict[str, Decimal] = {}
    for spec in specs:
        s = str(spec)
        if "=" in s:
            measure, _, value = s.partition("=")
            if not measure.strip():
                raise UsageError(f"tolerance {s!r}: expected MEASURE=NUMBER")
            own[measure.strip()] = _decimal(value.strip(), f"tolerance of {measure.strip()}")
        else:
            default = _decimal(s, "tolerance")
    return default, own


def _matches(measure: str, patterns) -> str | None:
    for p in patterns:
        if measure == p or fnmatch.fnmatchcase(measure, p):
            return p
    return None


def _differs(a: Value, b: Value, tol: Decimal) -> bool:
    x, y = a.number, b.number
    if x is None or y is None:
        return a.text != b.text
    if x.is_nan() or y.is_nan():
        return x.is_nan() != y.is_nan()
    if x.is_infinite() or y.is_infinite():
        return x != y
    return abs(x - y) > tol


def diff_outputs(old, new, tol="1e-4", *, ignore=(), tolerances: dict | None = None) -> DiffReport:
    """Differences between two outputs: values that moved by more than their
    tolerance, and measure/topic pairs present on one side only.

    ``tol`` is the default tolerance (or a list of ``--tol`` specs, see
    :func:`parse_tolerances`); ``tolerances`` maps measures (or patterns) to
    their own; measures matching ``ignore`` are left out entirely.
    """
    default, own = parse_tolerances(tol if isinstance(tol, (list, tuple)) else [tol])
    for k, v in (tolerances or {}).items():
        own[k] = _decimal(v, f"tolerance of {k}")
    ignore = list(ignore)
    a, b = read_output(old), read_output(new)
    report = DiffReport(source_name(old), source_name(new), default, tolerances=own, ignored=ignore)

    def tol_of(measure: str) -> Decimal:
        p = _matches(measure, own)
        return own[p] if p is not None else default

    for key, va in a.items():
        if _matches(key[0], ignore):
            continue
        vb = b.get(key)
        if vb is None:
            if not va.implicit:
                report.differences.append(Difference(ONLY_OLD, *key, va, None))
            continue
        report.compared += 1
        if _differs(va, vb, tol_of(key[0])):
            report.differences.append(Difference(CHANGED, *key, va, vb))
    report.differences += [Difference(ONLY_NEW, *key, None, vb) for key, vb in b.items()
                           if key not in a and not vb.implicit and not _matches(key[0], ignore)]
    return report
