"""Shared loader for the golden corpus copied into fixtures/golden."""
from __future__ import annotations

from support.paths import GOLDEN


def load_cases():
    cases = []
    for line in (GOLDEN / "cases.tsv").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, args = line.split("\t", 1)
        cases.append((name, args.split()))
    return cases


def expectation(version: str, name: str):
    """('skip'|'deviation'|'error'|'output', payload) for a case in a compat version."""
    base = GOLDEN / "expected" / version / name
    skip = base.with_suffix(".skip")
    if skip.exists():
        note = skip.read_text().splitlines()[0]
        if note.startswith("deliberate deviation"):
            return "deviation", note
        return "skip", note
    if base.with_suffix(".rc").exists():
        return "error", int(base.with_suffix(".rc").read_text().strip())
    return "output", base.with_suffix(".out").read_bytes()


def run_cli(args, capsysbinary, monkeypatch=None, *, cwd=None, binary=False):
    """Run the command line in-process: (exit code, stdout, stderr).

    ``cwd`` (with ``monkeypatch``) runs it from that folder; ``binary`` keeps
    stdout as bytes.
    """
    from trec_eval_py import cli

    if cwd is not None:
        monkeypatch.chdir(cwd)
    code = 0
    try:
        cli.main([str(a) for a in args])
    except SystemExit as e:
        code = e.code or 0
    out = capsysbinary.readouterr()
    return code, (out.out if binary else out.out.decode()), out.err.decode(errors="replace")
