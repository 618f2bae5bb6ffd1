"""A ten-player local game over three nights, played through the command line as a new director plays it
(issue 16): six players write Chinese, four English, the director reads Chinese.

Bots type the players' orders into their own workbooks (one writes a misspelt word first and fixes it, one
writes late in the last hour); the director runs `check` before each deadline, `resolve` after it, `status`,
`publish` (the posts to files), `map`, and on night 2 rolls the hunters' stage back and runs the command it
prints. Everything a person reads is collected with its reader's language: the director's command output,
each player's whole workbook (cells, notes, dropdowns), every language's tabs of the public workbook and
every post. ``count`` then finds raw template keys, English inside a Chinese text and Chinese inside an
English one (the goal is 0 of each): `tests/service/test_day_words.py` asserts it, `benchmarks/day_words.py`
prints it and draws the public workbook through LibreOffice.
"""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from typer.testing import CliRunner

from sheetgm.backends.port import SetValues
from sheetgm.cli import common as cli_common
from sheetgm.cli.app import app
from sheetgm.core.texts import table
from sheetgm.service import demo
from sheetgm.service.game import PUBLIC, Game, open_game, player_key
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row

ZH = ["小明", "阿杰", "小红", "老王", "菲菲", "大刘"]
EN = ["Ann", "Bo", "Cy", "Dee"]
ZONE = "Asia/Shanghai"
START = "2026-12-04"  # night 1's survivor deadline falls on this day at 21:00
GAME = "winter-cup"
DRAFT = f"""name = "{GAME}"
map = "standard"
seed = 20261204
lang = "zh"
backend = "xlsx"
timezone = "{ZONE}"
max_nights = 3

[schedule]
survivors = "21:00"
hunters = "23:00"
start = "{START}"
""" + "".join(f'\n[[roster]]\nalias = "{a}"\nlang = "{"zh" if a in ZH else "en"}"\n' for a in
              [ZH[0], EN[0], ZH[1], ZH[2], EN[1], ZH[3], EN[2], ZH[4], EN[3], ZH[5]])
runner = CliRunner()


@dataclass(frozen=True)
class Seen:
    """One text a person reads: who (the director, an alias, or "everyone"), in which language, where."""

    reader: str
    lang: str
    where: str
    text: str


@dataclass
class Transcript:
    folder: Path
    seen: list[Seen] = field(default_factory=list)
    commands: list[tuple[str, str]] = field(default_factory=list)  # (command line, output) as the director saw it


class Clock:
    def __init__(self, at: datetime) -> None:
        self.now = at

    def __call__(self) -> datetime:
        return self.now


@contextmanager
def _clocked(clock: Clock) -> Iterator[None]:
    """Every command opens the game on the test clock (the real one would be days before the deadlines)."""
    with mock.patch.object(cli_common, "open_at", lambda path: open_game(path, clock=clock)):
        yield


def _run(t: Transcript, *args: str) -> str:
    result = runner.invoke(app, [*args, "--game", str(t.folder)], env={"COLUMNS": "120"})
    out = result.stdout + (result.stderr if result.stderr_bytes else "")
    assert result.exit_code == 0, f"sheetgm {' '.join(args)}: {result.output}"
    t.commands.append(("sheetgm " + " ".join(args), out))
    t.seen.append(Seen("director", "zh", "sheetgm " + args[0], out))
    return out


def _game(t: Transcript, clock: Clock) -> Game:
    return open_game(t.folder, clock=clock)


def _deadline(night: int, camp: str) -> datetime:
    from zoneinfo import ZoneInfo

    day = datetime.fromisoformat(START) + timedelta(days=night - 1)
    return day.replace(hour=21 if camp == "survivor" else 23, tzinfo=ZoneInfo(ZONE)).astimezone(UTC)


