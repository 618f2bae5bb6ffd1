"""The rules ``game.toml``'s values must follow beyond their types, each refusal naming the key and the fix in the
director's language (issue 15.8 and 15.10): time zone names, the range and type of every rule option, dates
within reach, and aliases no one can pass off as another's.

Pydantic's own refusals (a missing key, a number where a word was expected...) are put in the director's
language by ``pydantic_message``; the validators in ``config.py`` raise ``Refusal`` with a template key.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence
from datetime import date
from functools import cache
from typing import Any, Protocol
from zoneinfo import TZPATH, ZoneInfo, ZoneInfoNotFoundError, available_timezones

from sheetgm.core.state import DEFAULT_OPTIONS
from sheetgm.core.steps import HUNTER_ROLES
from sheetgm.core.texts import has, render
from sheetgm.notation.vocab import normalize_word

FIRST_YEAR, LAST_YEAR = 2000, 2999  # a schedule or deadline outside these years is a typo (and 9999 overflows)


class Refusal(ValueError):
    """A value game.toml may not hold: a template key and its parameters, told in the director's language."""

    def __init__(self, template: str, /, **params: Any) -> None:
        self.template, self.params = template, params
        super().__init__(render("en", template, **params))

    def told(self, lang: str) -> str:
        return render(lang, self.template, **self.params)


# -- the time zone ------------------------------------------------------------------------------------------

@cache
def _zones() -> dict[str, str]:
    """Every IANA zone name this machine knows, by its case-folded form."""
    return {z.casefold(): z for z in available_timezones()}


def check_timezone(name: str) -> str:
    """``name`` if it is an IANA time zone exactly as written (``Asia/Shanghai``); otherwise a Refusal that
    suggests the right spelling (``asia/shanghai``, ``Asia/Shangai``), never a silent fall back to UTC."""
    if _spelled(name):
        return name
    zones = _zones()
    if name in zones.values() or (not zones and _loads(name)):
        return name
    near = zones.get(name.strip().casefold().replace(" ", "_"))
    if near is None:
        import difflib  # only for a zone spelled wrong

        close = difflib.get_close_matches(name.strip().casefold(), list(zones), n=1, cutoff=0.75)
        near = zones[close[0]] if close else None
    if near is not None:
        raise Refusal("err.cfg.timezone_near", given=name, zone=near)
    raise Refusal("err.cfg.timezone", given=name)


def _spelled(name: str) -> bool:
    """``name`` is a zone file of the system's zone folders, spelled as its file and folders are (checked one
    folder at a time, so a file system that ignores case does not pass ``asia/shanghai``) and a zone
    ``available_timezones`` lists (not under ``right/`` or ``posix/``): the usual case, known without listing
    every zone of the machine (30 ms at every command)."""
    parts = name.split("/")
    if parts[0] in ("right", "posix") or name == "posixrules" or "" in parts or ".." in parts or "." in parts:
        return False
    for root in TZPATH:
        folder = root
        for part in parts:
            try:
                if part not in os.listdir(folder):
                    break
            except OSError:
                break
            folder = os.path.join(folder, part)
        else:
            return os.path.isfile(folder) and _loads(name)
    return False


