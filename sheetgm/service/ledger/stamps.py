"""First-complete stamps (R-PHASE-3) and which version of an order counts at the deadline.

The stamp shown in column F of a player's Orders tab is only a display: the
truth is kept in the director's Orders archive (row ``archive_row(stage,
seat)``, columns A-I), where players cannot write, and ``check`` names a
sheet stamp that disagrees and writes the true one back.

Before the deadline every ``check`` (and a resolve before the deadline)
stamps an order the first time it sees it complete (written, ticked, no
problem, not `无`/empty); the stamp keeps the text it was given for and is
dropped when the text changes. The check also notes that it saw the seat and
a fingerprint of the text. After the deadline nothing is stamped or noted,
and at resolve an order counts only as the tool saw it before the deadline:

* stamped text unchanged: it counts, in stamp order;
* the text the last check before the deadline saw: it counts, unstamped
  (ticked after that check: it is carried out, without priority);
* changed since, with the version that check saw stamped: the stamped version
  counts, in stamp order (``FALLBACK``);
* changed since, the version that check saw not stamped: that version counts,
  without priority (``SEEN``, RUL-50);
* that check saw no order: what was written after it is not used (stay and do
  nothing, ``LATE``), and the player is told so, never "no order received".

A seat no check saw before the deadline cannot be judged: its order counts
as read (the director is told).

The same archive rows keep two more memories (RUL-51, RUL-52): the notes about a
player's Orders tab already told (column K: a note is told in the stage that
first finds it, never again), and that the stage's deadline was seen passed
(columns L-M): once a run has seen it pass, a clock set back cannot reopen it.
Columns N-O keep the last check's verdict and when it read the row (the
director's table and `sheetgm status` show them).

RUL-55: the tool's own delay is never the player's loss. The schedule looks
every 15 minutes in the last hour (``LOOK_WINDOW``); when the last look
before the deadline is older than that (GitHub started the last check runs
late, dropped them, or a local director checked early), the first look after
the deadline stands in for the missed one: what it reads counts as seen
before the deadline (unstamped unless it is the stamped text), and the
director is told whose orders were read only after the deadline.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sheetgm.backends.port import Op, SetValues
from sheetgm.core.digests import sha256_hex
from sheetgm.core.texts import render
from sheetgm.core.values import Value, record, replace
from sheetgm.notation.times import parse
from sheetgm.service.game import DIRECTOR, Game, config_range
from sheetgm.service.ledger.journal import SUPERSEDED, Entry, journal_range, lock_range, parse_entries
from sheetgm.sheets import layout
from sheetgm.sheets.limits import kept_order
from sheetgm.sheets.stages import archive_row, key_of_index

# A stage, B seat, C alias, D stamped text, E problems, F stamp, G fingerprint, H checked, I seen (fingerprint),
# J seen text, K notes told, L the deadline seen passed, M when it was first seen passed,
# N the last check's verdict (ok, problems, unticked, empty, late, unreadable), O when the tool last read the row,
# (P the check's memory of the workbook: checkmemo.py)
COLS = 15
OK, FALLBACK, SEEN, LATE, UNJUDGED, STAND_IN = "ok", "fallback", "seen", "late", "unjudged", "stand-in"
LOOK_WINDOW = timedelta(minutes=15)  # the spacing of the schedule's check runs in the last hour (schedule.py)
AFTER = (FALLBACK, SEEN, LATE)  # the verdicts of an order changed after the last check before the deadline


def fingerprint(text: str) -> str:
    return sha256_hex(text.strip().encode("utf-8"))[:12]


@record(frozen=True)
class Truth(Value):
    """What the director's archive says of a seat's order: its stamp, its last look, its verdict."""

    stamp: str = ""  # ISO time the order was first seen complete with the text ``stamped``
    stamped: str = ""
    checked: str = ""  # the last check before the deadline that read this seat
    seen: str = ""  # fingerprint of the text that check read
    seen_text: str = ""  # the text itself (what counts if the order changes after it, RUL-50)

    def stamp_for(self, text: str) -> str:
        """The stamp, if it was given to this very text."""
        return self.stamp if self.stamp and fingerprint(self.stamped) == fingerprint(text) else ""


def archive_range(lang: str) -> str:
    """Columns A-O (COLS); P: what the last check knew of the seat's workbook, to skip it unchanged (checkmemo.py)."""
    return layout.rng(layout.tab(lang, "archive"), "A2:P")


def _row(rows: list[list[str]], key: str, seat: int, seats: int) -> list[str]:
    i = archive_row(key, seat, seats) - 2
    return list(rows[i]) + [""] * COLS if 0 <= i < len(rows) else [""] * COLS


