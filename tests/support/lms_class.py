"""A class of 30 students as a learning-management system hands it over, for the grading tests.

``make_lms_class(root)`` writes ``root/qrels.txt``, ``root/roster.csv`` and
``root/download/``: a "download all" of a Moodle assignment, one folder per
student named ``<Full Name>_<id>_assignsubmission_file_``. Sixteen students
hand in ordinary runs (4-decimal scores, so a few ties, as real systems
have); fourteen make the mistakes a teacher meets, one kind each
(:data:`BROKEN`). Runs come from a seeded generator: a student's quality
mixes the true relevance into the scores; the qrels pool every run's top 20.

``make_lms_zip(root)`` packs the same download into one zip (``all.zip``),
where the student who zipped a folder hands in a zip inside the zip.
"""
from __future__ import annotations

import os
import random
import time
import zipfile
from pathlib import Path

TOPICS = [str(t) for t in range(401, 451)]
DOCS = [f"DOC{i:04d}" for i in range(1600)]
DEPTH = 100

GOOD = ["Alice Adams", "Ben Brown", "Chloe Chen", "Dev Dutta", "Emma Evans", "Finn Fox", "Grace Green",
        "Hugo Hill", "Iris Ito", "Jack Jones", "Kim Kato", "Liam Lee", "Maya Moore", "Noah Nash", "Omar Ortiz",
        "Priya Patel"]

#: student -> (the mistake, the check validate names first, or None when the run is fine)
BROKEN = {
    "Quinn Quade": ("no Q0 column", "fields"),
    "Rosa Reyes": ("a document twice", "duplicate-docno"),
    "Sam Stone": ("topic ids 'q401'", "no-common-topics"),
    "Tara Tran": ("an empty file", "empty"),
    "Uma Ueda": ("CRLF line endings", None),
    "Victor Vega": ("a zip of a folder with a README", None),
    "Wei Wang": ("a header line", "header"),
    "Xena Xu": ("20 of 50 topics", "topic-not-in-run"),
    "Yusuf Yilmaz": ("tabs", None),
    "Zoe Zhang": ("1,500 documents per topic", "too-many-docs"),
    "Aaron Abbot": ("scores reversed", "reversed-scores"),
    "Bella Berg": ("commas", "separator"),
    "Carl Cruz": ("two run ids", "runid"),
    "Dana Diaz": ("two files", None),
}
STUDENTS = GOOD + list(BROKEN)
#: students whose run is not graded (an error)
FAILING = {s for s, (_, code) in BROKEN.items()
           if code in ("fields", "duplicate-docno", "no-common-topics", "empty", "header", "too-many-docs",
                       "separator", "runid")}


def student_id(i: int) -> int:
    return 20231 + 7 * i


def folder(name: str) -> str:
    return f"{name}_{student_id(STUDENTS.index(name))}_assignsubmission_file_"


def _truth(rng):
    return {t: {d: rng.choice([0] * 14 + [1, 1, 2]) for d in DOCS[:300]} for t in TOPICS}


def _ranking(rng, truth, topic, quality, depth=DEPTH):
    pool = DOCS if depth > 300 else DOCS[:300]
    scored = [(truth[topic].get(d, 0) * quality + rng.random() * 10, d) for d in pool]
    scored.sort(reverse=True)
    return scored[:depth]


def _lines(rng, truth, runid, quality, topics=TOPICS, depth=DEPTH, sep=" ", digits=4):
    out = []
    for t in topics:
        for r, (s, d) in enumerate(_ranking(rng, truth, t, quality, depth), 1):
            out.append(sep.join([t, "Q0", d, str(r), f"{s:.{digits}f}", runid]))
    return out


def _text(lines, end="\n") -> bytes:
    return "".join(ln + end for ln in lines).encode()


