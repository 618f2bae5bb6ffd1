"""No raw template key reaches anyone (issue 15.5): every key the code can render exists in zh and en and
formats with the parameters the code passes.

The sources outside the engine (the engine has tests/test_engine_texts.py) are read with ``ast``:

* every string literal shaped like a template key (``svc.order_late``) is a key, wherever it stands (a
  ``render`` call, an error's ``code``, a variable later passed to ``render``);
* a key built at run time (``f"cli.state.{p.state}"``, ``"word." + status``) is a *family*: each family found
  in the code must be listed in ``FAMILIES`` with every value it can take, so a new family cannot slip by;
* a ``render(lang, "key", a=..., b=...)`` call, an error raised with its code and keywords, and an error class
  raised with keywords must give every placeholder of the key's template in both languages.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

import sheetgm
from sheetgm.core.state import ELIMINATED, ESCAPED, IN_PLAY, RED_CARDED
from sheetgm.core.texts import LANGS, has, table
from sheetgm.service.ledger.stamps import AFTER
from sheetgm.sheets.layout import DIRECTOR_TABS, PLAYER_TABS, PUBLIC_TABS

ROOT = Path(sheetgm.__file__).parent
TOPS = ("err", "svc", "cli", "sheet", "word", "help", "desk", "replay", "render", "sim", "guide", "dir", "check",
        "rep", "order", "field", "role", "skill", "item", "camp", "ev")
KEY = re.compile(rf"^(?:{'|'.join(TOPS)})\.[a-z0-9_]+(?:\.[a-z0-9_]+)*$")
PREFIX = re.compile(rf"^(?:{'|'.join(TOPS)})\.(?:[a-z0-9_]+\.)*[a-z0-9_]*$")
# Literals shaped like keys that are not template keys: prefixes of a family read whole (helptab._section).
NOT_KEYS = {"help.panel", "guide.intro", "guide.errors"}
# Parameters an error class fills itself (MissingTabError's key is named by the gateway that knows it).
DEFAULTED = {("err.backend.missing_tab", "key")}

STATES = ("ok", "problems", "empty", "unticked", "unreadable", "late")  # service.check.PlayerCheck.state
ACTIONS = ("resolved", "resolved_early", "republished", "delivered", "nothing", "dry_run", "waiting", "no_deadline")
PLAYER_STATUS = (IN_PLAY, ESCAPED, ELIMINATED, RED_CARDED)
WINNERS = ("survivors", "hunters", "draw")


def _words(prefix: str) -> tuple[str, ...]:
    """Families whose values are data (role ids, map glyphs, help texts...): every key the templates define under
    the prefix is a value, and the test below checks the data's own values against them."""
    return tuple(k[len(prefix):] for k in table("en") if k.startswith(prefix))


# family (the key's literal start) -> every value the code can put after it
FAMILIES: dict[str, tuple[str, ...]] = {
    "cli.state.": STATES,
    "sheet.deadline.as_of_": ("check", "resolve", "new"),
    "sheet.deadline.left_": ("days", "hours", "minutes"),
    "sheet.status.": STATES,
    "cli.resolve.": ACTIONS,
    "cli.journal.": ("published", "resolved", "superseded"),
    "svc.order_": AFTER,
    "sheet.report.": AFTER,
    "sheet.status.after_": AFTER,
    "sheet.status.resolved_": ("fallback", "seen"),
    "word.": PLAYER_STATUS + WINNERS + ("survivor", "hunter"),
    "word.result_": ("won", "lost", "draw"),
    "sheet.camp.": ("survivor", "hunter"),
    "err.backend.cred.": ("not_json", "not_object", "not_key", "unreadable", "neither", "not_base64", "incomplete",
                          "none", "oauth", "login_not_json", "login_incomplete", "login_unreadable"),
    "doctor.net.": ("connection", "timeout", "tls", "proxy", "other"),
    "doctor.grant.": ("key_deleted", "account_gone", "clock"),
    "sheet.tab.": DIRECTOR_TABS + PUBLIC_TABS + PLAYER_TABS,
    "sheet.head.": tuple(f"d_{t}" for t in DIRECTOR_TABS) + ("p_log", "p_progress", "p_cards", "orders", "results"),
    "sheet.note.order_text_": ("survivor", "hunter"),
    "sheet.rows.": ("moved", "typed_label_moved", "typed_label_kept", "typed_label_other", "duplicate", "stale",
                    "stale_here", "unlabelled"),
    "svc.audit.kind_": ("group", "domain"),
    "order.camp.": ("survivor", "hunter"),
    "order.examples.": ("survivor", "hunter", "any"),
    "sim.outcome.": ("survivors", "hunters", "draw"),
    "sheet.protect.tab_": ("deleted", "renamed", "carried"),
    "svc.protect.tab_": ("deleted", "renamed", "carried"),
}
# Families keyed by data the templates define wholesale (checked for presence in both languages below).
DATA_FAMILIES = ("svc.audit.", "replay.verify.", "err.cfg.field.", "render.glyph.", "render.view.", "render.key.",
                 "sheet.map.", "sheet.legend.", "sheet.tag.", "role.", "field.", "help.cmd.", "help.opt.",
                 "help.panel.", "guide.why.", "guide.ex.", "order.expect.", "err.cfg.pyd.", "err.cfg.opt.",
                 "err.backend.file.")


