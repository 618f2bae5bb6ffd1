"""A WebDAV game's check and resolve against a player who saves at the worst moments, and a resolve killed at every
request: on a real server (WsgiDAV), every player's save survives and the next run finishes the work."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dav_servers
import pytest
import requests
from svc_helpers import Clock, make_game, snapshot, write_order

from sheetgm.backends.port import SetValues
from sheetgm.backends.webdav import client as dav_client
from sheetgm.backends.webdav.client import DavClient
from sheetgm.backends.webdav.gateway import WebDavGateway
from sheetgm.service.check import check
from sheetgm.service.game import Game, open_game, player_key
from sheetgm.service.ledger.journal import PUBLISHED, read_director
from sheetgm.service.resolve import resolve
from sheetgm.sheets import layout
from sheetgm.sheets.stages import order_row

SEATS = 4  # (svc_helpers.roster: S1-S3, H1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dav_servers.Server]:
    with dav_servers.wsgidav(tmp_path_factory.mktemp("wsgidav")) as s:
        yield s


def _root(server: dav_servers.Server, name: str) -> str:
    folder = "g" + hashlib.sha1(name.encode()).hexdigest()[:12]
    requests.request("MKCOL", server.url + folder + "/", auth=(dav_servers.USER, dav_servers.PASSWORD), timeout=10)
    return server.url + folder + "/"


def _gw(root: str, client: type[DavClient] = DavClient, **kw: Any) -> WebDavGateway:
    return WebDavGateway(client(root, dav_servers.USER, dav_servers.PASSWORD, **kw))


def _game(server: dav_servers.Server, tmp_path: Path, name: str) -> tuple[str, Game]:
    root = _root(server, f"{tmp_path}/{name}")
    game = make_game(tmp_path / name, _gw(root))
    return root, game


def _fresh(folder: Path, root: str) -> Game:
    """The game as a new process opens it."""
    return open_game(folder, gateway=_gw(root), clock=Clock())


class Player:
    """Every player saves their workbook right before sheetgm puts it (between sheetgm's read and its write), at
    every write of a player's workbook; each save goes to a cell of its own (a later night's order row, which
    the player may edit), and is looked for right after sheetgm's write landed."""

    def __init__(self, root: str, game: Game) -> None:
        self.root, self.game = root, game
        self.paths = {_gw(root).path(player_key(s)).as_posix(): s for s in game.seats}
        self.tried = self.lost = 0
        self.busy = False
        self.pending: dict[str, tuple[int, str, str]] = {}
        self.turn: dict[str, int] = {}

    def cell(self, seat: int, n: int) -> str:
        orders = layout.tab(self.game.seat_lang(seat), "orders")
        return layout.rng(orders, f"F{order_row(self.game.cfg.max_nights)}") if n < 0 else layout.rng(
            orders, f"B{order_row(2 + n % (self.game.cfg.max_nights - 2))}")

    def before_put(self, path: str) -> None:
        seat = self.paths.get(path)
        if seat is None or self.busy:
            return
        turn = self.turn.get(path, 0)
        self.turn[path] = turn + 1
        if turn % 2:  # sheetgm's second try after a refused write: the player does not save again
            return
        self.busy = True
        try:
            self.tried += 1
            text = f"player save {self.tried}"
            where = self.cell(seat, self.tried)
            _gw(self.root).write(player_key(seat), [SetValues(where, [[text]])])
            self.pending[path] = (seat, where, text)
        finally:
            self.busy = False

    def after_put(self, path: str) -> None:
        got = self.pending.pop(path, None)
        if got is None or self.busy:
            return
        seat, where, text = got
        self.busy = True
        try:
            if _gw(self.root).read(player_key(seat), [where])[where] != [[text]]:
                self.lost += 1
        finally:
            self.busy = False


@pytest.fixture
def player_at_every_put(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Player]]:
    players: list[Player] = []
    plain = dav_client.DavClient.put

    def put(self: DavClient, path: str, data: bytes, if_match: str | None = None, create: bool = False) -> str:
        for p in players:
            p.before_put(path)
        etag = plain(self, path, data, if_match, create)
        for p in players:
            p.after_put(path)
        return etag

    monkeypatch.setattr(dav_client.DavClient, "put", put)
    yield players


def test_every_save_between_sheetgm_reading_and_writing_survives(
        server: dav_servers.Server, tmp_path: Path, player_at_every_put: list[Player]) -> None:
    root, game = _game(server, tmp_path, "g")
    player = Player(root, game)
    player_at_every_put.append(player)
    check(_fresh(game.folder, root))  # (nobody has ordered: every seat is told)
    write_order(_fresh(game.folder, root), 1, "搜索")
    check(_fresh(game.folder, root))
    write_order(_fresh(game.folder, root), 2, "破解")
    check(_fresh(game.folder, root))
    assert resolve(_fresh(game.folder, root)).action == "resolved"
    print(f"interleaved saves: {player.tried} tried, {player.lost} lost")
    assert player.tried >= 2 * SEATS and player.lost == 0
    entries, _lock = read_director(_fresh(game.folder, root))
    assert [e.key for e in entries] == ["N0-setup", "N1-survivor"] and entries[-1].status == PUBLISHED


class Killed(Exception):
    pass


def test_a_resolve_killed_at_every_request_is_finished_by_the_next_run(server: dav_servers.Server,
                                                                        tmp_path: Path) -> None:
    """Killed after the server has done request n (the answer lost, as when the process dies or the network
    drops there): the next process's resolve ends where a clean one does."""
    root, ref = _game(server, tmp_path, "ref")
    write_order(ref, 1, "搜索")
    write_order(ref, 2, "破解")
    counting = _fresh(ref.folder, root)
    assert isinstance(counting.gateway, WebDavGateway)
    resolve(counting)
    total = counting.gateway.client.calls
    reference = snapshot(_fresh(ref.folder, root))
    assert total >= len(ref.keys()) + 2
    for n in range(1, total + 1):
        root_n, game = _game(server, tmp_path, f"kill{n}")
        write_order(game, 1, "搜索")
        write_order(game, 2, "破解")
        doomed = _fresh(game.folder, root_n)
        assert isinstance(doomed.gateway, WebDavGateway)
        client = doomed.gateway.client
        plain = client._judge

        def judge(method: str, url: str, r: requests.Response, ok: tuple[int, ...], n: int = n,
                  client: DavClient = client, plain: Any = plain) -> requests.Response:
            if client.calls == n:
                raise Killed(f"killed after request {n}: {method} {url}")
            return plain(method, url, r, ok)  # type: ignore[no-any-return]

        client._judge = judge  # type: ignore[method-assign]
        with pytest.raises(Killed):
            resolve(doomed)
        again = _fresh(game.folder, root_n)
        entries, lock = read_director(again)
        done = entries[-1].key == "N1-survivor" and entries[-1].status == PUBLISHED and not (lock and lock[0])
        if not done:  # (killed after its last request, the resolve had done everything: nothing left to run)
            assert resolve(again).action in ("resolved", "republished"), n
        entries, lock = read_director(_fresh(game.folder, root_n))
        assert [e.key for e in entries] == ["N0-setup", "N1-survivor"] and entries[-1].status == PUBLISHED, n
        assert not (lock and lock[0]), n
        assert snapshot(_fresh(game.folder, root_n)) == reference, f"killed after request {n}"
    print(f"kill test: {total} requests in a resolve, killed after each, every run finished")
