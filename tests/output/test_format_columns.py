"""-q output formatted a column at a time equals the line-by-line rule."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from trec_eval_py.output.evaluation import line, trec_lines
from trec_eval_py.engine.measures import Kind


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
    cols = [SimpleNamespace(name="map", kind=Kind.FLOAT, prefix="", measure=m),
            SimpleNamespace(name="num_ret", kind=Kind.INT, prefix="", measure=m),
            SimpleNamespace(name="relstring", kind=Kind.STR, prefix="", measure=m),
            SimpleNamespace(name="P_5", kind=Kind.FLOAT, prefix="Z", measure=m)]
    values = {"map": f, "num_ret": ints, "relstring": strs, "P_5": -f}
    printable = rng.random(n) < 0.9
    topics = [f"q{i}\x1c" if i % 50 == 0 else str(i) for i in range(n)]
    result = SimpleNamespace(columns=cols, column_values=[values[c.name] for c in cols], printable=printable,
                             topics=topics, column_summary=[None] * len(cols))
    want = [line(c.name, topics[t], c.kind, values[c.name][t], c.prefix)
            for t in range(n) if printable[t] for c in cols]
    assert list(trec_lines(result, query=True, summary=False)) == want
    assert "".join(trec_lines(result, query=True, summary=False, blocks=True)) == "".join(want)
