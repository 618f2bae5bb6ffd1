"""The audit's rules of sharing, one grant at a time, and the report it builds, on the memory gateway (fast).

Drive's grants the memory gateway has not (a group, a domain, a link open to anyone, an owner) and a file that
cannot be read are given by ``Drive`` below; the end-to-end runs through the command line on the xlsx files and
the Google fake are in test_audit_in_force.py."""

# covers: RUL-46, RUL-47

from __future__ import annotations

from pathlib import Path

import pytest
from svc_helpers import make_game, roster

from sheetgm.backends.errors import AccessError, BackendError
from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import Permission, Protection
from sheetgm.service.audit import AuditReport, BookAudit, Sharing, audit, label
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, player_key

SA = "bot@proj.iam.gserviceaccount.com"
GM = "gm@example.com"


class Drive(MemoryGateway):
    """The memory gateway with what Drive has besides single users: extra grants per file, extra editors of
    each protection, and files whose sharing cannot be read."""

    def __init__(self) -> None:
        super().__init__()
        self.grants: dict[str, list[Permission]] = {}
        self.also_editing: dict[str, tuple[str, ...]] = {}
        self.broken: dict[str, BackendError] = {}

    def permissions(self, key: str) -> list[Permission]:
        if key in self.broken:
            raise self.broken[key]
        return super().permissions(key) + self.grants.get(key, [])

    def protections(self, key: str) -> list[Protection]:
        extra = self.also_editing.get(key, ())
        return [Protection(p.range, (*p.editors, *extra), p.description, p.warning_only, p.unprotected, p.password,
                           p.allows) for p in super().protections(key)]


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Game:
    monkeypatch.setenv("SHEETGM_LANG", "en")
    seats = roster(emails=True)
    seats[1]["email"] = "P2@Example.com"  # as the director typed it; Drive keeps addresses in lower case
    return make_game(tmp_path, Drive(), roster=seats, director_email=GM, service_account=SA, backend="google")


def failures(game: Game, key: str, *perms: Permission, plan: dict[str, str] | None = None) -> tuple[list[str],
                                                                                                     list[str]]:
    book = BookAudit(key)
    Sharing(game, key, book).check(list(perms), {} if plan is None else plan)
    return book.failures, book.warnings


def user(email: str, role: str) -> Permission:
    return Permission(email, role)


# -- one grant at a time ---------------------------------------------------------------------------------------

def test_the_director_and_the_service_account_pass_in_any_case_and_as_owners(game: Game) -> None:
    for key in (DIRECTOR, PUBLIC, player_key(1)):
        assert failures(game, key, user("GM@Example.COM", "owner"), user(GM, "writer"), user(SA.upper(), "writer"),
                        user(SA, "owner"), user(SA, "organizer"), user(SA, "fileOrganizer")) == ([], [])


def test_the_service_account_below_writer_fails_on_every_file(game: Game) -> None:
    for key, shown in ((DIRECTOR, "Director's workbook"), (PUBLIC, "Public workbook"), (player_key(2), "Seat 2 · S2")):
        for role in ("reader", "commenter"):
            assert failures(game, key, user(SA.upper(), role)) == (
                [f"The service account {SA.upper()} has role {role} on {shown}: the scheduled runs need writer"], [])


