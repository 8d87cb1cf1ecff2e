"""The processes a command left behind."""
from __future__ import annotations

import os
from pathlib import Path


def session(sid: int) -> list[int]:
    """The processes still in session ``sid`` (zombies aside): a command started
    with a session of its own leaves none once it has ended."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            found.append(int(entry))
    return found
