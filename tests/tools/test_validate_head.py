"""The looks at a file's start read only its start: the first lines for the sniffer,
enough line ends to know the head holds its first lines (not a count of a whole
big piece); both give what reading everything gives."""
from __future__ import annotations

import random

from trec_eval_py.tools.grading.validate._reader import _lines_up_to
from trec_eval_py.tools.grading.validate._sniff import _first_lines


def test_first_lines_are_those_of_a_split_of_everything():
    rng = random.Random(7)
    for _ in range(3000):
        n = rng.randint(0, 30)
        data = b"".join(rng.choice([b"a", b"\n", b"bb" * 50, b"\n\n"]) for _ in range(rng.randint(0, 60)))
        assert _first_lines(data, n) == data.split(b"\n", n)[:n]


def test_enough_line_ends_is_told_as_a_full_count_tells_it():
    rng = random.Random(8)
    for _ in range(3000):
        n = rng.randint(0, 30)
        data = b"".join(rng.choice([b"a", b"\n", b"bb" * 50, b"\n\n"]) for _ in range(rng.randint(0, 60)))
        counted, every = _lines_up_to(data, n), data.count(b"\n")
        assert (counted >= n) == (every >= n) and counted <= every
