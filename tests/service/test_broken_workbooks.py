"""Issue 8.5: one broken player workbook never stops a publish.

A truncated or unreadable .xlsx, a Google workbook gone (404) or shared wrongly (403): the player is named
(which player, which workbook, what is wrong) in the resolve output, in `sheetgm status` and in the director's
Log; every other player, the public log and the director workbook are written; the report is kept in the
journal, and once the director has repaired the workbook the same stage run again writes it. All through the
command line, on xlsx and the Google fake. (A tab of sheetgm's renamed or deleted by hand no longer breaks a
workbook: it is made again, test_tabs_rebuilt.py.)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_games import SERVICE_ACCOUNT, CliGame, cli_game
from svc_helpers import write_order

from sheetgm.backends.errors import AccessError, FileError, MissingTabError, MissingWorkbookError
from sheetgm.backends.port import SetValues
from sheetgm.service.game import DIRECTOR, PUBLIC, player_key
from sheetgm.service.ledger.journal import PUBLISHED, read_director
from sheetgm.sheets.seals import results_seal

RESULTS, ORDERS, MAPS = "结果", "指令", "地图记录"


def _xlsx(game: CliGame) -> Path:
    return game.file(player_key(2))  # named by the alias (02-S2.xlsx)


def _truncate(game: CliGame) -> Callable[[], None]:
    path, data = _xlsx(game), _xlsx(game).read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return lambda: path.write_bytes(data)


def _garbage(game: CliGame) -> Callable[[], None]:
    path, data = _xlsx(game), _xlsx(game).read_bytes()
    path.write_bytes(data[:100] + bytes(range(256)) * 8 + data[2148:])
    return lambda: path.write_bytes(data)


def _google_gone(game: CliGame) -> Callable[[], None]:
    assert game.fake is not None
    sid = game.sid(player_key(2))
    book = game.fake.books.pop(sid)
    return lambda: game.fake.books.__setitem__(sid, book)  # type: ignore[union-attr]


def _google_denied(game: CliGame) -> Callable[[], None]:
    """Someone took the service account off the player's file: Sheets answers 403."""
    assert game.fake is not None
    grants = game.fake.drive.grants[game.sid(player_key(2))]
    kept = list(grants)
    grants[:] = [g for g in grants if g.email != SERVICE_ACCOUNT]
    assert len(grants) < len(kept)
    return lambda: grants.__setitem__(slice(None), kept)


BREAKS = {
    "xlsx": ["truncated", "garbage"],
    "google": ["deleted_404", "denied_403"],
}
WHY: dict[str, tuple[type[Exception], str | None]] = {
       "truncated": (FileError, None), "garbage": (FileError, None),  # None: the file's name
       "deleted_404": (MissingWorkbookError, "“player-2”不存在"),
       "denied_403": (AccessError, "无权访问工作簿“player-2”")}


def _break(game: CliGame, how: str) -> Callable[[], None]:
    if how == "truncated":
        return _truncate(game)
    if how == "garbage":
        return _garbage(game)
    if how == "deleted_404":
        return _google_gone(game)
    return _google_denied(game)


def _results(game: CliGame, seat: int) -> list[list[str]]:
    rng = f"'{RESULTS}'!A2:C"
    return game.open().gateway.read(player_key(seat), [rng])[rng]


def _history_title(game: CliGame, seat: int) -> str:
    """The title of the first stage's block in the player's Map history tab (row 1)."""
    rng = f"'{MAPS}'!A1"
    got = game.open().gateway.read(player_key(seat), [rng])[rng]
    return got[0][0] if got and got[0] else ""


