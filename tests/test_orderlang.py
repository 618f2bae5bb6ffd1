"""The order language (R-ORDER-1..3): parse, errors, format, round trip, vocabulary."""

# covers: R-ORDER-1, R-ORDER-2, R-ORDER-3

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetgm.core.board import parse_tile
from sheetgm.core.errors import AmbiguousOrderError, OrderSyntaxError
from sheetgm.core.steps import (
    HUNTER_ROLES,
    ITEMS,
    SKILLS,
    SURVIVOR_ROLES,
    Attack,
    Block,
    Crack,
    Cross,
    Dismantle,
    Drop,
    Escape,
    Force,
    Gaze,
    Give,
    Heal,
    Listen,
    Move,
    Order,
    Pray,
    RobotStep,
    Search,
    Skill,
    UseItem,
    Vault,
)
from sheetgm.core.texts import render
from sheetgm.notation import vocab
from sheetgm.notation.order_format import valid_alias
from sheetgm.notation.orders import format_order, format_step, parse_order, parse_order_all, parse_order_numbered

TEXTS = Path(__file__).resolve().parent.parent / "sheet_templates" / "texts"


def t(name: str) -> tuple[int, int]:
    tile = parse_tile(name)
    assert tile is not None
    return tile


def steps(*s: object) -> Order:
    return Order(tuple(s))  # type: ignore[arg-type]


# --- concrete examples ---------------------------------------------------------------

