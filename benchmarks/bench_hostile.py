#!/usr/bin/env python3
"""Hostile submissions at full size: does ``batch`` end in seconds on each?

usage: python benchmarks/bench_hostile.py [--data DIR] [--only CASE ...] [--timeout S] [--package DIR]
                                          [--markdown]

Each case is one file handed to ``batch QRELS FILE -j 1 --format json``, built
on first use in --data (default: a temporary folder, removed afterwards):

  members     a zip of 100,000 tiny members (about 13 MB): past the bound on
              members (10,000), one failed row, listed in one pass
  tar-bomb    a .tar.bz2 of about 1.3 MB whose one member is 1 TiB of zeros
              (its header says so): the listing stops at the header
  overlap     an overlapping-entry zip (D. Fifield's "better zip bomb": 1,200
              members sharing one 1 MiB kernel, about 117 KB): the members'
              declared total fails the archive's ratio bound before any is read
  sparse      a 2 GiB sparse file (no byte on disk): told binary by its head
  stdin-zero  /dev/zero on standard input (``batch QRELS -``): a device, refused
              at its first byte
  tar-2000    a .tar.gz of 2,000 small runs: read once (each member used to
              re-read the archive: quadratic)
  nested-2000 a zip holding a zip of 2,000 small runs: the inner zip expanded
              once for all its members

Each command is timed once, as a whole process, with --timeout (default 300 s)
as the most it may take; the board's first row says what became of the file.
``--package DIR`` times another checkout of trec_eval_py (one from before a
change) on the same files.
"""
from __future__ import annotations

import argparse
import bz2
import contextlib
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
QRELS = "".join(f"{t} 0 D{d} {int(d % 3 == 0)}\n" for t in (1, 2) for d in range(12))


def run_text(runid: str) -> str:
    return "".join(f"{t} Q0 D{d} {r} {100 - r} {runid}\n" for t in (1, 2) for r, d in enumerate(range(10), 1))


def make_members(path: str) -> None:
    with zipfile.ZipFile(path, "w") as z:
        for k in range(100_000):
            z.writestr(f"m{k:06d}.txt", "1 Q0 D1 1 1 x\n")


def make_tar_bomb(path: str) -> None:
    head = tarfile.TarInfo("run.txt")
    head.size = 1 << 40
    block = bz2.compress(bytes(64 << 20))  # 64 MiB of zeros in about 80 bytes: streams concatenate
    with open(path, "wb") as f:
        f.write(bz2.compress(head.tobuf(tarfile.GNU_FORMAT)))
        for _ in range((1 << 40) // (64 << 20)):
            f.write(block)


def make_overlap(path: str, files: int = 1200, kernel_bytes: int = 1 << 20) -> None:
    """Member i's compressed data is a stored block quoting member i+1's local header,
    then member i+1's data, down to one deflated kernel that all share."""
    def local(name: bytes, crc: int, csize: int, usize: int) -> bytes:
        return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, csize, usize, len(name), 0) + name

    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    kernel = c.compress(bytes(kernel_bytes)) + c.flush()
    crc, csize, usize = zlib.crc32(bytes(kernel_bytes)), len(kernel), kernel_bytes
    tail = b""  # the headers member i+1 onwards quote, before the kernel's bytes
    headers = []
    for i in reversed(range(files)):
        name = f"{i:04d}.txt".encode()
        lh = local(name, crc, csize, usize)
        headers.append((name, lh, crc, csize, usize))
        # crc of lh + (what member i+1 gives): the kernel's crc is combined by recomputing the
        # headers' part only (zlib.crc32 continues a crc; the kernel's zeros are added last)
        tail = lh + tail
        csize, usize = csize + 5 + len(lh), usize + len(lh)
        crc = zlib.crc32(bytes(kernel_bytes), zlib.crc32(tail))
    headers.reverse()
    body, offsets = b"", []
    for i, (_name, lh, *_rest) in enumerate(headers):
        offsets.append(len(body))
        body += lh
        if i + 1 < len(headers):
            nxt = headers[i + 1][1]
            body += b"\0" + struct.pack("<HH", len(nxt), len(nxt) ^ 0xFFFF)
    body += kernel
    central = b"".join(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, cs, us,
                                   len(name), 0, 0, 0, 0, 0, off) + name
                       for (name, _lh, crc, cs, us), off in zip(headers, offsets))
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, files, files, len(central), len(body), 0)
    with open(path, "wb") as f:
        f.write(body + central + end)


