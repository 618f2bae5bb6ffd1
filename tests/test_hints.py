"""Friendlier order words (issue 9 item 15, issue 10 item 5): the seed's names, traditional characters,
"did you mean", and hints that fit the writer's camp."""

# covers: R-ORDER-3, R-ORDER-4

from __future__ import annotations

from pathlib import Path

import pytest

from sheetgm.core.board import parse_tile
from sheetgm.core.steps import Attack, Cross, Escape, Move, Pray, RobotStep, Skill
from sheetgm.notation import vocab
from sheetgm.notation.hints import camp_of_word, head_words, near_words, one_edit
from sheetgm.notation.orders import parse_order, parse_order_all

SEED = Path(__file__).resolve().parents[1] / "docs" / "original-rules.zh.txt"  # the seed, as the repository keeps it

# Every action the seed names, as it names it: the actions, the active skills and the items.
SEED_WORDS = (
    "搜索 破解 翻越 救治 拆除 逃生 攻击 封堵 远眺 聆听 强行 丢弃 给予 "
    "幸运 冲刺 配置药剂 魔术道具 门之钥 机器操纵 机械小玩意 怒火 华丽出场 陷阱 亮相 逻辑推理 痕迹检定 链爪 雾刃 "
    "地图 左轮手枪 弹簧机翼 兴奋剂 肾上腺素 啤酒瓶 干扰器 逃离"
).split()


def t(name: str) -> tuple[int, int]:
    tile = parse_tile(name)
    assert tile is not None
    return tile


def test_every_action_the_seed_names_is_an_order_word() -> None:
    seed = SEED.read_text("utf-8")
    heads = set(head_words())
    for word in SEED_WORDS:
        assert word in seed, word
        assert word in heads, word


@pytest.mark.parametrize(("text", "step"), [
    ("幸运 左轮手枪", Pray("revolver")),
    ("机器操纵 1 移动力", Skill("hand", amount=1, what="mp")),
    ("逃离", Escape()),
    ("机械小玩意：移动 B3", RobotStep(Move(t("B3")))),
    ("强行越过 C4", Cross(t("C4"))),
    ("强行 越过 C4", Cross(t("C4"))),
    ("强行通过C4", Cross(t("C4"))),
    ("链爪 北", Attack("N")),
    ("雾刃 C3", Attack(at=t("C3"))),
    ("破译", parse_order("破解").steps[0]),
    ("逃脱", Escape()),
    ("move to B2", Move(t("B2"))),
    ("移动 到 B2", Move(t("B2"))),
])
def test_the_seeds_words_and_older_ones_are_read(text: str, step: object) -> None:
    order = parse_order(text)
    assert step in order.steps or step in order.day


SIMPLE_TO_TRADITIONAL = {simple: chr(trad) for trad, simple in vocab.TRADITIONAL.items() if trad != ord("蹟")}


def _traditional(word: str) -> str:
    return "".join(SIMPLE_TO_TRADITIONAL.get(ord(c), c) for c in word)


def test_every_keyword_reads_in_traditional_characters() -> None:
    words = [w for w in (*vocab.STEP_WORDS, *vocab.SKILL_WORDS, *vocab.ITEM_WORDS, *vocab.PREFIX_WORDS)
             if not w.isascii()]
    changed = 0
    for word in words:
        trad = _traditional(word)
        changed += trad != word
        assert vocab.normalize_word(trad) == word, (word, trad)
    assert changed > 30
    assert parse_order("移動 B2；攻擊 北") == parse_order("移动 B2；攻击 北")
    assert parse_order("給予小東鑰匙").day[0].to == "小東"  # an alias keeps its characters


@pytest.mark.parametrize(("typed", "word", "near"), [
    ("搜素", "搜索", True),  # a homophone typo
    ("索搜", "搜索", True),  # a swapped pair
    ("逻推理", "逻辑推理", True),  # one character missing
    ("逻辑辑推理", "逻辑推理", True),  # one doubled
    ("搜", "搜索", False),  # two-character words: no missing character
    ("飞行", "搜索", False),
    ("搜索", "搜索", False),
])
def test_one_edit(typed: str, word: str, near: bool) -> None:
    assert one_edit(typed, word) is near


def test_near_words_in_both_scripts() -> None:
    assert near_words("搜素", head_words()) == ["搜索"]
    assert near_words("serach", head_words()) == ["search"]
    assert near_words("搜素钥匙", head_words()) == ["搜索"]  # glued to its argument
    assert near_words("飞", head_words()) == []


def test_a_hunter_is_never_offered_a_survivors_word() -> None:
    hunters = head_words("hunter")
    assert "攻击" in hunters and "移动" in hunters and "华丽出场" in hunters
    for word in hunters:
        assert camp_of_word(vocab.normalize_word(word)) != "survivor", word
    assert near_words("搜素", hunters) == []
    _, errors = parse_order_all("搜素；救治 小明 开心", camp="hunter")
    for lang in ("zh", "en"):
        text = " ".join(e.message(lang) for e in errors)
        assert "搜索" not in text and "search" not in text and "倒地" not in text and "downed" not in text
    assert errors[1].code == "err.order.other_camp"


def test_a_survivor_is_never_offered_a_hunters_word() -> None:
    _, errors = parse_order_all("攻机", camp="survivor")
    assert "攻击" not in errors[0].message("zh") and "attack" not in errors[0].message("en")
    _, errors = parse_order_all("攻机", camp="hunter")
    assert "「攻击」" in errors[0].message("zh")


def test_without_a_camp_every_word_may_be_offered() -> None:
    _, errors = parse_order_all("聆停；搜素")
    assert "聆听" in errors[0].message("zh") and "搜索" in errors[1].message("zh")
    assert [e.code for e in errors] == ["err.order.unknown_word"] * 2


def test_a_wrong_argument_gets_a_near_miss() -> None:
    _, errors = parse_order_all("使用 地土；华丽出场 东边；技能 冲次")
    assert [e.params["did_you_mean_zh"] for e in errors] == [
        "，你是不是想写「地图」？", "", "，你是不是想写「冲刺」？"]
    assert errors[0].message("en").endswith('did you mean "地图"?')
