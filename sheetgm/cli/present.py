"""Plain-text summaries of the use cases' results, in the director's language (for the CLI)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheetgm.core.texts import render
from sheetgm.notation.times import shown as shown_time

if TYPE_CHECKING:  # only for the annotations: `check` need not import the demo, its bots, audit...
    from sheetgm.service.audit import AuditReport
    from sheetgm.service.check import CheckReport, PlayerCheck
    from sheetgm.service.demo import DemoReport
    from sheetgm.service.game import Game
    from sheetgm.service.ledger.lock import UnlockReport
    from sheetgm.service.new_game import ShareReport
    from sheetgm.service.resolve import ResolveReport
    from sheetgm.service.status import StatusReport


def created(game: Game, urls: dict[str, str | None]) -> str:
    lines = [render(game.voice, "cli.created", folder=str(game.folder), n=len(urls))]
    aliases = {s: game.alias(s) for s in game.seats}
    lines += [f"  {book(game.voice, key, aliases)}: {shown(url)}" for key, url in urls.items()]
    return "\n".join(lines)


def book(lang: str, key: str, aliases: dict[int, str]) -> str:
    """A workbook as the director names it ("the public workbook", "seat 3 · Ann"), not by its key."""
    if key.startswith("player-") and key[7:].isdigit():
        seat = int(key[7:])
        return render(lang, "day.book.player", seat=seat, alias=aliases.get(seat, "?"))
    return render(lang, f"day.book.{key}")


def shared(lang: str, rep: ShareReport) -> str:
    lines = [render(lang, "cli.shared", n=len(rep.shared))]
    lines += [f"  {key}: {email} ({role})" for key, email, role in rep.shared]
    if rep.missing:
        lines.append(render(lang, "cli.share_missing", keys=", ".join(rep.missing)))
    return "\n".join(lines)


def checked(lang: str, rep: CheckReport) -> str:
    if rep.stage == "over":
        return render(lang, "cli.over")
    lines = [render(lang, "cli.check_head", stage=rep.stage)]
    for p in rep.players:
        lines.append(f"  {p.alias}: {render(lang, f'cli.state.{_state_word(p, rep.passed)}')}")
        lines += [f"    - {x}" for x in p.problems]
        lines += [f"    · {x}" for x in p.notes]
    if rep.passed:  # nobody can submit any more: who will do nothing, not who "has not submitted"
        lines.append(render(lang, "cli.without_order", aliases=", ".join(rep.without_order) or "-"))
    else:
        lines.append(render(lang, "cli.missing", aliases=", ".join(rep.missing) or "-"))
    lines.append(render(lang, "cli.with_problems", aliases=", ".join(rep.with_problems) or "-"))
    if rep.stand_in:
        lines.append(render(lang, "day.check_stand_in", aliases=", ".join(rep.stand_in)))
    if rep.unchanged:
        lines.append(render(lang, "cli.check_unchanged", aliases=", ".join(rep.unchanged)))
    lines += [f"! {w}" for w in rep.warnings]
    return "\n".join(lines)


def _state_word(p: PlayerCheck, passed: bool) -> str:
    """The key of a seat's state in the check's summary: a first order written after the deadline is late, not
    changed; after the deadline an unticked order is carried out as written."""
    if p.state == "late" and p.verdict == "late":  # stamps.LATE (not imported: the fast path stays light)
        return "late_written"
    if p.state == "unticked" and passed:
        return "after_unticked"
    return p.state


LOCAL_WORDING = {"waiting": "day.local.waiting", "no_deadline": "day.local.no_deadline"}


def resolved(lang: str, rep: ResolveReport, local: bool = False) -> str:
    """What a resolve did; a local game's wording names no scheduled run (the schedule is for Google games)."""
    action = rep.action.name.lower()
    key = LOCAL_WORDING.get(action) if local else None
    lines = [render(lang, key or f"cli.resolve.{action}", stage=rep.stage)]
    if rep.public_log:
        lines.append(rep.public_log.rstrip())
    for alias, text in rep.reports.items():
        lines.append(f"--- {alias}\n{text.rstrip()}")
    lines += [f"! {w}" for w in rep.warnings]
    lines += [f"  {n}" for n in rep.notes]
    if rep.winner:
        lines.append(render(lang, "cli.winner", winner=render(lang, f"word.{rep.winner}")))
    return "\n".join(lines)


