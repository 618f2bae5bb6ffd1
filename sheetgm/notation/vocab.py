"""Names of items, skills, roles and directions in Chinese and English.

Two kinds of names live here: *display* names (``item_name`` and friends,
mirrored in ``sheet_templates/texts/<lang>/orders.toml`` for templates) and
the *words* players may type, which the order parser looks up. Words are
matched after ``normalize_word`` (NFKC, case-folded), so ``Ｍａｐ`` and ``MAP``
both read as ``map``.
"""

from __future__ import annotations

import re
import unicodedata

LANGS = ("zh", "en")

ITEM_NAMES: dict[str, tuple[str, str]] = {
    "map": ("地图", "Map"),
    "revolver": ("左轮手枪", "Revolver"),
    "wings": ("弹簧机翼", "Spring Wings"),
    "stimulant": ("兴奋剂", "Stimulant"),
    "adrenaline": ("肾上腺素", "Adrenaline"),
    "bottle": ("啤酒瓶", "Beer Bottle"),
    "doorkey": ("门之钥", "Door Key"),
    "jammer": ("干扰器", "Jammer"),
    "dagger": ("银制匕首", "Silver Dagger"),
}

SKILL_NAMES: dict[str, tuple[str, str]] = {
    "sprint": ("冲刺", "Sprint"),
    "brew": ("配置药剂", "Brew"),
    "magic": ("魔术道具", "Magic Prop"),
    "gate": ("门之钥", "Door Key"),
    "deploy": ("放置机器人", "Deploy Robot"),
    "retrieve": ("回收机器人", "Retrieve Robot"),
    "hand": ("交付", "Hand Over"),
    "fury": ("怒火", "Fury"),
    "dash": ("华丽出场", "Grand Entrance"),
    "trap": ("陷阱", "Trap"),
    "appear": ("亮相", "Appear"),
    "deduce": ("逻辑推理", "Deduction"),
    "trace": ("痕迹检定", "Trace"),
    "infiltrate": ("潜入者", "Infiltrator"),
}

ROLE_NAMES: dict[str, tuple[str, str]] = {
    "lucky": ("幸运儿", "Lucky Guy"),
    "athlete": ("运动员", "Athlete"),
    "doctor": ("医生", "Doctor"),
    "magician": ("魔术师", "Magician"),
    "priestess": ("祭司", "Priestess"),
    "mercenary": ("佣兵", "Mercenary"),
    "gardener": ("园丁", "Gardener"),
    "lawyer": ("律师", "Lawyer"),
    "mechanic": ("机械师", "Mechanic"),
    "ember": ("厂长", "Hell Ember"),
    "clown": ("小丑", "Clown"),
    "bane": ("鹿头", "Bane"),
    "ripper": ("开膛手", "Ripper"),
    "assassin": ("刺客大师", "Master Assassin"),
    "werewolf": ("狼人", "Werewolf"),
}

DIRECTION_NAMES: dict[str, tuple[str, str]] = {
    "N": ("北", "north"),
    "NE": ("东北", "northeast"),
    "E": ("东", "east"),
    "SE": ("东南", "southeast"),
    "S": ("南", "south"),
    "SW": ("西南", "southwest"),
    "W": ("西", "west"),
    "NW": ("西北", "northwest"),
}

# --- words players type (keys already normalized) -----------------------------

ITEM_WORDS: dict[str, str] = {
    "地图": "map", "map": "map",
    "左轮手枪": "revolver", "左轮": "revolver", "手枪": "revolver", "revolver": "revolver", "gun": "revolver",
    "弹簧机翼": "wings", "机翼": "wings", "wings": "wings", "wing": "wings",
    "兴奋剂": "stimulant", "stimulant": "stimulant",
    "肾上腺素": "adrenaline", "adrenaline": "adrenaline",
    "啤酒瓶": "bottle", "酒瓶": "bottle", "bottle": "bottle",
    "门之钥": "doorkey", "doorkey": "doorkey",
    "干扰器": "jammer", "jammer": "jammer",
    "银制匕首": "dagger", "匕首": "dagger", "dagger": "dagger",
}
KEY_WORDS = frozenset({"钥匙", "key", "keys"})