EXAMPLES: list[tuple[str, Order]] = [
    # empty and "nothing"
    ("", Order()),
    ("   \n ；", Order()),
    ("无", Order()),
    ("不行动", Order()),
    ("None", Order()),
    ("PASS", Order()),
    # moves and paths
    ("移动 B2", steps(Move(t("B2")))),
    ("move B2 B3 C3", steps(Move(t("B2")), Move(t("B3")), Move(t("C3")))),
    ("移动 B2 B3 C3", steps(Move(t("B2")), Move(t("B3")), Move(t("C3")))),
    ("B2→B3→C3", steps(Move(t("B2")), Move(t("B3")), Move(t("C3")))),
    ("B2 > B3", steps(Move(t("B2")), Move(t("B3")))),
    ("b2 -> b3", steps(Move(t("B2")), Move(t("B3")))),
    ("B2 B3", steps(Move(t("B2")), Move(t("B3")))),
    ("移动B2B3", steps(Move(t("B2")), Move(t("B3")))),
    ("移动：Ｂ２", steps(Move(t("B2")))),
    ("ＭＯＶＥ ｂ２", steps(Move(t("B2")))),
    ("移动至 AA12", steps(Move(t("AA12")))),
    ("移动 B2、B3", steps(Move(t("B2")), Move(t("B3")))),
    # survivor main actions
    ("移动 B2；搜索；移动 B3", steps(Move(t("B2")), Search(), Move(t("B3")))),
    ("搜索 钥匙", steps(Search("key"))),
    ("搜索钥匙", steps(Search("key"))),
    ("search KEY", steps(Search("key"))),
    ("搜索 地图", steps(Search("map"))),
    ("search revolver", steps(Search("revolver"))),
    ("破解", steps(Crack())),
    ("修机", steps(Crack())),
    ("Crack", steps(Crack())),
    ("翻越 C4", steps(Vault(t("C4")))),
    ("vault c4", steps(Vault(t("C4")))),
    ("越过 C4", steps(Cross(t("C4")))),
    ("cross C4", steps(Cross(t("C4")))),
    ("救治 小明", steps(Heal("小明"))),
    ("救治 小明 倒地", steps(Heal("小明", "downed"))),
    ("救治小明恐惧", steps(Heal("小明", "fear"))),
    ("heal Alice fear", steps(Heal("Alice", "fear"))),
    ("heal Alice DOWNED", steps(Heal("Alice", "downed"))),
    ("拆除 C4", steps(Dismantle(t("C4")))),
    ("拆除 陷阱", steps(Dismantle(None))),
    ("dismantle trap", steps(Dismantle(None))),
    ("逃生", steps(Escape())),
    ("escape", steps(Escape())),
    # hunter actions
    ("攻击", steps(Attack())),
    ("攻击 北", steps(Attack("N"))),
    ("攻击上", steps(Attack("N"))),
    ("攻击 右", steps(Attack("E"))),
    ("attack s", steps(Attack("S"))),
    ("attack West", steps(Attack("W"))),
    ("攻击 C3", steps(Attack(at=t("C3")))),
    ("攻击 C3 左", steps(Attack("W", t("C3")))),
    ("封堵 B3", steps(Block(t("B3")))),
    ("封堵 B2-B3", steps(Block(t("B3"), t("B2")))),
    ("block B2 B3", steps(Block(t("B3"), t("B2")))),
    ("远眺", steps(Gaze())),
    ("聆听；gaze", steps(Listen(), Gaze())),
    ("强行 D5", steps(Force(t("D5")))),
    ("force d5", steps(Force(t("D5")))),
    # items
    ("左轮手枪 C4", steps(UseItem("revolver", t("C4")))),
    ("左轮手枪C4", steps(UseItem("revolver", t("C4")))),
    ("使用 左轮手枪 C4", steps(UseItem("revolver", t("C4")))),
    ("use revolver C4", steps(UseItem("revolver", t("C4")))),
    ("地图", steps(UseItem("map"))),
    ("use map", steps(UseItem("map"))),
    ("肾上腺素", steps(UseItem("adrenaline"))),
    ("肾上腺素 小明", steps(UseItem("adrenaline", whom="小明"))),
    ("使用 肾上腺素 Bob", steps(UseItem("adrenaline", whom="Bob"))),
    ("兴奋剂", steps(UseItem("stimulant"))),
    ("弹簧机翼 E7", steps(UseItem("wings", t("E7")))),
    ("啤酒瓶 B2", steps(UseItem("bottle", t("B2")))),
    ("干扰器", steps(UseItem("jammer"))),
    ("门之钥 C4", steps(UseItem("doorkey", t("C4")))),
    ("道具 门之钥 C4", steps(UseItem("doorkey", t("C4")))),
    ("item doorkey C4", steps(UseItem("doorkey", t("C4")))),
    ("丢弃 地图", steps(Drop("map"))),
    ("丢弃银制匕首", steps(Drop("dagger"))),
    ("drop dagger", steps(Drop("dagger"))),
    # skills
    ("冲刺 B2 B3 B4 B5", steps(Skill("sprint", tiles=(t("B2"), t("B3"), t("B4"), t("B5"))))),
    ("冲刺 B2、B3、B4", steps(Skill("sprint", tiles=(t("B2"), t("B3"), t("B4"))))),
    ("sprint B2 B3", steps(Skill("sprint", tiles=(t("B2"), t("B3"))))),
    ("冲刺 B2 B3; C3", steps(Skill("sprint", tiles=(t("B2"), t("B3"))), Move(t("C3")))),
    # a sprint is a move (冲刺<移动>): tiles after a comma continue it as they continue a path (RUL-60)
    ("冲刺 B2 B3, C3", steps(Skill("sprint", tiles=(t("B2"), t("B3"), t("C3"))))),
    ("冲刺 C1，D1，E1，E2", steps(Skill("sprint", tiles=(t("C1"), t("D1"), t("E1"), t("E2"))))),
    ("sprint C1, D1, E1, E2", steps(Skill("sprint", tiles=(t("C1"), t("D1"), t("E1"), t("E2"))))),
    ("配置药剂", steps(Skill("brew"))),
    ("brew", steps(Skill("brew"))),
    ("魔术道具 F6", steps(Skill("magic", tiles=(t("F6"),)))),
    ("使用魔术道具 F6", steps(Skill("magic", tiles=(t("F6"),)))),
    ("技能 门之钥 C4", steps(Skill("gate", tiles=(t("C4"),)))),
    ("技能门之钥C4", steps(Skill("gate", tiles=(t("C4"),)))),
    ("gate C4", steps(Skill("gate", tiles=(t("C4"),)))),
    ("skill sprint B2", steps(Skill("sprint", tiles=(t("B2"),)))),
    ("放置机器人", steps(Skill("deploy"))),
    ("回收机器人", steps(Skill("retrieve"))),
    ("交付 1 移动力", steps(Skill("hand", amount=1, what="mp"))),
    ("交付1行动力", steps(Skill("hand", amount=1, what="ap"))),
    ("交付 两 移动力", steps(Skill("hand", amount=2, what="mp"))),
    ("hand 2 MP", steps(Skill("hand", amount=2, what="mp"))),
    ("hand ap 1", steps(Skill("hand", amount=1, what="ap"))),
    ("怒火", steps(Skill("fury"))),
    ("华丽出场 东", steps(Skill("dash", direction="E"))),
    ("dash n", steps(Skill("dash", direction="N"))),
    ("陷阱 C3", steps(Skill("trap", tiles=(t("C3"),)))),
    ("陷阱 C3 取消 C5", steps(Skill("trap", tiles=(t("C3"), t("C5"))))),
    ("trap C3 remove C5", steps(Skill("trap", tiles=(t("C3"), t("C5"))))),
    ("亮相 D4", steps(Skill("appear", tiles=(t("D4"),)))),
    ("逻辑推理 B2 B3 C2 C3", steps(Skill("deduce", tiles=(t("B2"), t("B3"), t("C2"), t("C3"))))),
    ("逻辑推理 B2、B3、C2、C3", steps(Skill("deduce", tiles=(t("B2"), t("B3"), t("C2"), t("C3"))))),
    ("逻辑推理 B2，B3，C2，C3", steps(Skill("deduce", tiles=(t("B2"), t("B3"), t("C2"), t("C3"))))),
    ("deduce b2b3c2c3", steps(Skill("deduce", tiles=(t("B2"), t("B3"), t("C2"), t("C3"))))),
    ("痕迹检定", steps(Skill("trace"))),
    ("trace", steps(Skill("trace"))),
    # robot
    ("机器人：移动 C4", steps(RobotStep(Move(t("C4"))))),
    ("机器人移动C4C5", steps(RobotStep(Move(t("C4"))), RobotStep(Move(t("C5"))))),
    ("robot: crack", steps(RobotStep(Crack()))),
    ("Robot:search key", steps(RobotStep(Search("key")))),
    ("放置机器人；交付 1 行动力；机器人：破解", steps(
        Skill("deploy"), Skill("hand", amount=1, what="ap"), RobotStep(Crack()))),
    # day steps
    ("给予 小明 地图", Order(day=(Give("小明", "map"),))),
    ("给予小明钥匙", Order(day=(Give("小明", "key"),))),
    ("give Bob key", Order(day=(Give("Bob", "key"),))),
    ("祈祷 左轮手枪", Order(day=(Pray("revolver"),))),
    ("pray wings", Order(day=(Pray("wings"),))),
    ("祈祷 地图；移动 B2；搜索", Order((Move(t("B2")), Search()), (Pray("map"),))),
    # separators of every kind
    ("移动 B2；搜索，破解、逃生\n远眺;聆听,crack", steps(
        Move(t("B2")), Search(), Crack(), Escape(), Gaze(), Listen(), Crack())),
    ("移动 B2。搜索。", steps(Move(t("B2")), Search())),
    # numbered steps
    ("1. 移动 B2\n2. 搜索\n3.破解", steps(Move(t("B2")), Search(), Crack())),
    ("1、移动B2\n2、搜索", steps(Move(t("B2")), Search())),
    ("(1) move B2; (2) crack", steps(Move(t("B2")), Crack())),
    ("第一步：移动 B2；第二步：逃生", steps(Move(t("B2")), Escape())),
    ("①移动B2\n②搜索", steps(Move(t("B2")), Search())),
]