def _sources() -> Iterator[tuple[Path, ast.AST]]:
    for path in sorted(ROOT.rglob("*.py")):
        if "core" in path.relative_to(ROOT).parts[:1]:
            continue
        yield path, ast.parse(path.read_text("utf-8"))


def _start(node: ast.AST) -> str | None:
    """The literal start of a key built at run time: an f-string or a ``"prefix." + x``."""
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        first = str(node.values[0].value)
        return first if PREFIX.match(first) and len(node.values) > 1 else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Constant):
        left = str(node.left.value)
        return left if isinstance(node.left.value, str) and PREFIX.match(left) else None
    return None


def literal_keys() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path, tree in _sources():
        parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        parts |= {id(n.left) for n in ast.walk(tree) if isinstance(n, ast.BinOp)}
        for node in ast.walk(tree):
            if id(node) in parts:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.match(node.value):
                if node.value not in NOT_KEYS:
                    out.setdefault(node.value, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return out


def families() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path, tree in _sources():
        for node in ast.walk(tree):
            start = _start(node)
            if start is not None:
                out.setdefault(start, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")  # type: ignore[attr-defined]
    return out


def _error_codes() -> dict[str, str]:
    """Error class name -> its ``code``."""
    out: dict[str, str] = {}
    for _path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if (isinstance(item, ast.Assign) and len(item.targets) == 1
                            and isinstance(item.targets[0], ast.Name) and item.targets[0].id == "code"
                            and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str)):
                        out[node.name] = item.value.value
    return out


def calls() -> list[tuple[str, set[str], str]]:
    """(key, keyword names, where) of every call that names a key and passes its parameters by keyword."""
    codes = _error_codes()
    out = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or any(k.arg is None for k in node.keywords):
                continue  # **params: checked by the tests of that code
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            kw = {k.arg for k in node.keywords if k.arg}
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name == "render" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                out.append((str(node.args[1].value), kw, where))
            elif (name.endswith("Error") or name == "Refusal") and args and KEY.match(args[0]):
                out.append((args[0], kw, where))
            elif name in codes and not node.args and kw:
                out.append((codes[name], kw, where))
    return out


def placeholders(template: str) -> set[str]:
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(template) if f}


def test_the_sources_are_scanned() -> None:
    keys, fams = literal_keys(), families()
    assert {"svc.order_unreadable", "cli.check_head", "err.svc.locked"} <= set(keys)
    assert {"cli.state.", "sheet.status.", "word."} <= set(fams)
    assert any(key == "err.svc.locked" and kw == {"holder", "since"} for key, kw, _ in calls())


@pytest.mark.parametrize("lang", LANGS)
def test_every_literal_key_exists(lang: str) -> None:
    missing = sorted((k, where[0]) for k, where in literal_keys().items() if not has(lang, k))
    assert missing == []


def test_every_family_is_enumerated() -> None:
    unknown = sorted((start, where[0]) for start, where in families().items()
                     if start not in FAMILIES and not start.startswith(DATA_FAMILIES))
    assert unknown == [], "a key built at run time: list every value it can take in FAMILIES"


@pytest.mark.parametrize("lang", LANGS)
def test_every_family_value_exists(lang: str) -> None:
    missing = sorted(start + v for start, values in FAMILIES.items() for v in values if not has(lang, start + v))
    assert missing == []


def test_data_families_are_defined_in_both_languages() -> None:
    for start in DATA_FAMILIES:
        zh = {k for k in table("zh") if k.startswith(start)}
        en = {k for k in table("en") if k.startswith(start)}
        assert zh == en, start


@pytest.mark.parametrize("lang", LANGS)
def test_every_call_gives_the_parameters_its_template_uses(lang: str) -> None:
    bad = []
    for key, kw, where in calls():
        if not has(lang, key):
            continue
        template = table(lang)[key]
        need = placeholders(template)
        given = kw | {p for k, p in DEFAULTED if k == key}
        if not need <= given:
            bad.append((key, where, sorted(need - given)))
            continue
        for value in ("x", 1.5):  # a text, or a number for the templates that format one ({share:.0%})
            try:
                template.format(**{k: value for k in given})
                break
            except (KeyError, IndexError, ValueError, AttributeError, TypeError) as exc:
                error = repr(exc)
        else:
            bad.append((key, where, [error]))
    assert bad == []


def test_the_check_would_catch_a_missing_state() -> None:
    """The raw key of issue 15 (``cli.state.late``) is a value of a family: the family test names it."""
    assert "late" in FAMILIES["cli.state."]
    from sheetgm.service.check import PlayerCheck

    assert PlayerCheck.__dataclass_fields__["state"].type == "str"
