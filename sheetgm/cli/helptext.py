"""The command line's help in the director's language.

Typer's help strings are fixed when the commands are declared, so they are
not declared there: every command's and option's help is a template,
``help.cmd.<path>`` and ``help.opt.<path>.<param>`` (or the shared
``help.opt.<param>``) in ``sheet_templates/texts/<lang>/cli.toml``, where
``<path>`` is the command's words joined by ``_`` (``card_give``). The root
group fills them in when it parses the command line, before any help is
shown, in the language of ``SHEETGM_LANG``, else of the game that ``--game``
names (or the game.toml of the current folder), else Chinese.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:  # Typer carries its own copy of Click; Click itself is not a dependency of sheetgm
    from typer._click.core import Command, Context

from sheetgm.cli.common import game_arg, lang_of
from sheetgm.core.texts import has, render, table

# Typer's own words around the help (panel titles, default and required marks): help.panel.<key>
PANELS = {"ARGUMENTS_PANEL_TITLE": "arguments", "OPTIONS_PANEL_TITLE": "options",
          "COMMANDS_PANEL_TITLE": "commands", "ERRORS_PANEL_TITLE": "errors", "DEFAULT_STRING": "default",
          "REQUIRED_LONG_STRING": "required"}


def help_lang(args: Sequence[str]) -> str:
    """The director's language (`common.lang_of`) for the game that --game names on the raw command line."""
    return lang_of(game_arg(args))


def localize(cmd: Command, lang: str, path: str = "") -> None:
    """Put the templates' help on ``cmd``, its parameters and its sub-commands (a missing template leaves the
    declared help, so a command added without templates still has one: a test asks for every template)."""
    key = f"help.cmd.{path or 'sheetgm'}"
    if has(lang, key):
        cmd.help = render(lang, key)
        cmd.short_help = None
    params: list[Any] = list(cmd.params)
    helper = cmd.get_help_option(typer.Context(cmd))
    if helper is not None:
        params.append(helper)
    for p in params:
        name = "help" if p is helper else p.name
        for k in (f"help.opt.{path}.{name}", f"help.opt.{name}"):
            if has(lang, k):
                p.help = render(lang, k)
                break
    for name, sub in getattr(cmd, "commands", {}).items():
        localize(sub, lang, f"{path}_{name}" if path else name)


class LocalizedGroup(TyperGroup):
    """The root group: localizes the whole command tree before parsing (``--help`` is parsed first)."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if ctx.parent is not None:  # a sub-group (Typer gives them this class too): the root did it all
            return super().parse_args(ctx, args)
        lang = help_lang(args)
        localize(self, lang)
        if not args or "--help" in args:  # Typer draws help with rich: import it only then (about 0.1 s)
            import typer.rich_utils

            for attr, key in PANELS.items():
                setattr(typer.rich_utils, attr, table(lang)[f"help.panel.{key}"])  # raw: "{}" is Typer's placeholder
            fold_help(typer.rich_utils)
        return super().parse_args(ctx, args)


def fold_help(rich_utils: Any) -> None:
    """Make every help text fold at the terminal's edge instead of being cut with "…", and show its brackets.

    Rich wraps lines at spaces; Chinese has none, so a Chinese help text is one long "word", and Typer's
    help table (rich ``Columns``) cuts such a word at the column's width. Folding breaks it between
    characters instead. The width is the terminal's (or ``COLUMNS``; 80 when the output is no terminal).
    The templates are plain text: "[img]" in a help is a word to show, not rich markup to swallow."""
    from rich.markup import escape
    from rich.text import Text

    make = rich_utils._make_rich_text
    if getattr(make, "folds", False):
        return

    def folding(*args: Any, **kwargs: Any) -> Any:
        if isinstance(kwargs.get("text"), str) and kwargs.get("markup_mode") == "rich":
            kwargs["text"] = escape(kwargs["text"])
        out = make(*args, **kwargs)
        if isinstance(out, Text):
            out.overflow = "fold"
        return out

    folding.folds = True  # type: ignore[attr-defined]
    rich_utils._make_rich_text = folding


def command_paths(cmd: Command, path: str = "") -> list[tuple[str, Command]]:
    """Every (path, command) of the tree, the root as ``sheetgm`` (for tests and the template check)."""
    out = [(path or "sheetgm", cmd)]
    for name, sub in getattr(cmd, "commands", {}).items():
        out += command_paths(sub, f"{path}_{name}" if path else name)
    return out