@pytest.mark.parametrize(("text", "expected"), EXAMPLES, ids=[e[0] or "<empty>" for e in EXAMPLES])
def test_parse_examples(text: str, expected: Order) -> None:
    assert parse_order(text) == expected
    order, errors = parse_order_all(text)
    assert (order, errors) == (expected, [])


@pytest.mark.parametrize(("text", "expected"), EXAMPLES, ids=[e[0] or "<empty>" for e in EXAMPLES])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_examples_round_trip(text: str, expected: Order, lang: str) -> None:
    assert parse_order(format_order(expected, lang)) == expected


# --- formatting ----------------------------------------------------------------------

FORMATTED = [
    (steps(Move(t("B2")), Move(t("B3")), Search("key")), "移动 B2 B3；搜索 钥匙", "move B2 B3; search key"),
    (Order(), "无", "none"),
    (steps(Skill("gate", tiles=(t("C4"),)), UseItem("doorkey", t("C4"))), "技能 门之钥 C4；使用 门之钥 C4",
     "gate C4; use doorkey C4"),
    (steps(RobotStep(Move(t("C4"))), RobotStep(Move(t("C5"))), Move(t("A1"))), "机器人：移动 C4 C5；移动 A1",
     "robot: move C4 C5; move A1"),
    (Order((Crack(),), (Give("小明", "key"), Pray("map"))), "给予 小明 钥匙；祈祷 地图；破解",
     "give 小明 key; pray map; crack"),
    (steps(Heal("Ann", "fear"), Attack("W", t("C3")), Block(t("B3"), t("B2"))),
     "救治 Ann 恐惧；攻击 西 C3；封堵 B2-B3", "heal Ann fear; attack W C3; block B2-B3"),
    (steps(Skill("hand", amount=1, what="mp"), Skill("trap", tiles=(t("C3"), t("C5")))),
     "交付 1 移动力；陷阱 C3 取消 C5", "hand 1 mp; trap C3 remove C5"),
]


