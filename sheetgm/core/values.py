"""sheetgm's records: ``@record`` in place of ``@dataclass``, the same classes with less done at import.

``@dataclass(frozen=True)`` compiles six methods per class when its module is imported (``__init__``, the two
frozen guards, ``__repr__``, ``__eq__``, ``__hash__``), a plain ``@dataclass`` three, and the ``dataclasses``
module itself imports ``inspect`` (with ``ast``, ``dis`` and ``tokenize``): for the ~100 records a command
imports, tens of milliseconds of every command (issue 26). ``@record`` reads the class's annotations as
``@dataclass`` does (fields, defaults, ``field()``, ``ClassVar``, inheritance, keyword-only fields) and compiles
nothing at import: ``__repr__``, ``__eq__`` and ``__hash__`` are written once here for every record, the frozen
guards once in ``Value``; a class's first records are made by ``_Binder`` (the same steps, a few microseconds
slower each), and only a class that makes more than COMPILE_AFTER has its ``__init__`` compiled, the code
``dataclasses`` would have compiled (a 10-player check compiles 10, not the 104 of the classes it imports).

``fields``, ``replace`` and ``asdict`` here do for records what the ``dataclasses`` functions of those names do
for dataclasses. Code outside sheetgm (its tests among it) may still hand a record to ``dataclasses``: a record
has ``__dataclass_fields__``, made from its fields when first asked for. tests/test_values.py holds every part
to what ``@dataclass`` generates, both ways of making a record.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast, dataclass_transform, get_origin, overload

T = TypeVar("T", bound=type)
V = TypeVar("V")


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # no default, no factory (``dataclasses.MISSING``'s part)


class FrozenInstanceError(AttributeError):
    """An attribute of a frozen record assigned or deleted."""


class Field:
    """A record's field, as ``dataclasses.Field`` describes one."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare", "metadata",
                 "kw_only")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool, hash: bool | None,
                 compare: bool, metadata: Any, kw_only: bool | None) -> None:
        self.name = ""
        self.type: Any = None
        self.default, self.default_factory, self.init, self.repr = default, default_factory, init, repr
        self.hash, self.compare, self.metadata, self.kw_only = hash, compare, metadata, kw_only

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r}, default={self.default!r}, default_factory={self.default_factory!r}, "
                f"init={self.init}, repr={self.repr}, hash={self.hash}, compare={self.compare}, "
                f"kw_only={self.kw_only})")


@overload
def field(*, default: V, init: bool = ..., repr: bool = ..., hash: bool | None = ..., compare: bool = ...,
          metadata: Any = ..., kw_only: bool = ...) -> V: ...
@overload
def field(*, default_factory: Callable[[], V], init: bool = ..., repr: bool = ..., hash: bool | None = ...,
          compare: bool = ..., metadata: Any = ..., kw_only: bool = ...) -> V: ...
@overload
def field(*, init: bool = ..., repr: bool = ..., hash: bool | None = ..., compare: bool = ...,
          metadata: Any = ..., kw_only: bool = ...) -> Any: ...


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True, repr: bool = True,
          hash: bool | None = None, compare: bool = True, metadata: Any = None, kw_only: Any = None) -> Any:
    """A field's default or factory and flags, as ``dataclasses.field`` takes them."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def is_record(obj: object) -> bool:
    """Whether ``obj`` is a record or a record class."""
    return hasattr(obj if isinstance(obj, type) else type(obj), "__record_fields__")


def fields(obj: object) -> tuple[Field, ...]:
    """The fields of a record or record class, in order (``dataclasses.fields``)."""
    found = getattr(obj if isinstance(obj, type) else type(obj), "__record_fields__", None)
    if found is None:
        raise TypeError("must be called with a record type or instance")
    return cast(tuple[Field, ...], found)


def replace(obj: V, /, **changes: Any) -> V:
    """A new record like ``obj`` with ``changes`` (``dataclasses.replace``)."""
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def asdict(obj: object) -> dict[str, Any]:
    """A record as a dict of its fields, records within as dicts, lists, tuples and dicts copied, anything
    else deep-copied (``dataclasses.asdict``)."""
    if isinstance(obj, type) or not is_record(obj):
        raise TypeError("asdict() should be called on record instances")
    return cast(dict[str, Any], _plain(obj))


def _plain(obj: Any) -> Any:
    if is_record(obj) and not isinstance(obj, type):
        return {f.name: _plain(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_plain(v) for v in obj])
    if isinstance(obj, list | tuple):
        return type(obj)(_plain(v) for v in obj)
    if isinstance(obj, dict):
        return type(obj)((_plain(k), _plain(v)) for k, v in obj.items())
    return copy.deepcopy(obj)


_SHAPES: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}


def _shape(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The names of the fields shown, compared and hashed."""
    shape = _SHAPES.get(cls)
    if shape is None:
        fs = fields(cls)
        shape = _SHAPES[cls] = (tuple(f.name for f in fs if f.repr), tuple(f.name for f in fs if f.compare),
                                tuple(f.name for f in fs if (f.compare if f.hash is None else f.hash)))
    return shape


