"""Every order the guides and the in-sheet help show can be written as shown (issue 9, item 15).

The examples are found, not listed: each line of an ```order block of the guides, each code span
in their prose that starts with an order word, and each quoted example in the templates. A guide
can thus never again show an order the parser refuses. Three kinds of span are not orders and are
told apart: a single word (a mention, which must still be a word of the language), a template
with placeholders (``救治 马甲 [倒地|恐惧]``, ``hand N mp|ap``) and an error example (its line
shows the error with →). The examples the templates give one camp must parse for that camp.
"""

# covers: R-ORDER-3

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sheetgm.core.board import parse_tile
from sheetgm.core.texts import LANGS, render, table
from sheetgm.notation.hints import head_words
from sheetgm.notation.orders import parse_order, parse_order_all
from sheetgm.notation.vocab import (
    DIRECTION_WORDS,
    HEAL_MODE_WORDS,
    KEY_WORDS,
    POINT_WORDS,
    REMOVE_WORDS,
    normalize_word,
)

ROOT = Path(__file__).resolve().parent.parent
GUIDES = [ROOT / "docs" / "order-language.md", ROOT / "docs" / "player-guide.md"]

HEADS = {normalize_word(w) for w in head_words()}
WORDS = HEADS | set(DIRECTION_WORDS) | set(HEAL_MODE_WORDS) | set(KEY_WORDS) | set(POINT_WORDS) | set(REMOVE_WORDS)
# A placeholder in a template: brackets, alternatives, a capitalised argument name, a Chinese argument name.
PLACEHOLDER = re.compile(r"[\[\]|{}…]|\b(?:TILE|ALIAS|N)\b|(?:^|\s)(?:地块|马甲)(?:\s|$)")


def _head(span: str) -> str:
    first = re.split(r"[\s:：;；]", span.strip(), maxsplit=1)[0]
    return normalize_word(first)


def _starts_an_order(span: str) -> bool:
    head = _head(span)
    glued = any(head.startswith(w) for w in HEADS if not w.isascii())
    return head in HEADS or glued or parse_tile(head.upper()) is not None


def block_lines(path: Path, kind: str = "order") -> list[str]:
    blocks = re.findall(rf"```{kind}\n(.*?)```", path.read_text("utf-8"), re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def prose_spans(path: Path) -> list[tuple[str, str]]:
    """(span, its line) for each code span outside code blocks."""
    text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.S)
    return [(span, line) for line in text.splitlines() for span in re.findall(r"`([^`\n]+)`", line)]


def template_quotes() -> list[tuple[str, str, str]]:
    """(quoted text, key, the template) for each 「…」 or "…" quote in the templates of both languages (map file
    errors aside)."""
    return [(q, f"{lang}:{key}", value) for lang in LANGS for key, value in table(lang).items()
            if not key.startswith("err.map.")
            for pair in re.findall(r"「([^」]+)」|\"([^\"]+)\"", value) for q in pair if q]


def is_order_example(span: str, line: str = "") -> bool:
    """A span that starts with an order word and is neither a template nor an error example."""
    return _starts_an_order(span) and not PLACEHOLDER.search(span) and "→" not in line


def _mention(span: str) -> bool:
    """A single word of the language shown as a word (``冲刺``, ``robot:``), not as an order."""
    return normalize_word(span.strip().rstrip(":：")) in WORDS


def examples() -> list[tuple[str, str]]:
    """(example order, where it is shown)."""
    out = [(line, f"{p.name} block") for p in GUIDES for line in block_lines(p)]
    out += [(span, f"{p.name}: {line.strip()[:60]}") for p in GUIDES for span, line in prose_spans(p)
            if is_order_example(span, line) and not _mention(span)]
    out += [(q, where) for q, where, value in template_quotes() if is_order_example(q, value) and not _mention(q)]
    return out


def test_examples_are_found_everywhere() -> None:
    found = examples()
    where = {w.split(":")[0].split(" ")[0] for _, w in found}
    assert {"order-language.md", "player-guide.md"} <= where
    assert any(w.startswith("zh:") for _, w in found) and any(w.startswith("en:") for _, w in found)
    assert len(found) > 200
    assert {"移动 B2", "移动B2B3", "左轮手枪C4", "机器人：移动 B3", "move B3"} <= {s for s, _ in found}


@pytest.mark.parametrize(("example", "where"), examples())
def test_every_example_parses(example: str, where: str) -> None:
    order, errors = parse_order_all(example)
    assert not errors, f"{where}: {errors[0].message('en')}"
    assert order.steps or order.day or normalize_word(example) in ("无", "none", "pass", "nothing", "不行动", "无行动")


@pytest.mark.parametrize("camp", ["survivor", "hunter"])
def test_a_camps_examples_are_that_camps(camp: str) -> None:
    for lang in LANGS:
        for key in (f"order.examples.{camp}", f"sheet.note.order_text_{camp}"):
            quotes = re.findall(r"「([^」]+)」|\"([^\"]+)\"", render(lang, key))
            shown = [q for pair in quotes for q in pair if q and _starts_an_order(q)]
            assert shown, key
            for q in shown:
                parse_order(q, camp=camp)


def test_the_finder_sees_every_kind_of_span(tmp_path: Path) -> None:
    guide = tmp_path / "guide.md"
    guide.write_text("写 `强行越过 C4`，或 `移动 到 B2`；模板 `救治 马甲 [倒地|恐惧]`；单词 `冲刺`\n"
                     "错误 `飞 B2` → 不认识\n", "utf-8")
    spans = [s for s, line in prose_spans(guide) if is_order_example(s, line)]
    assert spans == ["强行越过 C4", "移动 到 B2", "冲刺"]
    assert [s for s in spans if not _mention(s)] == ["强行越过 C4", "移动 到 B2"]
    assert not is_order_example("搜素 钥匙")  # a misspelt keyword is no order word: the parser says so
    assert parse_order_all("搜素 钥匙")[1]