@pytest.mark.parametrize(("order", "zh", "en"), FORMATTED)
def test_format_examples(order: Order, zh: str, en: str) -> None:
    assert format_order(order, "zh") == zh
    assert format_order(order, "en") == en


def test_format_step_single_move_and_robot() -> None:
    assert format_step(Move(t("B2")), "zh") == "移动 B2"
    assert format_step(RobotStep(Crack()), "en") == "robot: crack"
    assert format_step(Dismantle(None), "zh") == "拆除 陷阱"


@pytest.mark.parametrize("bad", [
    Heal("two words"),
    Heal("a;b"),
    Give("", "map"),
    UseItem("map", target=(0, 0)),
    UseItem("revolver"),
    UseItem("stimulant", whom="x"),
    Skill("sprint"),
    Skill("sprint", tiles=((0, 0),) * 5),
    Skill("fury", tiles=((0, 0),)),
    Skill("dash"),
    Skill("hand", amount=1),
    Skill("nosuch"),
    Drop("sword"),
    Move((-1, 0)),
    Move((0, 999)),
    RobotStep(RobotStep(Crack())),
])
def test_format_rejects_unwritable_steps(bad: object) -> None:
    with pytest.raises(ValueError):
        format_step(bad, "zh")  # type: ignore[arg-type]


# --- errors --------------------------------------------------------------------------

ERRORS = [
    ("飞 B2", "err.order.unknown_word", 1, "飞"),
    ("移动 B2；jump", "err.order.unknown_word", 2, "jump"),
    ("移动 Q", "err.order.bad_tile", 1, "Q"),
    ("移动 B0", "err.order.bad_tile", 1, "B0"),
    ("翻越 北", "err.order.bad_tile", 1, "北"),
    ("B2 搜索", "err.order.bad_tile", 1, "搜索"),
    ("移动", "err.order.missing_arg", 1, None),
    ("救治", "err.order.missing_arg", 1, None),
    ("左轮手枪", "err.order.missing_arg", 1, None),
    ("技能", "err.order.missing_arg", 1, None),
    ("机器人：", "err.order.missing_arg", 1, "机器人"),
    ("给予 小明", "err.order.missing_arg", 1, None),
    ("华丽出场", "err.order.missing_arg", 1, None),
    ("交付 1", "err.order.missing_arg", 1, None),
    ("拆除", "err.order.missing_arg", 1, None),
    ("破解 C3", "err.order.extra_arg", 1, "C3"),
    ("地图 C3", "err.order.extra_arg", 1, "C3"),
    ("翻越 C3 C4", "err.order.extra_arg", 1, "C4"),
    ("封堵 B1-B2-B3", "err.order.extra_arg", 1, "B3"),
    ("攻击 北 南", "err.order.extra_arg", 1, "南"),
    ("搜索 宝剑", "err.order.bad_arg", 1, "宝剑"),
    ("丢弃 钥匙", "err.order.bad_arg", 1, "钥匙"),
    ("救治 小明 开心", "err.order.bad_arg", 1, "开心"),
    ("华丽出场 东北", "err.order.bad_arg", 1, "东北"),
    ("攻击 远方", "err.order.bad_arg", 1, "远方"),
    ("技能 飞行", "err.order.bad_arg", 1, "飞行"),
    ("使用 冰箱", "err.order.bad_arg", 1, "冰箱"),
    ("交付 1 血量", "err.order.bad_arg", 1, "血量"),
    ("交付 0 移动力", "err.order.bad_arg", 1, "0"),
    ("冲刺 A1 A2 A3 A4 A5", "err.order.tile_count", 1, None),
    ("冲刺 A1、A2、A3、A4、A5", "err.order.tile_count", 1, None),
    ("逻辑推理 A1 A2 A3", "err.order.tile_count", 1, None),
    ("机器人：机器人：破解", "err.order.robot_nested", 1, "机器人"),
    ("robot: give Bob map", "err.order.robot_day", 1, "give"),
    ("移动 B2；无", "err.order.nothing_mixed", 2, None),
]


