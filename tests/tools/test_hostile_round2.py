"""A second hostile audit of how ``batch`` and ``validate`` find and read submissions.

Each section is one finding: a race that swaps a folder for a link while the
class is walked or graded, archive entries lost without a word, archives and
streams whose reading has no bound (members, total expansion, listing time),
and lines long enough to make the validator's arrays blow up. The hostile
files are built here, with bounds set small so that each case runs at once;
``benchmarks/bench_hostile.py`` times the full-size ones.
"""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys

import pytest
from support.golden import run_cli
from support.paths import ROOT

from trec_eval_py.errors import InputError
from trec_eval_py.tools.shared.submissions import close_archives, scan_submissions

SECRET = "ghp_SECRETTOKEN0123456789"
QRELS = "".join(f"{t} 0 D{d} {int(d % 3 == 0)}\n" for t in (1, 2) for d in range(12))


def run_text(runid: str, docs=range(10), topics=(1, 2)) -> str:
    return "".join(f"{t} Q0 D{d} {r} {100 - r} {runid}\n" for t in topics for r, d in enumerate(docs, 1))


@pytest.fixture
def outside(tmp_path):
    """A folder of the teacher's, outside the class: its run.txt quotes a secret if read."""
    h = tmp_path / "home"
    h.mkdir()
    (h / "run.txt").write_text(f"{SECRET}\n")  # one bad line: its error message would quote it
    return h


@pytest.fixture
def klass(tmp_path):
    root = tmp_path / "class"
    for s in ("alice", "bob"):
        (root / s).mkdir(parents=True)
        (root / s / "run.txt").write_text(run_text(s))
    (tmp_path / "qrels.txt").write_text(QRELS)
    return root


def grade(tmp_path, capsysbinary, *args):
    code, out, err = run_cli(["batch", tmp_path / "qrels.txt", *args, "--format", "json", "-j", "1"], capsysbinary)
    assert "Traceback" not in err
    return code, json.loads(out) if out else None, err


# ---- 1. a folder on the path swapped for a link while the class is read ----

def _swap_for_link(folder, target) -> None:
    os.rename(folder, folder.with_name(folder.name + "-moved"))
    os.symlink(target, folder)


def test_a_folder_swapped_for_a_link_during_the_walk_is_not_entered(tmp_path, klass, outside, capsysbinary,
                                                                    monkeypatch):
    real = os.scandir
    swapped = []

    class Listed:
        """The entries of a folder, each looked at (lstat) before the swap: the race's window."""

        def __init__(self, entries):
            self.entries = entries

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def __iter__(self):
            return iter(self.entries)

    def scandir(path="."):
        with real(path) as it:
            entries = list(it)
        for e in entries:
            e.stat(follow_symlinks=False)  # the walk has seen a folder here
        if not swapped and any(e.name == "alice" for e in entries):
            _swap_for_link(klass / "alice", outside)  # ...and now it is a link out of the class
            swapped.append(1)
        return Listed(entries)

    monkeypatch.setattr(os, "scandir", scandir)
    code, doc, err = grade(tmp_path, capsysbinary, klass)
    assert swapped
    assert SECRET not in json.dumps(doc) + err
    assert [r["run"] for r in doc["runs"]] == [f"{klass}/bob/run.txt"]
    skipped = {s["path"]: s["reason"] for s in doc["skipped"]}
    assert skipped[f"{klass}/alice/"] == "a symbolic link (not followed)"


def test_a_folder_swapped_for_a_link_after_the_walk_is_not_read_through(tmp_path, klass, outside):
    found = scan_submissions([klass])
    alice = next(s for s in found.submissions if "/alice/" in s.name)
    _swap_for_link(klass / "alice", outside)
    with pytest.raises(InputError, match=r"alice/ on its path: a symbolic link: not followed") as e:
        alice.read()
    assert SECRET not in str(e.value)
    with pytest.raises(InputError, match="a symbolic link"):
        b"".join(alice.pieces(1 << 16))


