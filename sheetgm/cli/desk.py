"""The director's desk on the command line: override, card, publish, schedule (thin: one call each)."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from sheetgm.cli import common
from sheetgm.cli.common import attempt, holder, lang_of, serve
from sheetgm.cli.options import GameOpt, JsonOpt

ReasonOpt = Annotated[str, typer.Option("--reason", "-r")]

card_app = typer.Typer(no_args_is_help=True)


def override_cmd(
    target: Annotated[str, typer.Argument()],
    field: Annotated[str, typer.Argument()],
    value: Annotated[str, typer.Argument()],
    reason: ReasonOpt,
    game: GameOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Director's override (R-DIR-1) between stages: journaled, in the public log, the player's sheet updated."""
    from sheetgm.service import desk

    serve(game, as_json, lambda g, _step: desk.override(g, target, field, value, reason, holder=holder()),
          desk.describe)


@card_app.command("give")
def card_give(
    alias: Annotated[str, typer.Argument()],
    colour: Annotated[str, typer.Argument()],
    reason: ReasonOpt,
    declare_loss: Annotated[bool, typer.Option("--declare-loss")] = False,
    game: GameOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Give a card: three blue merge into a yellow, three yellow into a red; a red card sends the player off."""
    from sheetgm.service import desk

    serve(game, as_json, lambda g, _step: desk.give(g, alias, colour, reason, declare_loss, holder=holder()),
          desk.describe)


@card_app.command("list")
def card_list(game: GameOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Every card given so far (merged ones marked)."""
    from sheetgm.service import desk

    serve(game, as_json, lambda g, _step: desk.cards(g), desk.describe_cards, data=lambda rows: rows)


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
    day: Annotated[int, typer.Option("--day")],
    posts: Annotated[list[str] | None, typer.Option("--posts")] = None,
    no_vote: Annotated[list[str] | None, typer.Option("--no-vote")] = None,
    accelerated: Annotated[bool, typer.Option("--accelerated")] = False,
    apply: Annotated[bool, typer.Option("--apply")] = False,
    game: GameOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """Record a day's post counts and votes; propose the lurking yellow cards (R-CARD-4)."""
    from sheetgm.service import desk

    serve(game, as_json, lambda g, _step: desk.lurking(g, day, _posts(posts or []), no_vote or [], accelerated, apply,
                                                holder=holder()), desk.describe_lurking)


def publish_cmd(
    stage: Annotated[str | None, typer.Argument()] = None,
    fmt: Annotated[str, typer.Option("--format", "-f")] = "bbcode",
    lang: Annotated[str | None, typer.Option("--lang")] = None,
    together: Annotated[bool, typer.Option("--together")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o")] = None,
    with_map: Annotated[bool, typer.Option("--map")] = False,
    map_url: Annotated[str | None, typer.Option("--map-url")] = None,
    game: GameOpt = Path("."),
) -> None:
    """Render a stage's public announcement, ready to paste into the forum thread (nothing private)."""
    from sheetgm.core.texts import render
    from sheetgm.service.errors import ServiceError
    from sheetgm.service.posts import posts

    director = lang_of(game)

    def announced() -> list[tuple[str, str]]:
        if lang is not None and lang not in ("zh", "en"):
            raise ServiceError("err.desk.bad_lang", lang=lang)
        return posts(common.open_at(game), stage, fmt, [lang] if lang else None, with_map or map_url is not None,
                     map_url, together)

    made = attempt(director, announced)
    if out is None:
        for i, (post_lang, text) in enumerate(made):
            if i:
                typer.echo(render(director, "day.publish.cut", lang=render(director, f"day.lang.{post_lang}")))
            typer.echo(text, nl=False)
        return
    for i, (post_lang, text) in enumerate(made):
        file = out if i == 0 else out.with_name(f"{out.stem}.{post_lang}{out.suffix}")
        attempt(director, partial(_write_post, file, text))
        if len(made) > 1:
            typer.echo(render(director, "day.publish.written", file=str(file),
                              lang=render(director, f"day.lang.{post_lang}")))


def _write_post(file: Path, text: str) -> None:
    from sheetgm.service.errors import ServiceError

    try:
        file.write_text(text, "utf-8")
    except OSError as exc:
        raise ServiceError("err.render.write", file=str(file), detail=exc.strerror or str(exc)) from None


def schedule_cmd(
    game: Annotated[Path | None, typer.Option("--game", "-g")] = None,
    deadline: Annotated[list[str] | None, typer.Option("--deadline")] = None,
    tz: Annotated[str | None, typer.Option("--tz")] = None,
    timezone_key: Annotated[bool, typer.Option("--timezone-key/--utc")] = True,
    offset: Annotated[int, typer.Option("--offset")] = 7,
    check_hours: Annotated[int, typer.Option("--check-hours")] = 3,
) -> None:
    """Print the cron lines of the resolve workflow (check runs before each deadline, resolve runs after)."""
    from sheetgm.service.errors import ServiceError
    from sheetgm.service.schedule_game import schedule_command_output

    def lines() -> str:
        pairs: dict[str, str] = {}
        for text in deadline or []:
            camp, _eq, hhmm = text.partition("=")
            if not camp.strip() or not hhmm.strip():
                raise ServiceError("err.desk.bad_deadline", text=text)
            pairs[camp.strip()] = hhmm.strip()
        path = game if game is not None or pairs else Path(".")
        return schedule_command_output(path, deadlines=pairs or None, tz=tz, offset_minutes=offset,
                                       use_timezone_key=timezone_key, check_hours=check_hours)

    typer.echo(attempt(lang_of(game) if game is not None else "zh", lines), nl=False)


def register(app: typer.Typer) -> None:
    app.command("override")(override_cmd)
    app.add_typer(card_app, name="card")
    app.command("publish")(publish_cmd)
    app.command("schedule")(schedule_cmd)
