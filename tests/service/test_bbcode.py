"""The stage announcement as Discuz BBCode and plain text: structure, colours, escaping, samples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from svc_helpers import make_game, state_of

from sheetgm.backends.memory import MemoryGateway
from sheetgm.core.events import Event
from sheetgm.core.state import Card
from sheetgm.render import bbcode

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
TAG = re.compile(r"\[(/?)([a-z*]+)(=[^\]]*)?\]")
DISCUZ_TAGS = {"b", "color", "size", "list", "*", "quote"}


def tags(text: str) -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2), m.group(3) or "") for m in TAG.finditer(text)]


def balanced(text: str) -> bool:
    stack: list[str] = []
    for close, name, _arg in tags(text):
        if name == "*":
            if "list" not in stack:
                return False
            continue
        if close:
            if not stack or stack.pop() != name:
                return False
        else:
            stack.append(name)
    return not stack


@pytest.fixture
def state(tmp_path: Path):  # type: ignore[no-untyped-def]
    game = make_game(tmp_path, MemoryGateway())
    st = state_of(game)
    st.players[1].alias = "Ann[b]"
    st.players[2].status = "eliminated"
    st.eliminated.append(2)
    st.players[3].status = "escaped"
    st.escaped.append(3)
    st.progress = 4
    st.cards += [Card(seat=1, colour="red", reason="贴脸 [color=#FF0000]大字[/color]", night=1),
                 Card(seat=4, colour="blue", reason="格式", night=1)]
    return st


def events() -> list[Event]:
    return [
        Event("stage_start", 1, "hunter", {"stage_name": "hunter"}, public=True),
        Event("eliminated", 1, "hunter", {"alias": "S2"}, public=True),
        Event("search_found", 1, "hunter", {"item": "map", "tile": "C4"}, to=(1,)),
        Event("attack", 1, "hunter", {"alias": "S2", "tile": "D7"}),
    ]


def test_bbcode_is_balanced_discuz_with_the_expected_sections(state) -> None:  # type: ignore[no-untyped-def]
    doc = bbcode.announcement("zh", "一局", events(), [], state, (2, "survivor", "2024-05-02 21:00"))
    text = bbcode.to_bbcode(doc)
    assert balanced(text), text
    assert {name for _c, name, _a in tags(text)} <= DISCUZ_TAGS
    assert "[hr]" not in text and bbcode.RULE in text
    lines = text.splitlines()
    assert lines[0] == "[size=5][color=#FF0000][b]一局 · 第1夜 杀手阶段 公告[/b][/color][/size]"
    for heading in ("本阶段公开信息", "进度", "判罚"):
        assert f"[b][color={bbcode.HEADING_COLOUR}]{heading}[/color][/b]" in lines
    assert "[*]S2 出局" in lines
    assert "[*]破解进度: [b]4/6[/b]" in lines
    assert text.count("[list]") == text.count("[/list]") == 3
    assert "下一阶段：第2夜 求生者阶段，请在 2024-05-02 21:00 前提交指令。" in lines
    assert "导演裁定" not in text  # no rulings, no section


def test_private_events_and_positions_never_appear(state) -> None:  # type: ignore[no-untyped-def]
    for fmt in bbcode.FORMATS:
        text = bbcode.render_doc(bbcode.announcement("zh", "g", events(), [], state, None), fmt)
        assert "C4" not in text and "D7" not in text
        assert "地图" not in text  # the item found privately
        for p in state.players.values():
            assert str(p.pos) not in text


def test_player_text_cannot_open_tags_and_only_the_director_uses_red_and_size(state) -> None:  # type: ignore[no-untyped-def]
    text = bbcode.to_bbcode(bbcode.announcement("zh", "g", events(), [], state, None))
    assert balanced(text)
    assert "Ann［b］" in text and "［color=#FF0000］大字［/color］" in text
    for line in text.splitlines():
        if "[size=" in line:
            assert line.startswith(f"[size={bbcode.TITLE_SIZE}][color={bbcode.DIRECTOR_RED}]")
        if bbcode.DIRECTOR_RED in line and not line.startswith("[size="):
            assert f"[color={bbcode.DIRECTOR_RED}][b]红牌[/b][/color]" in line  # a red card is shown red
    escaped = [ln for ln in text.splitlines() if "[color=#808080]S2[/color]" in ln]
    green = [ln for ln in text.splitlines() if f"[color={bbcode.ESCAPED_COLOUR}]S3[/color]" in ln]
    assert escaped and green


def test_game_over_is_a_director_banner_and_no_next_stage(state) -> None:  # type: ignore[no-untyped-def]
    state.winner, state.end_reason = "hunters", "red_cards"
    doc = bbcode.announcement("en", "g", events(), [Event("card", 1, "cards", {"alias": "S1", "colour": "red",
                                                                              "reason": "x"}, public=True)],
                              state, None)
    text = bbcode.to_bbcode(doc)
    last = [ln for ln in text.splitlines() if ln][-1]
    assert last.startswith("[size=5][color=#FF0000][b]Game over:") and "red cards" in last
    assert "[quote]" in text and "[/quote]" in text and "Next:" not in text
    plain = bbcode.to_plain(doc)
    assert not tags(plain)
    assert plain.splitlines()[0] == "【g · Night 1, hunter stage: announcement】"
    assert "■ Director's rulings" in plain and "  > S1 receives a red card: x" in plain


def test_plain_text_has_no_tags(state) -> None:  # type: ignore[no-untyped-def]
    plain = bbcode.to_plain(bbcode.announcement("zh", "g", events(), [], state, None))
    assert not tags(plain)
    assert "  • S2 出局" in plain and "■ 进度" in plain
    assert "Ann［b］" in plain  # a forum reads BBCode in plain text too


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_samples_in_the_docs_are_well_formed(lang: str) -> None:
    bb = (SAMPLES / f"announcement-N3-hunter.{lang}.bbcode").read_text("utf-8")
    plain = (SAMPLES / f"announcement-N3-hunter.{lang}.txt").read_text("utf-8")
    assert balanced(bb) and {name for _c, name, _a in tags(bb)} <= DISCUZ_TAGS
    assert bb.startswith("[size=5][color=#FF0000][b]") and plain.startswith("【")
    assert not tags(plain)
    words = {"zh": ("本阶段公开信息", "导演裁定", "进度", "判罚"),
             "en": ("What happened", "Director's rulings", "Progress", "Penalty cards")}[lang]
    for w in words:
        assert w in bb and w in plain
    if lang == "en":
        assert not re.search(r"[\u4e00-\u9fff]", "".join(ln for ln in plain.splitlines()
                                                         if "card:" not in ln and "card" not in ln))