def books_range(lang: str) -> str:
    """The Roster tab's rows, A to H: H is the workbook last read as the seat's (``Game.learn_books``)."""
    return layout.rng(layout.tab(lang, "roster"), "A2:H")


def read_desk(game: Game) -> tuple[list[Entry], list[str], list[list[str]]]:
    """One read of the director workbook: the journal, the lock cells and the Orders archive (and the game's
    secret and the workbooks known to be each seat's, kept for the run: ``Game.secret``, ``Game.known_books``)."""
    lang = game.lang
    ranges = [journal_range(lang), lock_range(lang), archive_range(lang), config_range(lang), books_range(lang)]
    got = game.gateway.read(DIRECTOR, ranges)
    game.learn_secret(got[ranges[3]])
    game.learn_books(got[ranges[4]])
    lock = list((got[ranges[1]] or [[]])[0])
    return parse_entries(got[ranges[0]], lang), lock, got[ranges[2]]


def truths(rows: list[list[str]], key: str, seats: int, entries: list[Entry]) -> dict[int, Truth]:
    """The stamps of ``key`` per seat: from its archive rows, or (after a rollback marked those rows)
    the stamps the superseded resolve of the stage used."""
    out: dict[int, Truth] = {}
    for seat in range(1, seats + 1):
        cells = _row(rows, key, seat, seats)
        if cells[0].strip() == key:
            stamped = cells[3] if cells[6] and fingerprint(cells[3]) == cells[6] else ""
            seen = cells[8].strip()
            seen_text = cells[9] if seen and fingerprint(cells[9]) == seen else ""
            out[seat] = Truth(cells[5].strip() if stamped else "", stamped, cells[7].strip(), seen, seen_text)
    old = [e for e in entries if e.key == key and e.status == SUPERSEDED]
    if old:
        for seat, info in old[-1].orders().items():
            if seat not in out and info.stamp:
                out[seat] = Truth(info.stamp, info.text)
    return out


def observe(truth: Truth, text: str, complete: bool, now: datetime) -> Truth:
    """What a look before the deadline learns: a first-complete stamp, a dropped one, and that it saw ``text``."""
    when = now.isoformat(timespec="seconds")
    t = truth
    if complete and not t.stamp_for(text):
        t = replace(t, stamp=when, stamped=text.strip())
    elif not complete and t.stamped and not t.stamp_for(text):
        t = replace(t, stamp="", stamped="")  # the text changed after its stamp
    return replace(t, checked=when, seen=fingerprint(text), seen_text=kept_order(text.strip()))


def missed(truth: Truth | None, deadline: datetime | None) -> bool:
    """Whether the last look before ``deadline`` came too early (RUL-55): the checks meant for the last
    ``LOOK_WINDOW`` did not run in time, so the first look after the deadline stands in for them. A seat
    never looked at is another case (unjudged, RUL-38)."""
    if truth is None or not truth.checked or deadline is None:
        return False
    when = parse(truth.checked)
    return when is None or when < deadline - LOOK_WINDOW


def counted(truth: Truth | None, text: str, deadline: datetime | None = None) -> tuple[str, str, str]:
    """After the deadline: (the text that counts, its stamp, verdict) from what was seen before it."""
    if truth is None or not truth.checked:
        return text, (truth.stamp_for(text) if truth else ""), UNJUDGED
    if missed(truth, deadline):
        return text, truth.stamp_for(text), STAND_IN
    if truth.stamp_for(text):
        return text, truth.stamp, OK
    if fingerprint(text) == truth.seen:
        return text, "", OK
    if truth.stamp:
        return truth.stamped, truth.stamp, FALLBACK
    if truth.seen_text and fingerprint(truth.seen_text) == truth.seen:
        return truth.seen_text, "", SEEN
    return "", "", LATE


def truth_ops(game: Game, key: str, seen: dict[int, Truth]) -> list[Op]:
    """The archive rows of ``key`` for the seats looked at (one write to the director workbook)."""
    tab, seats = layout.tab(game.lang, "archive"), len(game.seats)
    ops: list[Op] = []
    for seat, t in sorted(seen.items()):
        r = archive_row(key, seat, seats)
        row = (key, str(seat), game.alias(seat), t.stamped, "", t.stamp, fingerprint(t.stamped) if t.stamped else "",
               t.checked, t.seen, t.seen_text)
        ops.append(SetValues(layout.rng(tab, f"A{r}:J{r}"), (row,)))
    return ops


def reads(rows: list[list[str]], key: str, seats: int) -> dict[int, tuple[str, str]]:
    """Per seat, the last check's verdict on the row of ``key`` and when it read it (columns N and O)."""
    out: dict[int, tuple[str, str]] = {}
    for seat in range(1, seats + 1):
        i = archive_row(key, seat, seats) - 2
        cells = list(rows[i]) + [""] * COLS if 0 <= i < len(rows) else [""] * COLS
        if cells[0].strip() == key and cells[13].strip():
            out[seat] = (cells[13].strip(), cells[14].strip())
    return out


