"""Plain-text summaries of the use cases' results, in the director's language (for the CLI)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheetgm.core.texts import render

if TYPE_CHECKING:  # only for the annotations: `check` need not import the demo, its bots, audit...
    from sheetgm.service.audit import AuditReport
    from sheetgm.service.check import CheckReport
    from sheetgm.service.demo import DemoReport
    from sheetgm.service.game import Game
    from sheetgm.service.lock import UnlockReport
    from sheetgm.service.new_game import ShareReport
    from sheetgm.service.resolve import ResolveReport
    from sheetgm.service.status import StatusReport


def created(game: Game, urls: dict[str, str | None]) -> str:
    lines = [render(game.voice, "cli.created", folder=str(game.folder), n=len(urls))]
    lines += [f"  {key}: {shown(url)}" for key, url in urls.items()]
    return "\n".join(lines)


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
        lines.append(f"  {p.alias}: {render(lang, f'cli.state.{p.state}')}")
        lines += [f"    - {x}" for x in p.problems]
        lines += [f"    · {x}" for x in p.notes]
    lines.append(render(lang, "cli.missing", aliases=", ".join(rep.missing) or "-"))
    lines.append(render(lang, "cli.with_problems", aliases=", ".join(rep.with_problems) or "-"))
    lines += [f"! {w}" for w in rep.warnings]
    return "\n".join(lines)


def resolved(lang: str, rep: ResolveReport) -> str:
    lines = [render(lang, f"cli.resolve.{rep.action.replace('-', '_')}", stage=rep.stage)]
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
    due = rep.due or render(lang, "cli.over")
    lines = [render(lang, "cli.status", game=rep.game, backend=rep.backend, due=due, progress=rep.progress,
                    deadline=rep.deadline or "-")]
    if rep.due and not rep.pending_publish and not rep.deadline:
        lines.append(render(lang, "cli.no_deadline", stage=rep.due))
    lines += [render(lang, "cli.next_deadline", stage=k, deadline=t) for k, t in rep.next_deadlines]
    if rep.pending_publish:
        lines.append(render(lang, "svc.pending_publish", stage=rep.due))
    if rep.locked_by:
        lines.append(render(lang, "cli.locked", holder=rep.locked_by))
    lines += [render(lang, "cli.unlocked", **u) for u in rep.unlocks[-3:]]
    lines += [f"! {w}" for w in rep.undelivered]
    if rep.winner:
        lines.append(render(lang, "cli.winner", winner=render(lang, f"word.{rep.winner}")))
    for key, st, time in rep.journal:
        line = f"  {key}  {render(lang, f'cli.journal.{st}')}  {time}"
        if rep.rolled_back.get(key):
            line += "  " + render(lang, "cli.journal.rolled_back", n=rep.rolled_back[key])
        lines.append(line)
    for p in rep.players:
        camp, st = render(lang, "sheet.camp." + p["camp"]), render(lang, "word." + p["status"])
        lines.append(f"  {p['seat']:>2} {p['alias']}  {camp}  {st}" + _result(lang, p.get("result")))
    lines += [f"  {k}: {shown(u)}" for k, u in rep.workbooks.items()]
    return "\n".join(lines)


def _result(lang: str, result: str | None) -> str:
    """A player's own result (RUL-35) after the status, once there is one."""
    return f"  {render(lang, 'cli.result', result=render(lang, f'word.result_{result}'))}" if result else ""


def unlocked(lang: str, rep: UnlockReport) -> str:
    if not rep.cleared:
        return render(lang, "cli.unlock_free")
    return render(lang, "cli.unlock_done", holder=rep.holder or "-", since=rep.since or "-")


def audited(lang: str, rep: AuditReport) -> str:
    lines = []
    for b in rep.books:
        share = ", ".join(f"{e} ({r})" for e, r in b.sharing) or "-"
        lines.append(f"{b.key}: {render(lang, 'cli.shared_with', who=share)}")
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