def _type(game: Game, seat: int, text: str) -> None:
    """A player types ``text`` into tonight's order cell and ticks it."""
    state = latest(read_director(game)[0]).state(game.board)
    orders = layout.tab(game.seat_lang(seat), "orders")
    r = order_row(state.night)
    game.gateway.write(player_key(seat), [SetValues(layout.rng(orders, f"B{r}:C{r}"), ((text, "✓"),))])


def _stage(t: Transcript, clock: Clock, night: int, camp: str, rng: random.Random, keep: Path | None = None
           ) -> None:
    deadline = _deadline(night, camp)
    clock.now = deadline - timedelta(hours=2)
    game = _game(t, clock)
    state = latest(read_director(game)[0]).state(game.board)
    due = [s for s in game.seats if state.players[s].camp == camp and state.players[s].in_play]
    late = due[-1]  # writes in the last hour
    for seat in due[:-1]:
        if seat == due[0] and night == 1:
            _type(game, seat, "移功 B2" if game.seat_lang(seat) == "zh" else "mvoe B2")  # a typo first
        else:
            demo.submit(game, state, seat, rng)
    _run(t, "check")
    if night == 1:
        demo.submit(game, state, due[0], rng)  # the typo fixed
    clock.now = deadline - timedelta(minutes=40)
    demo.submit(game, state, late, rng)
    clock.now = deadline - timedelta(minutes=8)
    _run(t, "check")
    if keep is not None and night == 3 and camp == "survivor":  # the public workbook with a reminder line
        shutil.copyfile(game.gateway.path(PUBLIC), keep)  # type: ignore[attr-defined]
    if night == 3:  # a player changes the order after the deadline; the director checks once more
        clock.now = deadline + timedelta(minutes=2)
        _type(game, due[0], "无" if game.seat_lang(due[0]) == "zh" else "pass")
        clock.now = deadline + timedelta(minutes=5)
        _run(t, "check")
    clock.now = deadline + timedelta(minutes=7)
    _run(t, "resolve")
    _run(t, "status")
    _run(t, "publish", "--out", str(t.folder / "posts" / f"N{night}-{camp}.txt"))


