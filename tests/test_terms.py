"""Player- and director-facing Chinese uses the seed's own terms (issue 9, item 15).

The original rules say 破解, 挡板, 平坦地形, 障碍物, 逃生, 马甲, 昏暗地形, 高墙, 秘密通道 and 导演; an older
or looser word (破译进度, 木板, 平地, 障碍, 逃脱, 代号, 黑暗, 墙, 通道) must not come back into the templates, the
ready maps' comments, the guides or the README. Text inside backticks is exempt: that is where the docs show the
words a player may type (the parser still understands 破译, 障碍 and 墙 as input).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "docs" / "original-rules.zh.txt"  # the seed, as the repository keeps it

# (a non-seed spelling, the seed's term)
NOT_SEED: list[tuple[str, str]] = [
    (r"破译", "破解"),
    (r"木板|板子", "挡板"),
    (r"平地|平坦(?!地形)", "平坦地形"),
    (r"障碍(?!物)", "障碍物"),
    (r"逃脱|逃跑", "逃生"),
    (r"昵称|代号|化名", "马甲"),
    (r"黑暗|暗处|昏暗(?!地形)", "昏暗地形"),
    (r"(?<!高)墙", "高墙"),
    (r"(?<!秘密)通道|地道|密道", "秘密通道"),
    (r"法官|主持人|裁判", "导演"),
]


def _files() -> list[Path]:
    texts = sorted((ROOT / "sheet_templates" / "texts" / "zh").glob("*.toml"))
    maps = sorted((ROOT / "sheet_templates" / "maps").glob("*.map"))
    docs = sorted((ROOT / "docs").glob("*.md"))
    return [*texts, *maps, *docs, ROOT / "README.md"]


def _prose(path: Path) -> list[tuple[int, str]]:
    """Lines that a reader sees as words: code blocks, code spans and a map's grid are left out."""
    out: list[tuple[int, str]] = []
    fence = False
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence or (path.suffix == ".map" and not line.startswith("#") and ":" not in line):
            continue
        out.append((n, re.sub(r"`[^`]*`", "", line)))
    return out


def test_the_seed_uses_these_terms() -> None:
    seed = SEED.read_text("utf-8")
    for _pattern, term in NOT_SEED:
        assert term in seed


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_non_seed_term(path: Path) -> None:
    found = [
        f"{path.name}:{n}: {m.group()} (the seed says {term}): {line.strip()[:80]}"
        for n, line in _prose(path)
        for pattern, term in NOT_SEED
        for m in re.finditer(pattern, line)
    ]
    assert not found, "\n".join(found)


def test_the_check_would_catch_an_old_term(tmp_path: Path) -> None:
    old = tmp_path / "render.toml"
    old.write_text('progress = "破译进度 {p}"\nboard = "木板"\nok = "`破译` is read as 破解"\n', "utf-8")
    lines = [line for _n, line in _prose(old)]
    hits = [m.group() for line in lines for pattern, _t in NOT_SEED for m in re.finditer(pattern, line)]
    assert hits == ["破译", "木板"]


def test_the_repositorys_copy_is_the_seed() -> None:
    """The copy the tests read is the original text, byte for byte, where the project's shared folder is at hand."""
    original = ROOT.parent / "shared" / "seed" / "000_44a3137ecc3cb6d0.txt"
    if not original.is_file():
        pytest.skip(f"the seed is not at {original}")
    assert SEED.read_bytes() == original.read_bytes()