@pytest.mark.parametrize(("text", "code", "step", "word"), ERRORS, ids=[e[0] for e in ERRORS])
def test_syntax_errors(text: str, code: str, step: int, word: str | None) -> None:
    with pytest.raises(OrderSyntaxError) as info:
        parse_order(text)
    err = info.value
    assert err.code == code
    assert err.params["step"] == step
    assert err.params["text"]
    if word is not None:
        assert err.params["word"] == word
    for lang in ("zh", "en"):
        message = err.message(lang)
        assert message != code and "[" not in message, message
        assert str(step) in message


def test_error_carries_what_was_expected() -> None:
    with pytest.raises(OrderSyntaxError) as info:
        parse_order("移动 B2；翻越 X9Y")
    p = info.value.params
    assert (p["step"], p["text"], p["word"], p["expected"]) == (2, "翻越 X9Y", "X9Y", "tile")
    assert "B3" in p["expected_zh"] and "tile" in p["expected_en"]
    assert info.value.message("zh") == "第2步「翻越 X9Y」：「X9Y」不是地块名，应为地块名（如 B3）"
    assert info.value.message("en") == 'Step 2 "翻越 X9Y": "X9Y" is not a tile; expected a tile name (e.g. B3)'


def test_parse_all_collects_every_problem_and_keeps_good_steps() -> None:
    order, errors = parse_order_all("移动 B2；飞；搜索 宝剑；破解；救治\n冲刺 A1 A2 A3 A4 A5；逃生")
    assert order == steps(Move(t("B2")), Crack(), Escape())
    assert [(e.code, e.params["step"]) for e in errors] == [
        ("err.order.unknown_word", 2),
        ("err.order.bad_arg", 3),
        ("err.order.missing_arg", 5),
        ("err.order.tile_count", 6),
    ]
    with pytest.raises(OrderSyntaxError) as info:
        parse_order("移动 B2；飞；搜索 宝剑")
    assert info.value.params["step"] == 2


def test_aliases_keep_their_spelling() -> None:
    assert parse_order("heal ALICE") == steps(Heal("ALICE"))
    assert vocab.same_alias("ALICE", "alice") and vocab.same_alias("Ａｌｉｃｅ", "alice")
    assert not vocab.same_alias("alice", "bob")


# --- vocabulary ----------------------------------------------------------------------


