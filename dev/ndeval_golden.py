#!/usr/bin/env python3
"""Write the golden cases of ``trec_eval_py ndeval`` under fixtures/ndeval/
from NIST's ndeval binary.

Each case is a folder holding ``qrels``, ``run``, optionally ``baseline``,
``args`` (ndeval's options, shell-quoted; ``BASELINE`` stands for the
baseline file) and ``expected`` (what the binary printed) plus
``expected_exit`` (its exit status). Hand-made cases cover each option and
edge case; ``random_*`` cases come from dev/fuzz_ndeval.py's generator with
fixed seeds. tests/tools/test_ndeval_golden.py compares our output with
``expected`` byte for byte, without the binary.

Usage: python3 dev/ndeval_golden.py   (binary at $NDEVAL, default /tmp/ndeval/ndeval,
built by /work/shared/tools/build_ndeval.sh)
"""
from __future__ import annotations

import os
import random
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fixtures", "ndeval")
NDEVAL = os.environ.get("NDEVAL", "/tmp/ndeval/ndeval")

# a topic with three subtopics, one (2) judged only non-relevant for some documents,
# a topic judged only non-relevant, a topic of one document
QRELS = """\
1 1 d1 1
1 2 d1 0
1 2 d2 1
1 3 d3 1
1 1 d4 0
1 3 d4 2
1 1 d5 1
1 2 d5 1
2 1 d5 0
2 2 d6 0
3 0 x 1
"""
RUN = """\
1 Q0 d2 1 3.0 runA
1 Q0 d1 2 2.0 runA
1 Q0 d9 3 1.0 runA
1 Q0 d5 4 1.0 runA
1 Q0 d3 5 0.5 runA
2 Q0 d5 1 1.0 runA
4 Q0 d5 1 1.0 runA
"""
BASE = """\
1 Q0 d1 1 3.0 base
1 Q0 d4 2 2.0 base
3 Q0 x 1 2.0 base
5 Q0 x 1 2.0 base
"""

# equal subtopic sets: the ideal ranking breaks ties by the larger docno
TIES_QRELS = "".join(f"7 {s} {d} 1\n" for d in ("a", "b", "c", "aa", "ab") for s in (1, 2)) + \
    "".join(f"7 3 {d} 1\n" for d in ("z", "y")) + "7 4 q 1\n7 4 r 1\n7 1 r 1\n"
TIES_RUN = "".join(f"7 Q0 {d} {i} {s} tie\n" for i, (d, s) in enumerate(
    [("y", 2), ("a", 2), ("ab", 2), ("q", 1), ("z", 1), ("r", 1), ("c", 0), ("b", 0)], 1))

# documents relevant to many subtopics (sums over more than eight terms)
WIDE_QRELS = "".join(f"11 {s} w{d} 1\n" for d in range(6) for s in range(12) if (s * 7 + d * 3) % 5 != 0)
WIDE_RUN = "".join(f"11 Q0 w{d} {r} {10 - r} wide\n" for r, d in enumerate([3, 0, 5, 1, 4, 2], 1))

# prefixed and zero-padded topics, ranks with gaps and a rank 0, lines out of order
PREFIX_RUN = """\
wt09-1 Q0 d3 40 1.0 pre
wt09-1 Q0 d2 0 3.0 pre
wt09-1 Q0 d1 7 2.0 later
wt09-1 Q0 d5 9 2.0 later
03 Q0 x 2 1.0 later
"""

# a long ranking (beyond the 20 ranks ERR-IA and alpha-DCG look at)
LONG_QRELS = "".join(f"9 {s} L{d:02d} 1\n" for d in range(40) for s in range(1, 5) if (d + s) % 3 == 0)
LONG_RUN = "".join(f"9 Q0 L{d:02d} {r} {100 - r} long\n" for r, d in enumerate(range(39, -1, -1), 1))