@pytest.mark.parametrize(("backend", "how"), [(b, h) for b, hs in BREAKS.items() for h in hs])
def test_a_broken_player_workbook_is_named_and_gets_its_report_once_repaired(
        backend: str, how: str, tmp_path: Path) -> None:
    with cli_game(backend, tmp_path) as game:
        g = game.open()
        for seat in (1, 2, 3):
            write_order(g, seat, "破解")
        kind, words = WHY[how]
        words = words or _xlsx(game).name
        repair = _break(game, how)

        done = game.run("resolve")
        assert done.exit_code == 0, done.output
        assert "N1-survivor 已结算并发布" in done.stdout and "Traceback" not in done.output
        named = [line for line in done.stdout.splitlines() if "S2" in line and "2 号" in line]
        assert named and any(words in line for line in named), done.stdout  # which player, workbook, what

        g = game.open()
        entries, lock = read_director(g)
        assert entries[-1].key == "N1-survivor" and entries[-1].status == PUBLISHED and not (lock and lock[0])
        assert [s for s, _ in entries[-1].undelivered] == [2]  # kept in the journal for S2's next publish
        for seat in (1, 3, 4):
            assert _results(game, seat)[0][0] == "N1-survivor"
        log = g.gateway.read(PUBLIC, ["'日志'!A2:B2"])["'日志'!A2:B2"]
        assert log[0][0] == "N1-survivor" and log[0][1]
        director_log = g.gateway.read(DIRECTOR, ["'日志'!C3"])["'日志'!C3"][0][0]  # N1-survivor's row
        assert "S2" in director_log and words in director_log
        with pytest.raises(kind):
            game.open_as_runs().gateway.read(player_key(2), [f"'{RESULTS}'!A2:C", f"'{ORDERS}'!A2:G2"])

        status = game.run("status")
        assert status.exit_code == 0 and any("S2" in line and "N1-survivor" in line and words in line
                                              for line in status.stdout.splitlines()), status.stdout
        repair()
        again = game.run("resolve", "--stage", "N1-survivor")  # the same stage run again
        assert again.exit_code == 0, again.output
        assert "欠下的结果已补写" in again.stdout and "S2" in again.stdout
        rows = _results(game, 2)
        assert rows[0][0] == "N1-survivor" and rows[0][1]
        assert rows[0][2] == results_seal(game.open().secret(), player_key(2), "N1-survivor", rows[0][1])
        assert "N1-survivor" in _history_title(game, 2)  # the Map history keeps the owed stage too
        entries, lock = read_director(game.open())
        assert not entries[-1].undelivered and not (lock and lock[0])
        assert "S2" not in "\n".join(game.run("status").stdout.splitlines()[1:3])
        doc = json.loads(game.run("status", "--json").stdout)
        assert doc["undelivered"] == []
        assert game.run("verify").exit_code == 0


def test_a_report_owed_to_a_repaired_workbook_is_written_with_the_next_stage(tmp_path: Path) -> None:
    with cli_game("google", tmp_path) as game:
        g = game.open()
        write_order(g, 2, "破解")
        repair = _google_denied(game)
        assert game.run("resolve").exit_code == 0  # N1-survivor: S2's workbook cannot be written
        repair()
        done = game.run("resolve")  # N1-hunter publishes to everyone: S2 gets N1-survivor too
        assert done.exit_code == 0 and "结果!B2" in done.stdout, done.output
        assert [r[0] for r in _results(game, 2)[:2]] == ["N1-survivor", "N1-hunter"]
        assert "N1-survivor" in _history_title(game, 2)
        assert not any(e.undelivered for e in read_director(game.open())[0])


