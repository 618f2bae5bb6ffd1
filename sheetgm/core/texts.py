"""Player-facing texts, loaded from ``sheet_templates/texts/<lang>/*.toml``.

Every file of a language's folder is merged into one table (a key defined
twice is an error in the templates, caught by a test).

A text is looked up by a dotted key and formatted with ``str.format``. A
missing key falls back to English, then to the key itself with its
parameters, so that a missing template never hides information.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

LANGS = ("zh", "en")


@cache
def table(lang: str) -> dict[str, str]:
    if lang not in LANGS:
        lang = "en"
    folder = resources.files("sheet_templates").joinpath("texts", lang)
    flat: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            _flatten(tomllib.loads(entry.read_text("utf-8")), "", flat)
    return flat


def _flatten(node: dict[str, Any], prefix: str, out: dict[str, str]) -> None:
    for key, value in node.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict):
            _flatten(value, full + ".", out)
        else:
            out[full] = str(value)


def has(lang: str, key: str) -> bool:
    return key in table(lang)


def render(lang: str, key: str, /, **params: Any) -> str:
    text = table(lang).get(key) or table("en").get(key)
    if text is None:
        args = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
        return f"{key}({args})" if args else key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        args = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
        return f"{text} [{args}]"