CASES = {
    "default": (QRELS, RUN, None, []),
    "traditional": (QRELS, RUN, None, ["-traditional"]),
    "alpha_beta": (QRELS, RUN, None, ["-alpha", "0.3", "-beta", "0.9"]),
    "alpha_0": (QRELS, RUN, None, ["-alpha", "0"]),
    "alpha_1": (QRELS, RUN, None, ["-alpha", "1"]),
    "beta_0": (QRELS, RUN, None, ["-beta", "0"]),
    "alpha_0_beta_1": (QRELS, RUN, None, ["-alpha", "0", "-beta", "1"]),
    "depth_2": (QRELS, RUN, None, ["-M", "2"]),
    "depth_cuts_a_duplicate": (QRELS, RUN + "1 Q0 d2 6 0.1 runA\n", None, ["-M", "5"]),
    "complete": (QRELS, RUN, None, ["-c"]),
    "complete_flags": (QRELS, RUN, None, ["-ca"]),
    "risk": (QRELS, RUN, BASE, ["-baseline", "BASELINE"]),
    "risk_alpha": (QRELS, RUN, BASE, ["-baseline", "BASELINE", "-riskAlpha", "1.0"]),
    "risk_complete": (QRELS, RUN, BASE, ["-c", "-riskAlpha", "5", "-baseline", "BASELINE"]),
    "risk_alpha_without_baseline": (QRELS, RUN, None, ["-riskAlpha", "2"]),
    "risk_traditional_depth": (QRELS, RUN, BASE, ["-traditional", "-M", "1", "-baseline", "BASELINE",
                                                  "-riskAlpha", "0.5"]),
    "ideal_ties": (TIES_QRELS, TIES_RUN, None, []),
    "ideal_ties_traditional": (TIES_QRELS, TIES_RUN, None, ["-traditional", "-alpha", "0.8"]),
    "many_subtopics": (WIDE_QRELS, WIDE_RUN, None, ["-alpha", "0.1"]),
    "prefixed_topics": (QRELS, PREFIX_RUN, None, []),
    "long_ranking": (LONG_QRELS, LONG_RUN, None, ["-beta", "0.95"]),
    "no_common_topic": (QRELS, "8 Q0 d1 1 1 none\n", None, []),
    "no_common_topic_complete": (QRELS, "8 Q0 d1 1 1 none\n", None, ["-c"]),
    "only_unjudged_topic": ("2 1 d5 0\n", "2 Q0 d5 1 1 zero\n2 Q0 d6 2 1 zero\n", None, []),
    "error_duplicate_rank": (QRELS, RUN + "1 Q0 d7 5 0.2 runA\n", None, []),
    "error_duplicate_docno": (QRELS, RUN + "1 Q0 d2 6 0.1 runA\n", None, []),
    "duplicate_rank_traditional": (QRELS, RUN + "1 Q0 d7 5 0.2 runA\n", None, ["-traditional"]),
}

#: seeds of dev/fuzz_ndeval.py's generator for the random cases
RANDOM_SEEDS = range(1, 21)


def write(name: str, qrels: str, run: str, baseline: str | None, options: list[str]) -> None:
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for fname, text in (("qrels", qrels), ("run", run), ("baseline", baseline)):
        if text is not None:
            with open(os.path.join(d, fname), "w") as f:
                f.write(text)
    with open(os.path.join(d, "args"), "w") as f:
        f.write(shlex.join(options) + "\n")
    # run from inside the folder: the file names ndeval sees are the same as the test's
    argv = [NDEVAL] + ["baseline" if o == "BASELINE" else o for o in options] + ["qrels", "run"]
    p = subprocess.run(argv, cwd=d, capture_output=True)
    with open(os.path.join(d, "expected"), "wb") as f:
        f.write(p.stdout)
    with open(os.path.join(d, "expected_exit"), "w") as f:
        f.write(f"{p.returncode}\n")


def main() -> None:
    if not os.path.exists(NDEVAL):
        sys.exit(f"no ndeval binary at {NDEVAL} (build it with /work/shared/tools/build_ndeval.sh)")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from fuzz_ndeval import gen_case

    shutil.rmtree(OUT, ignore_errors=True)
    for name, (q, r, b, opts) in CASES.items():
        write(name, q, r, b, opts)
    for seed in RANDOM_SEEDS:
        q, r, b, opts = gen_case(random.Random(seed * 7919))
        write(f"random_{seed:02d}", q, r, b, opts)
    print(f"wrote {len(CASES) + len(RANDOM_SEEDS)} cases under {OUT}")


if __name__ == "__main__":
    main()
