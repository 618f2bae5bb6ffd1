"""sheetgm's records: ``@record`` in place of ``@dataclass``, the same classes with less compiled at import.

``@dataclass(frozen=True)`` compiles six methods per class when its module is imported (``__init__``, the two
frozen guards, ``__repr__``, ``__eq__``, ``__hash__``), a plain ``@dataclass`` three; for the ~100 records a
command imports that is tens of milliseconds of every command (issue 26). ``@record`` makes the same class with
``dataclasses.dataclass`` (its fields, ``fields()``, ``replace()``, ``__match_args__``) but compiles nothing at
import: ``__repr__``, ``__eq__`` and ``__hash__`` are written once here for every record, the frozen guards once
in ``Value``; a class's first records are made by ``_Binder`` (the same steps, a few microseconds slower each),
and only a class that makes more than COMPILE_AFTER has its ``__init__`` compiled, the same code ``dataclasses``
would have compiled (a 10-player check compiles 10, not the 104 of the classes it imports).
tests/test_values.py holds every part to what ``@dataclass`` generates, both ways of making a record: fields
marked ``repr``, ``compare``, ``hash`` and ``init``, defaults and factories, keyword-only fields,
``__post_init__``, equality only with a record of the very same class.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, InitVar, dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar, cast, dataclass_transform, overload

T = TypeVar("T", bound=type)

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
    """``@dataclass`` with ``repr``, ``eq`` (and ``hash`` when frozen) shared and ``__init__`` compiled on first
    use. A frozen record must derive from ``Value``; a mutable one, like ``@dataclass``, is unhashable when
    compared by value (``eq=False``: compared by identity, as ``@dataclass(eq=False)``)."""
    def wrap(c: T) -> T:
        return _make(c, frozen, eq, kw_only)
    return wrap if cls is None else wrap(cls)


def _make(cls: T, frozen: bool, eq: bool, kw_only: bool) -> T:
    if frozen != issubclass(cls, Value):
        raise TypeError(f"{cls.__qualname__}: a frozen record derives from Value, a mutable one does not")
    own = cls.__dict__
    documented = own.get("__doc__") is not None
    if not documented:
        cls.__doc__ = cls.__qualname__  # spares dataclass an inspect.signature() of the class
    dataclass(init=False, repr=False, eq=False, kw_only=kw_only)(cls)  # the same class, its fields added
    names = [f.name for f in fields(cls)]
    declared = cls.__dict__["__dataclass_fields__"].values()
    if any(isinstance(f.type, InitVar) or "InitVar" in str(f.type) for f in declared):
        raise TypeError(f"{cls.__qualname__}: InitVar fields are not supported by @record")
    _check_order(cls)
    if not documented:
        cls.__doc__ = f"{cls.__qualname__}({', '.join(names)})"
    if not frozen:
        if "__repr__" not in own:
            cls.__repr__ = _text  # type: ignore[assignment]
        if eq and "__eq__" not in own:
            cls.__eq__ = _equal  # type: ignore[assignment]
            if "__hash__" not in own or own["__hash__"] is None:
                cls.__hash__ = None  # type: ignore[assignment]
    if "__init__" not in own:
        cls.__init__ = _first_init(cls, frozen)  # type: ignore[misc]
    return cls


def _check_order(cls: type) -> None:
    """Refuse what ``@dataclass`` refuses when it compiles ``__init__``: a positional field without a default
    after one with a default."""
    seen_default = False
    for f in fields(cls):
        if not f.init or f.kw_only:
            continue
        has = f.default is not MISSING or f.default_factory is not MISSING
        if seen_default and not has:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        seen_default = seen_default or has


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
