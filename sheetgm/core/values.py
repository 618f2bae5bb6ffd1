"""The base of sheetgm's frozen records: ``__repr__``, ``__eq__`` and ``__hash__`` written once here, for every
record, instead of generated for each class.

``@dataclass(frozen=True)`` compiles six methods per class when its module is imported; for the ~100 records a
command imports that is tens of milliseconds of every command (issue 26). A record declared
``@dataclass(frozen=True, repr=False, eq=False)`` over ``Value`` has only ``__init__`` and the frozen guards
compiled, and these three behave exactly as the generated ones would: the fields marked ``repr``, ``compare``
and ``hash`` (``dataclasses.field``) in their order, equal only to a record of the very same class.
tests/test_values.py holds them to the generated methods.
"""

from __future__ import annotations

from dataclasses import fields

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
    """A frozen record's comparison, hash and text (see the module's docstring)."""

    __slots__ = ()

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
