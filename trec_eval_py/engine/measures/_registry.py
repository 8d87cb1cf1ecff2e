"""Discovery of measure modules and resolution of ``-m`` requests."""
from __future__ import annotations

import copyreg
import importlib
from functools import lru_cache

from ..._record import record, replace
from ..._versions import DEFAULT_COMPAT
from ...errors import MeasureError, OptionTypeError
from ._base import VERSIONS, Measure, in_nickname
from ._order import is_trec_measure, print_key
from ._params import Params


@record
class Selected:
    """A requested measure with its parameters and output names.

    A measure asked for by an ir_measures name (``nDCG@10``) has a ``label``
    (that name, under which its value is reported outside trec_eval's text
    output), the one ``output`` of the measure it keeps, and ``overrides``:
    evaluation options (``relevance_level``, ``judged_only``) that differ for
    it alone, as ``((field, value), ...)``.
    """

    measure: Measure
    params: Params
    label: str | None = None
    output: str | None = None
    overrides: tuple = ()
    #: position among the ``-m`` specs of the first one that asked for it (see :func:`in_asked_order`)
    asked: int = 0

    def _kept(self) -> tuple[tuple, tuple]:
        # (trec_names, indices), worked out once: an evaluation asks for them per
        # output column and per batch, and a cutoff's name is a formatted number.
        # Kept in the instance's dict, outside the fields (equality, hash and
        # replace() see only those)
        kept = self.__dict__.get("_kept_outputs")
        if kept is None:
            names = self.measure.output_names(self.params)
            kept = ((tuple(names), tuple(range(len(names)))) if self.output is None
                    else ((self.output,), (names.index(self.output),)))
            self.__dict__["_kept_outputs"] = kept
        return kept

    @property
    def trec_names(self) -> list[str]:
        """The names trec_eval prints for what is kept."""
        return list(self._kept()[0])

    @property
    def names(self) -> list[str]:
        """The names values are reported under: trec_eval's, or the label."""
        return self.trec_names if self.label is None else [self.label]

    @property
    def indices(self) -> list[int]:
        """Which of the kernel's outputs are kept, in the order of :attr:`names`."""
        return list(self._kept()[1])


def _names():
    # the ir_measures names (nDCG@10...) and the close-name hints: imported
    # only for a spec that is not one of the registry's own names
    from . import _names

    return _names


