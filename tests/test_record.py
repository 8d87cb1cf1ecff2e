"""The package's value classes (trec_eval_py._record) behave as the
dataclasses they replace: each test builds the same class both ways and
compares them."""
from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trec_eval_py._record import FrozenRecordError, as_dict, field, fields, record, replace


@record
class Point:
    x: int
    y: int = 0
    tags: list = field(factory=list)
    KIND: ClassVar[str] = "point"


@dataclasses.dataclass(frozen=True)
class DPoint:
    x: int
    y: int = 0
    tags: list = dataclasses.field(default_factory=list)
    KIND: ClassVar[str] = "point"


@record
class Pair:
    a: object
    b: object = None


@dataclasses.dataclass(frozen=True)
class DPair:
    a: object
    b: object = None


@record
class Point3(Point):
    z: int = 5


@record(frozen=False)
class Box:
    items: list = field(factory=list)
    label: str = ""


@dataclasses.dataclass
class DBox:
    items: list = dataclasses.field(default_factory=list)
    label: str = ""


@record(eq=False)
class Handle:
    name: str


values = st.one_of(st.integers(), st.text(max_size=5), st.none(), st.tuples(st.integers()))


@given(values, values, values, values)
def test_equality_hash_and_repr_as_a_frozen_dataclass(a, b, c, d):
    r1, r2 = Point(a, b), Point(c, d)
    d1, d2 = DPoint(a, b), DPoint(c, d)
    assert (r1 == r2) == (d1 == d2)
    assert (r1 != r2) == (d1 != d2)
    assert hash(Pair(a, b)) == hash(DPair(a, b))  # the fields' tuple's hash, both
    with pytest.raises(TypeError):
        hash(r1)  # a list field: unhashable, as the dataclass is
    with pytest.raises(TypeError):
        hash(d1)
    assert repr(r1) == repr(d1).replace("DPoint", "Point")
    assert fields(r1) == tuple(f.name for f in dataclasses.fields(d1))
    assert as_dict(r1) == dataclasses.asdict(d1)


def test_construction_as_a_dataclass():
    assert Point(1) == Point(x=1) == Point(1, 0, [])
    assert Point(1, y=2).y == 2
    first, second = Point(1), Point(1)
    assert first.tags is not second.tags  # a factory runs for each record
    assert "tags" not in Point.__dict__ and Point.y == 0  # plain defaults stay class attributes
    for bad, cls in [((), {}), ((1, 2, [], 4), {}), ((1,), {"x": 2}), ((1,), {"w": 2})]:
        with pytest.raises(TypeError):
            Point(*bad, **cls)
        with pytest.raises(TypeError):
            DPoint(*bad, **cls)


def test_classvars_are_not_fields():
    assert fields(Point) == ("x", "y", "tags")
    assert Point.KIND == "point"


def test_frozen_records_refuse_assignment():
    p = Point(1)
    with pytest.raises(FrozenRecordError):
        p.x = 2
    with pytest.raises(AttributeError):
        del p.y
    assert p.x == 1


def test_mutable_records_assign_and_are_unhashable_like_dataclasses():
    b = Box()
    b.label = "x"
    b.items.append(1)
    assert b == Box([1], "x")
    assert (Box.__hash__ is None) == (DBox.__hash__ is None) is True
    with pytest.raises(TypeError):
        hash(b)


def test_eq_false_keeps_identity():
    h = Handle("a")
    assert h != Handle("a") and h == h
    assert {h: 1}[h] == 1


def test_inheritance_appends_fields_and_keeps_frozenness():
    p = Point3(1, 2)
    assert fields(p) == ("x", "y", "tags", "z") and p.z == 5
    assert p != Point(1, 2)  # another class, as with dataclasses
    with pytest.raises(TypeError):
        record(frozen=False)(type("Mixed", (Point,), {"__annotations__": {"w": "int"}, "w": 0}))


def test_a_field_without_default_after_one_with_is_refused():
    with pytest.raises(TypeError, match="'b' without a default"):
        record(type("Bad", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 1}))


def test_post_init_runs_on_construction_and_replace():
    seen = []

    @record
    class Checked:
        n: int

        def __post_init__(self):
            if self.n < 0:
                raise ValueError("negative")
            seen.append(self.n)

    c = Checked(1)
    assert replace(c, n=2) == Checked(2)
    with pytest.raises(ValueError):
        replace(c, n=-1)
    assert seen == [1, 2, 2]


def test_replace_as_dataclasses_replace():
    p = Point(1, 2, [3])
    q = replace(p, y=5)
    assert (q.x, q.y, q.tags) == (1, 5, [3]) and q.tags is p.tags
    assert dataclasses.replace(DPoint(1, 2, [3]), y=5) == DPoint(1, 5, [3])
    with pytest.raises(TypeError, match="no field 'w'"):
        replace(p, w=1)
    with pytest.raises(TypeError):
        fields(object())


def test_pickle_and_copy_round_trip():
    p = Point3(1, 2, [3], z=4)
    for twin in (pickle.loads(pickle.dumps(p)), copy.copy(p), copy.deepcopy(p)):
        assert twin == p and type(twin) is Point3
    b = pickle.loads(pickle.dumps(Box([1], "x")))
    assert b == Box([1], "x")