def test_a_folder_swapped_for_another_folder_is_not_read(tmp_path, klass):
    found = scan_submissions([klass])
    alice = next(s for s in found.submissions if "/alice/" in s.name)
    os.rename(klass / "alice", tmp_path / "alice-moved")
    os.rename(klass / "bob", klass / "alice")  # a real folder, but not the one listed
    with pytest.raises(InputError, match="changed after it was listed"):
        alice.read()


def test_an_archive_in_a_swapped_folder_is_not_opened(tmp_path, klass, outside, capsysbinary):
    import zipfile

    with zipfile.ZipFile(klass / "alice" / "late.zip", "w") as z:
        z.writestr("run.txt", run_text("late"))
    with zipfile.ZipFile(outside / "late.zip", "w") as z:
        z.writestr("run.txt", f"{SECRET}\n")
    found = scan_submissions([klass])
    late = next(s for s in found.submissions if "late.zip" in s.name)
    close_archives()
    _swap_for_link(klass / "alice", outside)
    with pytest.raises(InputError, match="a symbolic link: not followed"):
        late.read()


# ---- 2. nothing lost without a word: a damaged tar header ----

def _tar(path, members, mode="w") -> None:
    import io
    import tarfile

    with tarfile.open(path, mode, format=tarfile.GNU_FORMAT) as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def test_a_damaged_tar_header_is_a_row_and_what_precedes_it_is_graded(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    tar = tmp_path / "class.tar"
    runs = [(f"s{k}/run.txt", run_text(f"s{k}").encode()) for k in range(3)]
    _tar(tar, runs)
    data = bytearray(tar.read_bytes())
    second = 512 + (len(runs[0][1]) + 511) // 512 * 512  # the second member's header
    data[second + 148:second + 156] = b"garbage!"  # its checksum: tarfile ends the listing here
    tar.write_bytes(bytes(data))
    code, doc, err = grade(tmp_path, capsysbinary, tar)
    rows = {r["run"]: r for r in doc["runs"]}
    assert rows[f"{tar}/s0/run.txt"]["rank"] == 1
    assert f"the tar archive has a damaged header at byte {second}" in rows[str(tar)]["error"]
    assert "the members after it are not read" in rows[str(tar)]["error"]
    assert code == 4


def test_a_tar_cut_short_keeps_what_it_listed(tmp_path, capsysbinary):
    (tmp_path / "qrels.txt").write_text(QRELS)
    tar = tmp_path / "class.tar.gz"
    _tar(tar, [(f"s{k}/run.txt", run_text(f"s{k}", docs=range(400)).encode()) for k in range(3)], "w:gz")
    import gzip

    plain = gzip.decompress(tar.read_bytes())
    tar.write_bytes(gzip.compress(plain[: len(plain) // 2]))  # the middle of the second member
    code, doc, err = grade(tmp_path, capsysbinary, tar)
    rows = {r["run"]: r for r in doc["runs"]}
    assert rows[f"{tar}/s0/run.txt"]["rank"] == 1
    assert "the tar archive is damaged after 's1/run.txt'" in rows[str(tar)]["error"]
    assert code == 4


def _sparse_header(extended: bool) -> bytes:
    """A GNU sparse member's header block, its 'more map blocks follow' flag as asked."""
    import tarfile

    info = tarfile.TarInfo("run.txt")
    info.type = tarfile.GNUTYPE_SPARSE
    block = bytearray(info.tobuf(format=tarfile.GNU_FORMAT)[:512])
    block[482] = int(extended)
    block[148:156] = b" " * 8
    block[148:156] = b"%06o\0 " % sum(block)
    return bytes(block)


@pytest.mark.parametrize("more", [b"", b"\0" * 511 + b"\1"], ids=["cut-after-header", "map-block-follows"])
def test_a_sparse_tar_member_is_a_row_not_a_crash_or_a_stall(klass, tmp_path, capsysbinary, more):
    """A sparse member's map (block after block, as many as its header says, read before
    any bound): its tar is a row of its own, the rest of the class is graded."""
    (klass / "carol").mkdir()
    (klass / "carol" / "sub.tar").write_bytes(_sparse_header(True) + more)
    code, doc, err = grade(tmp_path, capsysbinary, klass)
    rows = {r["run"]: r for r in doc["runs"]}
    assert "not a readable tar archive" in rows[f"{klass}/carol/sub.tar"]["error"]
    assert rows[f"{klass}/alice/run.txt"]["rank"] is not None and code == 4


# ---- 3. bounded work: members, total expansion, one pass per archive ----

def test_an_archive_of_too_many_members_is_one_row_and_the_class_is_graded(tmp_path, klass, capsysbinary,
                                                                          monkeypatch):
    import tarfile
    import zipfile

    with zipfile.ZipFile(klass / "many.zip", "w") as z:
        for k in range(2000):
            z.writestr(f"m{k}.txt", "1 Q0 D1 1 1 x\n")
    _tar(klass / "many.tar", [(f"m{k}.txt", b"1 Q0 D1 1 1 x\n") for k in range(2000)])
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--max-members", "1000")
    rows = {r["run"]: r for r in doc["runs"]}
    assert set(rows) == {f"{klass}/alice/run.txt", f"{klass}/bob/run.txt", f"{klass}/many.tar",
                         f"{klass}/many.zip"}
    for a in ("many.tar", "many.zip"):
        assert rows[f"{klass}/{a}"]["error"] == "holds more than 1,000 members: not opened (raise the bound " \
                                                "with --max-members or TREC_EVAL_PY_MAX_MEMBERS)"
    assert code == 4
    assert tarfile  # the tar is listed as a stream: its members past the bound are never read


def _fifield(path, files: int, kernel_bytes: int) -> None:
    """A zip whose members overlap (D. Fifield, "A better zip bomb", 2019): member i's
    compressed data is a stored block quoting member i+1's local header, then member
    i+1's data, down to one deflated kernel they all share."""
    import struct
    import zlib

    def local(name: bytes, crc: int, csize: int, usize: int) -> bytes:
        return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, csize, usize, len(name), 0) + name

    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    kernel = c.compress(b"\0" * kernel_bytes) + c.flush()
    out, crc, csize = b"\0" * kernel_bytes, zlib.crc32(b"\0" * kernel_bytes), len(kernel)
    headers = []
    for i in reversed(range(files)):
        name = f"{i:04d}.txt".encode()
        lh = local(name, crc, csize, len(out))
        headers.append((name, lh, crc, csize, len(out)))
        quote = b"\0" + struct.pack("<HH", len(lh), len(lh) ^ 0xFFFF)
        out, crc, csize = lh + out, zlib.crc32(out, zlib.crc32(lh)), csize + len(quote) + len(lh)
    headers.reverse()
    body, offsets = b"", []
    for i, (_name, lh, *_rest) in enumerate(headers):
        offsets.append(len(body))
        body += lh
        if i + 1 < len(headers):
            nxt = headers[i + 1][1]
            body += b"\0" + struct.pack("<HH", len(nxt), len(nxt) ^ 0xFFFF)
    body = body[: offsets[-1] + len(headers[-1][1])] + kernel
    central = b"".join(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, cs, us,
                                   len(name), 0, 0, 0, 0, 0, off) + name
                       for (name, _lh, crc, cs, us), off in zip(headers, offsets))
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, files, files, len(central), len(body), 0)
    path.write_bytes(body + central + end)


def test_overlapping_members_are_bounded_by_the_archive_total(tmp_path, klass, capsysbinary):
    bomb = klass / "overlap.zip"
    _fifield(bomb, 40, 1 << 20)  # 40 members of over 1 MiB each in a few KB: 40 MiB in all
    assert bomb.stat().st_size < 1 << 14
    code, doc, err = grade(tmp_path, capsysbinary, klass)
    rows = {r["run"]: r for r in doc["runs"]}
    assert set(rows) == {f"{klass}/alice/run.txt", f"{klass}/bob/run.txt", str(bomb)}
    assert "expands more than 100 times" in rows[str(bomb)]["error"]
    assert "a decompression bomb?" in rows[str(bomb)]["error"] and code == 4


def test_an_archive_past_its_total_is_one_row(tmp_path, klass, capsysbinary, monkeypatch):
    import zipfile

    with zipfile.ZipFile(klass / "big.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for k in range(4):
            z.writestr(f"s{k}/run.txt", run_text(f"s{k}", docs=range(3000)))  # about 200 KB each
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--max-archive", "512K")
    rows = {r["run"]: r for r in doc["runs"]}
    assert rows[f"{klass}/big.zip"]["error"] == "its members expand to more than 512 KiB in all: not opened " \
                                                "(raise the bound with --max-archive or TREC_EVAL_PY_MAX_ARCHIVE)"
    assert rows[f"{klass}/alice/run.txt"]["rank"] is not None and code == 4


def test_the_archives_of_a_class_are_bounded_together(tmp_path, klass, capsysbinary, monkeypatch):
    import zipfile

    for a in ("a", "b"):
        with zipfile.ZipFile(klass / f"{a}.zip", "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("run.txt", run_text(a, docs=range(1000), topics=range(6)))  # about 130 KB
    code, doc, err = grade(tmp_path, capsysbinary, klass, "--max-class", "200K")
    rows = {r["run"]: r for r in doc["runs"]}
    assert rows[f"{klass}/a.zip/run.txt"]["error"] is None
    assert rows[f"{klass}/b.zip"]["error"] == "the archives read together expand to more than 200 KiB: not " \
                                              "opened (raise the bound with --max-class or TREC_EVAL_PY_MAX_CLASS)"


def test_a_tar_header_declaring_a_terabyte_stops_the_listing_at_once(tmp_path, capsysbinary):
    import bz2
    import io
    import tarfile

    (tmp_path / "qrels.txt").write_text(QRELS)
    head = tarfile.TarInfo("run.txt")
    head.size = 1 << 40  # its data would be decompressed (or read) to find the next header
    blob = head.tobuf(tarfile.GNU_FORMAT) + b"\0" * (1 << 20)
    bomb = tmp_path / "bomb.tar.bz2"
    bomb.write_bytes(bz2.compress(blob))
    code, doc, err = grade(tmp_path, capsysbinary, bomb)
    (row,) = doc["runs"]
    assert row["run"] == str(bomb)
    assert row["error"] == "its members expand to more than 4 GiB in all: not opened (raise the bound with " \
                           "--max-archive or TREC_EVAL_PY_MAX_ARCHIVE)"
    assert io  # the header alone says it: nothing after it is decompressed


def _count_opens(monkeypatch, cls):
    opened = []
    real = cls.__init__

    def counting(self, *a, **k):
        opened.append(1)
        real(self, *a, **k)

    monkeypatch.setattr(cls, "__init__", counting)
    return opened


def test_a_tar_and_a_nested_zip_are_each_read_once_for_all_their_members(tmp_path, monkeypatch):
    import io
    import tarfile
    import zipfile

    _tar(tmp_path / "class.tar.gz", [(f"s{k:03d}/run.txt", run_text(f"s{k}").encode()) for k in range(200)],
         "w:gz")
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        for k in range(200):
            z.writestr(f"s{k:03d}/run.txt", run_text(f"s{k}"))
    with zipfile.ZipFile(tmp_path / "lms.zip", "w") as z:
        z.writestr("section1.zip", inner.getvalue())
    tars = _count_opens(monkeypatch, tarfile.TarFile)
    zips = _count_opens(monkeypatch, zipfile.ZipFile)
    subs = scan_submissions([tmp_path / "class.tar.gz", tmp_path / "lms.zip"]).submissions
    assert len(subs) == 400 and (len(tars), len(zips)) == (1, 2)  # listed: each archive opened once
    data = [s.read() for s in subs]
    close_archives()
    assert (len(tars), len(zips)) == (2, 4)  # read: each opened once more, not once per member
    assert data[7] == run_text("s7").encode() and data[207] == run_text("s7").encode()


def test_grading_in_this_process_leaves_the_environment_s_bounds_in_force(tmp_path, klass, capsysbinary,
                                                                          monkeypatch):
    from trec_eval_py.engine.parse.source import read_limits

    grade(tmp_path, capsysbinary, klass)  # -j 1: the bounds are set up in this very process
    monkeypatch.setenv("TREC_EVAL_PY_MAX_MEMBERS", "7")
    assert read_limits().max_members == 7


# ---- 3. bounded work: endless and empty-but-huge inputs ----

def _limited(args, input_path=None, memory=1 << 30, timeout=60):
    """``trec_eval_py ARGS`` in a process of at most ``memory`` bytes of address space."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory + (1 << 30), memory + (1 << 30)))  # numpy's own

    with open(input_path, "rb") if input_path else contextlib.nullcontext(subprocess.DEVNULL) as stdin:
        return subprocess.run([sys.executable, "-m", "trec_eval_py", *map(str, args)], stdin=stdin, cwd=ROOT,
                              capture_output=True, text=True, timeout=timeout, preexec_fn=limit)


def test_a_device_on_standard_input_is_refused_at_its_first_byte(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS)
    p = _limited(["batch", tmp_path / "qrels.txt", "-", "--format", "json"], "/dev/zero", memory=1 << 29)
    assert p.returncode == 4, p.stderr
    (row,) = json.loads(p.stdout)["runs"]
    assert row["error"] == "is a device, not a file"


def test_a_sparse_file_of_gigabytes_is_called_binary_without_being_read(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS)
    sparse = tmp_path / "run.txt"
    with open(sparse, "wb") as f:
        f.truncate(3 << 30)  # 3 GiB of zeros, no byte of it on disk
    p = _limited(["batch", tmp_path / "qrels.txt", sparse, "--format", "json"], memory=1 << 29)
    assert p.returncode == 4, p.stderr
    (row,) = json.loads(p.stdout)["runs"]
    assert row["error"].startswith("this is a binary file")
    p = _limited(["validate", sparse], memory=1 << 29)
    assert p.returncode == 3, p.stderr
    assert f"{sparse}: error: this is a binary file, not a text run file: save the run as plain text" in p.stdout


# ---- 4. a line or a field long enough to fill the memory ----

def test_a_line_past_the_bound_is_a_finding_naming_it(tmp_path, capsysbinary):
    run = tmp_path / "run.txt"
    run.write_text(run_text("r") + f"1 Q0 {'A' * 200_000} 11 1 r\n" + run_text("r", topics=(3,)))
    code, out, err = run_cli(["validate", run, "--max-line", "100K"], capsysbinary)
    assert code == 3 and "Traceback" not in err
    assert f"{run}:21: error: the line is longer than 100 KiB: no run or judgments line is (raise the bound " \
           "with --max-line or TREC_EVAL_PY_MAX_LINE) [unreadable]" in out
    code, out, err = run_cli(["validate", run], capsysbinary)  # 1 MiB by default
    assert "longer than" not in out
    (tmp_path / "qrels.txt").write_text(QRELS)
    code, doc, err = grade(tmp_path, capsysbinary, run, "--max-line", "100K")
    assert doc["runs"][0]["error"].startswith("line 21: the line is longer than 100 KiB")


def test_one_long_docno_after_many_short_ones_is_a_finding_not_gigabytes(tmp_path, capsysbinary):
    run = tmp_path / "run.txt"
    n = 500_000  # more than a piece of the validator's (8 MB) of one topic's short lines...
    with open(run, "w") as f:
        f.writelines(f"1 Q0 D{d} {d} {n + 10 - d} r\n" for d in range(1, n + 1))
        f.write(f"1 Q0 {'A' * 400_000} {n + 1} 1 r\n")  # ...then one docno of 400 KB: 200 GB padded
    code, out, err = run_cli(["validate", run, "--max-docs", "0"], capsysbinary)
    assert code == 3 and "Traceback" not in err and "out of memory" not in err
    assert f"{run}:{n + 1}: error: run field 3 is 400000 bytes long: padding all" in out
