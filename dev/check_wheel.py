#!/usr/bin/env python3
"""Check an installed trec_eval_py as a release wheel must be, in the Python
that runs this script (a venv the wheel was installed into; the release
workflow's test command, and tests/test_wheel.py).

- the package is imported from the installation, not from CHECKOUT;
- its version is the one its metadata gives;
- the five C extensions are in the wheel and in use: they are optional in a
  build (a build without a C compiler gives a wheel running the numpy code,
  same results, slower), and a wheel without them must not be released;
- the evaluation prints, byte for byte, what trec_eval 9.0.8 printed for the
  golden case ``te_aq`` (``-q -m all_trec`` on trec_eval's test files).

Usage: python dev/check_wheel.py CHECKOUT. Exit status 0 when every check
passes (one line each), 1 with the failures on standard error. Standard
library only: nothing is installed beside the wheel.
"""
from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

#: the golden case run, from fixtures/golden/cases.tsv
CASE = "te_aq"


def problems(checkout: Path) -> list[str]:
    """What is wrong with the installed package (an empty list: nothing)."""
    import trec_eval_py
    from trec_eval_py import _native

    package = Path(trec_eval_py.__file__).resolve().parent
    if package.is_relative_to(checkout):
        return [f"trec_eval_py is imported from the checkout ({package}), not from the installed wheel"]
    found = []
    if metadata.version("trec_eval_py") != trec_eval_py.__version__:
        found.append(f"version {trec_eval_py.__version__} but metadata {metadata.version('trec_eval_py')}")
    used = _native.in_use()
    missing = [name for name in used if _native.built(name) is None]
    if missing:
        found.append(f"C extensions not in the installed wheel: {', '.join(missing)}")
    elif not all(used.values()):
        found.append("C extensions turned off (TREC_EVAL_PY_NO_C)")
    for name in used:
        module = _native.built(name)
        if module is not None and not Path(module.__file__).resolve().is_relative_to(package):
            found.append(f"C extension {name} loaded from {module.__file__}, outside the package")
    golden = checkout / "fixtures" / "golden"
    (args,) = [line.split("\t", 1)[1].split() for line in (golden / "cases.tsv").read_text().splitlines()
               if line.startswith(CASE + "\t")]
    # -I: neither the working folder nor PYTHONPATH on the path, so the installed package runs
    p = subprocess.run([sys.executable, "-I", "-m", "trec_eval_py", *args], cwd=golden, capture_output=True)
    if p.returncode != 0:
        found.append(f"the golden case {CASE} exited {p.returncode}: {p.stderr.decode(errors='replace')[-500:]}")
    elif p.stdout != (golden / "expected" / "9.0.8" / f"{CASE}.out").read_bytes():
        found.append(f"the golden case {CASE} does not print what trec_eval 9.0.8 printed")
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 1
    found = problems(Path(argv[0]).resolve())
    for problem in found:
        print(f"check_wheel: {problem}", file=sys.stderr)
    if not found:
        import trec_eval_py
        from trec_eval_py import _native

        print(f"trec_eval_py {trec_eval_py.__version__} from {Path(trec_eval_py.__file__).parent}")
        print(f"C extensions in use: {', '.join(_native.in_use())}")
        print(f"golden case {CASE}: the same bytes as trec_eval 9.0.8")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
