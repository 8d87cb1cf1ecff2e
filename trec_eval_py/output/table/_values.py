"""Values as text: numbers at a number of digits, p-values, what is absent or not
finite, and the columns of a table as the human formats show them."""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence

from ._model import DEFAULT_DIGITS, Cell, Column, Table


def float_text(v: float, digits: int = DEFAULT_DIGITS, signed: bool = False) -> str:
    """A float with ``digits`` decimals; NaN as C's printf shows it (``nan``, ``-nan``),
    infinities as ``inf``/``-inf``."""
    v = float(v)
    if v != v:
        return "-nan" if math.copysign(1.0, v) < 0 else "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


#: the smallest p-value shown as a number. A double near 1 has a resolution of about
#: 2.2e-16, so a test that reaches its p through 1 - cdf, or whose tail underflows in
#: scipy (the studentized range of tukey-classic), gives 0.0 or noise below it: every
#: test's p below this bound is shown as the bound, ``< 1e-16``, never as ``0.0e+00``.
P_FLOOR = 1e-16


def pvalue_text(p: float) -> str:
    """A p-value as people read it: 4 decimals, 2 significant digits in exponent form
    below 1e-4, ``< 1e-16`` below :data:`P_FLOOR` (0 included), ``nan``."""
    p = float(p)
    if p != p:
        return "nan"
    if p < P_FLOOR:
        return f"< {P_FLOOR:.0e}"
    return f"{p:.4f}" if p >= 1e-4 else f"{p:.1e}"


class _Absent:
    """No cell here: the columns of a short row after its spanning cell."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


ABSENT = _Absent()


def _nonfinite(col: Column, v: float) -> str:
    if v != v and col.nan is not None:
        return col.nan
    return float_text(v)


def _shown(col: Column, value, digits: int) -> str:
    """What people see of ``value`` in ``col`` (before escaping)."""
    if value is None:
        return col.missing
    if value is ABSENT:
        return ""
    kind = col.kind
    if kind == "auto":
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            kind = "float"
        elif isinstance(value, int):
            kind = "int"
        elif isinstance(value, tuple):
            kind = "fraction"
        elif hasattr(value, "item") and not isinstance(value, str):  # a numpy scalar
            return _shown(col, value.item(), digits)
        else:
            return str(value)
    if kind == "text":
        return str(value)
    if kind == "int":
        return "%d" % int(value)
    if kind == "float":
        v = float(value)
        if not math.isfinite(v):
            return _nonfinite(col, v)
        return float_text(v, col.digits if col.digits is not None else digits, col.signed)
    if kind == "shortest":
        v = float(value)
        return _nonfinite(col, v) if v != v else repr(v)
    if kind == "pvalue":
        v = float(value)
        return col.nan if v != v and col.nan is not None else pvalue_text(v)
    if kind == "percent":
        v = float(value)
        if v != v:
            return col.nan if col.nan is not None else "nan"
        return f"{100 * v:+.1f}%" if col.signed else f"{100 * v:.1f}%"
    if kind == "fraction":
        return "/".join("%d" % int(x) for x in value)
    raise AssertionError(kind)


def _columns(t: Table) -> list[tuple]:
    """The cells of ``t`` column by column (:data:`ABSENT` past the end of a short row)."""
    n = len(t.columns)
    if not t.rows:
        return [() for _ in range(n)]
    cols = list(itertools.zip_longest(*t.rows, fillvalue=ABSENT))[:n]
    return cols + [(ABSENT,) * len(t.rows)] * (n - len(cols))


def _unwrap(cells) -> tuple[Sequence, list | None]:
    """``(values, decorations)``: the values of a column's cells, and its :class:`Cell`
    values (None where a cell is a plain value), or None when it has none."""
    if Cell not in set(map(type, cells)):
        return cells, None
    return [c.value if type(c) is Cell else c for c in cells], [c if type(c) is Cell else None for c in cells]


def _texts(col: Column, values: Sequence, digits: int) -> list[str]:
    """:func:`_shown` of every value of a column; whole columns of floats, whole
    numbers or text at list speed (a table may have millions of rows)."""
    types = set(map(type, values))
    kind = col.kind
    if types == {float} and kind in ("float", "auto"):
        d = col.digits if col.digits is not None else digits
        out = list(map((("%+." if col.signed else "%.") + str(d) + "f").__mod__, values))
        if not all(map(math.isfinite, values)):
            out = [s if math.isfinite(v) else _nonfinite(col, v) for s, v in zip(out, values)]
        return out
    if types == {float} and kind == "shortest" and not any(map(math.isnan, values)):
        return list(map(repr, values))
    if types == {int} and kind in ("int", "auto"):
        return list(map(str, values))
    if types == {str} and kind in ("text", "auto"):
        return list(values)
    return [_shown(col, v, digits) for v in values]


# a line that may start as a formula (any non-ASCII first character is looked at closely)
_FORMULA_LINE = re.compile(r"(?m)^[=+\-@\x80-\U0010ffff]")


def _plain_text(texts: list[str]) -> bool:
    """No cell of ``texts`` needs cleaning for a terminal or a spreadsheet (checked at C speed)."""
    return all(map(str.isprintable, texts)) and not _FORMULA_LINE.search("\n".join(texts))


def _human(t: Table, digits: int, columns: list | None = None):
    """``(texts, decorations, spans)``: per column, what people see of each cell
    (a :class:`Cell`'s own ``text`` where it has one) and its Cell values (or None);
    the rows whose last cell spans the rest (None: no such row). ``columns``:
    :func:`_columns` of ``t``, when the caller has them already."""
    texts, decos = [], []
    for col, cells in zip(t.columns, _columns(t) if columns is None else columns):
        values, deco = _unwrap(cells)
        shown = _texts(col, values, digits)
        if deco is not None:
            shown = [c.text if c is not None and c.text is not None else s for s, c in zip(shown, deco)]
        texts.append(shown)
        decos.append(deco)
    n = len(t.columns)
    spans = None
    if set(map(len, t.rows)) - {n}:
        spans = [len(r) < n and type(r[-1]) is Cell and r[-1].span for r in t.rows] if t.rows else None
    return texts, decos, spans


def _rows_of(texts, decos, i: int, length: int):
    """Row ``i``'s ``(text, Cell or None)`` pairs, its first ``length`` cells."""
    return [(texts[j][i], None if decos[j] is None else decos[j][i]) for j in range(length)]