def statused(lang: str, rep: StatusReport) -> str:
    """The director's view: the stage due and its deadline, the table of seats (roles included), the journal,
    the lock and the workbooks. Every time in the game's zone, named."""
    zone = rep.timezone
    due = rep.due or render(lang, "cli.over")
    deadline = shown_time(rep.deadline, lang, zone) if rep.deadline else "-"
    lines = [render(lang, "cli.status", game=rep.game, backend=rep.backend, due=due, progress=rep.progress,
                    deadline=deadline)]
    if rep.due and not rep.pending_publish and not rep.deadline:
        lines.append(render(lang, "day.local.status_no_deadline" if rep.backend == "xlsx" else "cli.no_deadline",
                            stage=rep.due))
    lines += [render(lang, "cli.next_deadline", stage=k, deadline=shown_time(t, lang, zone))
              for k, t in rep.next_deadlines]
    if rep.pending_publish:
        lines.append(render(lang, "svc.pending_publish", stage=rep.due))
    if rep.locked_by:
        lines.append(render(lang, "cli.locked", holder=rep.locked_by))
    lines += [render(lang, "cli.unlocked", **(u | {"at": shown_time(u["at"], lang, zone),
                                                    "since": shown_time(u["since"], lang, zone)}))
              for u in rep.unlocks[-3:]]
    lines += [f"! {w}" for w in rep.undelivered]
    if rep.winner:
        lines.append(render(lang, "cli.winner", winner=render(lang, f"word.{rep.winner}")))
    lines.append(grid(_seat_heads(lang), [_seat_cells(lang, zone, p) for p in rep.players]))
    lines.append(render(lang, "day.status.journal"))
    width = max((len(key) for key, _st, _t in rep.journal), default=0)
    for key, st, time in rep.journal:
        line = f"  {key:<{width}}  {render(lang, f'cli.journal.{st}')}  {shown_time(time, lang, zone, short=True)}"
        if rep.rolled_back.get(key):
            line += "  " + render(lang, "cli.journal.rolled_back", n=rep.rolled_back[key])
        lines.append(line)
    if rep.workbooks:
        lines.append(render(lang, "day.status.workbooks"))
    aliases = {int(str(p["seat"])): str(p["alias"]) for p in rep.players}
    lines += [f"  {book(lang, k, aliases)}: {shown(u)}" for k, u in rep.workbooks.items()]
    return "\n".join(lines)


def _seat_heads(lang: str) -> list[str]:
    return [*render(lang, "day.head.table").split("|"), render(lang, "day.head.result")]


def _seat_cells(lang: str, zone: str, p: dict[str, object]) -> list[str]:
    """One seat of the director's table (table.SeatRow as a dict, with the player's result)."""
    from sheetgm.notation.vocab import role_name

    order, role, result = str(p.get("order") or ""), str(p.get("role") or ""), p.get("result")
    return [str(p["seat"]), str(p["alias"]), str(p.get("lang", "")), render(lang, f"sheet.camp.{p['camp']}"),
            role_name(role, lang) if role else "-", render(lang, f"word.{p['status']}"),
            render(lang, f"day.order.{order}") if order else "-",
            shown_time(str(p.get("read") or ""), lang, zone, short=True),
            shown_time(str(p.get("stamp") or ""), lang, zone, short=True),
            render(lang, f"word.result_{result}") if result else "-"]


def grid(heads: list[str], rows: list[list[str]]) -> str:
    """A table for the terminal: as wide as the terminal (cells fold, never cut), or as wide as it needs
    when the output is not a terminal (a file, a pipe). Chinese characters count two columns."""
    import io
    import sys

    from rich import box
    from rich.console import Console
    from rich.table import Table

    out = io.StringIO()
    wide = sys.stdout.isatty()
    console = Console(file=out, width=None if wide else 1000, force_terminal=False, color_system=None,
                      highlight=False, soft_wrap=False)
    if wide:
        console.width = Console().width
    tab = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for head in heads:
        tab.add_column(head, overflow="fold")
    for row in rows:
        tab.add_row(*row)
    console.print(tab)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines() if line.strip())


def _result(lang: str, result: str | None) -> str:
    """A player's own result (RUL-35) after the status, once there is one."""
    return f"  {render(lang, 'cli.result', result=render(lang, f'word.result_{result}'))}" if result else ""


def unlocked(lang: str, rep: UnlockReport) -> str:
    if not rep.cleared:
        return render(lang, "cli.unlock_free")
    since = shown_time(rep.since, lang, None) if rep.since else "-"
    return render(lang, "cli.unlock_done", holder=rep.holder or "-", since=since)


def audited(lang: str, rep: AuditReport, aliases: dict[int, str] | None = None) -> str:
    """The audit, each workbook named as the director knows it (``book``: a seat and its alias), never by key."""
    lines = []
    for b in rep.books:
        share = ", ".join(f"{e} ({r})" for e, r in b.sharing) or "-"
        lines.append(f"{book(lang, b.key, aliases or {})}: {render(lang, 'cli.shared_with', who=share)}")
        lines += [f"  🔒 {rng}: {', '.join(ed) or render(lang, 'cli.owner_only')}" for rng, ed, _d in b.protections]
        lines += [f"  ✗ {f}" for f in b.failures]
        lines += [f"  ! {w}" for w in b.warnings]
    lines += [f"ℹ {n}" for n in rep.notes]
    lines.append(render(lang, "cli.audit_ok" if rep.ok else "cli.audit_failed"))
    return "\n".join(lines)


def demoed(lang: str, rep: DemoReport) -> str:
    lines = [rep.public_log.rstrip(), ""]
    winner = render(lang, f"word.{rep.winner}") if rep.winner else render(lang, "cli.no_winner")
    lines.append(render(lang, "cli.demo_done", stages=rep.stages, nights=rep.nights, winner=winner))
    lines.append(render(lang, "cli.demo_where", folder=str(rep.folder)))
    lines += [f"  {p}" for p in rep.workbooks]
    lines += [f"! {w}" for w in rep.warnings]
    lines.append(render(lang, "cli.demo_next"))  # last: the one line that starts a real game
    return "\n".join(lines)


def shown(url: str | None) -> str:
    """A workbook's address as a director reads it: a local file as its path (not a %-escaped file: URL)."""
    if not url:
        return "-"
    if url.startswith("file://"):
        from urllib.parse import urlparse
        from urllib.request import url2pathname

        return url2pathname(urlparse(url).path)
    return url
