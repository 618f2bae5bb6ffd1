"""The director's desk on the command line: override, card, publish, schedule (thin: one call each)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sheetgm.cli_common import GameOpt, JsonOpt, fail, holder, lang_of, open_at, serve
from sheetgm.core.errors import SheetgmError

ReasonOpt = Annotated[str, typer.Option("--reason", "-r", help="Why (journaled and shown in the public log).")]

card_app = typer.Typer(help="Penalty cards (R-CARD): give, list, lurking proposals.", no_args_is_help=True)


def override_cmd(
    target: Annotated[str, typer.Argument(help="A player's alias, or 'game' for a game-wide value.")],
    field: Annotated[str, typer.Argument(help="hp, downed, fear, stealth, pos, items, keys, status; "
                                              "game: progress, gates_powered, odb_left, winner.")],
    value: Annotated[str, typer.Argument(help="The new value (items: comma-separated; pos: a tile like C4).")],
    reason: ReasonOpt,
    game: GameOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Director's override (R-DIR-1) between stages: journaled, in the public log, the player's sheet updated."""
    from sheetgm.service import desk

    serve(game, as_json, lambda g: desk.override(g, target, field, value, reason, holder=holder()), desk.describe)


@card_app.command("give")
def card_give(
    alias: Annotated[str, typer.Argument(help="The player's alias.")],
    colour: Annotated[str, typer.Argument(help="blue, yellow or red (蓝/黄/红).")],
    reason: ReasonOpt,
    declare_loss: Annotated[bool, typer.Option("--declare-loss", help="With a red card: the player's camp "
                                                                       "loses (R-END-6).")] = False,
    game: GameOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Give a card: three blue merge into a yellow, three yellow into a red; a red card sends the player off."""
    from sheetgm.service import desk

    serve(game, as_json, lambda g: desk.give(g, alias, colour, reason, declare_loss, holder=holder()),
          desk.describe)


@card_app.command("list")
def card_list(game: GameOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Every card given so far (merged ones marked)."""
    from sheetgm.service import desk

    serve(game, as_json, desk.cards, desk.describe_cards, data=lambda rows: rows)


def _posts(items: list[str]) -> dict[str, int]:
    from sheetgm.service.errors import ServiceError

    out: dict[str, int] = {}
    for text in items:
        alias, _eq, count = text.rpartition("=")
        if not alias or not count.strip().isdigit():
            raise ServiceError("err.desk.bad_posts", text=text)
        out[alias.strip()] = int(count)
    return out


@card_app.command("lurking")
def card_lurking(
    day: Annotated[int, typer.Option("--day", help="The discussion day (day N follows night N).")],
    posts: Annotated[list[str] | None, typer.Option("--posts", help="ALIAS=COUNT: posts that day (repeatable; "
                                                                     "a player not named made 0).")] = None,
    no_vote: Annotated[list[str] | None, typer.Option("--no-vote", help="A player who did not vote "
                                                                         "(repeatable).")] = None,
    accelerated: Annotated[bool, typer.Option("--accelerated", help="The day was accelerated: no lurking "
                                                                     "cards.")] = False,
    apply: Annotated[bool, typer.Option("--apply", help="Give the proposed yellow cards.")] = False,
    game: GameOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Record a day's post counts and votes; propose the lurking yellow cards (R-CARD-4)."""
    from sheetgm.service import desk

    serve(game, as_json, lambda g: desk.lurking(g, day, _posts(posts or []), no_vote or [], accelerated, apply,
                                                holder=holder()), desk.describe_lurking)


def publish_cmd(
    stage: Annotated[str | None, typer.Argument(help="The stage, e.g. N2-hunter (default: the last one).")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="bbcode (Discuz forum) or plain.")] = "bbcode",
    lang: Annotated[str | None, typer.Option("--lang", help="zh or en (default: the director's).")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write to this file instead of printing.")] = None,
    game: GameOpt = Path("."),
) -> None:
    """Render a stage's public announcement, ready to paste into the forum thread (nothing private)."""
    from sheetgm.service import desk
    from sheetgm.service.errors import ServiceError

    director = lang_of(game)
    try:
        if lang is not None and lang not in ("zh", "en"):
            raise ServiceError("err.desk.bad_lang", lang=lang)
        text = desk.announcement(open_at(game), stage, fmt, lang)
    except SheetgmError as exc:
        fail(exc.message(director))
        return
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, "utf-8")


def schedule_cmd(
    game: Annotated[Path | None, typer.Option("--game", "-g", help="Game folder (or its game.toml) whose "
                                                                   "deadlines to schedule.")] = None,
    deadline: Annotated[list[str] | None, typer.Option("--deadline", help="CAMP=HH:MM daily deadline, e.g. "
                                                                           "survivor=21:00 (repeatable; "
                                                                           "instead of a game).")] = None,
    tz: Annotated[str | None, typer.Option("--tz", help="Time zone, e.g. Asia/Shanghai (default: the "
                                                         "game's).")] = None,
    timezone_key: Annotated[bool, typer.Option("--timezone-key", help="Print local-time cron lines with "
                                                                       "GitHub's timezone key.")] = False,
    offset: Annotated[int, typer.Option("--offset", help="Minutes after each deadline to run.")] = 7,
    check_hours: Annotated[int, typer.Option("--check-hours", help="Check runs before each deadline: hourly in "
                                                                  "its last N hours, every 15 minutes in the "
                                                                  "last one (0: none).")] = 3,
) -> None:
    """Print the cron lines of the resolve workflow (check runs before each deadline, resolve runs after)."""
    from sheetgm.schedule import schedule_command_output
    from sheetgm.service.errors import ServiceError

    lang = lang_of(game) if game is not None else "zh"
    try:
        pairs: dict[str, str] = {}
        for text in deadline or []:
            camp, _eq, hhmm = text.partition("=")
            if not camp.strip() or not hhmm.strip():
                raise ServiceError("err.desk.bad_deadline", text=text)
            pairs[camp.strip()] = hhmm.strip()
        path = game if game is not None or pairs else Path(".")
        typer.echo(schedule_command_output(path, deadlines=pairs or None, tz=tz, offset_minutes=offset,
                                           use_timezone_key=timezone_key, check_hours=check_hours), nl=False)
    except SheetgmError as exc:
        fail(exc.message(lang))


def register(app: typer.Typer) -> None:
    app.command("override")(override_cmd)
    app.add_typer(card_app, name="card")
    app.command("publish")(publish_cmd)
    app.command("schedule")(schedule_cmd)