def play(folder: Path, seed: int = 1, keep: Path | None = None) -> Transcript:
    """The whole game: every night's two stages, a rollback of night 2's hunters, the maps and the posts
    (``keep``: a copy of the public workbook as it is just before night 3's survivor deadline)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.toml").write_text(DRAFT, "utf-8")
    (folder / "posts").mkdir(exist_ok=True)
    t = Transcript(folder)
    _run(t, "new")
    clock = Clock(_deadline(1, "survivor") - timedelta(hours=3))
    rng = random.Random(seed)
    with _clocked(clock):
        _run(t, "status")
        for night in (1, 2, 3):
            for camp in ("survivor", "hunter"):
                if latest(read_director(_game(t, clock))[0]).state(_game(t, clock).board).over():
                    break
                _stage(t, clock, night, camp, rng, keep)
            if night == 2:
                said = _run(t, "rollback", "N2-hunter", "--reason", "导演误读了一条指令", "--yes")
                command = next(ln.split() for ln in said.splitlines() if ln.strip().startswith("sheetgm resolve"))
                args = command[1:]  # as printed, but --game: _run names the folder itself
                if "--game" in args:
                    del args[args.index("--game"):args.index("--game") + 2]
                _run(t, *args)
                _run(t, "status")
        _run(t, "map")
    _collect(t, clock)
    return t


def _collect(t: Transcript, clock: Clock) -> None:
    game = _game(t, clock)
    for seat in game.seats:
        _book(t, game, player_key(seat), lambda _tab, s=seat: (game.alias(s), game.seat_lang(s)))
    names = {layout.tab(lang, name): lang for lang in game.langs for name in layout.PUBLIC_TABS}
    _book(t, game, PUBLIC, lambda tab: ("everyone", names.get(tab, game.lang)))
    for post in sorted((t.folder / "posts").iterdir()):
        lang = post.suffixes[0][1:] if len(post.suffixes) > 1 else game.lang
        t.seen.append(Seen("everyone", lang, f"post {post.name}", post.read_text("utf-8")))


def _book(t: Transcript, game: Game, key: str, who: Any) -> None:
    for tab in game.gateway.view(key).tabs:
        reader, lang = who(tab.name)
        texts = [(f"{tab.name}!{r}:{c}", v) for r, row in enumerate(tab.values, 1) for c, v in enumerate(row, 1)]
        texts += [(f"{tab.name} note {a1}", note) for a1, note in tab.notes.items()]
        texts += [(f"{tab.name} dropdown {a1}", " | ".join(v.choices) + " " + v.help)
                  for a1, v in tab.validations.items()]
        t.seen += [Seen(reader, lang, f"{key} {where}", text) for where, text in texts if text.strip()]


# -- counting -------------------------------------------------------------------------------------------

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
# What a Chinese text may hold in Latin letters: the tool's identifiers, not English words
ALLOWED = re.compile(
    r"N\d+-(?:survivor|hunter|setup)(?:\+\w+-\d+)?|\bsheetgm(?: [a-z]+)*|--[a-z-]+|\bUTC\b|Asia/Shanghai|"
    r"[\w./-]+\.(?:xlsx|png|txt|toml|json|map|md)\b|\bplayer-\d+/[0-9a-f]{16}\b|/[\w./-]+|\b[0-9a-f]{10}\b|\b[0-9a-f]{16}\b|\bRUL-\d+|\bR-[A-Z]+-\d+|\b[A-Z]{1,2}\d{1,2}\b|"
    r"\b(?:JSON|xlsx|Google|GitHub|Excel|LibreOffice|BBCode|HP|MP|AP|ID|PNG|zh|en|xlsx|game\.toml|map_url|start)\b|"
    r"\[(?:schedule|deadlines|img|/img)\]|\bhttps?://\S+|\[/?(?:size|color|b|list|quote|\*)[^\]]*\]|#[0-9A-Fa-f]{6}")
RAW = re.compile(r"\b[a-z]+(?:\.[a-z0-9_+]+)+\(")  # a template's fallback: "key(param=...)"


def _keys() -> tuple[set[str], re.Pattern[str]]:
    """The template keys, and a pattern for a key of their namespaces that has no template (shown raw)."""
    keys = {k for lang in ("zh", "en") for k in table(lang) if "." in k}
    heads = sorted({k.split(".")[0] for k in keys})
    return keys, re.compile(rf"(?<![\w./-])(?:{'|'.join(heads)})(?:\.[a-z0-9_+]+)+(?![\w/-])")


def count(t: Transcript, aliases: list[str] | None = None) -> dict[str, list[Seen]]:
    """The texts with a raw template key, with English words in a Chinese text, with Chinese in an English one."""
    names = sorted((aliases or ZH + EN) + [GAME], key=len, reverse=True)  # names people chose: not a language
    keys, unknown = _keys()
    out: dict[str, list[Seen]] = {"raw_keys": [], "english_in_chinese": [], "chinese_in_english": []}
    for s in t.seen:
        words = set(re.findall(r"[a-z_]+(?:\.[a-z0-9_+]+)+", s.text))
        if RAW.search(s.text) or words & keys or unknown.search(s.text):
            out["raw_keys"].append(s)
        text = s.text
        for alias in names:
            text = text.replace(alias, " ")
        if s.lang == "zh" and re.search(r"[A-Za-z]{2,}", ALLOWED.sub(" ", text)):
            out["english_in_chinese"].append(s)
        if s.lang == "en" and CJK.search(text):
            out["chinese_in_english"].append(s)
    return out


def offenders(found: dict[str, list[Seen]]) -> list[str]:
    """Each offending text, shortened, with where it was read (for an assertion message)."""
    return [f"{kind}: {s.reader} @ {s.where}: {s.text[:160]!r}" for kind, seen in found.items() for s in seen]
