"""Hints in order errors: near misses of the language's words ("did you mean") and the writer's camp.

English words are compared with ``difflib`` (``serach`` → ``search``). Chinese keywords are two to
five characters, where one edit is a large part of the word, so a near miss is: one wrong
character (a homophone typo like 搜素 for 搜索), two neighbours swapped (索搜), or, in a word of
three characters or more, one character missing or doubled (逻推理, 逻辑辑推理). A word glued to its
argument (搜素钥匙) is compared by its head. The words offered are those of the writer's camp when
it is known, so a hunter is never pointed to a survivor's action.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sheetgm.core.steps import HUNTER_ROLES, SKILLS, SURVIVOR_ROLES
from sheetgm.core.texts import LANGS, render
from sheetgm.notation.vocab import (
    DIRECTION_WORDS,
    HEAL_MODE_WORDS,
    ITEM_WORDS,
    KEY_WORDS,
    NOTHING_WORDS,
    POINT_WORDS,
    PREFIX_WORDS,
    SKILL_WORDS,
    STEP_WORDS,
    normalize_word,
)

MAX_SUGGESTIONS = 3
CAMPS = ("survivor", "hunter")

# The words an argument may be, by the id of what was expected.
ARG_WORDS: dict[str, tuple[str, ...]] = {
    "item": tuple(ITEM_WORDS),
    "item_or_key": (*ITEM_WORDS, *sorted(KEY_WORDS)),
    "skill": tuple(SKILL_WORDS),
    "direction": tuple(DIRECTION_WORDS),
    "direction_or_tile": tuple(DIRECTION_WORDS),
    "mode": tuple(HEAL_MODE_WORDS),
    "amount_points": tuple(POINT_WORDS),
}

# Step kinds and prefixes each camp may write; the others are both camps'.
_SURVIVOR_KINDS = frozenset({"search", "crack", "heal", "dismantle", "escape", "use", "drop", "give", "pray",
                             "robot", "item"})
_HUNTER_KINDS = frozenset({"attack", "block", "gaze", "listen", "force"})


def camp_of_word(word: str) -> str | None:
    """``"survivor"`` or ``"hunter"`` when only that camp can start a step with ``word`` (normalized), else None."""
    kind = STEP_WORDS.get(word) or PREFIX_WORDS.get(word)
    if kind in _SURVIVOR_KINDS or word in ITEM_WORDS:
        return "survivor"
    if kind in _HUNTER_KINDS:
        return "hunter"
    skill = SKILL_WORDS.get(word)
    if skill is not None:
        role = SKILLS[skill][0]
        return "survivor" if role in SURVIVOR_ROLES else "hunter" if role in HUNTER_ROLES else None
    return None


def head_words(camp: str | None = None) -> list[str]:
    """Every word that can start a step, for ``camp`` (None: both camps), in a fixed order."""
    words = [*STEP_WORDS, *PREFIX_WORDS, *SKILL_WORDS, *ITEM_WORDS, *sorted(NOTHING_WORDS)]
    other = {"survivor": "hunter", "hunter": "survivor"}.get(camp or "")
    return list(dict.fromkeys(w for w in words if other is None or camp_of_word(w) != other))


def near_words(word: str, vocabulary: Iterable[str]) -> list[str]:
    """The words of ``vocabulary`` that ``word`` nearly is (at most three, best first)."""
    typed = normalize_word(word)
    vocab = [w for w in vocabulary if w != typed]
    if not typed:
        return []
    if typed.isascii():
        latin = [w for w in vocab if w.isascii() and len(w) > 1]
        import difflib  # only for an English word no vocabulary knows (~1 ms of every command otherwise)

        return difflib.get_close_matches(typed, latin, n=MAX_SUGGESTIONS, cutoff=0.75)
    chinese = [w for w in vocab if not w.isascii()]
    found = [w for w in chinese if one_edit(typed, w)]
    if not found:  # glued to what follows: 搜素钥匙
        found = [w for w in chinese if len(typed) > len(w) >= 2 and one_edit(typed[: len(w)], w, same_length=True)]
    return found[:MAX_SUGGESTIONS]


def one_edit(typed: str, word: str, *, same_length: bool = False) -> bool:
    """One wrong character, one swapped pair, or (words of 3+ characters) one character missing or extra."""
    if typed == word or len(word) < 2:
        return False
    if len(typed) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and typed[i] == word[i + 1] and typed[i + 1] == word[i]
    if same_length or len(word) < 3 or abs(len(typed) - len(word)) != 1:
        return False
    short, long = (typed, word) if len(typed) < len(word) else (word, typed)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def other_camp(head: str, camp: str | None) -> str | None:
    """The other camp, when a step of ``camp`` starts with a word (``head``) only that camp may use."""
    theirs = camp_of_word(normalize_word(head))
    return theirs if camp in CAMPS and theirs is not None and theirs != camp else None


def camp_names(camp: str) -> dict[str, str]:
    return {f"camp_{lang}": render(lang, f"order.camp.{camp}") for lang in LANGS}


def advice(code: str, params: Mapping[str, Any], camp: str | None) -> dict[str, str]:
    """"Did you mean" for an unknown word or a wrong argument, and for an unknown word examples of the
    writer's camp, in every language (parameters of the error's message)."""
    if code not in ("err.order.unknown_word", "err.order.bad_arg"):
        return {}
    heads = head_words(camp)
    if code == "err.order.unknown_word":
        vocabulary: Iterable[str] = heads
    else:
        vocabulary = [w for w in ARG_WORDS.get(str(params.get("expected", "")), ())
                      if params.get("expected") != "skill" or w in heads]
    near = near_words(str(params.get("word", "")), vocabulary)
    out: dict[str, str] = {}
    for lang in LANGS:
        quoted = render(lang, "order.word_sep").join(render(lang, "order.quoted", word=w) for w in near)
        out[f"did_you_mean_{lang}"] = render(lang, "order.did_you_mean", words=quoted) if near else ""
        if code == "err.order.unknown_word":
            out[f"examples_{lang}"] = render(lang, f"order.examples.{camp if camp in CAMPS else 'any'}")
    return out
