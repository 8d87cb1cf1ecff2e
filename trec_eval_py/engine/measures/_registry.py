"""Discovery of measure modules and resolution of ``-m`` requests."""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import lru_cache

from ...errors import MeasureError
from ._base import Measure
from ._params import Params


@dataclass(frozen=True)
class Selected:
    """A requested measure with its parameters and output names."""

    measure: Measure
    params: Params

    @property
    def names(self) -> list[str]:
        return self.measure.output_names(self.params)


class Registry:
    """All known measures by name, and the nicknames they declare."""

    def __init__(self, measures: list[Measure]):
        self._by_name: dict[str, Measure] = {}
        for m in measures:
            if m.name in self._by_name and self._by_name[m.name] is not m:
                raise RuntimeError(f"two measures are named {m.name!r}")
            self._by_name[m.name] = m

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Measure:
        return self._by_name[name]

    def __iter__(self):
        return iter(sorted(self._by_name.values(), key=lambda m: (m.order, m.name)))

    def __len__(self) -> int:
        return len(self._by_name)

    @property
    def nicknames(self) -> set[str]:
        return {n for m in self._by_name.values() for n in m.nicknames}

    def nickname_members(self, nickname: str, compat: str) -> list[Measure]:
        return [m for m in self if m.in_nickname(nickname, compat)]

    def resolve(self, specs: list[str], compat: str = "9.0.8", rel_format: str | None = None) -> list[Selected]:
        """Turn ``-m`` arguments into the measures to compute, in print order.

        A spec is ``name`` or ``name.params``; ``name`` may be a nickname. When
        several specs give parameters for one measure, the first one wins (as in
        trec_eval).
        """
        chosen: dict[str, Measure] = {}
        texts: dict[str, str] = {}
        nicks = self.nicknames
        for spec in specs:
            name, dot, text = spec.partition(".")
            if dot and text == "":
                raise MeasureError(f"measure '{spec}': empty parameter list after '.'")
            if name in nicks and name not in self._by_name:
                if dot:
                    raise MeasureError(f"nickname '{name}' takes no parameters")
                for m in self.nickname_members(name, compat):
                    chosen.setdefault(m.name, m)
                continue
            m = self._by_name.get(name)
            if m is None:
                import difflib

                close = difflib.get_close_matches(name, list(self._by_name) + sorted(nicks), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise MeasureError(f"unknown measure '{spec}'{hint}")
            chosen.setdefault(m.name, m)
            if dot:
                texts.setdefault(m.name, text)
        selected = []
        for m in sorted(chosen.values(), key=lambda m: (m.order, m.name)):
            if rel_format is not None and m.rel_formats is not None and rel_format not in m.rel_formats:
                need = " or ".join(f"'-R {f}'" for f in sorted(m.rel_formats))
                raise MeasureError(f"measure '{m.name}' needs {need} judgments, not '{rel_format}'")
            selected.append(Selected(m, m.params.parse(m.name, texts.get(m.name))))
        return selected


def _discover() -> list[Measure]:
    from .. import measures as pkg

    found = []
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
        found.extend(v for v in vars(mod).values() if isinstance(v, Measure))
    return found


@lru_cache(maxsize=1)
def registry() -> Registry:
    """The registry of every measure shipped in this package."""
    return Registry(_discover())
