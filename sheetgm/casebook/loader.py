"""Read case-book files (TOML) into ``Case`` values, strictly."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sheetgm.casebook import schema
from sheetgm.casebook.model import Case, DirectorAct, Night
from sheetgm.core.errors import CaseError

WHEN = ("before", "after_survivor", "after")


def case_files(paths: Iterable[str | Path]) -> list[Path]:
    """Expand folders into their ``*.toml`` files (sorted); keep files as given."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*.toml") if q.is_file()))
        elif p.is_file():
            out.append(p)
        else:
            raise CaseError("err.case.no_such_path", file=str(p), case="-", key="-")
    return out


def load_file(path: str | Path) -> list[Case]:
    path = Path(path)
    name = path.name
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CaseError("err.case.toml", file=name, case="-", key="-", detail=str(exc)) from exc
    header = {k: v for k, v in data.items() if k != "case"}
    schema.validate(header, schema.Table(schema.FILE.keys, ("section",)), "", name, "-")
    raw_cases = data.get("case")
    if not isinstance(raw_cases, list) or not raw_cases:
        raise CaseError("err.case.missing_key", file=name, case="-", key="case")
    maps: dict[str, str] = data.get("maps", {})
    cases: list[Case] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_cases):
        found = raw.get("id") if isinstance(raw, dict) else None
        cid = found if isinstance(found, str) else f"#{i + 1}"
        schema.validate(raw, schema.CASE, "", name, cid)
        if cid in seen:
            raise CaseError("err.case.duplicate_id", file=name, case=cid, key="id")
        seen.add(cid)
        cases.append(_case(path, data["section"], raw, maps, cid))
    return cases


def load_paths(paths: Iterable[str | Path]) -> list[Case]:
    """Every case of every file under ``paths``; case ids must be unique across them."""
    cases: list[Case] = []
    where: dict[str, str] = {}
    for f in case_files(paths):
        for c in load_file(f):
            if c.id in where and where[c.id] != f.name:
                raise CaseError("err.case.duplicate_id", file=f.name, case=c.id, key="id")
            where[c.id] = f.name
            cases.append(c)
    return cases


def _case(path: Path, section: str, raw: dict[str, Any], maps: dict[str, str], cid: str) -> Case:
    name = path.name

    def fail(code: str, key: str, **params: Any) -> CaseError:
        return CaseError(code, file=name, case=cid, key=key, **params)

    if not raw["covers"]:
        raise fail("err.case.missing_key", "covers")
    if "map" in raw and "map_text" in raw:
        raise fail("err.case.conflict", "map_text", other="map")
    map_text = raw.get("map_text")
    map_name = raw.get("map")
    if map_name is not None and map_name in maps:
        map_text, map_name = maps[map_name], None
    if map_text is None and map_name is None:
        raise fail("err.case.missing_key", "map")
    if "deal" in raw and "players" in raw.get("setup", {}):
        raise fail("err.case.conflict", "deal", other="setup.players")
    if "error" in raw and "expect" in raw:
        raise fail("err.case.conflict", "expect", other="error")
    if "error" not in raw and "expect" not in raw and not any("expect" in n or "after_survivor" in n
                                                           for n in raw.get("night", [])):
        raise fail("err.case.missing_key", "expect")
    nights = tuple(_night(n, fail, f"night[{i}]") for i, n in enumerate(raw.get("night", [])))
    return Case(
        file=path, section=section, id=cid, title=raw["title"], covers=tuple(raw["covers"]), rule=raw["rule"],
        map_name=map_name, map_text=map_text, seed=raw.get("seed", 1), options=dict(raw.get("options", {})),
        setup=dict(raw.get("setup", {})), deal=raw.get("deal"), nights=nights, expect=raw.get("expect"),
        error=raw.get("error"), error_params=dict(raw.get("error_params", {})), note=raw.get("note", ""),
    )


def _night(raw: dict[str, Any], fail: Any, where: str) -> Night:
    acts = []
    for j, a in enumerate(raw.get("director", [])):
        key = f"{where}.director[{j}]"
        when = a.get("when", "before")
        if when not in WHEN:
            raise fail("err.case.bad_value", f"{key}.when", value=when, allowed=", ".join(WHEN))
        if sum(k in a for k in ("card", "override", "lurking")) != 1:
            raise fail("err.case.conflict", key, other="card/override/lurking")
        if "card" in a and "colour" not in a:
            raise fail("err.case.missing_key", f"{key}.colour")
        if "override" in a and ("field" not in a or "value" not in a):
            raise fail("err.case.missing_key", f"{key}.field")
        acts.append(DirectorAct(when=when, card=a.get("card"), colour=a.get("colour"), override=a.get("override"),
                                field=a.get("field"), value=a.get("value"), reason=a.get("reason", "case"),
                                declare_loss=bool(a.get("declare_loss", False)), lurking=a.get("lurking")))
    if not raw.get("resolve", True) and raw.get("replay"):
        raise fail("err.case.conflict", f"{where}.replay", other="resolve")
    if raw.get("stop_after_survivor") and "hunter" in raw:
        raise fail("err.case.conflict", f"{where}.stop_after_survivor", other="hunter")
    if raw.get("stop_after_survivor") and "survivor" not in raw:
        raise fail("err.case.missing_key", f"{where}.survivor")
    prio = raw.get("priority")
    return Night(
        survivor=raw.get("survivor"), hunter=raw.get("hunter"), priority=tuple(prio) if prio is not None else None,
        seed=raw.get("seed"), director=tuple(acts), after_survivor=raw.get("after_survivor"),
        expect=raw.get("expect"), replay=bool(raw.get("replay", False)), resolve=bool(raw.get("resolve", True)),
        rollback=bool(raw.get("rollback", False)), stop_after_survivor=bool(raw.get("stop_after_survivor", False)),
    )
