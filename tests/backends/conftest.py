"""Fixtures for the gateway tests: the adapters (WebDAV on a real WsgiDAV), the fake Google, a fake clock."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

import dav_servers
import pytest
import requests
from fakes.google import FakeClock, FakeGoogle

from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.port import Gateway
from sheetgm.backends.webdav.client import DavClient
from sheetgm.backends.webdav.gateway import WebDavGateway
from sheetgm.backends.xlsx.gateway import XlsxGateway


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fake() -> Iterator[FakeGoogle]:
    with FakeGoogle() as f:
        yield f


@pytest.fixture(scope="session")
def dav_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dav_servers.Server]:
    """One WsgiDAV for the session; each test plays in a folder of its own (``dav_root``)."""
    with dav_servers.wsgidav(tmp_path_factory.mktemp("wsgidav")) as server:
        yield server


@pytest.fixture
def dav_root(dav_server: dav_servers.Server, request: pytest.FixtureRequest) -> str:
    name = "t" + hashlib.sha1(request.node.nodeid.encode()).hexdigest()[:12]
    requests.request("MKCOL", dav_server.url + name + "/", auth=(dav_servers.USER, dav_servers.PASSWORD), timeout=10)
    return dav_server.url + name + "/"


@pytest.fixture(params=["memory", "xlsx", "google", "google-fresh", "webdav"])
def gw(request: pytest.FixtureRequest, tmp_path, clock: FakeClock) -> Iterator[Gateway]:
    if request.param == "memory":
        yield MemoryGateway()
    elif request.param == "webdav":
        root = request.getfixturevalue("dav_root")
        yield WebDavGateway(DavClient(root, dav_servers.USER, dav_servers.PASSWORD))
    elif request.param == "xlsx":
        yield XlsxGateway(tmp_path / "game")
    else:
        with FakeGoogle() as fake:
            google = fake.gateway(clock=clock)
            if request.param == "google-fresh":
                # Every read as in a new process, the workbook's metadata not cached: the read is then
                # one spreadsheets.get, which must answer as values:batchGet does.
                plain = google.read

                def read(key: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
                    google._meta.pop(key, None)
                    return plain(key, ranges)

                google.read = read  # type: ignore[method-assign]
            yield google
