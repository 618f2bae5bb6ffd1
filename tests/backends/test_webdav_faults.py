"""Wrong answers from a WebDAV server (a real WsgiDAV behind a misbehaving layer): each is said clearly, nothing of
the game or the player is lost, no secret is printed, and what can be retried is retried."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import dav_servers
import pytest

from sheetgm.backends.errors import BackendError
from sheetgm.backends.port import SetValues
from sheetgm.backends.webdav.client import (
    DavAnswerError,
    DavClient,
    DavCredentialsError,
    DavRedirectError,
    DavUnavailableError,
)
from sheetgm.backends.webdav.gateway import WebDavGateway

Rule = Callable[[dict[str, Any], int], tuple[str, list[tuple[str, str]], bytes] | None]


class Faulty:
    """WSGI in front of WsgiDAV: each rule may answer a request itself (status, headers, body) instead."""

    def __init__(self, app: Any) -> None:
        self.app, self.rules, self.n = app, list[Rule](), 0
        self.seen: list[tuple[str, str]] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.n += 1
        self.seen.append((environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")))
        for rule in self.rules:
            got = rule(environ, self.n)
            if got is not None:
                status, headers, body = got
                environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
                start_response(status, [*headers, ("Content-Length", str(len(body)))])
                return [body]
        return self.app(environ, start_response)


@pytest.fixture
def faulty(tmp_path: Path) -> Iterator[tuple[Faulty, str]]:
    layer: list[Faulty] = []

    def wrap(app: Any) -> Faulty:
        layer.append(Faulty(app))
        return layer[0]

    with dav_servers.wsgidav(tmp_path / "server", app_wrapper=wrap) as server:
        yield layer[0], server.url


def _gw(url: str, **kw: Any) -> tuple[WebDavGateway, DavClient]:
    c = DavClient(url, dav_servers.USER, dav_servers.PASSWORD, sleep=lambda s: None, jitter=lambda: 0.0, **kw)
    return WebDavGateway(c), c


def _game(url: str) -> WebDavGateway:
    gw, _c = _gw(url)
    gw.create("player-1", "P1", ["Orders", "Results"])
    gw.write("player-1", [SetValues("Orders!A1", [["the player's order"]])])
    return gw


def _intact(url: str) -> None:
    """Nothing lost: the player's order is there, and a run without faults writes."""
    gw, _c = _gw(url)
    assert gw.read("player-1", ["Orders!A1"]) == {"Orders!A1": [["the player's order"]]}
    gw.write("player-1", [SetValues("Results!A1", [["done"]])])
    assert _gw(url)[0].read("player-1", ["Results!A1"]) == {"Results!A1": [["done"]]}


def _said(err: BackendError, *words: str) -> None:
    for lang in ("en", "zh"):
        text = err.message(lang)
        assert dav_servers.PASSWORD not in text and "s3cret" not in text
    assert all(w in err.message("en") for w in words), err.message("en")


def test_blocked_temporarily_as_503_and_as_401_after_success_is_waited_out(faulty: tuple[Faulty, str]) -> None:
    layer, url = faulty
    _game(url)
    blocked = b'<?xml version="1.0"?><d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:exception>' \
              b"BlockedTemporarily</s:exception><s:message>Too many requests</s:message></d:error>"
    start = layer.n
    layer.rules.append(lambda env, n: ("503 Service Unavailable", [], blocked) if n in (start + 2, start + 3) else None)
    layer.rules.append(lambda env, n: ("401 Unauthorized", [], blocked) if n == start + 5 else None)
    layer.rules.append(lambda env, n: ("401 Unauthorized", [], b"") if n == start + 6 else None)  # a bare 401 burst
    gw, client = _gw(url)
    gw.read("player-1", ["Orders!A1"])
    gw.write("player-1", [SetValues("Results!A1", [["stage report"]])])
    gw.release("player-1")
    gw.write("player-1", [SetValues("Results!A2", [["more"]])])
    assert len(client.waits) == 4 and client.waits[:2] == [1.0, 2.0]
    assert _gw(url)[0].read("player-1", ["Orders!A1", "Results!A1:A2"]) == {
        "Orders!A1": [["the player's order"]], "Results!A1:A2": [["stage report"], ["more"]]}


def test_a_401_before_any_success_is_the_password(faulty: tuple[Faulty, str]) -> None:
    _layer, url = faulty
    c = DavClient(url, dav_servers.USER, "wrong-app-password", sleep=lambda s: None)
    with pytest.raises(DavCredentialsError) as err:
        WebDavGateway(c).read("player-1", ["Orders!A1"])
    _said(err.value, "did not accept user 'director'", "SHEETGM_WEBDAV_PASSWORD")
    assert "wrong-app-password" not in err.value.message("en") and c.calls == 1


