"""keys.run_starts compares byte-string topic ids as integers or rows of
64-bit words when their width allows: it must find exactly the changes a
string comparison finds, for every width, slices and strided views."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from trec_eval_py.engine.join.keys import run_starts


def literal_starts(col):
    values = col.tolist()
    return [i for i in range(len(values)) if i == 0 or values[i] != values[i - 1]]


@settings(max_examples=200, deadline=None)
@given(width=st.integers(1, 20), cells=st.lists(st.integers(0, 2), max_size=60),
       fill=st.sampled_from([0, 48, 255]), start=st.integers(0, 2), step=st.integers(1, 2))
def test_run_starts_matches_string_comparison(width, cells, fill, start, step):
    # a few distinct values, differing in one byte anywhere (first, middle or last)
    raw = np.full((len(cells), width), fill, dtype=np.uint8)
    for i, c in enumerate(cells):
        raw[i, (c * (width - 1)) // 2] = 97 + c
    col = raw.view(f"S{width}").ravel()[start::step]
    assert run_starts(col).tolist() == literal_starts(col)


def test_trailing_nul_padding_is_part_of_the_value():
    col = np.array([b"ab", b"ab\x00", b"abc", b"abc", b"a"], dtype="S3")
    assert run_starts(col).tolist() == [0, 2, 4]
    wide = np.array([b"x" * 16, b"x" * 15 + b"y", b"x" * 15 + b"y"], dtype="S16")
    assert run_starts(wide).tolist() == [0, 1]