SKILL_WORDS: dict[str, str] = {
    "sprint": "sprint", "冲刺": "sprint",
    "brew": "brew", "配置药剂": "brew", "配药": "brew",
    "magic": "magic", "魔术道具": "magic",
    "gate": "gate",
    "deploy": "deploy", "放置机器人": "deploy", "部署机器人": "deploy", "放置机械小玩意": "deploy",
    "retrieve": "retrieve", "回收机器人": "retrieve", "回收机械小玩意": "retrieve",
    "hand": "hand", "交付": "hand", "机器操纵": "hand",  # 机器操纵: the seed's name of the skill
    "fury": "fury", "怒火": "fury",
    "dash": "dash", "华丽出场": "dash",
    "trap": "trap", "陷阱": "trap",
    "appear": "appear", "亮相": "appear",
    "deduce": "deduce", "逻辑推理": "deduce",
    "机械小玩意": "deploy",  # after 技能 / 使用; alone it is the robot prefix
    "trace": "trace", "痕迹检定": "trace",
    "infiltrate": "infiltrate", "infiltrator": "infiltrate", "潜入者": "infiltrate",
}

# Step keywords other than skills and items; the value is the step kind.
STEP_WORDS: dict[str, str] = {
    "move": "move", "移动": "move", "移动到": "move", "移动至": "move", "走": "move", "前往": "move", "go": "move",
    "cross": "cross", "越过": "cross", "强行越过": "cross", "强行通过": "cross",
    "search": "search", "搜索": "search",
    "crack": "crack", "破解": "crack", "修机": "crack", "破译": "crack",
    "vault": "vault", "翻越": "vault",
    "heal": "heal", "救治": "heal",
    "dismantle": "dismantle", "拆除": "dismantle",
    "escape": "escape", "逃生": "escape", "逃离": "escape", "逃脱": "escape",
    "attack": "attack", "攻击": "attack", "链爪": "attack", "雾刃": "attack",
    "block": "block", "封堵": "block",
    "gaze": "gaze", "远眺": "gaze",
    "listen": "listen", "聆听": "listen",
    "force": "force", "强行": "force",
    "use": "use", "使用": "use",
    "drop": "drop", "丢弃": "drop",
    "give": "give", "给予": "give",
    "pray": "pray", "祈祷": "pray", "幸运": "pray",  # 幸运: the seed's name of the Lucky Guy's skill
}
# Words after a move keyword that only say where to: "move to B2", "移动 到 B2".
TO_WORDS = frozenset({"to", "到", "至"})
# Words that change how the rest of the step is read.
PREFIX_WORDS: dict[str, str] = {
    "robot": "robot", "机器人": "robot", "机械小玩意": "robot",  # 机械小玩意: the seed's name of the robot
    "skill": "skill", "技能": "skill",
    "item": "item", "道具": "item",
}
NOTHING_WORDS = frozenset({"无", "不行动", "无行动", "none", "pass", "nothing"})

DIRECTION_WORDS: dict[str, str] = {
    "n": "N", "north": "N", "北": "N", "上": "N",
    "e": "E", "east": "E", "东": "E", "右": "E",
    "s": "S", "south": "S", "南": "S", "下": "S",
    "w": "W", "west": "W", "西": "W", "左": "W",
}
HEAL_MODE_WORDS: dict[str, str] = {"downed": "downed", "倒地": "downed", "fear": "fear", "恐惧": "fear"}
POINT_WORDS: dict[str, str] = {
    "mp": "mp", "移动力": "mp", "移动点": "mp",
    "ap": "ap", "行动力": "ap", "行动点": "ap",
}
REMOVE_WORDS = frozenset({"remove", "取消", "移除"})
NUMBER_WORDS: dict[str, int] = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}