def make_lms_class(root) -> Path:
    root = Path(root)
    rng = random.Random(2024)
    truth = _truth(rng)
    dl = root / "download"
    dl.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict[str, bytes]] = {}  # student -> {file name: bytes}

    for i, name in enumerate(GOOD):
        runid = name.split()[0].lower()
        # half the class prints scores to 4 decimals (a few ties, as real systems have), half to 6
        files[name] = {"run.txt": _text(_lines(rng, truth, runid, 0.5 + 0.6 * (i % 8), digits=4 + 2 * (i % 2)))}

    def run(runid, quality=1.0, **kw):
        return _lines(rng, truth, runid, quality, **kw)

    files["Quinn Quade"] = {"run.txt": _text(" ".join(ln.split()[:1] + ln.split()[2:]) for ln in run("quinn"))}
    rosa = run("rosa")
    files["Rosa Reyes"] = {"run.txt": _text(rosa[:50] + [rosa[3].replace(" 4 ", " 51 ", 1)] + rosa[50:])}
    files["Sam Stone"] = {"run.txt": _text("q" + ln for ln in run("sam"))}
    files["Tara Tran"] = {"run.txt": b""}
    files["Uma Ueda"] = {"run.txt": _text(run("uma"), end="\r\n")}
    files["Wei Wang"] = {"run.txt": _text(["qid Q0 docno rank score runid"] + run("wei"))}
    files["Xena Xu"] = {"run.txt": _text(run("xena", topics=TOPICS[:20]))}
    files["Yusuf Yilmaz"] = {"run.txt": _text(run("yusuf", sep="\t"))}
    files["Zoe Zhang"] = {"run.txt": _text(run("zoe", depth=1500))}
    aaron = []
    for ln in run("aaron", quality=6.0):  # a good ranking whose scores rise with the rank
        f = ln.split()
        f[4] = f"{int(f[3]) / 100:.2f}"
        aaron.append(" ".join(f))
    files["Aaron Abbot"] = {"run.txt": _text(aaron)}
    files["Bella Berg"] = {"run.csv": _text(ln.replace(" ", ",") for ln in run("bella"))}
    carl = run("carl")
    files["Carl Cruz"] = {"run.txt": _text(carl[:2500] + [ln.replace(" carl", " carl-v2") for ln in carl[2500:]])}
    files["Dana Diaz"] = {"run_v1.txt": _text(run("dana-v1", 0.3)), "run_v2.txt": _text(run("dana-v2", 0.9))}

    for name, those in files.items():
        d = dl / folder(name)
        d.mkdir(exist_ok=True)
        for fname, data in those.items():
            (d / fname).write_bytes(data)
    # Dana's second file is the later one
    old = time.time() - 3600
    os.utime(dl / folder("Dana Diaz") / "run_v1.txt", (old, old))

    # Victor zipped his folder, with a README beside the run
    vic = dl / folder("Victor Vega")
    vic.mkdir(exist_ok=True)
    victor = _text(run("victor", 0.8))
    with zipfile.ZipFile(vic / "submission.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("victor/run.txt", victor)
        z.writestr("victor/README.txt", "My system uses BM25 with RM3 expansion.\n")
        z.writestr("__MACOSX/victor/._run.txt", b"\0\x05\x16\x07 resource fork")
    (dl / folder("Chloe Chen") / "report.pdf").write_bytes(b"%PDF-1.4\n% a write-up\n")
    (dl / ".DS_Store").write_bytes(b"\0\0\0\x01Bud1")

    # the qrels: every document a run puts in its top 20 (the pool), and every relevant one
    pool = {t: set() for t in TOPICS}
    for those in [*files.values(), {"run.txt": victor}]:
        for data in those.values():
            for ln in data.replace(b",", b" ").decode().splitlines():
                f = ln.split()
                if len(f) >= 6 and f[0] in pool and int(f[3]) <= 20:
                    pool[f[0]].add(f[2])
    lines = [f"{t} 0 {d} {truth[t].get(d, 0)}\n" for t in TOPICS for d in DOCS[:300]
             if d in pool[t] or truth[t].get(d, 0) > 0]
    (root / "qrels.txt").write_text("".join(lines))
    with open(root / "roster.csv", "w") as f:
        f.write("Identifier,Full name,Email address\n")
        for i, name in enumerate(STUDENTS):
            f.write(f"Participant {student_id(i)},{name},{name.split()[0].lower()}@example.edu\n")
        f.write("Participant 99999,Nora Noshow,nora@example.edu\n")
    return root


def make_lms_zip(root) -> Path:
    """The same download as one zip (what "download all submissions" gives)."""
    root = Path(root)
    dl = root / "download"
    with zipfile.ZipFile(root / "all.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(dl.rglob("*")):
            if p.is_file():
                z.write(p, str(p.relative_to(dl)))
    return root / "all.zip"


if __name__ == "__main__":  # python tests/support/lms_class.py DIR: the class, for trying the commands by hand
    import sys

    print(make_lms_class(sys.argv[1]))