class Value:
    """The base of a frozen record (``@record(frozen=True)``): its comparison, hash and text, and the guards
    that refuse to change or delete its attributes once made (see the module's docstring)."""

    __slots__ = ()

    if not TYPE_CHECKING:  # hidden from mypy, which then refuses an assignment to any attribute of a record
        def __setattr__(self, name: str, value: object) -> None:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")

        def __delattr__(self, name: str) -> None:
            raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _shape(type(self))[0])
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        names = _shape(type(self))[1]
        return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in _shape(type(self))[2]))


def _text(self: object) -> str:
    return Value.__repr__(cast(Value, self))


def _equal(self: object, other: object) -> bool:
    return Value.__eq__(cast(Value, self), other)


@overload
def record(cls: T, /) -> T: ...
@overload
def record(*, frozen: bool = False, eq: bool = True, kw_only: bool = False) -> Callable[[T], T]: ...


@dataclass_transform(field_specifiers=(field, Field))
def record(cls: T | None = None, /, *, frozen: bool = False, eq: bool = True,
           kw_only: bool = False) -> T | Callable[[T], T]:
    """``@dataclass`` with ``repr``, ``eq`` (and ``hash`` when frozen) shared and ``__init__`` compiled once a
    class has made enough records. A frozen record must derive from ``Value``; a mutable one, like
    ``@dataclass``, is unhashable when compared by value; ``eq=False``: compared by identity, as
    ``@dataclass(eq=False)``."""
    def wrap(c: T) -> T:
        return _make(c, frozen, eq, kw_only)
    return wrap if cls is None else wrap(cls)


def _make(cls: T, frozen: bool, eq: bool, kw_only: bool) -> T:
    if frozen != issubclass(cls, Value):
        raise TypeError(f"{cls.__qualname__}: a frozen record derives from Value, a mutable one does not")
    own = dict(cls.__dict__)
    found = _fields_of(cls, kw_only)
    made = cast(Any, cls)  # (the attributes a record class is given)
    made.__record_fields__ = found
    _check_order(found)
    positional = tuple(f.name for f in found if f.init and not f.kw_only)
    if "__match_args__" not in own:
        made.__match_args__ = positional  # type: ignore[misc]
    if own.get("__doc__") is None:
        cls.__doc__ = f"{cls.__qualname__}({', '.join(f.name for f in found)})"
    if not frozen:
        if "__repr__" not in own:
            cls.__repr__ = _text  # type: ignore[assignment]
        if eq and "__eq__" not in own:
            cls.__eq__ = _equal  # type: ignore[assignment]
            if "__hash__" not in own or own["__hash__"] is None:
                cls.__hash__ = None  # type: ignore[assignment]
    elif not eq:  # frozen, compared by identity
        if "__eq__" not in own:
            cls.__eq__ = object.__eq__  # type: ignore[assignment]
        if "__hash__" not in own:
            cls.__hash__ = object.__hash__  # type: ignore[assignment]
    if "__init__" not in own:
        cls.__init__ = _first_init(cls, frozen)  # type: ignore[misc]
    for name in ("__dataclass_fields__", "__dataclass_params__"):
        setattr(cls, name, _AsDataclass(name, frozen))
    return cls


