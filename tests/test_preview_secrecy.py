"""The preview leaks nothing (issue 28, RUL-18, RUL-36, RUL-61): two states that differ only in what the player
cannot know (where a secret passage she has not found leads, or whether there is one; what a chest she has not
seen holds; where the other players stand, what they hold, whether they are Downed) give her the same preview of
the same order, field by field and word for word in zh and en.
"""

# covers: RUL-18, RUL-36, RUL-61, RUL-62

from __future__ import annotations

from collections.abc import Callable

import pytest
from enginekit import game, t

from sheetgm.core.board import edge_key
from sheetgm.core.preview import Preview, preview
from sheetgm.core.state import Passage, State
from sheetgm.notation.orders import parse_order

# The kit map (enginekit.GRID):
#    A    B    C    D    E    F
# 1  G    C    .    .    .    X
# 2  .    .  | .    Cf   f    .
# 3  P1   .    .    f    f    .
#    =
# 4  .    d    G    .    .    P1
# 5  .    .    .    .    C    .
ANN, BO, CAT, HAL, IVY = 1, 2, 3, 4, 5
ORDERS = (
    "move C3; search; move E5; move E4",  # a search on the end of a passage she has not found, then through it
    "move D4, D3, D2; search; use map",  # a chest she has not seen, then the item it may hold
    "search; crack; move C5",  # on a generator tile, a search of no chest
    "heal Bo; move C5, D5",  # a heal of another: where he stands she cannot know
    "move C5, D5, E5; search; wings E3",  # another chest, and wings it may hold
)


def base() -> State:
    """Ann (Lucky Guy, a full bag's worth of room) on C4; Bo and Cat elsewhere; two hunters, the Assassin's
    passage laid from C3 to E5, which no survivor has found."""
    st = game(
        survivors=[("Ann", "lucky", "C4", {"items": ["bottle"]}), ("Bo", "athlete", "A5"),
                   ("Cat", "doctor", "F5", {"items": ["stimulant"]})],
        hunters=[("Hal", "assassin", "F1"), ("Ivy", "clown", "A1")],
        chests={"B1": "map", "D2": None, "E5": "wings"},
    )
    st.passages.append(Passage(ends=edge_key(t("C3"), t("E5")), owner=HAL))
    return st


def _far_end(tile: str | None) -> Callable[[State], None]:
    def change(st: State) -> None:
        st.passages = [pa for pa in st.passages if pa.owner != HAL]
        if tile is not None:
            st.passages.append(Passage(ends=edge_key(t("C3"), t(tile)), owner=HAL))
    return change


def _set(seat: int, **values: object) -> Callable[[State], None]:
    def change(st: State) -> None:
        for k, v in values.items():
            setattr(st.players[seat], k, t(str(v)) if k == "pos" else v)
    return change


def _chests(**contents: str | None) -> Callable[[State], None]:
    def change(st: State) -> None:
        for name, item in contents.items():
            st.chests[t(name)] = item
    return change


HIDDEN: dict[str, Callable[[State], None]] = {
    "the passage leads elsewhere": _far_end("A5"),
    "the passage leads to a chest": _far_end("B1"),
    "no passage from C3": _far_end(None),
    "the chests hold other things": _chests(B1="wings", E5="map", D2="map"),
    "the chests are empty": _chests(B1=None, E5=None),
    "Bo stands with her": _set(BO, pos="C4"),
    "Bo is Downed with her": _set(BO, pos="C4", downed=True, hp=3),
    "Cat holds more": _set(CAT, items=["stimulant", "map"]),
    "the hunters stand elsewhere": lambda st: [_set(HAL, pos="C3")(st), _set(IVY, pos="D4", stealth=True)(st)],
}


def shown(pv: Preview) -> tuple[object, ...]:
    """Every field of the preview and its words in both languages."""
    return (pv, *(line for lang in ("zh", "en") for line in pv.lines(lang)),
            *(line for lang in ("zh", "en") for line in pv.lines(lang, full=False)))


@pytest.mark.parametrize("text", ORDERS)
@pytest.mark.parametrize("hidden", sorted(HIDDEN))
def test_a_hidden_change_leaves_the_preview_unchanged(hidden: str, text: str) -> None:
    order = parse_order(text)
    a, b = base(), base()
    HIDDEN[hidden](b)
    assert a.to_json() != b.to_json()  # the change is real
    assert shown(preview(a, ANN, order)) == shown(preview(b, ANN, order))


def test_the_previews_compared_are_busy() -> None:
    """The orders above meet the hidden things: a note on the move through the passage, a note on the map
    found, a warning of no chest, a heal that is a "may"."""
    st = base()
    through, chest, plain, heal, wings = (preview(st, ANN, parse_order(x)) for x in ORDERS)
    assert [x.code for x in through.steps[2].notes] == ["check.note.search"] and not through.steps[2].sure
    assert through.steps[1].sure and through.steps[0].here == ()
    assert [x.code for x in chest.steps[2].notes] == ["check.note.search"] and chest.steps[1].here == ("chest",)
    assert chest.steps[1].sure and (chest.steps[1].mp, chest.steps[1].ap) == (1, 0)  # D3, D2: one flat region
    assert any(x.code == "preview.warn.no_chest" for x in plain.steps[0].warnings)
    assert not heal.steps[0].sure and not heal.steps[1].sure
    assert wings.steps[0].path == (t("C5"), t("D5"), t("E5")) and not wings.steps[2].sure
