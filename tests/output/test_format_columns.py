"""-q output formatted a column at a time equals the line-by-line rule."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from trec_eval_py.engine.measures import Kind
from trec_eval_py.output.evaluation import line, trec_lines


def _column(name: str, kind: Kind, prefix: str, measure) -> SimpleNamespace:
    # what the text layout reads of a column (output.protocols.PrintedColumn)
    return SimpleNamespace(name=name, trec_name=name, kind=kind, summary_kind=kind, prefix=prefix, identity=None,
                           measure=measure, asked=0)


def test_column_wise_equals_line_by_line():
    rng = np.random.default_rng(3)
    n = 3000
    f = rng.random(n) * rng.choice([1e-6, 1, 1e3], n)
    f[::97] = np.nan
    f[::89] = -np.nan
    f[::83] = 0.00005  # rounding at the fourth decimal
    ints = rng.integers(-5, 10**6, n)
    strs = np.array(["'%d'" % x for x in range(n)], dtype=object)
    m = SimpleNamespace(per_topic=True)
    cols = [_column("map", Kind.FLOAT, "", m),
            _column("num_ret", Kind.INT, "", m),
            _column("relstring", Kind.STR, "", m),
            _column("P_5", Kind.FLOAT, "Z", m)]
    values = {"map": f, "num_ret": ints, "relstring": strs, "P_5": -f}
    printable = rng.random(n) < 0.9
    topics = [f"q{i}\x1c" if i % 50 == 0 else str(i) for i in range(n)]
    result = SimpleNamespace(columns=cols, column_values=[values[c.name] for c in cols], printable=printable,
                             topics=topics, column_summary=[None] * len(cols))
    want = [line(c.name, topics[t], c.kind, values[c.name][t], c.prefix)
            for t in range(n) if printable[t] for c in cols]
    assert list(trec_lines(result, query=True, summary=False)) == want
    assert "".join(trec_lines(result, query=True, summary=False, blocks=True)) == "".join(want)


def test_blocks_with_percent_signs_and_plain_columns():
    """A topic's block is one %-format of a template holding names and topic ids:
    a '%' in either is text, and columns with and without NaNs, whole numbers
    held as floats and text all print as the line-by-line rule prints them."""
    rng = np.random.default_rng(7)
    n = 500
    plain = rng.random(n) * 10
    with_nan = rng.random(n)
    with_nan[::37] = -np.nan
    m = SimpleNamespace(per_topic=True)
    cols = [_column("ndcg", Kind.FLOAT, "", m),
            _column("x%d%s%%", Kind.FLOAT, "%", m),
            _column("num_rel", Kind.INT, "", m),
            _column("num_q", Kind.INT, "", m),
            _column("runid", Kind.STR, "", m)]
    values = {"ndcg": plain, "x%d%s%%": with_nan, "num_rel": rng.integers(0, 99, n),
              "num_q": rng.integers(0, 99, n).astype(np.float64), "runid": np.array(["r%s"] * n, dtype=object)}
    topics = [f"t%s{i}%d%%" if i % 3 == 0 else str(i) for i in range(n)]
    result = SimpleNamespace(columns=cols, column_values=[values[c.name] for c in cols],
                             printable=np.ones(n, dtype=bool), topics=topics, column_summary=[None] * len(cols))
    want = [line(c.name, topics[t], c.kind, values[c.name][t], c.prefix) for t in range(n) for c in cols]
    assert "".join(trec_lines(result, query=True, summary=False, blocks=True)) == "".join(want)