_CLASSVAR = re.compile(r"\s*(?:typing\.|t\.)?ClassVar\b")
_INITVAR = re.compile(r"\s*(?:dataclasses\.)?InitVar\b")


def _fields_of(cls: type, kw_only: bool) -> tuple[Field, ...]:
    """The fields as ``@dataclass`` finds them: the bases' first (in reverse order of the MRO), then the class's
    annotated names in order, a ``ClassVar`` not a field; a name declared again keeps its place."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__record_fields__", ()):
            found[f.name] = f
    annotations = cls.__dict__.get("__annotations__", {})
    for name, value in list(cls.__dict__.items()):
        if type(value).__module__ == "dataclasses" and type(value).__name__ == "Field":  # dataclasses.field()
            value = _ours(value)
            setattr(cls, name, value)
        if isinstance(value, Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    for name, kind in annotations.items():
        if _is(kind, _CLASSVAR, ClassVar):
            continue
        if isinstance(kind, str) and _INITVAR.match(kind) or type(kind).__name__ == "InitVar":
            raise TypeError(f"{cls.__qualname__}: InitVar fields are not supported by @record")
        value = cls.__dict__.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(value, MISSING, True, True, None, True, None, None)
        if f is value:
            if f.default is MISSING:
                if name in cls.__dict__:
                    delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        f.name, f.type = name, kind
        if f.kw_only is None:
            f.kw_only = kw_only
        if f.default is not MISSING and type(f.default).__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use "
                             "default_factory")
        found[name] = f
    return tuple(found.values())


def _ours(std: Any) -> Field:
    """A field declared with ``dataclasses.field``, as ``field`` here declares it."""
    def plain(value: Any) -> Any:
        return MISSING if type(value).__name__ == "_MISSING_TYPE" else value
    return Field(plain(std.default), plain(std.default_factory), std.init, std.repr, std.hash, std.compare,
                 std.metadata or None, None if plain(std.kw_only) is MISSING else std.kw_only)


def _is(kind: Any, pattern: re.Pattern[str], special: Any) -> bool:
    if isinstance(kind, str):
        return pattern.match(kind) is not None
    return kind is special or get_origin(kind) is special


def _check_order(found: tuple[Field, ...]) -> None:
    """Refuse what ``@dataclass`` refuses: a positional field without a default after one with a default."""
    seen_default = False
    for f in found:
        if not f.init or f.kw_only:
            continue
        has = f.default is not MISSING or f.default_factory is not MISSING
        if seen_default and not has:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        seen_default = seen_default or has


class _AsDataclass:
    """A record's ``__dataclass_fields__`` and ``__dataclass_params__``, for code outside sheetgm that hands it to
    ``dataclasses`` (``fields``, ``replace``, ``asdict``, ``is_dataclass``, a ``@dataclass`` deriving from it):
    the standard library's, made from the record's when first asked for (importing ``dataclasses`` then, not
    at every command)."""

    def __init__(self, name: str, frozen: bool) -> None:
        self.name, self.frozen = name, frozen

    def __get__(self, obj: object, owner: type) -> Any:
        import dataclasses

        made = {}
        for f in fields(owner):
            std: Any = dataclasses.field(
                default=dataclasses.MISSING if f.default is MISSING else f.default,
                default_factory=dataclasses.MISSING if f.default_factory is MISSING else f.default_factory,
                init=f.init, repr=f.repr, hash=f.hash, compare=f.compare, metadata=f.metadata, kw_only=bool(f.kw_only))
            std.name, std.type = f.name, f.type
            std._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # (what dataclasses.fields keeps)
            made[f.name] = std
        kind: Any = dataclasses._DataclassParams  # type: ignore[attr-defined]
        flags = {"init": True, "repr": True, "eq": True, "order": False, "unsafe_hash": False,
                 "frozen": self.frozen, "match_args": True, "kw_only": False, "slots": False, "weakref_slot": False}
        params = kind(**{k: flags[k] for k in kind.__slots__ if k in flags})
        named = cast(Any, owner)  # (this class's own, from now on)
        named.__dataclass_fields__, named.__dataclass_params__ = made, params
        return made if self.name == "__dataclass_fields__" else params


# Records of a class made by ``_Binder`` before its ``__init__`` is compiled: a compiled ``__init__`` costs 0.1-0.2 ms
# (a command compiles dozens), a record made without one a few microseconds more than with it.
COMPILE_AFTER = 32


def _first_init(cls: type, frozen: bool) -> Callable[..., None]:
    binder: list[_Binder] = []

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if not binder:
            binder.append(_Binder(cls, frozen))
        b = binder[0]
        b.made += 1
        if b.made > COMPILE_AFTER or not b.bind(self, args, kwargs):  # (an irregular call: compiled, it says why)
            made = _compile_init(cls, frozen)
            cls.__init__ = made  # type: ignore[misc]
            made(self, *args, **kwargs)
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


class _Binder:
    """What ``__init__`` does, done without compiling it: the arguments bound to the fields by name, the
    defaults and factories of the rest, each field set in order, then ``__post_init__``."""

    def __init__(self, cls: type, frozen: bool) -> None:
        fs = fields(cls)
        self.made = 0
        self.positional = tuple(f.name for f in fs if f.init and not f.kw_only)
        self.names = frozenset(f.name for f in fs if f.init)
        self.required = frozenset(f.name for f in fs if f.init and f.default is MISSING
                                  and f.default_factory is MISSING)
        self.order = tuple((f.name, f.init, f.default, f.default_factory) for f in fs
                           if f.init or f.default_factory is not MISSING)
        self.set: Callable[[Any, str, Any], None] = object.__setattr__ if frozen else setattr
        self.post = hasattr(cls, "__post_init__")
        # every field set is a positional argument: a call giving them all is set as it comes
        self.whole = tuple(name for name, *_ in self.order) == self.positional

    def bind(self, obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        """Set ``obj``'s fields from a regular call; False, nothing set, for any other call."""
        if self.whole and not kwargs and len(args) == len(self.positional):
            for name, value in zip(self.positional, args, strict=True):
                self.set(obj, name, value)
            if self.post:
                obj.__post_init__()
            return True
        if len(args) > len(self.positional):
            return False
        values = dict(zip(self.positional, args, strict=False))  # (fewer arguments than positional fields)
        for name, value in kwargs.items():
            if name in values or name not in self.names:
                return False
            values[name] = value
        if not self.required <= values.keys():
            return False
        for name, init, default, factory in self.order:
            value = values.get(name, MISSING) if init else MISSING
            if value is MISSING:
                value = default if factory is MISSING else factory()
            self.set(obj, name, value)
        if self.post:
            obj.__post_init__()
        return True


