"""core/values.py: a ``@record`` is made, shown, compared and hashed exactly as by the methods ``@dataclass``
would have generated (issue 26: the same behaviour, less compiled at every import)."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import subprocess
import sys
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import pytest

from sheetgm.core import values
from sheetgm.core.values import FrozenInstanceError, Value, record


@dataclass(frozen=True)
class Generated:
    a: int
    b: str = "x"
    hidden: tuple[int, ...] = field(default=(), repr=False)
    loose: int = field(default=0, compare=False)
    unhashed: tuple[int, ...] = field(default=(), hash=False)


@record(frozen=True)
class Shared(Value):
    a: int
    b: str = "x"
    hidden: tuple[int, ...] = field(default=(), repr=False)
    loose: int = field(default=0, compare=False)
    unhashed: tuple[int, ...] = field(default=(), hash=False)


@record(frozen=True)
class Child(Shared):
    c: float = 0.5


@record(frozen=True)
class Empty(Value):
    pass


SAMPLES = [(1, "x", (), 0, ()), (1, "x", (9,), 0, ()), (1, "x", (), 7, ()), (1, "x", (), 0, (3,)),
           (2, "y", (1, 2), 5, (4,)), (-1, "", (), 0, ())]


def test_the_text_is_the_generated_one() -> None:
    for args in SAMPLES:
        assert repr(Shared(*args)) == repr(Generated(*args)).replace("Generated(", "Shared(")
    assert repr(Child(1)) == "Child(a=1, b='x', loose=0, unhashed=(), c=0.5)"


@pytest.mark.parametrize("left", SAMPLES)
@pytest.mark.parametrize("right", SAMPLES)
def test_equality_and_hash_are_the_generated_ones(left: tuple[object, ...], right: tuple[object, ...]) -> None:
    assert (Shared(*left) == Shared(*right)) == (Generated(*left) == Generated(*right))  # type: ignore[arg-type]
    assert (Shared(*left) != Shared(*right)) == (Generated(*left) != Generated(*right))  # type: ignore[arg-type]
    assert hash(Shared(*left)) == hash(Generated(*left))  # type: ignore[arg-type]


def test_only_the_very_same_class_is_equal() -> None:
    assert Shared(1) != Child(1) and Child(1) != Shared(1)
    assert Shared(1) != (1, "x", (), 0, ()) and Empty() == Empty() and hash(Empty()) == hash(())
    assert {Shared(1, loose=3), Shared(1, loose=4)} == {Shared(1)}  # loose is not compared nor hashed


def test_still_frozen_and_a_dataclass() -> None:
    s = Shared(1)
    with pytest.raises(FrozenInstanceError):
        s.a = 2  # type: ignore[misc]
    assert replace(s, b="z") == Shared(1, "z")
    assert copy.deepcopy(s) == s and pickle.loads(pickle.dumps(Child(3, c=1.5))) == Child(3, c=1.5)


# The same declarations twice: once by @dataclass, once by @record, to be made with the same arguments.
@dataclass
class GenMutable:
    a: int
    b: list[int] = field(default_factory=list)
    c: str = field(default="c", init=False)
    d: list[str] = field(default_factory=lambda: ["d"], init=False)
    e: int = field(default=5, kw_only=True)
    f: int = field(kw_only=True, default_factory=lambda: 6)
    g: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        self.posted = self.a * 2


def _declare() -> type:
    """RecMutable, declared anew: its ``__init__`` not compiled yet."""

    @record
    class RecMutable:
        a: int
        b: list[int] = field(default_factory=list)
        c: str = field(default="c", init=False)
        d: list[str] = field(default_factory=lambda: ["d"], init=False)
        e: int = field(default=5, kw_only=True)
        f: int = field(kw_only=True, default_factory=lambda: 6)
        g: int = field(default=0, compare=False)

        def __post_init__(self) -> None:
            self.posted = self.a * 2

    return RecMutable


RecMutable: Any = _declare()


def _keywords() -> type:
    @record(frozen=True, kw_only=True)
    class RecKeywords(Value):
        a: int
        b: str = "b"

    return RecKeywords


RecKeywords: Any = _keywords()


@dataclass(frozen=True, kw_only=True)
class GenKeywords:
    a: int
    b: str = "b"


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}), ((1, [2]), {}), ((1,), {"e": 9}), ((1,), {"f": 8, "g": 3}), ((), {"a": 4, "b": [5]}),
    ((), {}), ((1, [2], 3), {}), ((1,), {"c": "x"}), ((1,), {"d": []}), ((1,), {"zz": 1}), ((1, [], 0, 0), {}),
    ((1,), {"a": 1}),
]


def _outcome(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> object:
    try:
        made = cls(*args, **kwargs)
    except TypeError as e:
        return ("TypeError", str(e).split("() ", 1)[-1])  # the message without the function's name
    return {k: v for k, v in vars(made).items()}


@pytest.fixture(params=["bound", "compiled"])
def made_by(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Records made by the binder (``__init__`` not compiled yet) or by the compiled ``__init__``."""
    monkeypatch.setattr(values, "COMPILE_AFTER", 10**9 if request.param == "bound" else 0)
    return str(request.param)


