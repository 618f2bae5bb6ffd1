"""Player-facing texts, loaded from ``sheet_templates/texts/<lang>/*.toml``.

Every file of a language's folder is merged into one table (a key defined
twice is an error in the templates, caught by a test).

A text is looked up by a dotted key and formatted with ``str.format``. A
missing key falls back to English, then to the key itself with its
parameters, so that a missing template never hides information.

Parsing a language's TOML files takes about 20 ms, on every command; the merged table is kept as JSON in the
user's cache folder (core/cachedir.py, which says when it is used and how its files are read) under a hash of the
files' names and bytes, so any change to a template is a new entry, never a stale one. A kept table that is not
a flat table of texts (cut, nested, too large, another type) is passed over and written anew.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from sheetgm.core.cachedir import file_in, keep_json, read_json
from sheetgm.core.digests import blake2b

LANGS = ("zh", "en")
KEPT_LIMIT = 4_000_000  # bytes of a kept table, at most (a language's is ~110 kB)


def templates_dir() -> Path:
    """The ``sheet_templates`` folder shipped beside the package (found without importlib.resources, whose
    import alone costs about 15 ms of every command)."""
    from importlib.util import find_spec

    spec = find_spec("sheet_templates")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("sheet_templates")  # an install without its templates: nothing can be said
    return Path(spec.submodule_search_locations[0])


@cache
def table(lang: str) -> dict[str, str]:
    if lang not in LANGS:
        lang = "en"
    folder = templates_dir() / "texts" / lang
    files = [(e.name, e.read_bytes()) for e in sorted(folder.iterdir(), key=lambda e: e.name)
             if e.name.endswith(".toml")]
    digest = blake2b(digest_size=16)
    for name, data in files:
        digest.update(b"%s\0%d\0%s" % (name.encode(), len(data), data))
    kept = file_in(f"texts-{lang}-{digest.hexdigest()}.json")
    got = read_json(kept, KEPT_LIMIT, 1)
    if isinstance(got, dict) and all(isinstance(v, str) for v in got.values()):
        return got
    import tomllib

    flat: dict[str, str] = {}
    for _name, data in files:
        _flatten(tomllib.loads(data.decode("utf-8")), "", flat)
    _keep(kept, flat)
    return flat


def _keep(file: Path | None, flat: dict[str, str]) -> None:
    """Keep the table, and no older one of its language."""
    if file is not None and keep_json(file, flat):
        try:
            for old in file.parent.glob(file.name.rsplit("-", 1)[0] + "-*.json"):
                if old != file:
                    old.unlink(missing_ok=True)
        except OSError:  # another process removed one first, or the folder cannot be changed
            pass


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
    text = table(lang).get(key)
    if text is None and lang != "en":  # a key the language lacks: in English (an empty text is a text)
        text = table("en").get(key)
    if text is None:
        args = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
        return f"{key}({args})" if args else key
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        args = ", ".join(f"{k}={v}" for k, v in sorted(params.items()))
        return f"{text} [{args}]"