class Registry:
    """All known measures by name, and the nicknames they declare.

    Built from :class:`Measure` values (checked at once), or by :func:`registry`
    from the static index :mod:`._index`, which names each measure's module, its
    version and its nicknames: then a module is imported only when one of its
    measures is asked for, so a command loads just the measures it computes.
    """

    def __init__(self, measures: list[Measure]):
        self._by_name: dict[str, Measure] = {}
        for m in measures:
            if m.name in self._by_name and self._by_name[m.name] is not m:
                raise RuntimeError(f"two measures are named {m.name!r}")
            self._by_name[m.name] = m
        check(list(self._by_name.values()))
        # name -> (module or None when already loaded, since, nicknames)
        self._index = {m.name: (None, m.since, m.nicknames) for m in measures}

    @classmethod
    def indexed(cls, index: dict) -> Registry:
        """A registry loading each measure's module on first use (``index``: see :mod:`._index`)."""
        reg = cls.__new__(cls)
        reg._by_name = {}
        reg._index = {name: (module, since, frozenset(nicks)) for name, (module, since, nicks) in index.items()}
        return reg

    def _load(self, name: str) -> Measure:
        m = self._by_name.get(name)
        if m is not None:
            return m
        module, since, nicks = self._index[name]
        mod = importlib.import_module(f"{__package__}.{module}")
        for v in vars(mod).values():
            if isinstance(v, Measure) and v.name in self._index and self._index[v.name][0] == module:
                if (v.since, v.nicknames) != self._index[v.name][1:]:
                    raise RuntimeError(f"measure {v.name!r} differs from the measure index: regenerate it "
                                       f"with 'python -m trec_eval_py.engine.measures._write_index'")
                self._by_name[v.name] = v
        if name not in self._by_name:
            raise RuntimeError(f"the measure index puts {name!r} in {module}.py, which does not define it: "
                               f"regenerate it with 'python -m trec_eval_py.engine.measures._write_index'")
        return self._by_name[name]

    def __contains__(self, name: str) -> bool:
        return name in self._index

    def __getitem__(self, name: str) -> Measure:
        if name not in self._index:
            raise KeyError(name)
        return self._load(name)

    def _names_in_order(self) -> list[str]:
        # the index never changes once made: sorted once (each -m nickname asks)
        names = self.__dict__.get("_in_order")
        if names is None:
            names = self._in_order = sorted(self._index, key=lambda n: (print_key(n), n))
        return names

    def __iter__(self):
        return iter([self._load(n) for n in self._names_in_order()])

    def __len__(self) -> int:
        return len(self._index)

    @property
    def nicknames(self) -> set[str]:
        nicks = self.__dict__.get("_nicknames")
        if nicks is None:
            nicks = self._nicknames = frozenset(n for _, _, nicks in self._index.values() for n in nicks)
        return set(nicks)

    def nickname_members(self, nickname: str, compat: str) -> list[Measure]:
        return [self._load(n) for n in self._names_in_order()
                if in_nickname(self._index[n][2], self._index[n][1], nickname, compat)]

    def resolve(self, specs: list[str], compat: str = DEFAULT_COMPAT, rel_format: str | None = None, *,
                given: str | None = None) -> list[Selected]:
        """Turn ``-m`` arguments into the measures to compute, in print order.

        A spec is ``name`` or ``name.params``; ``name`` may be a nickname. When
        several specs give parameters for one of trec_eval's measures, the first
        one wins (as in trec_eval: ``-m P.5 -m P.10`` prints ``P_5``). A measure
        of this package's own (``cwl_P``, ``bedroc``, ...) keeps every parameter
        list asked for, each its own outputs, in the order asked for (``-m
        cwl_P.k=5 -m cwl_P.k=10`` prints both); a list that parses to parameters
        already asked for adds nothing, and a spec without parameters adds
        nothing once the measure has some. ``rel_format`` is the judgment format every measure must
        accept (None: any); ``given``, the ``-R`` format the user named, when
        its batches are read as another's (``-R codiesp`` feeds ``qrels``
        measures), so that an error names what was typed.
        """
        def check(m: Measure, label: str) -> None:
            if rel_format is not None and m.rel_formats is not None and rel_format not in m.rel_formats:
                need = " or ".join(f"'-R {f}'" for f in sorted(m.rel_formats))
                raise MeasureError(f"measure '{label}' needs {need} judgments, not '-R {given or rel_format}'")

        chosen: dict[str, Measure] = {}
        asked: dict[str, int] = {}  # measure name -> the first spec that asked for it
        texts: dict[str, str] = {}
        more: dict[str, list[tuple[int, str]]] = {}  # an extra's later parameter lists: (spec, text)
        aliased: list[Selected] = []
        nicks = self.nicknames
        for pos, spec in enumerate(specs):
            if not isinstance(spec, str):  # measures=[None] through the API
                raise OptionTypeError("{@measures} must be names (strings), not {value}", value=repr(spec))
            name, dot, text = spec.partition(".")
            if name not in self._index and name not in nicks and _names().is_alias_syntax(spec):
                sel = replace(self._alias(spec, compat), asked=pos)
                if sel.label not in {a.label for a in aliased}:
                    aliased.append(sel)
                continue
            if dot and text == "":
                raise MeasureError(f"measure '{spec}': empty parameter list after '.'")
            if name in nicks and name not in self._index:
                if dot:
                    raise MeasureError(f"nickname '{name}' takes no parameters")
                for m in self.nickname_members(name, compat):
                    chosen.setdefault(m.name, m)
                    asked.setdefault(m.name, pos)
                continue
            if name not in self._index:
                raise MeasureError(f"unknown measure '{spec}'{self._hint(spec)}")
            m = self._load(name)
            chosen.setdefault(m.name, m)
            asked.setdefault(m.name, pos)
            if dot:
                if m.name not in texts:
                    texts[m.name] = text
                elif not is_trec_measure(m.name):
                    # first-wins is trec_eval's rule for its own measures; a
                    # measure it lacks has no such rule to keep, and a cwl_*
                    # measure cannot take two values of a parameter in one spec
                    more.setdefault(m.name, []).append((pos, text))
        selected = []
        for m in sorted(chosen.values(), key=lambda m: (m.order, m.name)):
            check(m, m.name)
            first = Selected(m, m.params.parse(m.name, texts.get(m.name)), asked=asked[m.name])
            selected.append(first)
            seen = [first.params.values]
            for pos, text in more.get(m.name, ()):
                params = m.params.parse(m.name, text)
                if params.values not in seen:
                    seen.append(params.values)
                    selected.append(Selected(m, params, asked=pos))
        for sel in aliased:
            check(sel.measure, sel.label or sel.measure.name)  # an alias always has its label
        # trec_eval's print order; names of one measure in the order asked for, after its trec_eval spec
        # (the order asked for is kept in each Selected's ``asked``: see in_asked_order)
        order = {id(s): i for i, s in enumerate(selected + aliased)}
        return sorted(selected + aliased, key=lambda s: (s.measure.order, s.measure.name, order[id(s)]))

    def _alias(self, spec: str, compat: str) -> Selected:
        """The measure an ir_measures name stands for, keeping its one output."""
        req = _names().translate(spec)
        name, _, text = req.spec.partition(".")
        m = self._load(name)
        try:
            params = m.params.parse(m.name, text or None)
        except MeasureError as e:
            # the value checks speak trec_eval's syntax: say which spelling they read
            detail = str(e).removeprefix(f"measure '{m.name}': ")
            raise MeasureError(f"measure '{spec}' (trec_eval's '{req.spec}'): {detail}") from None
        outputs = m.output_names(params)
        if len(outputs) != 1:
            raise AssertionError(f"{spec} -> {req.spec} has {len(outputs)} outputs")
        return Selected(m, params, label=req.label, output=outputs[0], overrides=req.overrides)

    def _hint(self, spec: str) -> str:
        close = _names().suggestions(spec, list(self._index) + sorted(self.nicknames))
        if not close:
            return ""
        return " (did you mean " + " or ".join(f"'{c}'" for c in close) + "?)"