def test_every_damaged_file_reads_as_a_file_error(tmp_path: Path) -> None:
    """Whatever openpyxl raises on a damaged file (BadZipFile, zlib.error, KeyError, ...) is one FileError."""
    from sheetgm.backends.xlsx.gateway import XlsxGateway

    gw = XlsxGateway(tmp_path)
    gw.create("p", "t", ["A"])
    data = (tmp_path / "p.xlsx").read_bytes()
    kinds = set()
    rnd = random.Random(1)
    for n in range(300):
        damaged = bytearray(data[: len(data) * (n % 7 + 1) // 8] if n % 3 == 0 else data)
        for _ in range(rnd.randint(1, 20)):
            damaged[rnd.randrange(len(damaged))] = rnd.randrange(256)
        (tmp_path / "p.xlsx").write_bytes(bytes(damaged))
        try:
            gw.read("p", ["A!A1"])
            gw.write("p", [SetValues("A!A1", (("x",),))])
        except FileError as err:
            kinds.add(str(err.params.get("detail", err.code)).split(":")[0])
        except MissingTabError:
            pass
    assert len(kinds) >= 3, kinds  # several failure kinds, each one a FileError


@pytest.mark.parametrize(("offset", "value", "code", "words"), [
    (6, 99, "err.backend.file.damaged", "NotImplementedError"), (8, 1, "err.backend.file.encrypted", "password")])
def test_a_zip_marked_for_a_newer_version_or_encrypted_is_a_file_error(offset: int, value: int, code: str, words: str,
                                                                       tmp_path: Path) -> None:
    """Flags in the zip's central directory make zipfile raise what no reader of parts would: still a FileError,
    saying what it is (an entry marked encrypted: the file has a password to open it)."""
    from sheetgm.backends.xlsx.gateway import XlsxGateway

    gw = XlsxGateway(tmp_path)
    gw.create("p", "t", ["A"])
    gw.write("p", [SetValues("A!A1", (("x",),))])
    data = bytearray((tmp_path / "p.xlsx").read_bytes())
    at = data.find(b"PK\x01\x02")
    while at >= 0:  # every entry of the central directory: version needed to extract (6), flags (8)
        data[at + offset] = value
        at = data.find(b"PK\x01\x02", at + 1)
    (tmp_path / "p.xlsx").write_bytes(bytes(data))
    with pytest.raises(FileError) as err:
        XlsxGateway(tmp_path).read("p", ["A!A1"])
    assert err.value.code == code and "p.xlsx" in err.value.message("en") and words in err.value.message("en")


def test_google_unable_to_parse_range_names_the_renamed_tab() -> None:
    """The 400 "Unable to parse range" Google answers for a tab renamed after the workbook was first read."""
    from fakes.google import FakeGoogle

    with FakeGoogle() as fake:
        gw = fake.gateway()
        gw.create("player-2", "t", [RESULTS, ORDERS])
        gw.read("player-2", [f"'{RESULTS}'!A1"])  # the first read caches the tabs; the next one is values:batchGet
        fake.books[gw.ids["player-2"]].sheet(RESULTS).name = "Results (mine)"
        with pytest.raises(MissingTabError) as err:
            gw.read("player-2", [f"'{RESULTS}'!A2:C"])
        assert fake.log[-1].kind == "values_get"
        assert err.value.params["tab"] == RESULTS and err.value.params["key"] == "player-2"
        assert "没有「结果」标签" in err.value.message("zh")


def test_a_plain_resolve_that_waits_for_orders_still_writes_the_owed_reports(tmp_path: Path) -> None:
    """The guide says: once the file is repaired, run `sheetgm resolve` again. Before the next stage is due
    that run waits for its orders; it writes the reports owed meanwhile, as a run with nothing due does."""
    with cli_game("google", tmp_path, schedule=None) as game:  # no deadline: a stage waits for every order
        g = game.open()
        write_order(g, 2, "破解")
        repair = _google_denied(game)
        assert game.run("resolve", "--stage", "N1-survivor").exit_code == 0  # S2's workbook cannot be written
        repair()
        again = game.run("resolve")  # N1-hunter is due, and its hunter has not written an order
        assert again.exit_code == 0, again.output
        assert "已把欠下的结果补写进修好的工作簿：S2" in again.stdout, again.stdout
        rows = _results(game, 2)
        assert rows[0][0] == "N1-survivor" and rows[0][1]
        entries, lock = read_director(game.open())
        assert entries[-1].key == "N1-survivor"  # nothing resolved: the hunters' stage still waits
        assert not entries[-1].undelivered and not (lock and lock[0])
