"""Writes the class of docs/guide/pooling.md (hand-made, deterministic).

Three students' runs for topics 401 and 402 (``alice.run``, ``bob.run``,
``carol.run``) and the teacher's judgments of their depth-2 pool
(``judged.qrels``). Carol scores two documents alike, so the ranking rule's
tie-break shows; Bob alone finds a relevant document of topic 402, so leaving
him out of the pool shows its bias. Run with ``python3 make_example.py`` in
this folder.
"""
from __future__ import annotations

import os

RUNS = {
    "alice": [("401", "FT911-1", "12.5"), ("401", "FT911-7", "11.0"), ("401", "LA0101-3", "9.2"),
              ("402", "FT911-2", "8.0"), ("402", "LA0101-9", "7.5")],
    "bob": [("401", "LA0101-3", "0.9"), ("401", "FT911-1", "0.8"), ("401", "FBIS-44", "0.7"),
            ("402", "FBIS-12", "0.9"), ("402", "FT911-2", "0.6")],
    # FBIS-44 and FT911-7 tie: the evaluation ranks FT911-7 first (docno descending)
    "carol": [("401", "FBIS-44", "3"), ("401", "FT911-7", "3"), ("401", "FT911-9", "1"),
              ("402", "FT911-2", "2"), ("402", "FBIS-50", "1")],
}

#: the depth-2 pool, judged: 0 not relevant, 1 relevant, 2 highly relevant
JUDGED = [("401", "FBIS-44", 0), ("401", "FT911-1", 2), ("401", "FT911-7", 1), ("401", "LA0101-3", 0),
          ("402", "FBIS-12", 1), ("402", "FBIS-50", 0), ("402", "FT911-2", 2), ("402", "LA0101-9", 0)]


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    for name, lines in RUNS.items():
        ranks: dict[str, int] = {}
        with open(os.path.join(here, f"{name}.run"), "w", encoding="ascii", newline="\n") as f:
            for topic, docno, score in lines:
                ranks[topic] = ranks.get(topic, 0) + 1
                f.write(f"{topic} Q0 {docno} {ranks[topic]} {score} {name}\n")
    with open(os.path.join(here, "judged.qrels"), "w", encoding="ascii", newline="\n") as f:
        for topic, docno, level in JUDGED:
            f.write(f"{topic} 0 {docno} {level}\n")


if __name__ == "__main__":
    main()