def _toml(lang: str) -> dict[str, dict[str, str]]:
    return tomllib.loads((TEXTS / lang / "orders.toml").read_text("utf-8"))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_vocab_tables_cover_every_id_and_match_the_toml(lang: str) -> None:
    data = _toml(lang)
    assert set(vocab.ITEM_NAMES) == set(ITEMS)
    assert set(vocab.SKILL_NAMES) == set(SKILLS)
    assert set(vocab.ROLE_NAMES) == set(SURVIVOR_ROLES) | set(HUNTER_ROLES)
    for item in ITEMS:
        assert data["item"][item] == vocab.item_name(item, lang) == render(lang, f"item.{item}")
    for skill in SKILLS:
        assert data["skill"][skill] == vocab.skill_name(skill, lang)
    for role in (*SURVIVOR_ROLES, *HUNTER_ROLES):
        assert data["role"][role] == vocab.role_name(role, lang)
    assert set(data["dir"]) == {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
    for d in data["dir"]:
        assert data["dir"][d] == vocab.direction_name(d, lang)


def test_order_toml_files_define_the_same_keys() -> None:
    def keys(node: dict[str, object], prefix: str = "") -> set[str]:
        out: set[str] = set()
        for k, v in node.items():
            out |= keys(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
        return out

    assert keys(_toml("zh")) == keys(_toml("en"))


def test_vocab_names() -> None:
    assert vocab.item_name("doorkey", "zh") == "门之钥"
    assert vocab.item_name("key", "en") == "key"
    assert vocab.role_name("ember", "en") == "Hell Ember"
    assert vocab.role_name("assassin", "zh") == "刺客大师"
    assert vocab.skill_name("dash", "zh") == "华丽出场"
    assert vocab.direction_name("SW", "zh") == "西南"
    with pytest.raises(ValueError):
        vocab.role_name("pirate", "zh")


@pytest.mark.parametrize(("word", "item"), [
    ("地图", "map"), ("MAP", "map"), ("左轮", "revolver"), ("Revolver", "revolver"), ("弹簧机翼", "wings"),
    ("兴奋剂", "stimulant"), ("adrenaline", "adrenaline"), ("啤酒瓶", "bottle"), ("门之钥", "doorkey"),
    ("干扰器", "jammer"), ("银制匕首", "dagger"), ("ｄａｇｇｅｒ", "dagger"), ("钥匙", None), ("sword", None),
])
def test_parse_item(word: str, item: str | None) -> None:
    assert vocab.parse_item(word) == item


@pytest.mark.parametrize(("word", "role"), [
    ("幸运儿", "lucky"), ("Lucky Guy", "lucky"), ("luckyguy", "lucky"), ("厂长", "ember"), ("hell ember", "ember"),
    ("鹿头", "bane"), ("Master Assassin", "assassin"), ("刺客", "assassin"), ("werewolf", "werewolf"),
    ("机械师", "mechanic"), ("pirate", None),
])
def test_parse_role(word: str, role: str | None) -> None:
    assert vocab.parse_role(word) == role


# --- properties ----------------------------------------------------------------------

tiles = st.tuples(st.integers(0, 26 + 26 * 26 - 1), st.integers(0, 998))
aliases = st.text(
    alphabet=st.sampled_from("abcXYZ019_-小明红豆张三李四倒地钥匙机器人搜索"), min_size=1, max_size=6
).filter(valid_alias)
items = st.sampled_from(ITEMS)
directions = st.sampled_from("NESW")


def _skills() -> st.SearchStrategy[Skill]:
    return st.one_of(
        st.lists(tiles, min_size=1, max_size=4).map(lambda ts: Skill("sprint", tiles=tuple(ts))),
        st.lists(tiles, min_size=4, max_size=4).map(lambda ts: Skill("deduce", tiles=tuple(ts))),
        st.lists(tiles, min_size=1, max_size=2).map(lambda ts: Skill("trap", tiles=tuple(ts))),
        st.builds(lambda s, x: Skill(s, tiles=(x,)), st.sampled_from(["magic", "gate", "appear"]), tiles),
        st.sampled_from(["brew", "deploy", "retrieve", "fury", "trace"]).map(Skill),
        tiles.map(lambda x: Skill("deploy", tiles=(x,))),
        st.lists(tiles, min_size=2, max_size=2).map(lambda ts: Skill("infiltrate", tiles=tuple(ts))),
        directions.map(lambda d: Skill("dash", direction=d)),
        st.builds(lambda n, w: Skill("hand", amount=n, what=w), st.integers(1, 9999), st.sampled_from(["mp", "ap"])),
    )


def _uses() -> st.SearchStrategy[UseItem]:
    return st.one_of(
        st.builds(UseItem, st.sampled_from(["revolver", "wings", "bottle", "doorkey"]), tiles),
        st.sampled_from(["map", "stimulant", "adrenaline", "jammer", "dagger"]).map(UseItem),
        aliases.map(lambda a: UseItem("adrenaline", whom=a)),
    )


plain_steps = st.one_of(
    st.builds(Move, tiles), st.builds(Cross, tiles), st.builds(Vault, tiles), st.builds(Force, tiles),
    st.builds(Search, st.none() | items | st.just("key")),
    st.just(Crack()), st.just(Escape()), st.just(Gaze()), st.just(Listen()),
    st.builds(Heal, aliases, st.sampled_from([None, "downed", "fear"])),
    st.builds(Dismantle, st.none() | tiles),
    st.builds(Attack, st.none() | directions, st.none() | tiles),
    st.builds(Block, tiles, st.none() | tiles),
    _uses(), st.builds(Drop, items), _skills(),
)
night_steps = st.one_of(plain_steps, plain_steps.map(RobotStep))
day_steps = st.one_of(st.builds(Give, aliases, items | st.just("key")), st.builds(Pray, items))
orders = st.builds(
    lambda s, d: Order(tuple(s), tuple(d)), st.lists(night_steps, max_size=7), st.lists(day_steps, max_size=3)
)


@settings(max_examples=400, deadline=None)
@given(orders, st.sampled_from(["zh", "en"]))
def test_round_trip(order: Order, lang: str) -> None:
    assert parse_order(format_order(order, lang)) == order


@settings(max_examples=200, deadline=None)
@given(night_steps | day_steps, st.sampled_from(["zh", "en"]))
def test_single_step_round_trip(step: object, lang: str) -> None:
    parsed = parse_order(format_step(step, lang))  # type: ignore[arg-type]
    assert (parsed.day or parsed.steps) == (step,)


WORDS = sorted({
    *vocab.STEP_WORDS, *vocab.SKILL_WORDS, *vocab.ITEM_WORDS, *vocab.PREFIX_WORDS, *vocab.NOTHING_WORDS,
    *vocab.DIRECTION_WORDS, *vocab.HEAL_MODE_WORDS, *vocab.POINT_WORDS, *vocab.KEY_WORDS, *vocab.REMOVE_WORDS,
    "B2", "c3", "AA10", "B2B3", "1", "２", "小明", "-", "→", ">", ":", "：", "；", "，", "、", "。", "\n", " ",
})
fuzz_text = st.one_of(
    st.text(),
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=2)), max_size=12).map("".join),
    st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join),
)