def read_ops(game: Game, key: str, seen: dict[int, tuple[str, str]]) -> list[Op]:
    """Columns N and O of ``key``'s archive rows: each checked seat's verdict and when it was read (the
    director's table shows them, `sheetgm status` too), with their headers."""
    tab, seats = layout.tab(game.lang, "archive"), len(game.seats)
    heads = (render(game.lang, "day.head.verdict"), render(game.lang, "day.head.read"))
    ops: list[Op] = [SetValues(layout.rng(tab, "N1:O1"), (heads,))]
    for seat, (verdict, when) in sorted(seen.items()):
        r = archive_row(key, seat, seats)
        ops.append(SetValues(layout.rng(tab, f"A{r}:C{r}"), ((key, str(seat), game.alias(seat)),)))
        ops.append(SetValues(layout.rng(tab, f"N{r}:O{r}"), ((verdict, when),)))
    return ops


# -- notes told once (RUL-51) --------------------------------------------------------------------------

def told(rows: list[list[str]], key: str, seat: int, seats: int) -> tuple[set[str], set[str]]:
    """The notes already told to ``seat``: (in another stage, in ``key`` itself)."""
    before: set[str] = set()
    now: set[str] = set()
    if seats < 1 or seat < 1:
        return before, now  # (no row is that seat's)
    for r in range(seat + 1, len(rows) + 2, seats):  # the seat's rows alone: one a stage (``archive_row``)
        cells = rows[r - 2]
        if len(cells) <= 10 or not cells[10].strip():
            continue
        try:
            stage, at = _stage_seat(r, seats)
        except ValueError:
            continue
        if at != seat:
            continue
        (now if stage == key else before).update(cells[10].split())
    return before, now


def _stage_seat(row: int, seats: int) -> tuple[str, int]:
    """The (stage, seat) an archive row belongs to (the inverse of ``archive_row``)."""
    if row < 2 or seats < 1:
        raise ValueError(row)
    index, seat = divmod(row - 2, seats)
    return key_of_index(index + 1), seat + 1


def told_op(game: Game, key: str, seat: int, ids: set[str]) -> Op:
    r = archive_row(key, seat, len(game.seats))
    return SetValues(layout.rng(layout.tab(game.lang, "archive"), f"K{r}"), ((" ".join(sorted(ids)),),))


# -- a deadline once passed stays passed (RUL-52) ------------------------------------------------------

def passed_record(rows: list[list[str]], key: str, seats: int) -> tuple[str, str]:
    """The deadline of ``key`` a run saw pass, and when it first saw it: ("", "") if none did."""
    for seat in range(1, seats + 1):
        cells = _row(rows, key, seat, seats)
        if cells[11].strip():
            return cells[11].strip(), cells[12].strip()
    return "", ""


def has_passed(rows: list[list[str]], key: str, seats: int, deadline: datetime | None, now: datetime) -> bool:
    """Whether ``deadline`` has passed: by the clock, or because a run already saw this very deadline pass (a
    clock set back later cannot reopen the stage; a deadline the director moved is a new one)."""
    if deadline is None:
        return False
    if now >= deadline:
        return True
    seen, _at = passed_record(rows, key, seats)
    try:
        return bool(seen) and datetime.fromisoformat(seen) == deadline
    except ValueError:
        return False


def passed_ops(game: Game, rows: list[list[str]], key: str, deadline: datetime | None, seats: list[int]) -> list[Op]:
    """Record that ``deadline`` was seen passed, in the archive rows of ``seats`` (once: nothing if it was)."""
    if deadline is None or not seats or passed_record(rows, key, len(game.seats))[0] == deadline.isoformat():
        return []
    tab, n = layout.tab(game.lang, "archive"), len(game.seats)
    when = game.now().isoformat(timespec="seconds")
    return [SetValues(layout.rng(tab, f"L{archive_row(key, s, n)}:M{archive_row(key, s, n)}"),
                      ((deadline.isoformat(), when),)) for s in seats]


def archived_texts(entries: list[Entry], seat: int) -> dict[str, str]:
    """The text each live, resolved stage's row held for ``seat`` when it was resolved (to spot a past row edited
    later): an order changed after the deadline but before the resolve was not edited after it was resolved."""
    out: dict[str, str] = {}
    for e in entries:
        if e.status == SUPERSEDED or e.kind != "stage":
            continue
        info = e.orders().get(seat)
        if info is not None:
            out[e.key] = info.read or info.text
    return out