def in_asked_order(items: list) -> list:
    """``items`` (:class:`Selected` values, or the outputs of an evaluation: anything
    with an ``asked`` position) in the order their measures were asked for with
    ``-m``, the one order every tool shows them in (trec_eval's text keeps its
    own print order). A measure's outputs keep their order; the measures of a
    nickname stand at the nickname's place, in trec_eval's order (the order the
    items come in, which is kept among equals)."""
    return sorted(items, key=lambda x: x.asked)


def check(measures: list[Measure]) -> None:
    """The rules every set of measures keeps: trec_eval's measures, and only they, are in
    the print-order table under their own names; no two share a print position."""
    for m in measures:
        # trec_eval's measures print in its table's order; an extra must not take a trec_eval name
        if is_trec_measure(m.name) != (m.since in VERSIONS):
            raise RuntimeError(f"measure {m.name!r} (since {m.since}) and the print order disagree: "
                               f"trec_eval's measures, and only they, are in TREC_ORDER")
    orders = [m.order for m in measures]
    if len(set(orders)) != len(orders):
        raise RuntimeError("two measures share a print position")


def discover() -> list[tuple[str, Measure]]:
    """``(module, measure)`` for every measure of every module of the package
    (imports them all; the index is written from this)."""
    import os
    import pkgutil

    # the measure modules are this module's siblings (the package is not imported
    # by name: it imports this module)
    found: list[tuple[str, Measure]] = []
    for info in pkgutil.iter_modules([os.path.dirname(__file__)]):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__package__}.{info.name}")
        found.extend((info.name, v) for v in vars(mod).values() if isinstance(v, Measure))
    return found


def index_source(found: list[tuple[str, Measure]]) -> str:
    """The text of :mod:`._index` for the measures ``found``."""
    Registry([m for _, m in found])  # the same checks as a registry of them
    lines = ['"""Which module defines each measure, with its version and nicknames.',
             "",
             "Written by ``python -m trec_eval_py.engine.measures._write_index`` from the",
             "measure modules themselves (a test checks it is current): the registry",
             "reads it to resolve ``-m`` and imports a measure's module only when the",
             'measure is used."""',
             "",
             "INDEX = {",
             "    # name: (module, since, nicknames)"]
    for module, m in sorted(found, key=lambda e: (e[1].order, e[1].name)):
        lines.append(f"    {m.name!r}: ({module!r}, {m.since!r}, {tuple(sorted(m.nicknames))!r}),")
    lines.append("}")
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=1)
def registry() -> Registry:
    """The registry of every measure shipped in this package (modules loaded on demand).

    Returns
    -------
    Registry
        Read like a dict: ``registry()[name]`` is the :class:`Measure` ``-m name``
        asks for (``KeyError`` for a name it does not have), ``name in
        registry()`` says whether there is one, and iterating gives every
        measure in trec_eval's print order.

    Examples
    --------
    >>> from trec_eval_py.engine.measures import registry
    >>> reg = registry()
    >>> "ndcg_cut" in reg, reg["map"].since
    (True, '9.0.8')
    >>> [m.name for m in reg][:5]
    ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret']
    """
    from ._index import INDEX

    return Registry.indexed(INDEX)


def _registered(name: str) -> Measure:
    return registry()[name]


def _reduce_measure(m: Measure):
    # a measure crosses processes by name (an evaluation that a dask task returns):
    # its kernels and summaries may be lambdas and closures, which pickle cannot
    # ship, and the process at the other end has the same registry
    if m.name in registry() and _registered(m.name) is m:
        return (_registered, (m.name,))
    return object.__reduce_ex__(m, 2)


copyreg.pickle(Measure, _reduce_measure)

