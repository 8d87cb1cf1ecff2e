"""Comparing two evaluation outputs in trec_eval's text format.

Each line of either file is ``measure topic value`` (as trec_eval and this
package print them, with or without ``-q``). Values are matched by measure
and topic; numbers are compared as the decimals printed, so a tolerance of
``1e-4`` accepts exactly a change in the fourth decimal and nothing more.
Text values (the run id) must match exactly. This is the regression check of
a pipeline: keep the output of a trusted version, diff every new one with it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from ..errors import InputError, UsageError
from ..engine.parse.source import read_source, source_name

CHANGED = "changed"
ONLY_OLD = "only in old"
ONLY_NEW = "only in new"


@dataclass(frozen=True)
class Value:
    text: str
    line: int

    @property
    def number(self) -> Decimal | None:
        try:
            return Decimal(self.text)
        except InvalidOperation:
            return None


@dataclass(frozen=True)
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
            d = self.delta
            extra = "" if d is None or d.is_infinite() else f"  ({d:+})"
            return f"{self.kind:<12}{self.measure:<24}{self.topic:<10}{self.old.text} -> {self.new.text}{extra}"
        v = self.old if self.kind == ONLY_OLD else self.new
        return f"{self.kind:<12}{self.measure:<24}{self.topic:<10}{v.text}"


@dataclass
class DiffReport:
    old: str
    new: str
    tolerance: Decimal
    compared: int = 0
    differences: list[Difference] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not self.differences

    def summary(self) -> str:
        n = len(self.differences)
        if not n:
            return f"no differences beyond {self.tolerance} ({self.compared} values compared)"
        counts = {k: sum(d.kind == k for d in self.differences) for k in (CHANGED, ONLY_OLD, ONLY_NEW)}
        parts = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
        return (f"{n} difference{'s' * (n != 1)} beyond {self.tolerance}: {parts} "
                f"({self.compared} values compared)")


def read_output(source, *, name: str | None = None) -> dict[tuple[str, str], Value]:
    """``{(measure, topic): Value}`` from trec_eval-format text, in file order.

    Raises :class:`InputError` for a line that is not three fields, or a
    measure and topic given twice.
    """
    name = name or source_name(source)
    data = read_source(source)
    out: dict[tuple[str, str], Value] = {}
    for no, raw in enumerate(data.split(b"\n"), 1):
        f = raw.split()
        if not f:
            continue
        text = raw.decode("utf-8", "surrogateescape").rstrip("\r")
        if len(f) != 3:
            raise InputError(name, f"expected 'measure topic value', found {len(f)} fields", no, text)
        measure, topic, value = (x.decode("utf-8", "surrogateescape") for x in f)
        key = (measure, topic)
        if key in out:
            raise InputError(name, f"{measure} for topic {topic} given twice (first on line {out[key].line})", no, text)
        out[key] = Value(value, no)
    if not out:
        raise InputError(name, "no evaluation lines")
    return out


def _differs(a: Value, b: Value, tol: Decimal) -> bool:
    x, y = a.number, b.number
    if x is None or y is None:
        return a.text != b.text
    if x.is_nan() or y.is_nan():
        return x.is_nan() != y.is_nan()
    if x.is_infinite() or y.is_infinite():
        return x != y
    return abs(x - y) > tol


def diff_outputs(old, new, tol: float | str | Decimal = "1e-4") -> DiffReport:
    """Differences between two outputs: values that moved by more than ``tol``,
    and measure/topic pairs present on one side only."""
    try:
        t = Decimal(str(tol))
    except InvalidOperation:
        raise UsageError(f"tolerance {tol!r} is not a number") from None
    if not t.is_finite() or t < 0:
        raise UsageError(f"tolerance must be a non-negative number, not {tol}")
    a, b = read_output(old), read_output(new)
    report = DiffReport(source_name(old), source_name(new), t)
    for key, va in a.items():
        vb = b.get(key)
        if vb is None:
            report.differences.append(Difference(ONLY_OLD, *key, va, None))
            continue
        report.compared += 1
        if _differs(va, vb, t):
            report.differences.append(Difference(CHANGED, *key, va, vb))
    report.differences += [Difference(ONLY_NEW, *key, None, vb) for key, vb in b.items() if key not in a]
    return report