def test_a_500_in_the_middle_is_retried_and_one_that_stays_loses_nothing(faulty: tuple[Faulty, str]) -> None:
    layer, url = faulty
    _game(url)
    start = layer.n
    layer.rules.append(lambda env, n: ("500 Internal Server Error", [], b"oops") if n == start + 2 else None)
    gw, client = _gw(url)
    gw.write("player-1", [SetValues("Results!A1", [["one"]])])
    assert client.waits == [1.0]
    layer.rules.append(lambda env, n: ("500 Internal Server Error", [], b"oops") if env["REQUEST_METHOD"] == "PUT"
                       else None)
    gw, client = _gw(url)
    with pytest.raises(DavUnavailableError) as err:
        gw.write("player-1", [SetValues("Results!A1", [["two"]])])
    _said(err.value, "HTTP 500", "6 attempts", "run the command again")
    layer.rules.clear()
    _intact(url)


def test_a_207_without_the_properties_asked_is_said(faulty: tuple[Faulty, str]) -> None:
    layer, url = faulty
    _game(url)
    bare = b'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/x</d:href>' \
           b"<d:propstat><d:prop/><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>"
    layer.rules.append(lambda env, n: ("207 Multi-Status", [("Content-Type", "application/xml")], bare)
                       if env["REQUEST_METHOD"] == "PROPFIND" else None)
    gw, _c = _gw(url)
    with pytest.raises(DavAnswerError) as err:
        gw.exists("player-1")
    _said(err.value, "PROPFIND", "no resourcetype", "check url")
    layer.rules[0] = lambda env, n: ("207 Multi-Status", [], b"<html>a login page</html") \
        if env["REQUEST_METHOD"] == "PROPFIND" else None
    with pytest.raises(DavAnswerError) as err:
        gw.exists("player-1")
    _said(err.value, "not XML")
    layer.rules.clear()
    _intact(url)


def test_a_slow_server_times_out_and_is_retried(faulty: tuple[Faulty, str]) -> None:
    layer, url = faulty
    _game(url)
    start = layer.n

    def slow(env: dict[str, Any], n: int) -> None:
        if n == start + 1:
            time.sleep(1.5)
        return None

    layer.rules.append(slow)
    gw, client = _gw(url, timeout=(2.0, 0.5))
    assert gw.read("player-1", ["Orders!A1"]) == {"Orders!A1": [["the player's order"]]}
    assert client.waits == [1.0] and client.calls == 3  # files.json, the GET that timed out, the GET again


def test_a_redirect_to_another_host_is_not_followed_with_the_password(faulty: tuple[Faulty, str]) -> None:
    layer, url = faulty
    _game(url)
    layer.rules.append(lambda env, n: ("302 Found", [("Location", "https://evil.example.net/dav/player-1.xlsx")],
                                       b"") if env["REQUEST_METHOD"] == "GET" else None)
    gw, client = _gw(url)
    with pytest.raises(DavRedirectError) as err:
        gw.read("player-1", ["Orders!A1"])
    _said(err.value, "evil.example.net", "password is not sent there")
    layer.rules[0] = lambda env, n: ("307 Temporary Redirect", [("Location", env["PATH_INFO"].replace(
        "/dav/", "/dav/", 1) + "?moved=1")], b"") if env["REQUEST_METHOD"] == "GET" and not env.get(
        "QUERY_STRING") else None
    assert _gw(url)[0].read("player-1", ["Orders!A1"]) == {"Orders!A1": [["the player's order"]]}  # same host: followed
    layer.rules.clear()
    _intact(url)


def test_a_server_ignoring_if_match_is_answered_by_looking_first(faulty: tuple[Faulty, str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """WsgiDAV with If-Match taken away: a save landing between sheetgm's read and its write is lost with
    ``if_match = true`` (what doctor warns of), kept with ``if_match = false`` (the look right before the write)."""
    from sheetgm.backends.webdav import gateway as dav

    layer, url = faulty
    _game(url)

    def deaf(env: dict[str, Any], n: int) -> None:
        env.pop("HTTP_IF_MATCH", None)
        return None

    layer.rules.append(deaf)
    plain = dav.write_book
    for if_match, row in ((True, 2), (False, 3)):
        saved: list[int] = []

        def write_book(book: Any, row: int = row, saved: list[int] = saved) -> bytes:
            data = plain(book)
            if not saved:
                saved.append(1)
                monkeypatch.setattr(dav, "write_book", plain)
                _gw(url)[0].write("player-1", [SetValues(f"Orders!A{row}", [[f"a save meanwhile {row}"]])])
                monkeypatch.setattr(dav, "write_book", write_book)
            return data

        monkeypatch.setattr(dav, "write_book", write_book)
        gw, _c = _gw(url)
        gw.if_match = if_match
        gw.write("player-1", [SetValues(f"Results!A{row}", [["report"]])])
        monkeypatch.setattr(dav, "write_book", plain)
        got = _gw(url)[0].read("player-1", [f"Orders!A{row}", f"Results!A{row}"])
        if if_match:
            assert got[f"Orders!A{row}"] == [] and gw.redone == 0  # lost: the server put over it
        else:
            assert got == {f"Orders!A{row}": [[f"a save meanwhile {row}"]], f"Results!A{row}": [["report"]]}
            assert gw.redone == 1