def _loads(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


# -- rule options -------------------------------------------------------------------------------------------

# option -> (kind, lowest, highest) for numbers, or (kind, choices) for words; booleans take true/false only
OPTION_RULES: dict[str, tuple[Any, ...]] = {
    "key_drop": ("word", ("random", "at_elimination")),
    "red_card_counts_as_elimination": ("bool",),
    "survivors_to_win": ("int", 1, 20),
    "eliminations_to_win": ("int", 1, 20),
    "crack_target": ("int", 1, 999),
    "generator_cap": ("int", 1, 99),
    "key_first_night": ("int", 1, 99),
    "keys_to_escape": ("int", 0, 99),
    "odb_stages": ("int", 1, 99),
    "hunters": ("int", 1, 9),
    "scale_targets": ("bool",),
    "assassin_passage": ("passage",),
}


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """Each option known, of its type and within its range: e.g. ``crack_target = -1`` would start the end
    phase on night 1, and ``"yes"`` for a true/false option would read as true."""
    unknown = sorted(set(options) - set(OPTION_RULES))
    if unknown:
        raise Refusal("err.cfg.opt.unknown", names=", ".join(unknown), known=", ".join(sorted(DEFAULT_OPTIONS)))
    for name, value in options.items():
        rule = OPTION_RULES[name]
        default = DEFAULT_OPTIONS.get(name, "-")
        if rule[0] == "bool" and not isinstance(value, bool):
            raise Refusal("err.cfg.opt.bool", name=name, value=_shown(value), default=_shown(default))
        if rule[0] == "int" and (isinstance(value, bool) or not isinstance(value, int) or
                                 not rule[1] <= value <= rule[2]):
            raise Refusal("err.cfg.opt.int", name=name, value=_shown(value), low=rule[1], high=rule[2],
                          default=_shown(default))
        if rule[0] == "word" and value not in rule[1]:
            raise Refusal("err.cfg.opt.word", name=name, value=_shown(value), choices=" / ".join(rule[1]),
                          default=_shown(default))
        if rule[0] == "passage" and not isinstance(value, str):
            raise Refusal("err.cfg.opt.passage", name=name, value=_shown(value))
    return options


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def check_year(when: date, key: str) -> None:
    if not FIRST_YEAR <= when.year <= LAST_YEAR:
        raise Refusal("err.cfg.year", key=key, value=when.isoformat(), first=FIRST_YEAR, last=LAST_YEAR)


# -- aliases ------------------------------------------------------------------------------------------------

MAX_ALIAS = 24
RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
QUOTES = "\"“”„‟«»‹›「」『』〝〞＂"  # an order may quote an alias; the quotes are not part of it (vocab.plain_text)


def check_alias(alias: str) -> str:
    """An alias a player can be told apart by, and that is safe as a file name: no control, format (bidi,
    zero-width) or unassigned characters, no path separator, no Windows device name, no quotes, at most
    ``MAX_ALIAS`` characters, and nothing NFKC would change."""
    for ch in alias:
        cat = unicodedata.category(ch)
        if cat.startswith("C") or cat in ("Zl", "Zp"):
            raise Refusal("err.cfg.alias.invisible", alias=alias.encode("unicode_escape").decode("ascii"),
                          code=f"U+{ord(ch):04X}")
    if any(c in alias for c in "/\\") or alias.strip(".") == "" or ".." in alias:
        raise Refusal("err.cfg.alias.path", alias=alias)
    if any(c in alias for c in QUOTES) or alias[:1] in "'‘’" or alias[-1:] in "'‘’":
        raise Refusal("err.cfg.alias.quote", alias=alias)
    if alias.split(".")[0].strip().casefold() in RESERVED:
        raise Refusal("err.cfg.alias.reserved", alias=alias)
    if len(alias) > MAX_ALIAS:
        raise Refusal("err.cfg.alias.long", alias=alias, n=len(alias), max=MAX_ALIAS)
    return alias


def same_aliases(aliases: list[str]) -> list[tuple[str, str]]:
    """Pairs of aliases that read as one name (NFKC, case folded, traditional = simplified): one player could
    pass as the other in an order."""
    seen: dict[str, str] = {}
    pairs = []
    for alias in aliases:
        key = normalize_word(alias)
        if key in seen:
            pairs.append((seen[key], alias))
        else:
            seen[key] = alias
    return pairs


# -- pydantic's own refusals --------------------------------------------------------------------------------

def pydantic_message(err: Any, lang: str) -> str:
    """One refusal of pydantic's, in ``lang``: ours (a Refusal) as it was raised; pydantic's own by its type
    (a template ``err.cfg.pyd.<type>`` with the value written), else pydantic's English text."""
    exc = (err.get("ctx") or {}).get("error")
    if isinstance(exc, Refusal):
        return exc.told(lang)
    kind = str(err.get("type", ""))
    key = f"err.cfg.pyd.{kind}"
    if has(lang, key):
        ctx = {k: str(v) for k, v in (err.get("ctx") or {}).items() if k != "error"}
        given = err.get("input")
        return render(lang, key, **ctx, value=_shown(given) if not isinstance(given, dict | list) else "…")
    return str(err.get("msg", ""))


def check_name(name: str) -> str:
    """The game's name names its workbooks' files: printable, no path separator, not too long."""
    if any(unicodedata.category(c).startswith("C") for c in name) or any(c in name for c in "/\\") or \
            name.strip(". ") == "" or len(name) > 60:
        raise Refusal("err.cfg.name", value=name.encode("unicode_escape").decode("ascii"))
    return name


def check_email(email: str | None) -> str | None:
    if email is None:
        return None
    local, at, domain = email.strip().rpartition("@")
    if not at or not local or "." not in domain or any(c.isspace() for c in email.strip()):
        raise Refusal("err.cfg.email", value=email)
    return email.strip()


class _Seat(Protocol):
    @property
    def camp(self) -> str | None: ...
    @property
    def role(self) -> str | None: ...


class _Roster(Protocol):
    @property
    def roster(self) -> Sequence[_Seat]: ...
    @property
    def options(self) -> dict[str, Any]: ...


def camp_counts(cfg: _Roster) -> tuple[int, int]:
    """Survivors and hunters the deal will make: fixed camps (a fixed role fixes its camp), and of
    the open seats as many hunters as the option ``hunters`` (R-SETUP-1, 2 by default) leaves."""
    camps = [s.camp or ("hunter" if s.role in HUNTER_ROLES else "survivor" if s.role else None) for s in cfg.roster]
    open_seats = camps.count(None)
    hunters = camps.count("hunter")
    if open_seats:
        hunters = max(hunters, min(int(cfg.options.get("hunters", DEFAULT_OPTIONS["hunters"])),
                                   hunters + open_seats))
    return len(camps) - hunters, hunters
