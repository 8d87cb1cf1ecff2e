"""What installing the package with an extra brings, as this machine has it installed:
the tests that check the README's set-up commands and the docs extra read it."""
from __future__ import annotations

import re
import tomllib

from support.paths import ROOT


def extra_requirements(extra: str) -> list[str]:
    """The package's own requirements and those of its extra ``extra`` (pyproject.toml)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return project["dependencies"] + project["optional-dependencies"][extra]


def installed_closure(requirements: list[str]) -> tuple[set[str], set[str]]:
    """The distributions ``requirements`` bring, as installed here (normalised names), and
    the requirements that are not installed (their dependencies are then unknown)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    todo = [Requirement(r) for r in requirements]
    seen: set[tuple[str, tuple[str, ...]]] = set()
    missing: set[str] = set()
    while todo:
        req = todo.pop()
        key = (re.sub(r"[-_.]+", "-", req.name).lower(), tuple(sorted(req.extras)))
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            missing.add(req.name)
            continue
        for spec in dist.requires or []:
            sub = Requirement(spec)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in (req.extras or {""})):
                todo.append(sub)
    return {name for name, _ in seen}, missing