@pytest.mark.parametrize("call", CALLS, ids=range(len(CALLS)))
def test_a_record_is_made_as_a_dataclass_is(call: tuple[tuple[Any, ...], dict[str, Any]], made_by: str) -> None:
    args, kwargs = call
    rec, keywords = _declare(), _keywords()
    assert _outcome(rec, args, kwargs) == _outcome(GenMutable, args, kwargs)
    assert _outcome(keywords, args[:1], kwargs) == _outcome(GenKeywords, args[:1], kwargs)


def test_the_binder_sets_the_fields_in_order_through_the_class(made_by: str) -> None:
    """A mutable record's fields are set as ``self.x = x`` sets them (a descriptor on the class sees each), in
    the order of the fields, frozen ones past the guards."""
    seen: list[tuple[str, object]] = []

    class Noted:
        def __init__(self, name: str) -> None:
            self.name = name

        def __get__(self, obj: object, owner: type | None = None) -> object:
            return 7 if obj is None else obj.__dict__[self.name]

        def __set__(self, obj: object, value: object) -> None:
            seen.append((self.name, value))
            obj.__dict__[self.name] = value

    @record
    class Watched:
        a: int
        b: int = 0

    Watched.a = Noted("a")  # type: ignore[assignment]
    Watched.b = Noted("b")  # type: ignore[assignment]
    Watched(1)
    Watched(2, b=3)
    Watched(4, 5)  # every field given in order
    assert seen == [("a", 1), ("b", 0), ("a", 2), ("b", 3), ("a", 4), ("b", 5)]
    assert vars(RecKeywords(a=4, b="x")) == {"a": 4, "b": "x"}


def test_each_record_gets_fresh_defaults_from_its_factories() -> None:
    one, two = RecMutable(1), RecMutable(1)
    one.b.append(3)
    one.d.append("x")
    assert two.b == [] and two.d == ["d"]


def test_a_mutable_record_compares_shows_and_refuses_a_hash_as_a_dataclass_does() -> None:
    assert RecMutable(1) == RecMutable(1, g=9) and RecMutable(1) != RecMutable(2)
    assert RecMutable(1) != GenMutable(1)
    assert repr(RecMutable(1, [2])) == repr(GenMutable(1, [2])).replace("GenMutable(", f"{RecMutable.__qualname__}(")
    with pytest.raises(TypeError):
        hash(RecMutable(1))
    r = RecMutable(1)
    r.a = 3
    assert r.a == 3 and replace(r, b=[7]).b == [7]


@record(eq=False)
class ByIdentity:
    a: int


def test_a_record_compared_by_identity_keeps_the_objects_hash() -> None:
    x = ByIdentity(1)
    assert x != ByIdentity(1) and x == x and hash(x) == object.__hash__(x) and repr(x) == "ByIdentity(a=1)"


def test_the_frozen_guards_refuse_every_change() -> None:
    k = RecKeywords(a=1)
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
        k.a = 2
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'other'"):
        k.other = 2
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'a'"):
        del k.a
    assert k == RecKeywords(a=1) and hash(k) == hash(RecKeywords(a=1))


