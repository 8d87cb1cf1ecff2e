"""Writes the example of docs/guide/compare-positives.md (deterministic).

The worked example of Swamidass et al., "A CROC stronger than ROC"
(Bioinformatics 26(10), 2010, section 2.5): one topic of ten documents, the
relevant ones d1 d2 d4 d5 d7. System A (``a.run``) ranks d1 to d10 in order,
so its positives are at ranks 1, 2, 4, 5, 7; system B (``b.run``) puts them at
ranks 3, 5, 6, 8, 10. Run with ``python3 make_example.py`` in this folder.
"""
from __future__ import annotations

import os

RELEVANT = {"d1", "d2", "d4", "d5", "d7"}
DOCS = [f"d{i}" for i in range(1, 11)]
A = DOCS
# B: the negatives d3 d6 d8 d9 d10 at ranks 1, 2, 4, 7, 9
B = ["d3", "d6", "d1", "d8", "d2", "d4", "d9", "d5", "d10", "d7"]


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "qrels.txt"), "w", encoding="ascii", newline="\n") as f:
        f.writelines(f"1 0 {d} {int(d in RELEVANT)}\n" for d in DOCS)
    for name, runid, ranking in (("a.run", "sysA", A), ("b.run", "sysB", B)):
        with open(os.path.join(here, name), "w", encoding="ascii", newline="\n") as f:
            f.writelines(f"1 Q0 {d} {r} {len(ranking) + 1 - r} {runid}\n" for r, d in enumerate(ranking, 1))


if __name__ == "__main__":
    main()
