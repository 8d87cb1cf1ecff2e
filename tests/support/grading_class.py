"""A class of submissions as a teacher receives them, for the grading tests.

``make_class(root)`` writes ``root/qrels.txt`` and ``root/submissions/``:
nested folders (LMS downloads put each student in a folder), a zip of late
submissions, every kind of valid-but-odd run, and every kind of broken one.
Runs are drawn from a seeded generator: a student's "quality" mixes the true
relevance into the scores, so better students rank relevant documents higher.
The qrels pool every run's top 20, so unjudged documents stay rare.
"""
from __future__ import annotations

import gzip
import random
import zipfile
from pathlib import Path

TOPICS = [str(t) for t in range(401, 411)]
DOCS = [f"DOC{i:03d}" for i in range(80)]

#: name -> what the board must say: ("ok", None) or ("error", a phrase of the reason)
#: (pat.docx, a word-processor document, is no run: it is listed as not graded)
EXPECTED = {
    "alice/run.txt": ("ok", None),
    "bob/submission/run.txt": ("ok", None),          # CRLF line endings
    "carol.txt.gz": ("ok", None),                    # gzip
    "dave.txt": ("error", "2 run ids"),              # two run ids
    "erin.txt": ("ok", None),                        # every score equal
    "frank.txt": ("ok", None),                       # scores rise with rank
    "gwen.txt": ("ok", None),                        # answers 1 topic, perfectly
    "jon.txt": ("ok", None),                         # 0-based rank column
    "zed/run.txt": ("ok", None),                     # a copy of alice's run: ties with it
    "late.zip/hal/run.txt": ("ok", None),            # zip member in a folder
    "late.zip/ida.txt": ("ok", None),                # zip member
    "kate.txt": ("error", "the run id column is missing"),
    "leo.txt": ("error", "header line"),
    "mia.txt": ("error", "already listed for topic"),
    "ned.txt": ("error", "remove the prefix 'q'"),
    "olga.txt": ("error", "no result lines"),
    "quinn.txt": ("error", "CR alone"),
    "rita.txt": ("error", "swapped order"),
    "broken.zip": ("error", "not a readable zip archive"),
}


def _judgments(rng: random.Random) -> dict[str, dict[str, int]]:
    return {t: {d: rng.choice([0] * 7 + [1, 1, 2]) for d in DOCS} for t in TOPICS}


def _ranking(rng, truth, topic, quality):
    scored = [(truth[topic][d] * quality + rng.random(), d) for d in DOCS]
    scored.sort(reverse=True)
    return scored[:20]


def _lines(rng, truth, runid, quality, topics=TOPICS):
    out = []
    for t in topics:
        for r, (s, d) in enumerate(_ranking(rng, truth, t, quality), 1):
            out.append(f"{t} Q0 {d} {r} {s:.4f} {runid}")
    return out


def make_class(root) -> Path:
    root = Path(root)
    rng = random.Random(13)
    truth = _judgments(rng)
    sub = root / "submissions"
    for d in ("alice", "bob/submission", "zed", ".git"):
        (sub / d).mkdir(parents=True, exist_ok=True)

    def write(rel, lines, end="\n"):
        (sub / rel).write_bytes("".join(ln + end for ln in lines).encode())

    runs = {}
    alice = _lines(rng, truth, "alice", 0.5)
    write("alice/run.txt", alice)
    runs["alice"] = alice
    write("bob/submission/run.txt", _lines(rng, truth, "bob", 0.6), end="\r\n")
    carol = "".join(ln + "\n" for ln in _lines(rng, truth, "carol", 0.4))
    (sub / "carol.txt.gz").write_bytes(gzip.compress(carol.encode()))
    dave = _lines(rng, truth, "dave", 0.3)
    write("dave.txt", dave[:-20] + [ln.replace(" dave", " dave-final") for ln in dave[-20:]])
    write("erin.txt", [f"{t} Q0 {d} {r} 1.0 erin" for t in TOPICS for r, d in enumerate(rng.sample(DOCS, 20), 1)])
    frank = []
    for t in TOPICS:  # a good ranking whose scores rise with rank: trec_eval reverses it
        for r, (_s, d) in enumerate(_ranking(rng, truth, t, 3.0), 1):
            frank.append(f"{t} Q0 {d} {r} {r / 10:.1f} frank")
    write("frank.txt", frank)
    best = sorted(DOCS, key=lambda d: (-truth[TOPICS[0]][d], d))[:20]
    write("gwen.txt", [f"{TOPICS[0]} Q0 {d} {r} {100 - r} gwen" for r, d in enumerate(best, 1)])
    jon = []
    for ln in _lines(rng, truth, "jon", 0.2):  # ranks counted from 0
        f = ln.split()
        f[3] = str(int(f[3]) - 1)
        jon.append(" ".join(f))
    write("jon.txt", jon)
    write("zed/run.txt", [ln.replace(" alice", " zed") for ln in alice])
    with zipfile.ZipFile(sub / "late.zip", "w") as z:
        z.writestr("hal/run.txt", "".join(ln + "\n" for ln in _lines(rng, truth, "hal", 0.9)))
        z.writestr("ida.txt", "".join(ln + "\n" for ln in _lines(rng, truth, "ida", 0.1)))
        z.writestr("__MACOSX/._ida.txt", b"\0\x05\x16\x07 mac resource fork")
        z.writestr("hal/.notes.swp", b"editor swap file")
    # broken
    write("kate.txt", [" ".join(ln.split()[:5]) for ln in _lines(rng, truth, "kate", 1.0)])
    write("leo.txt", ["qid Q0 docno rank score runid"] + _lines(rng, truth, "leo", 1.0))
    mia = _lines(rng, truth, "mia", 1.0)
    write("mia.txt", mia[:5] + [mia[2].replace(" 3 ", " 6 ", 1)] + mia[5:])
    write("ned.txt", ["q" + ln for ln in _lines(rng, truth, "ned", 1.0)])
    write("olga.txt", [])
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:  # a word-processor document is a zip too
        z.writestr("word/document.xml", "<w:document>401 Q0 DOC001 1 2.0 pat</w:document>")
    (sub / "pat.docx").write_bytes(buf.getvalue())
    write("quinn.txt", _lines(rng, truth, "quinn", 1.0), end="\r")
    write("rita.txt", [f"{t} 0 {d} {r}" for t in TOPICS for d, r in sorted(truth[t].items())[:20]])
    (sub / "broken.zip").write_bytes(b"PK\x03\x04 this archive was cut short")
    # never graded: hidden files and folders
    (sub / ".DS_Store").write_bytes(b"\0\0\0\x01Bud1")
    (sub / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    # the qrels: every document any run puts in its top 20 (the pool), plus a few more
    pool = {t: set() for t in TOPICS}
    for p in sorted(sub.rglob("*.txt")):
        if p.name in ("rita.txt", "kate.txt"):
            continue
        for ln in p.read_bytes().replace(b"\r", b"\n").decode().splitlines():
            f = ln.split()
            if len(f) >= 6 and f[0] in pool:
                pool[f[0]].add(f[2])
    lines = []
    for t in TOPICS:
        for d in DOCS:
            if d in pool[t] or truth[t][d] > 0 or int(d[3:]) % 3 == 0:
                lines.append(f"{t} 0 {d} {truth[t][d]}\n")
    (root / "qrels.txt").write_text("".join(lines))
    return root


if __name__ == "__main__":  # python tests/support/grading_class.py DIR: the class, for trying the commands by hand
    import sys

    if len(sys.argv) != 2:
        sys.exit("usage: python tests/support/grading_class.py DIR")
    print(make_class(sys.argv[1]))
