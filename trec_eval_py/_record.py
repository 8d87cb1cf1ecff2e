"""Value classes without generated code: the package's records.

A record is declared like a dataclass::

    @record
    class Span:
        start: int
        stop: int = 0
        tags: list = field(factory=list)

and behaves like ``@dataclass(frozen=True)``: fields in annotation order (a
record's fields follow those of the records it derives from), defaults and
default factories (:func:`field`), keyword or positional construction, ``__post_init__``,
``==`` and ``hash`` over the fields, a ``repr`` naming them, assignment
refused. ``@record(frozen=False)`` makes a mutable one (equal records then
have no hash, as with dataclasses); ``eq=False`` keeps identity equality and
hashing. :func:`replace` and :func:`fields` are :mod:`dataclasses`' two
helpers, and :func:`as_dict` gives a record's fields as a dict.

Why not :mod:`dataclasses`: on Python 3.11 ``@dataclass`` compiles each
method it adds from source text when the class is defined, about 0.5 ms a
class. The evaluation path defines some 25 value classes, so a small
evaluation spent about 12 ms of its start-up there (most of what start-up adds
to importing numpy). A record's methods are shared functions that read the
field list, made once: defining one costs a few microseconds; constructing
one takes about twice as long as a dataclass (1.2 against 0.6 microseconds
for four fields), and records are built per batch or per piece, never per
document.
"""
from __future__ import annotations

from typing import dataclass_transform

__all__ = ["FrozenRecordError", "as_dict", "field", "fields", "record", "replace"]

_MISSING: object = object()


class FrozenRecordError(AttributeError):
    """Assignment to a field of a frozen record."""


class _Factory:
    """What :func:`field` puts in a class body for a default made anew per record."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


def field(*, default=_MISSING, factory=_MISSING):
    """A field's default, when a plain ``= value`` will not do:
    ``tags: list = field(factory=list)`` makes a new list for each record
    (``field(default=x)`` is the same as ``= x``). Keyword-only, as PEP 681
    field specifiers are, so type checkers see the default."""
    if (default is _MISSING) == (factory is _MISSING):
        raise TypeError("field() takes one of default= and factory=")
    return default if factory is _MISSING else _Factory(factory)


def _is_classvar(annotation) -> bool:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return text.startswith(("ClassVar", "typing.ClassVar"))


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls=None, /, *, frozen: bool = True, eq: bool = True):
    """Make ``cls`` a record (see the module docstring); usable bare or with options."""
    if cls is None:
        return lambda c: _make(c, frozen, eq)
    return _make(cls, frozen, eq)


def _make(cls, frozen: bool, eq: bool):
    names: list[str] = []
    defaults: dict = {}
    for base in reversed(cls.__mro__[1:]):
        spec = base.__dict__.get("__record__")
        if spec is not None:
            for name in spec.names:
                if name not in names:
                    names.append(name)
            defaults.update(spec.defaults)
            if spec.frozen != frozen:
                raise TypeError(f"{cls.__name__}: a frozen record cannot derive from a mutable one, or the reverse")
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        if name not in names:
            names.append(name)
        value = cls.__dict__.get(name, _MISSING)
        if value is _MISSING:
            defaults.pop(name, None)
        else:
            defaults[name] = value
            if isinstance(value, _Factory):
                delattr(cls, name)  # instances always carry their own
    seen_default = None
    for name in names:
        if name in defaults:
            seen_default = name
        elif seen_default is not None:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows {seen_default!r}, which has one")

    cls.__record__ = _Spec(tuple(names), defaults, frozen)
    cls.__init__ = _init_for(cls.__name__, tuple(names), defaults, hasattr(cls, "__post_init__"))
    if "__repr__" not in cls.__dict__:
        cls.__repr__ = _repr
    if eq:
        if "__eq__" not in cls.__dict__:
            cls.__eq__ = _eq
        if "__hash__" not in cls.__dict__ or cls.__dict__["__hash__"] is None:
            # as dataclasses: equal frozen records hash alike; mutable ones cannot be keys
            cls.__hash__ = _hash if frozen else None
    if frozen:
        cls.__setattr__ = _refuse_set
        cls.__delattr__ = _refuse_del
    return cls


class _Spec:
    __slots__ = ("names", "defaults", "frozen")

    def __init__(self, names, defaults, frozen):
        self.names, self.defaults, self.frozen = names, defaults, frozen


def _init_for(clsname: str, names: tuple, defaults: dict, post_init: bool):
    count = len(names)
    known = frozenset(names)
    fill = [(name, defaults[name]) for name in names if name in defaults]

    def __init__(self, *args, **kwargs):
        if len(args) > count:
            raise TypeError(f"{clsname}() takes {count} field values but {len(args)} were given")
        values = dict(zip(names, args))
        for key, value in kwargs.items():
            if key in values:
                raise TypeError(f"{clsname}() got multiple values for field {key!r}")
            if key not in known:
                raise TypeError(f"{clsname}() got an unexpected field {key!r}")
            values[key] = value
        if len(values) < count:
            for name, default in fill:
                if name not in values:
                    values[name] = default.make() if type(default) is _Factory else default
            if len(values) < count:
                missing = [name for name in names if name not in values]
                raise TypeError(f"{clsname}() missing field value(s): {', '.join(map(repr, missing))}")
        # straight into the instance dict: a frozen record refuses setattr
        self.__dict__.update(values)
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = f"{clsname}.__init__"
    return __init__


def _values(obj) -> tuple:
    d = obj.__dict__
    return tuple(d[name] for name in obj.__record__.names)


def _repr(self) -> str:
    d = self.__dict__
    inner = ", ".join(f"{name}={d[name]!r}" for name in self.__record__.names)
    return f"{type(self).__qualname__}({inner})"


def _eq(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self) -> int:
    return hash(_values(self))


def _refuse_set(self, name, value):
    raise FrozenRecordError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _refuse_del(self, name):
    raise FrozenRecordError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")


def fields(obj_or_cls) -> tuple[str, ...]:
    """The field names of a record (an instance or the class), in order."""
    spec = getattr(obj_or_cls, "__record__", None)
    if spec is None:
        raise TypeError(f"{obj_or_cls!r} is not a record")
    return spec.names


def replace(obj, /, **changes):
    """A new record like ``obj`` with ``changes``; goes through ``__init__``
    (and ``__post_init__``), as :func:`dataclasses.replace` does."""
    names = fields(obj)
    d = obj.__dict__
    for key in changes:
        if key not in names:
            raise TypeError(f"{type(obj).__name__} has no field {key!r}")
    return type(obj)(**{name: changes[name] if name in changes else d[name] for name in names})


def as_dict(obj) -> dict:
    """``{field: value}`` of a record, in field order. Shallow, unlike
    :func:`dataclasses.asdict`: values are not copied or converted."""
    d = obj.__dict__
    return {name: d[name] for name in fields(obj)}