def test_the_service_account_of_the_gateway_counts_when_game_toml_names_none(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHEETGM_LANG", "en")
    gw = Drive()
    gw.account = "Runner@Proj.iam.gserviceaccount.com"
    game = make_game(tmp_path, gw, roster=roster(emails=True), director_email=GM)
    assert failures(game, DIRECTOR, user("runner@proj.iam.gserviceaccount.com", "writer")) == ([], [])
    assert failures(game, DIRECTOR, user("runner@proj.iam.gserviceaccount.com", "reader"))[0] == [
        "The service account runner@proj.iam.gserviceaccount.com has role reader on Director's workbook: the "
        "scheduled runs need writer"]


def test_an_owner_who_is_no_player_passes_and_a_player_who_owns_their_file_fails(game: Game) -> None:
    assert failures(game, player_key(1), user("someone@else.org", "owner")) == ([], [])
    assert failures(game, player_key(1), user("p1@example.com", "owner"))[0] == [
        "S1 owns their own workbook (Seat 1 · S1): an owner can lift the protections and share it on; they should be "
        "writer"]
    for role in ("organizer", "fileOrganizer"):
        assert failures(game, player_key(2), user("p2@example.com", role))[0] == [
            "S2 owns their own workbook (Seat 2 · S2): an owner can lift the protections and share it on; they should "
            "be writer"]
    assert failures(game, DIRECTOR, user("someone@else.org", "writer"))[0] == [
        "someone@else.org can open the director workbook (role writer) but is neither the director nor the service "
        "account"]


def test_a_player_on_their_own_file_needs_writer_exactly(game: Game) -> None:
    assert failures(game, player_key(2), user("p2@EXAMPLE.com", "writer")) == ([], [])
    for role in ("reader", "commenter"):
        assert failures(game, player_key(2), user("p2@example.com", role)) == (
            [f"S2 has role {role} on their own workbook (Seat 2 · S2): they need writer to enter orders"], [])


def test_a_player_on_another_players_file_or_the_directors_fails_whatever_the_role(game: Game) -> None:
    for role in ("reader", "commenter", "writer", "owner"):
        assert failures(game, player_key(1), user("P2@example.COM", role)) == (
            [f"S2 can open Seat 1 · S1 (role {role}): a player may open only their own workbook and "
             "the public one"], [])
        assert failures(game, DIRECTOR, user("p4@example.com", role)) == (
            [f"H1 can open Director's workbook (role {role}): a player may open only their own workbook and the "
             "public one"], [])


def test_a_stranger_on_a_players_file_is_named_with_that_player(game: Game) -> None:
    for seat, alias in ((1, "S1"), (3, "S3"), (4, "H1")):
        assert failures(game, player_key(seat), user("Spy@Example.org", "reader")) == (
            [f"Spy@Example.org can open Seat {seat} · {alias} (role reader) but is neither its player {alias}, "
             "the director nor the service account"], [])


def test_on_the_public_file_players_read_and_strangers_reading_are_a_warning(game: Game) -> None:
    assert failures(game, PUBLIC, user("p2@example.com", "reader"), user("P1@EXAMPLE.COM", "reader")) == ([], [])
    for role in ("commenter", "writer", "owner", "organizer"):
        assert failures(game, PUBLIC, user("p3@example.com", role)) == (
            [f"S3 has role {role} on the public workbook: players may only read it"], [])
    assert failures(game, PUBLIC, user("fan@example.org", "reader")) == (
        [], ["fan@example.org can open the public workbook (role reader) but is not a player"])
    for role in ("commenter", "writer", "fileOrganizer"):
        assert failures(game, PUBLIC, user("fan@example.org", role)) == (
            [f"fan@example.org can open the public workbook (role {role}) but is not a player"], [])


def test_a_link_open_to_anyone_fails_on_private_files_and_is_a_warning_on_the_public_one(game: Game) -> None:
    link = Permission("", "reader", "anyone")
    found = Permission("", "writer", "anyone", discoverable=True)
    assert failures(game, player_key(1), link, found)[0] == [
        "Seat 1 · S1 is open to anyone with the link (role reader): only the people game.toml names may open it",
        "Seat 1 · S1 is open to anyone with the link (role writer, and findable by search): only the people "
        "game.toml names may open it"]
    assert failures(game, DIRECTOR, link)[0] == [
        "Director's workbook is open to anyone with the link (role reader): only the people game.toml names may "
        "open it"]
    assert failures(game, PUBLIC, link, found) == (
        ["Anyone with the link can edit the public workbook (role writer): players may only read it"],
        ["The public workbook is open to anyone with the link (reading only): outsiders can read the public log"])


def test_a_group_or_a_domain_fails_on_private_files_and_may_only_read_the_public_one(game: Game) -> None:
    group, domain = Permission("Team@Example.org", "reader", "group"), Permission("example.org", "writer", "domain")
    assert failures(game, player_key(3), group, domain)[0] == [
        "Seat 3 · S3 is shared with the group Team@Example.org (role reader): share player and director files "
        "with single addresses only",
        "Seat 3 · S3 is shared with the domain example.org (role writer): share player and director files with "
        "single addresses only"]
    assert failures(game, PUBLIC, group, domain) == (
        ["The public workbook is shared with the domain example.org (role writer): only the players should read "
         "it, and only read"],
        ["The public workbook is shared with the group Team@Example.org (role reader): only the players should "
         "read it, and only read"])
    for role in ("commenter", "writer", "fileOrganizer", "organizer", "owner"):  # not the module's list: pinned
        assert failures(game, PUBLIC, Permission("example.org", role, "domain"))[0] == [
            f"The public workbook is shared with the domain example.org (role {role}): only the players should read "
            "it, and only read"]
        assert failures(game, PUBLIC, Permission("", role, "anyone"))[0] == [
            f"Anyone with the link can edit the public workbook (role {role}): players may only read it"]


def test_a_grant_of_the_plan_missing_is_named_and_one_in_another_case_is_not_missing(game: Game) -> None:
    plan = {SA: "writer", "P2@Example.com": "writer"}
    assert failures(game, player_key(2), plan=plan)[0] == [
        f"{SA} has not been given writer access to Seat 2 · S2: run `sheetgm share` to grant it",
        "P2@Example.com has not been given writer access to Seat 2 · S2: run `sheetgm share` to grant it"]
    assert failures(game, player_key(2), user(SA.upper(), "writer"), user("p2@example.com", "writer"),
                    plan=plan) == ([], [])
    low = failures(game, player_key(2), user(SA, "writer"), user("p2@example.com", "reader"), plan=plan)[0]
    assert low == ["S2 has role reader on their own workbook (Seat 2 · S2): they need writer to enter orders"]
    groups = failures(game, player_key(2), user(SA, "writer"), Permission("p2@example.com", "writer", "group"),
                      plan=plan)[0]  # a group of that address is not the player's own grant
    assert groups[-1] == ("P2@Example.com has not been given writer access to Seat 2 · S2: run `sheetgm share` "
                          "to grant it") and len(groups) == 2


def test_a_game_without_addresses_has_no_player_and_no_director(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty address is nobody: a grant to nobody is not the director's nor a player's."""
    monkeypatch.setenv("SHEETGM_LANG", "en")
    game = make_game(tmp_path, Drive())
    assert failures(game, DIRECTOR, user("", "writer"))[0] == [
        " can open the director workbook (role writer) but is neither the director nor the service account"]
    assert failures(game, player_key(2), user("", "reader"))[0] == [
        " can open Seat 2 · S2 (role reader) but is neither its player S2, the director nor the service account"]
    assert failures(game, DIRECTOR, user("xxxx", "writer"))[0] == [  # no stand-in address either
        "xxxx can open the director workbook (role writer) but is neither the director nor the service account"]


def test_the_label_names_a_players_workbook_by_its_seat_and_alias() -> None:
    class Named:
        voice = "en"

        def alias(self, seat: int) -> str:
            return {1: "S1", 12: "H2"}[seat]

    assert [label(Named(), k) for k in ("player-1", "player-12", DIRECTOR, PUBLIC)] == [  # type: ignore[arg-type]
        "Seat 1 · S1", "Seat 12 · H2", "Director's workbook", "Public workbook"]


# -- the whole audit -------------------------------------------------------------------------------------------

def test_a_fresh_game_passes_with_each_workbooks_sharing_and_protections_listed(game: Game) -> None:
    rep = audit(game)
    assert rep.ok and rep.notes == [] and [b.key for b in rep.books] == game.keys()
    assert all(not b.failures and not b.warnings for b in rep.books)
    one = next(b for b in rep.books if b.key == player_key(1))
    assert sorted(one.sharing) == sorted([(SA, "writer"), ("p1@example.com", "writer")])
    results = [p for p in one.protections if p[2] == "sheetgm:results"]
    assert results == [("'结果'", [SA, GM], "sheetgm:results")]
    doc = rep.to_dict()
    assert doc["ok"] is True and doc["notes"] == [] and [b["key"] for b in doc["workbooks"]] == game.keys()
    assert doc["workbooks"][2]["sharing"] == one.sharing and doc["workbooks"][2]["protections"] == one.protections


def test_grants_of_every_kind_are_listed_by_address_domain_or_anyone(game: Game) -> None:
    gw = game.gateway
    assert isinstance(gw, Drive)
    gw.grants[PUBLIC] = [Permission("", "reader", "anyone"), Permission("example.org", "reader", "domain")]
    rep = audit(game)
    public = next(b for b in rep.books if b.key == PUBLIC)
    assert public.sharing[-2:] == [("anyone", "reader"), ("example.org", "reader")]
    assert rep.ok and len(public.warnings) == 2 and not public.failures


def test_a_file_whose_sharing_cannot_be_read_fails_by_name_and_the_others_are_still_audited(game: Game) -> None:
    gw = game.gateway
    assert isinstance(gw, Drive)
    gw.broken[player_key(2)] = AccessError(key=player_key(2), account=SA)
    gw.grants[player_key(3)] = [user("p1@example.com", "reader")]
    rep = audit(game)
    books = {b.key: b for b in rep.books}
    assert not rep.ok and books[player_key(2)].failures == [
        f"Access to workbook 'player-2' was denied to {SA}; share the file with that account as editor (the "
        "director's `sheetgm share`), then run again"]
    assert books[player_key(2)].sharing == [] and books[player_key(2)].protections == []
    assert books[player_key(3)].failures == [
        "S1 can open Seat 3 · S3 (role reader): a player may open only their own workbook and the "
        "public one"]
    assert [k for k, b in books.items() if b.failures] == [player_key(2), player_key(3)]
    assert rep.to_dict()["ok"] is False


def test_an_owner_of_the_file_may_edit_its_protections_and_a_writer_may_not(game: Game) -> None:
    gw = game.gateway
    assert isinstance(gw, Drive)
    gw.grants[player_key(1)] = [user("Boss@Example.org", "owner")]
    gw.also_editing[player_key(1)] = ("boss@example.org",)
    assert audit(game).ok
    gw.grants[player_key(1)] = [user("Boss@Example.org", "writer")]
    rep = audit(game)
    one = next(b for b in rep.books if b.key == player_key(1))
    assert one.failures and all("boss@example.org is an editor of the protection" in f
                                for f in one.failures if "Boss@" not in f)
    gw.grants[player_key(1)] = [Permission("Boss@Example.org", "owner", "group")]  # only a user owns a file
    one = next(b for b in audit(game).books if b.key == player_key(1))
    assert any("boss@example.org is an editor of the protection" in f for f in one.failures)


def test_a_local_game_notes_that_its_files_hold_no_sharing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sheetgm.backends.xlsx.gateway import XlsxGateway

    monkeypatch.setenv("SHEETGM_LANG", "en")
    gw = XlsxGateway(tmp_path / "books")
    game = make_game(tmp_path, gw, backend="xlsx")
    rep = audit(game)
    assert rep.ok and len(rep.notes) == 1 and rep.notes[0].startswith("Local game: every protected tab")
    assert rep.to_dict()["notes"] == rep.notes
    gw.path(player_key(3)).unlink()
    rep = audit(game)
    assert len(rep.notes) == 2 and rep.notes[0].startswith("Local game: every protected tab")
    assert rep.notes[1].startswith("The open order rows could not be checked: ") and "player-3" in rep.notes[1]


def test_a_grant_of_the_plan_taken_away_is_named(game: Game) -> None:
    game.gateway.unshare(player_key(4), SA)
    rep = audit(game)
    assert [(b.key, b.failures) for b in rep.books if b.failures] == [(player_key(4), [
        f"{SA} has not been given writer access to Seat 4 · H1: run `sheetgm share` to grant it"])]


def test_order_rows_that_cannot_be_read_are_a_note(game: Game) -> None:
    gw = game.gateway
    assert isinstance(gw, Drive)
    del gw.books[player_key(3)]
    rep = audit(game)
    books = {b.key: b for b in rep.books}
    assert rep.notes == ["The open order rows could not be checked: Workbook 'player-3' does not exist or is not "
                         "shared with this account; run `sheetgm new` or check the game's workbook list"]
    assert books[player_key(3)].failures and not rep.ok


def test_an_empty_report_is_ok() -> None:
    assert AuditReport([]).ok and AuditReport([BookAudit("public", warnings=["w"])]).ok
    assert not AuditReport([BookAudit("public"), BookAudit("director", failures=["f"])]).ok
    assert AuditReport([], ["n"]).to_dict() == {"ok": True, "workbooks": [], "notes": ["n"]}
    assert AuditReport([BookAudit("public", [("a", "reader")])]).to_dict()["workbooks"] == [
        {"key": "public", "sharing": [("a", "reader")], "protections": [], "failures": [], "warnings": [], "tabs": [],
         "saved_by": ""}]


def test_every_finding_is_in_the_directors_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHEETGM_LANG", "zh")
    game = make_game(tmp_path, Drive(), roster=roster(emails=True), director_email=GM, service_account=SA,
                     backend="google", lang="en")  # the workbooks in English, the director reads Chinese
    assert failures(game, PUBLIC, Permission("", "reader", "anyone"), Permission("t@example.org", "reader", "group"),
                    Permission("example.org", "writer", "domain"), user("fan@example.org", "reader")) == (
        ["公开工作簿共享给了整个域 example.org（权限 writer）：只应由玩家阅读，且只读"],
        ["公开工作簿对“任何获得链接的人”开放（只读）：局外人也能读公开日志",
         "公开工作簿共享给了群组 t@example.org（权限 reader）：只应由玩家阅读，且只读",
         "fan@example.org 能打开公开工作簿（权限 reader），但不是玩家"])
    assert failures(game, player_key(1), Permission("", "reader", "anyone", discoverable=True),
                    Permission("t@example.org", "reader", "group"))[0] == [
        "1 号 S1 对“任何获得链接的人”开放（权限 reader，且能被搜索到）：只有 game.toml 里的人可以打开",
        "1 号 S1 共享给了群组 t@example.org（权限 reader）：玩家和导演的文件只能共享给单个地址"]
    gw = game.gateway
    assert isinstance(gw, Drive)
    gw.broken[player_key(2)] = AccessError(key=player_key(2), account=SA)
    del gw.books[player_key(3)]
    rep = audit(game)
    books = {b.key: b for b in rep.books}
    assert books[player_key(2)].failures == [
        f"账号 {SA} 无权访问工作簿“player-2”；请把该文件以编辑者身份共享给这个账号（导演的 `sheetgm share`），"
        "然后重新运行"]
    assert rep.notes == ["无法检查开放的指令行：工作簿“player-3”不存在，或未共享给当前账号；请运行 `sheetgm new`，"
                         "或检查本局的工作簿列表"]
    local = make_game(tmp_path / "local", Drive(), lang="en")
    assert audit(local).notes[0].startswith("本地游戏：")
