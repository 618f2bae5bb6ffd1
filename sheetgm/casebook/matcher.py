"""Compare a case's expectations with what the engine produced.

Every check is partial: only the keys a case names are compared. Each
mismatch becomes one readable line (``players.A.hp: expected 4, got 5``),
so a failing case shows its whole diff at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from sheetgm.casebook.setup import Names
from sheetgm.core.board import distance, edge_key, edge_name, parse_tile, tile_name
from sheetgm.core.values import field, record

STATE_FIELDS = ("progress", "gates_powered", "odb_left", "odb_reveal", "stage", "night", "jammed", "end_reason")


@record
class Scope:
    """What one expectation is checked against."""

    state: Any
    events: list[Any]
    names: Names
    report: Callable[[int], str]  # seat -> that player's text for the last stage in scope
    public_log: Callable[[], str]
    director_log: Callable[[], str]
    problems: Callable[[int], list[Any] | None]  # seat -> check_order problems, None: no order in scope
    notes: Callable[[int], list[Any] | None] = lambda seat: None  # seat -> the checker's notes, likewise
    lines: list[str] = field(default_factory=list)


def match(expect: dict[str, Any], scope: Scope, where: str = "expect") -> list[str]:
    out: list[str] = []
    st = scope.state

    def diff(key: str, want: Any, got: Any) -> None:
        if want != got:
            out.append(f"{where}.{key}: expected {_show(want)}, got {_show(got)}")

    for alias, want in expect.get("players", {}).items():
        _player(alias, want, scope, f"{where}.players.{alias}", out)
    for k in STATE_FIELDS:
        if k in expect:
            diff(k, expect[k], getattr(st, k))
    if "winner" in expect:
        diff("winner", expect["winner"], st.winner or "")

    noise = {tile_name(t) for t in st.noise}
    if "noise" in expect:
        diff("noise", sorted(_tiles(expect["noise"])), sorted(noise))
    for t in _tiles(expect.get("noise_has", [])):
        if t not in noise:
            out.append(f"{where}.noise_has: no noise on {t} (noise: {_show(sorted(noise))})")
    for t in _tiles(expect.get("noise_not", [])):
        if t in noise:
            out.append(f"{where}.noise_not: noise on {t}")

    chests = {tile_name(t): i for t, i in st.chests.items()}
    for t, item in expect.get("chests", {}).items():
        diff(f"chests.{t}", item or None, chests.get(_tile(t)))
    lying = {tile_name(t): sorted(i) for t, i in st.lying.items()}
    for t, items in expect.get("lying", {}).items():
        diff(f"lying.{t}", sorted(items), lying.get(_tile(t), []))
    keys_on = {tile_name(t): n for t, n in st.keys_on.items()}
    for t, n in expect.get("keys_on", {}).items():
        diff(f"keys_on.{t}", n, keys_on.get(_tile(t), 0))
    if "keys_total" in expect:
        diff("keys_total", expect["keys_total"], sum(st.keys_on.values()))
    if "boards" in expect:
        want = sorted(_edge(e) for e in expect["boards"])
        diff("boards", want, sorted(edge_name(k) for k in st.boards))
    traps = {tile_name(t): scope.names.alias(s) for t, s in st.traps.items()}
    for t, owner in expect.get("traps", {}).items():
        diff(f"traps.{t}", owner, traps.get(_tile(t), ""))
    for ends, want in expect.get("passages", {}).items():
        p = next((p for p in st.passages if edge_name(p.ends) == _edge(ends)), None)
        if p is None:
            out.append(f"{where}.passages.{ends}: no such passage")
            continue
        if "discovered" in want:
            diff(f"passages.{ends}.discovered", want["discovered"], p.discovered)
        if "owner" in want:
            diff(f"passages.{ends}.owner", want["owner"], scope.names.alias(p.owner))
        if "known_by" in want:
            got_by = sorted(scope.names.alias(s) for s in p.known_by)
            diff(f"passages.{ends}.known_by", sorted(want["known_by"]), got_by)
    for k in ("eliminated", "escaped"):
        if k in expect:
            diff(k, sorted(expect[k]), sorted(scope.names.alias(s) for s in getattr(st, k)))
    for alias, colours in expect.get("cards", {}).items():
        seat = scope.names.seat(alias, f"{where}.cards.{alias}")
        diff(f"cards.{alias}", colours, [c.colour for c in st.cards if c.seat == seat and not c.merged])

    if "roles" in expect:
        diff("roles", sorted(expect["roles"]), sorted(p.role or "" for p in st.players.values()))
    for k, v in expect.get("options", {}).items():
        diff(f"options.{k}", v, st.opt(k))
    if "camps" in expect:
        got_camps = Counter(p.camp for p in st.players.values() if not p.is_robot)
        diff("camps", dict(sorted(expect["camps"].items())), dict(sorted(got_camps.items())))
    if "hunter_distance_at_least" in expect:
        pairs = [distance(h.pos, s.pos) for h in st.hunters() for s in st.survivors()]
        if pairs and min(pairs) < expect["hunter_distance_at_least"]:
            out.append(f"{where}.hunter_distance_at_least: a hunter starts at distance {min(pairs)} from a survivor")
    _events(expect, scope, where, out)
    _texts(expect, scope, where, out)
    _problems(expect, scope, where, out, "problems", scope.problems)
    _problems(expect, scope, where, out, "notes", scope.notes)
    return out


def _player(alias: str, want: dict[str, Any], scope: Scope, where: str, out: list[str]) -> None:
    p = scope.state.by_alias(alias)
    if p is None:
        out.append(f"{where}: no player with this alias in the state")
        return
    for k, v in want.items():
        if k in ("mp", "ap"):
            left = _points_left(scope, p.seat, k)
            if left != v:
                out.append(f"{where}.{k}: expected {v} left, got {_show(left)}")
            continue
        if k == "at":
            got: Any = tile_name(p.pos)
            v = _tile(v)
        elif k == "items":
            got, v = sorted(p.items), sorted(v)
        elif k == "result":
            got = p.result or ""  # "" for no result yet
        elif k in ("uses", "flags"):
            got = {kk: getattr(p, k).get(kk) for kk in v}
        else:
            got = getattr(p, k)
        if got != v:
            out.append(f"{where}.{k}: expected {_show(v)}, got {_show(got)}")


def _points_left(scope: Scope, seat: int, which: str) -> int | None:
    """MP or AP left at the end of the seat's last action in scope (the engine's ``points_left`` event)."""
    left = [e for e in scope.events if e.kind == "points_left" and e.actor == seat]
    return int(left[-1].params[which]) if left else None


def _events(expect: dict[str, Any], scope: Scope, where: str, out: list[str]) -> None:
    kinds = Counter(e.kind for e in scope.events)
    seen = ", ".join(f"{k}×{n}" if n > 1 else k for k, n in kinds.items()) or "none"
    for i, want in enumerate(expect.get("events", [])):
        if isinstance(want, str):
            want = {"kind": want}
        hits = [e for e in scope.events if _event_fits(e, want, scope.names)]
        if "count" in want:
            if len(hits) != want["count"]:
                out.append(f"{where}.events[{i}]: expected {want['count']} event(s) {_show(want)}, got {len(hits)}"
                           f" (events: {seen})")
        elif not hits:
            near = [e for e in scope.events if e.kind == want["kind"]]
            detail = "; ".join(_event_str(e, scope.names) for e in near) if near else f"events: {seen}"
            out.append(f"{where}.events[{i}]: no event like {_show(want)} ({detail})")
    for i, unwanted in enumerate(expect.get("no_events", [])):
        if isinstance(unwanted, str):
            unwanted = {"kind": unwanted}
        hits = [e for e in scope.events if _event_fits(e, unwanted, scope.names)]
        if hits:
            what = _show(unwanted["kind"]) if len(unwanted) == 1 else _show(unwanted)
            out.append(f"{where}.no_events[{i}]: event {what} occurred: "
                       + "; ".join(_event_str(e, scope.names) for e in hits))


def _event_fits(e: Any, want: dict[str, Any], names: Names) -> bool:
    if e.kind != want["kind"]:
        return False
    if "public" in want and bool(e.public) != want["public"]:
        return False
    if "actor" in want and names.alias(e.actor).casefold() != want["actor"].casefold():
        return False
    if "to" in want and sorted(names.alias(s).casefold() for s in e.to) != sorted(a.casefold() for a in want["to"]):
        return False
    return all(k in e.params and same(v, e.params[k], names) for k, v in want.get("params", {}).items())


def _event_str(e: Any, names: Names) -> str:
    params = ", ".join(f"{k}={_display(v)}" for k, v in e.params.items())
    who = f" by {names.alias(e.actor)}" if e.actor is not None else ""
    to = " public" if e.public else (" to " + ",".join(names.alias(s) for s in e.to) if e.to else "")
    return f"{e.kind}({params}){who}{to}"


def _texts(expect: dict[str, Any], scope: Scope, where: str, out: list[str]) -> None:
    for key, positive in (("reports", True), ("not_reports", False)):
        for alias, subs in expect.get(key, {}).items():
            seat = scope.names.seat(alias, f"{where}.{key}.{alias}")
            _substrings(f"{where}.{key}.{alias}", scope.report(seat), subs, positive, out)
    for key, fn in (("public_log", scope.public_log), ("director_log", scope.director_log)):
        if key in expect:
            _substrings(f"{where}.{key}", fn(), expect[key], True, out)
        if f"not_{key}" in expect:
            _substrings(f"{where}.not_{key}", fn(), expect[f"not_{key}"], False, out)


def _substrings(where: str, text: str, subs: list[str], positive: bool, out: list[str]) -> None:
    bad = [s for s in subs if (s in text) != positive]
    if bad:
        verb = "missing" if positive else "must not contain"
        shown = "\n".join("    | " + line for line in text.splitlines()) or "    | (empty)"
        out.append(f"{where}: {verb} {', '.join(repr(s) for s in bad)} in:\n{shown}")


def _problems(expect: dict[str, Any], scope: Scope, where: str, out: list[str], key: str,
              found: Callable[[int], list[Any] | None]) -> None:
    """``problems`` (or ``notes``) of the checker, exactly: each expected one found, and no other."""
    what = key[:-1]
    for alias, wants in expect.get(key, {}).items():
        seat = scope.names.seat(alias, f"{where}.{key}.{alias}")
        got = found(seat)
        if got is None:
            out.append(f"{where}.{key}.{alias}: {alias} has no order in this scope")
            continue
        shown = ", ".join(f"{p.code}@{p.step}" for p in got) or "none"
        left = list(got)
        for want in wants:
            if isinstance(want, str):
                want = {"code": want}
            hit = next((p for p in left if _problem_fits(p, want, scope.names)), None)
            if hit is None:
                out.append(f"{where}.{key}.{alias}: no {what} like {_show(want)} (got {shown})")
            else:
                left.remove(hit)
        # Exact: every problem (note) the checker reports must be expected.
        for extra in left:
            out.append(f"{where}.{key}.{alias}: unexpected {what} {extra.code}@{extra.step} (got {shown})")


def _problem_fits(p: Any, want: dict[str, Any], names: Names) -> bool:
    if p.code != want["code"]:
        return False
    if "step" in want and p.step != want["step"]:
        return False
    return all(k in p.params and same(v, p.params[k], names) for k, v in want.get("params", {}).items())


def same(want: Any, got: Any, names: Names | None = None) -> bool:
    """Equality that lets a case write tiles and aliases where the engine keeps tuples and seats."""
    if isinstance(want, str) and _is_tile(got):
        return parse_tile(want) == tuple(got)
    if isinstance(want, str) and isinstance(got, int) and not isinstance(got, bool) and names is not None:
        return names.alias(got).casefold() == want.casefold()
    if isinstance(want, list) and isinstance(got, (list, tuple, set, frozenset)):
        items = list(got)
        return len(want) == len(items) and all(same(w, g, names) for w, g in zip(want, items, strict=True))
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and same(v, got[k], names) for k, v in want.items())
    return bool(want == got)


def _is_tile(v: Any) -> bool:
    return isinstance(v, tuple) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v)


def _display(v: Any) -> str:
    if _is_tile(v):
        return tile_name(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_display(x) for x in v) + "]"
    return repr(v)


def _tile(text: str) -> str:
    t = parse_tile(text)
    return tile_name(t) if t is not None else text


def _tiles(texts: list[str]) -> list[str]:
    return [_tile(t) for t in texts]


def _edge(text: str) -> str:
    parts = text.split("-")
    tiles = [parse_tile(p) for p in parts]
    if len(parts) == 2 and tiles[0] is not None and tiles[1] is not None:
        return edge_name(edge_key(tiles[0], tiles[1]))
    return text


def _show(v: Any) -> str:
    return repr(v) if not isinstance(v, list) else "[" + ", ".join(_show(x) for x in v) + "]"