def test_init_is_compiled_once_a_class_has_made_enough_records(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(values, "COMPILE_AFTER", 3)

    @record(frozen=True)
    class Late(Value):
        x: int
        y: int = 2

    stub = Late.__init__
    assert list(inspect.signature(stub).parameters) == ["self", "args", "kwargs"]
    three = [Late(1), Late(1, 2), Late(x=1)]
    assert Late.__init__ is stub  # bound, not compiled
    assert Late(5).x == 5 and three == [Late(1, y=2)] * 3  # the fourth on: compiled
    made = Late.__init__
    assert made is not stub and list(inspect.signature(made).parameters)[1:] == ["x", "y"]
    assert Late(3).y == 2 and Late.__init__ is made


def test_an_irregular_call_is_answered_by_the_compiled_init() -> None:
    @record
    class Once:
        x: int

    stub = Once.__init__
    with pytest.raises(TypeError, match=r"__init__\(\) missing 1 required positional argument: 'x'"):
        Once()  # type: ignore[call-arg]
    assert Once.__init__ is not stub and Once(4).x == 4


def test_what_dataclass_refuses_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        @record
        class Bad:
            a: int = 0
            b: int  # type: ignore[misc]
    with pytest.raises(TypeError, match="derives from Value"):
        @record(frozen=True)
        class NotValue:
            a: int
    with pytest.raises(TypeError, match="derives from Value"):
        @record
        class MutableValue(Value):
            a: int


def test_a_record_without_a_docstring_is_named_by_its_fields() -> None:
    @record
    class Bare:
        a: int
        b: int = 0

    assert Bare.__doc__ == "test_a_record_without_a_docstring_is_named_by_its_fields.<locals>.Bare(a, b)"
    assert RecKeywords.__doc__ == "_keywords.<locals>.RecKeywords(a, b)"


# -- fields, replace and asdict without the dataclasses module ------------------------------------------------
@dataclass
class GenInner:
    x: int
    tags: list[str] = field(default_factory=list)


@dataclass
class GenOuter:
    inner: GenInner
    many: list[GenInner]
    by: dict[str, GenInner]
    pair: tuple[int, GenInner]
    limit: ClassVar[int] = 3
    n: int = field(default=0, init=False)


@record
class RecInner:
    x: int
    tags: list[str] = field(default_factory=list)


@record
class RecOuter:
    inner: RecInner
    many: list[RecInner]
    by: dict[str, RecInner]
    pair: tuple[int, RecInner]
    limit: ClassVar[int] = 3
    n: int = field(default=0, init=False)


def test_fields_replace_and_asdict_do_what_the_dataclasses_ones_do() -> None:
    gen = GenOuter(GenInner(1, ["a"]), [GenInner(2)], {"k": GenInner(3)}, (4, GenInner(5)))
    rec = RecOuter(RecInner(1, ["a"]), [RecInner(2)], {"k": RecInner(3)}, (4, RecInner(5)))
    assert [(f.name, f.init, f.default) for f in values.fields(rec)] == \
        [(f.name, f.init, f.default if f.default is not dataclasses.MISSING else values.MISSING)
         for f in dataclasses.fields(gen)]
    assert values.asdict(rec) == dataclasses.asdict(gen)
    plain = values.asdict(rec)
    plain["inner"]["tags"].append("b")
    assert rec.inner.tags == ["a"]  # a copy, as dataclasses.asdict makes
    assert values.replace(rec, pair=(9, RecInner(9))).pair == (9, RecInner(9))
    with pytest.raises(ValueError, match="init=False"):
        values.replace(rec, n=1)
    assert RecOuter.limit == 3 and "limit" not in {f.name for f in values.fields(RecOuter)}
    with pytest.raises(TypeError):
        values.fields(GenOuter(GenInner(1), [], {}, (1, GenInner(1))))
    with pytest.raises(TypeError):
        values.asdict(RecOuter)


def test_a_record_handed_to_dataclasses_is_one() -> None:
    """Code outside sheetgm may give a record to ``dataclasses``: its fields, made when first asked for."""
    rec = RecOuter(RecInner(1), [], {}, (0, RecInner(2)))
    assert dataclasses.is_dataclass(rec) and [f.name for f in dataclasses.fields(rec)] == \
        ["inner", "many", "by", "pair", "n"]
    assert dataclasses.replace(rec, many=[RecInner(7)]).many == [RecInner(7)]
    assert dataclasses.asdict(rec) == values.asdict(rec)
    assert dataclasses.fields(RecInner)[1].default_factory is list


def test_a_subclass_keeps_its_bases_fields_first_and_in_place() -> None:
    @dataclass
    class GenBase:
        a: int
        b: int = 1

    @dataclass
    class GenSub(GenBase):
        c: int = 2
        a: int = 5

    @record
    class RecBase:
        a: int
        b: int = 1

    @record
    class RecSub(RecBase):
        c: int = 2
        a: int = 5

    assert [f.name for f in values.fields(RecSub)] == [f.name for f in dataclasses.fields(GenSub)]
    assert vars(RecSub()) == vars(GenSub()) and vars(RecSub(7, 8, 9)) == vars(GenSub(7, 8, 9))


def test_what_dataclass_refuses_in_a_declaration_is_refused() -> None:
    with pytest.raises(ValueError, match="mutable default"):
        @record
        class Shared:
            items: list[int] = []  # noqa: RUF012
    with pytest.raises(TypeError, match="no type annotation"):
        @record
        class Unannotated:
            x = field(default=1)
    with pytest.raises(ValueError, match="both default and default_factory"):
        values.field(default=1, default_factory=int)  # type: ignore[call-overload]


def test_no_command_imports_dataclasses() -> None:
    """sheetgm's records need neither ``dataclasses`` nor the ``inspect`` it imports (~5 ms of every command)."""
    code = ("import sys; import sheetgm.cli.main, sheetgm.cli.runs, sheetgm.service.check, sheetgm.service.resolve, "
            "sheetgm.backends.xlsx.gateway, sheetgm.render.route; "
            "print(sorted(m for m in ('dataclasses', 'inspect') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_dataclass_may_derive_from_a_record() -> None:
    @record
    class RecBase:
        a: int
        b: int = 1

    @dataclass
    class Derived(RecBase):
        c: int = 2

    d = Derived(5, c=3)
    assert (d.a, d.b, d.c) == (5, 1, 3) and [f.name for f in dataclasses.fields(d)] == ["a", "b", "c"]
    with pytest.raises(TypeError, match="non-frozen dataclass from a frozen one"):
        @dataclass
        class Thawed(Shared):  # type: ignore[misc]
            z: int = 0
