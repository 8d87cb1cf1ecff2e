"""Subcommands of ``trec_eval_py`` (``compare``, ``batch``, ``validate``...).

Each module here that does not start with ``_`` is a subcommand named after
the module; it defines ``app``, a :class:`typer.Typer`. The main command line
dispatches to it when the first argument is its name, so adding a subcommand
means adding its module.
"""
from __future__ import annotations

import importlib
import pkgutil


def names() -> list[str]:
    """The subcommands: module names, an underscore written as a hyphen (``pool_bias``: ``pool-bias``)."""
    return sorted(i.name.replace("_", "-") for i in pkgutil.iter_modules(__path__) if not i.name.startswith("_"))


def module(name: str) -> str:
    """The module of subcommand ``name``."""
    return f"{__name__}.{name.replace('-', '_')}"


def load(name: str):
    return importlib.import_module(module(name)).app