# Traditional characters of the words above, read as their simplified forms (移動 = 移动, 攻擊 = 攻击).
# Character for character, so a glued word keeps its length.
TRADITIONAL = str.maketrans(
    "東丟兩麗兒興衝擊製劑動醫華廠聽員園圖場頭奮師開棄彈強懼擾術機槍檢點給禱腎藥輪輯過運遠跡蹟邏鑰銀長門無"
    "縱離譯脫鏈霧傭醜",
    "东丢两丽儿兴冲击制剂动医华厂听员园图场头奋师开弃弹强惧扰术机枪检点给祷肾药轮辑过运远迹迹逻钥银长门无"
    "纵离译脱链雾佣丑",
)


def simplified(text: str) -> str:
    """``text`` with the vocabulary's traditional characters in their simplified forms (same length)."""
    return text.translate(TRADITIONAL)


# What autocorrect (Word, WPS, Excel, phones) puts for what a player typed: dashes for the hyphen of "B2-B3" and
# "->", curly single quotes for the apostrophe; double and Chinese quotes around an alias are not part of it.
_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"}
                        | {"\u2018": "'", "\u2019": "'", "\u201b": "'", "\u2032": "'"})
_QUOTES = re.compile("[\"\u201c\u201d\u201e\u201f\u00ab\u00bb\u2039\u203a\u300c\u300d\u300e\u300f\u301d\u301e\uff02]")
_EDGE_APOSTROPHE = re.compile(r"(?<![^\s;,、。:>])'|'(?![^\s;,、。:>])")


def plain_text(text: str) -> str:
    """An order's text as the player meant it: NFKC, autocorrected dashes and quotes made plain (en and em
    dashes → ``-``, curly apostrophes → ``'``), quotes around words dropped (``救治 “Ann”`` → ``救治 Ann``).
    An apostrophe inside a word stays (an alias may hold one; it may not start or end one)."""
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return _EDGE_APOSTROPHE.sub("", _QUOTES.sub("", text))


def normalize_word(word: str) -> str:
    """The form a typed word is looked up by: NFKC, case-folded, simplified, trimmed."""
    return simplified(unicodedata.normalize("NFKC", word).translate(_DASHES)).casefold().strip()


ROLE_WORDS: dict[str, str] = {
    normalize_word(word): role
    for role, (zh, en) in ROLE_NAMES.items()
    for word in (role, zh, en, en.replace(" ", ""))
}
ROLE_WORDS["刺客"] = "assassin"


def _pick(table: dict[str, tuple[str, str]], key: str, lang: str, what: str) -> str:
    try:
        names = table[key]
    except KeyError:
        raise ValueError(f"unknown {what} id: {key!r}") from None
    return names[1] if lang == "en" else names[0]


def item_name(item_id: str, lang: str = "zh") -> str:
    """Display name of an item (``"key"`` is accepted too: 钥匙 / key)."""
    if item_id == "key":
        return "key" if lang == "en" else "钥匙"
    return _pick(ITEM_NAMES, item_id, lang, "item")


def skill_name(skill_id: str, lang: str = "zh") -> str:
    return _pick(SKILL_NAMES, skill_id, lang, "skill")


def role_name(role_id: str, lang: str = "zh") -> str:
    return _pick(ROLE_NAMES, role_id, lang, "role")


def direction_name(direction: str, lang: str = "zh") -> str:
    """Display name of one of the 8 compass points (``"N"``, ``"NE"``, …)."""
    return _pick(DIRECTION_NAMES, direction, lang, "direction")


def parse_item(word: str) -> str | None:
    """Item id for a typed item name (zh or en, any case), or None."""
    return ITEM_WORDS.get(normalize_word(word))


def parse_role(word: str) -> str | None:
    """Role id for a typed role name (zh, en, or the id), or None."""
    return ROLE_WORDS.get(normalize_word(word))


def parse_direction(word: str) -> str | None:
    """``"N"``/``"E"``/``"S"``/``"W"`` for a typed direction word, or None."""
    return DIRECTION_WORDS.get(normalize_word(word))


def parse_skill(word: str) -> str | None:
    """Skill id for a typed skill keyword; 门之钥 alone is the item, so it is not here."""
    return SKILL_WORDS.get(normalize_word(word))


def same_alias(a: str, b: str) -> bool:
    """Aliases are compared case-insensitively (and full-width tolerant)."""
    return normalize_word(a) == normalize_word(b)