def _compile_init(cls: type, frozen: bool) -> Callable[..., None]:
    """The ``__init__`` that ``@dataclass`` compiles for ``cls``: the same parameters, defaults and body."""
    ns: dict[str, Any] = {"__set": object.__setattr__, "__MISSING": MISSING}
    positional: list[str] = []
    keywords: list[str] = []
    body: list[str] = []
    for f in fields(cls):
        name = f.name
        value = name
        if f.default is not MISSING:
            ns[f"__d_{name}"] = f.default
            default = f"__d_{name}"
        elif f.default_factory is not MISSING:
            ns[f"__f_{name}"] = f.default_factory
            default = "__MISSING"
            value = f"__f_{name}() if {name} is __MISSING else {name}" if f.init else f"__f_{name}()"
        else:
            default = ""
        if f.init:
            (keywords if f.kw_only else positional).append(f"{name}={default}" if default else name)
        elif f.default_factory is MISSING:
            continue  # not in __init__ and no factory: the class's attribute is the default, as with dataclass
        body.append(f"__set(__self, {name!r}, {value})" if frozen else f"__self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("__self.__post_init__()")
    params = ", ".join(["__self", *positional, *(["*", *keywords] if keywords else [])])
    source = f"def __init__({params}):\n    " + ("\n    ".join(body) or "pass") + "\n"
    exec(source, ns)  # noqa: S102 - the text is built here from the class's own field names, as dataclasses does
    made: Callable[..., None] = ns["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    return made
