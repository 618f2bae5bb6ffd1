"""`audit`: sharing and protections of every workbook, on every gateway."""

from __future__ import annotations

from pathlib import Path

from svc_helpers import make_game, roster

from sheetgm.backends.port import Unprotect
from sheetgm.service.audit import audit
from sheetgm.service.game import DIRECTOR, PUBLIC, player_key
from sheetgm.service.new_game import sharing_plan

SA = "bot@proj.iam.gserviceaccount.com"


def _game(gw, tmp_path: Path):  # type: ignore[no-untyped-def]
    return make_game(tmp_path, gw, roster=roster(emails=True), director_email="gm@example.com",
                     service_account=SA)


def test_new_shares_each_file_with_exactly_the_right_people(gw, tmp_path: Path) -> None:
    game = _game(gw, tmp_path)
    plan = sharing_plan(game)
    assert plan[DIRECTOR] == {SA: "writer"}
    assert plan[player_key(1)] == {SA: "writer", "p1@example.com": "writer"}
    assert plan[PUBLIC]["p4@example.com"] == "reader"
    shared = {p.email: p.role for p in gw.permissions(player_key(1))}
    assert shared.get("p1@example.com") == "writer" and "p2@example.com" not in shared
    assert not any(p.email.startswith("p") for p in gw.permissions(DIRECTOR))
    results = [p for p in gw.protections(player_key(1)) if p.description == "sheetgm:results"]
    caller = {gw.fake.account} if hasattr(gw, "fake") else set()  # Google keeps who protected
    assert results and set(results[0].editors) == {"gm@example.com", SA} | ({gw.account} - {None}) | caller


def test_audit_passes_on_a_fresh_game(gw, tmp_path: Path) -> None:
    rep = audit(_game(gw, tmp_path))
    assert rep.ok, rep.to_dict()
    assert {b.key for b in rep.books} == {DIRECTOR, PUBLIC, *(player_key(s) for s in range(1, 5))}


def test_audit_fails_when_a_player_can_read_another_workbook(gw, tmp_path: Path) -> None:
    game = _game(gw, tmp_path)
    gw.share(player_key(1), "p2@example.com", "reader")
    gw.share(DIRECTOR, "p3@example.com", "reader")
    rep = audit(game)
    assert not rep.ok
    failures = [f for b in rep.books for f in b.failures]
    assert any("S2" in f and "1 号 S1" in f for f in failures)  # a workbook named by seat and alias
    assert any("S3" in f and "导演工作簿" in f for f in failures)
    assert not any("player-" in f or "director" in f for f in failures)


def test_audit_fails_when_a_results_tab_is_unprotected(gw, tmp_path: Path) -> None:
    game = _game(gw, tmp_path)
    gw.write(player_key(2), [Unprotect("sheetgm:results")])
    rep = audit(game)
    assert not rep.ok
    assert any("S2" in f and "结果" in f for b in rep.books for f in b.failures)
