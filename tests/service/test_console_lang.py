"""Issue 15.5: one language per console. The main commands run through the CLI on a Chinese game with
SHEETGM_LANG=en print no Chinese, and on an English game with SHEETGM_LANG=zh print no English of the tool's
own: only the players' aliases, what they wrote and the names of their own tabs (which are the words in their
workbooks) may be in the other language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from svc_helpers import PAST_SCHEDULE, roster, write_order
from typer.testing import CliRunner

from sheetgm.backends.port import SetValues
from sheetgm.cli.app import app
from sheetgm.core.check import legal_steps
from sheetgm.notation.order_format import format_step
from sheetgm.service.config.load import parse_config, save_config
from sheetgm.service.game import open_game, player_key
from sheetgm.service.ledger.journal import latest, read_director
from sheetgm.sheets import layout
from sheetgm.sheets.layout import DIRECTOR_TABS, PLAYER_TABS, PUBLIC_TABS

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
# Names in either language: the game's, the tool's, programs, file and folder names and stage keys, commands typed as
# they are (with their options), a time zone as people write it ("UTC+8"), and the rollback reason this test writes.
IDENTIFIERS = {"cup", "sheetgm", "xlsx", "png", "excel", "libreoffice", "asia", "shanghai", "director", "public",
               "player", "map", "survivor", "hunter", "setup", "resolve", "check", "stage", "workbooks",
               "utc", "maps", "game", "typo", "toml", "schedule", "start", "deadlines"}  # game.toml's keys


@contextmanager
def chinese_game(tmp_path: Path, lang: str) -> Iterator[Path]:
    """A local game whose director and players all use ``lang``, its night-1 deadline long past."""
    folder = tmp_path / "g"
    folder.mkdir()
    cfg = parse_config({"name": "cup", "seed": 7, "lang": lang, "roster": roster(langs={i: lang for i in range(1, 5)}),
                        "options": {"crack_target": 6}, "schedule": PAST_SCHEDULE})
    save_config(cfg, folder)
    yield folder


def _run(folder: Path, voice: str, *args: str) -> str:
    out = CliRunner().invoke(app, [*args, "--game", str(folder)], env={"SHEETGM_LANG": voice, "COLUMNS": "200"})
    assert isinstance(out.exception, SystemExit | None), out.exception
    return out.stdout + out.stderr


def _play(folder: Path, voice: str) -> tuple[list[str], set[str]]:
    """The main commands as a director plays a night and a half, with problems of every kind on the way:
    everything printed, and what the players wrote."""
    said = [_run(folder, voice, "new")]
    game = open_game(folder)
    lang = game.lang
    state = latest(read_director(game)[0]).state(game.board)
    step = format_step(legal_steps(state, 2)[0], lang)
    written = {"飞 C4" if lang == "zh" else "fly C4", step}
    write_order(game, 1, "飞 C4" if lang == "zh" else "fly C4")  # a problem
    write_order(game, 2, step, tick="")  # not ticked
    orders = layout.tab(lang, "orders")
    game.gateway.write(player_key(3), [SetValues(layout.rng(orders, "G2"), ((step,),))])  # a dropdown pick only
    for args in (("check",), ("status",), ("resolve", "--dry-run"), ("resolve",), ("resolve",), ("check",),
                 ("schedule",), ("verify",), ("audit",), ("map", "--view", "public"), ("unlock", "--reason", "x"),
                 ("rollback", "N1-hunter", "--reason", "typo"), ("resolve",), ("status",)):
        if args[0] == "check" and len(said) > 4:  # night 2: S1 edits night 1's row after it was resolved
            game.gateway.write(player_key(1), [SetValues(layout.rng(orders, "B2"), ((step,),))])
            written.add(step)
        said.append(_run(folder, voice, *args))
    return said, written


def _foreign(text: str, written: set[str], lang: str) -> str:
    """``text`` without what may be in the other language: the players' private reports (the dry run shows them
    as the players will read them), what players wrote (and each word of it), the workbooks' tab names."""
    kept, report = [], False
    for line in text.splitlines():
        if line.startswith("--- "):
            report = True  # a player's report follows, up to the run's own lines
        elif line.startswith(("! ", "  ")) and not line.startswith("  -") and report and line.startswith("! "):
            report = False
        if not report:
            kept.append(line)
    text = "\n".join(kept)
    words = {w for t in written for w in t.split()}
    for w in sorted(written | words, key=len, reverse=True):
        text = text.replace(w, "")
    for name in sorted((layout.tab(lang, t) for t in PLAYER_TABS + DIRECTOR_TABS + PUBLIC_TABS), key=len, reverse=True):
        text = text.replace(name, "")
    return text


def test_an_english_console_on_a_chinese_game_prints_no_chinese(tmp_path: Path) -> None:
    with chinese_game(tmp_path, "zh") as folder:
        said, written = _play(folder, "en")
    lines = [line for out in said for line in _foreign(out, written, "zh").splitlines() if CJK.search(line)]
    assert lines == []
    assert any("N1-survivor resolved and published" in out for out in said)


@pytest.mark.parametrize("voice", ["zh"])
def test_a_chinese_console_on_an_english_game_prints_no_english_of_its_own(voice: str, tmp_path: Path) -> None:
    with chinese_game(tmp_path, "en") as folder:
        said, written = _play(folder, voice)
    bad = []
    for out in said:
        if out.lstrip().startswith("schedule:"):
            continue  # `schedule` prints the workflow's YAML to paste into a file, its comments in English
        for line in _foreign(out.replace(str(folder), ""), written, "en").splitlines():
            words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", line)}
            words -= IDENTIFIERS
            words = {w for w in words if not re.fullmatch(r"[a-z]?\d.*|s\d|h\d", w)}
            if words:
                bad.append((sorted(words), line))
    assert bad == []
