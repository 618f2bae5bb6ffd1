"""core/values.py: a record over ``Value`` is shown, compared and hashed exactly as the methods ``@dataclass``
would have generated (issue 26: the same behaviour, less compiled at every import)."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, dataclass, field, replace

import pytest

from sheetgm.core.values import Value


@dataclass(frozen=True)
class Generated:
    a: int
    b: str = "x"
    hidden: tuple[int, ...] = field(default=(), repr=False)
    loose: int = field(default=0, compare=False)
    unhashed: tuple[int, ...] = field(default=(), hash=False)


@dataclass(frozen=True, repr=False, eq=False)
class Shared(Value):
    a: int
    b: str = "x"
    hidden: tuple[int, ...] = field(default=(), repr=False)
    loose: int = field(default=0, compare=False)
    unhashed: tuple[int, ...] = field(default=(), hash=False)


@dataclass(frozen=True, repr=False, eq=False)
class Child(Shared):
    c: float = 0.5


@dataclass(frozen=True, repr=False, eq=False)
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
