"""Every page under ``guide/`` in the site's navigation.

The front page lists the main guides in reading order in its first toctree;
the line ``<!-- more guides -->`` there is replaced, when the page is read,
by a toctree of every other ``guide/*.md``, by name, so that a guide page
added to the folder is on the site without an edit elsewhere.
"""
from __future__ import annotations

import re
from pathlib import Path

MARKER = "<!-- more guides -->"


def other_guides(srcdir: Path, index_text: str) -> list[str]:
    listed = set(re.findall(r"^(guide/[\w.-]+)\s*$", index_text, flags=re.M))
    return sorted(f"guide/{p.stem}" for p in (srcdir / "guide").glob("*.md") if f"guide/{p.stem}" not in listed)


def _on_source_read(app, docname: str, source: list[str]) -> None:
    if docname != "index" or MARKER not in source[0]:
        return
    more = other_guides(Path(app.srcdir), source[0])
    block = "```{toctree}\n:caption: More topics\n:maxdepth: 1\n\n" + "\n".join(more) + "\n```\n" if more else ""
    source[0] = source[0].replace(MARKER, block)


def setup(app):
    app.connect("source-read", _on_source_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