def make_sparse(path: str) -> None:
    with open(path, "wb") as f:
        f.truncate(2 << 30)


def make_tar_2000(path: str) -> None:
    with tarfile.open(path, "w:gz") as t:
        for k in range(2000):
            data = run_text(f"s{k}").encode()
            info = tarfile.TarInfo(f"s{k:04d}/run.txt")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))


def make_nested_2000(path: str) -> None:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as z:
        for k in range(2000):
            z.writestr(f"s{k:04d}/run.txt", run_text(f"s{k}"))
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("section.zip", inner.getvalue())


CASES = {
    "members": ("members.zip", make_members),
    "tar-bomb": ("bomb.tar.bz2", make_tar_bomb),
    "overlap": ("overlap.zip", make_overlap),
    "sparse": ("sparse.txt", make_sparse),
    "stdin-zero": ("-", None),
    "tar-2000": ("class.tar.gz", make_tar_2000),
    "nested-2000": ("lms.zip", make_nested_2000),
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", help="where the files are built (default: a temporary folder)")
    ap.add_argument("--only", nargs="+", choices=list(CASES), help="these cases only")
    ap.add_argument("--timeout", type=float, default=300.0, help="most seconds a case may take")
    ap.add_argument("--package", default=os.path.dirname(HERE), help="checkout of trec_eval_py to time")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args(argv)
    data = args.data or tempfile.mkdtemp(prefix="bench_hostile_")
    os.makedirs(data, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=args.package)
    qrels = os.path.join(data, "qrels.txt")
    with open(qrels, "w") as f:
        f.write(QRELS)
    rows = []
    try:
        for case in args.only or list(CASES):
            name, make = CASES[case]
            path = name if make is None else os.path.join(data, name)
            t0 = time.perf_counter()
            if make is not None and not os.path.exists(path):
                make(path)
            built = time.perf_counter() - t0
            size = 0 if make is None else os.path.getsize(path)
            t0 = time.perf_counter()
            try:
                with open("/dev/zero", "rb") if path == "-" else contextlib.nullcontext(subprocess.DEVNULL) as stdin:
                    p = subprocess.run([sys.executable, "-m", "trec_eval_py", "batch", qrels, path, "-j", "1",
                                        "--format", "json"], stdin=stdin, capture_output=True, text=True, env=env,
                                       cwd=data, timeout=args.timeout)
                took = time.perf_counter() - t0
                try:
                    runs = json.loads(p.stdout)["runs"]
                    what = f"{len(runs)} row(s); first: {runs[0]['error'] or 'graded'}"
                except (ValueError, KeyError, IndexError):
                    what = (p.stderr.strip().splitlines() or ["?"])[-1]
            except subprocess.TimeoutExpired:
                took, what = args.timeout, f"did not end in {args.timeout:g} s"
            rows.append((case, size, built, took, what))
            print(f"{case:12s} {size / 1e6:9.2f} MB  built {built:6.1f} s  batch {took:7.2f} s  {what[:110]}",
                  file=sys.stderr)
    finally:
        if not args.data:
            shutil.rmtree(data, ignore_errors=True)
    if args.markdown:
        print("| case | file (MB) | batch (s) | what became of it |")
        print("|---|---:|---:|---|")
        for case, size, _, took, what in rows:
            print(f"| {case} | {size / 1e6:.2f} | {took:.2f} | {what[:100].replace('|', '/')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