@settings(max_examples=600, deadline=None)
@given(fuzz_text)
def test_fuzz_only_order_errors(text: str) -> None:
    order, errors = parse_order_all(text)  # never raises
    assert all(isinstance(e, OrderSyntaxError) for e in errors)
    try:
        strict = parse_order(text)
    except (OrderSyntaxError, AmbiguousOrderError) as e:
        assert errors and e is not None
        for lang in ("zh", "en"):
            assert e.message(lang)
    else:
        assert not errors and strict == order
        # whatever was read can be written back and reads the same
        for lang in ("zh", "en"):
            assert parse_order(format_order(order, lang)) == order


# --- the documentation's examples ----------------------------------------------------

DOC = Path(__file__).resolve().parent.parent / "docs" / "order-language.md"


def _doc_blocks(kind: str) -> list[str]:
    lines, inside = [], False
    for line in DOC.read_text("utf-8").splitlines():
        if line.strip() == f"```{kind}":
            inside = True
        elif line.strip() == "```":
            inside = False
        elif inside:
            lines.append(line)
    return lines


def test_doc_has_many_examples() -> None:
    assert len(_doc_blocks("order")) >= 100
    assert len(_doc_blocks("order-error")) >= 15


@pytest.mark.parametrize("line", _doc_blocks("order"))
def test_doc_examples_parse(line: str) -> None:
    order = parse_order(line)
    assert order.steps or order.day
    for lang in ("zh", "en"):
        assert parse_order(format_order(order, lang)) == order


@pytest.mark.parametrize("line", _doc_blocks("order-error"))
def test_doc_error_examples_fail(line: str) -> None:
    order, errors = parse_order_all(line)
    assert errors
    with pytest.raises(OrderSyntaxError):
        parse_order(line)


# --- each written step's own text (RUL-60, RUL-63) ---------------------------------------------------


@pytest.mark.parametrize(("text", "texts", "written"), [
    ("移动 D3，D4，D5，D6", ("移动 D3，D4，D5，D6",), (1, 1, 1, 1)),
    ("move F5, F6; crack; search", ("move F5, F6", "crack", "search"), (1, 1, 2, 3)),
    ("冲刺 C1，D1，E1，E2；搜索", ("冲刺 C1，D1，E1，E2", "搜索"), (1, 2)),
    ("  1. 移动 B2 ，B3\n2、搜索 ", ("移动 B2 ，B3", "搜索"), (1, 1, 2)),
    ("救治 “Ann”；破解", ("救治 “Ann”", "破解"), (1, 2)),
    ("强行 C4，C5", ("强行 C4", "C5"), (1, 2)),  # a step of one tile: the tile after it is a move of its own
    ("门之钥 C4，C5", ("门之钥 C4", "C5"), (1, 2)),
])
def test_step_texts_as_written(text: str, texts: tuple[str, ...], written: tuple[int, ...]) -> None:
    """A step is quoted with the player's own characters (full-width commas, quotes), without the spaces
    around it or the step number in front of it; the numbering is unchanged."""
    parsed = parse_order_numbered(text)
    assert (parsed.texts, parsed.written, parsed.errors) == (texts, written, [])
