"""Real WebDAV servers for the tests, started on 127.0.0.1 on a free port: WsgiDAV (in a thread, every run) and,
where the machine has it, rclone ``serve webdav`` (a subprocess). ``Server.url`` is the game's root folder."""

from __future__ import annotations

import logging
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

USER, PASSWORD = "director", "s3cret-app-password"


@dataclass
class Server:
    name: str
    url: str  # the game's root folder, ending with "/"
    folder: Path  # where the server keeps the files


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_up(url: str, seconds: float = 20.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            requests.request("PROPFIND", url, auth=(USER, PASSWORD), headers={"Depth": "0"}, timeout=2)
            return
        except requests.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError(f"the WebDAV server at {url} did not come up")


def _etag_to_the_nanosecond(file_path: str | bytes) -> str:
    """WsgiDAV's own ETag is inode-mtime-size with the mtime in whole seconds: a save of the same size within the
    same second keeps it (a weakness of that server, said in the guide). The tests' players save many times a
    second, so the fixture gives the ETag the file system's nanoseconds."""
    import os

    st = os.stat(file_path)
    return f"{st.st_ino}-{st.st_mtime_ns}-{st.st_size}"


@contextmanager
def wsgidav(folder: Path, app_wrapper: object = None) -> Iterator[Server]:
    """WsgiDAV under cheroot in a thread; ``app_wrapper(app) -> app`` may put a misbehaving layer in front."""
    from cheroot import wsgi
    from wsgidav import util
    from wsgidav.wsgidav_app import WsgiDAVApp

    util.get_file_etag = _etag_to_the_nanosecond

    folder.mkdir(parents=True, exist_ok=True)
    config = {
        "provider_mapping": {"/dav": str(folder)},
        "http_authenticator": {"domain_controller": None, "accept_basic": True, "accept_digest": False,
                               "default_to_digest": False},
        "simple_dc": {"user_mapping": {"*": {USER: {"password": PASSWORD}}}},
        "verbose": 0,
        "logging": {"enable": False, "enable_loggers": []},
        "lock_storage": True,
        "property_manager": True,
    }
    logging.getLogger("wsgidav").setLevel(logging.ERROR)
    app = WsgiDAVApp(config)
    if app_wrapper is not None:
        app = app_wrapper(app)  # type: ignore[operator]
    port = _free_port()
    server = wsgi.Server(("127.0.0.1", port), app, numthreads=4)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}/dav/"
    try:
        _wait_up(url)
        yield Server("wsgidav", url, folder)
    finally:
        server.stop()
        thread.join(5)


APACHE = "/usr/sbin/apache2"
MODULES = Path("/usr/lib/apache2/modules")


def apache_missing() -> str | None:
    if not Path(APACHE).is_file() or not (MODULES / "mod_dav_fs.so").is_file():
        return "Apache httpd with mod_dav is not installed here (apt-get install apache2)"
    return None


@contextmanager
def apache(folder: Path) -> Iterator[Server]:
    """Apache httpd with mod_dav and mod_dav_fs over ``folder`` (HTTP Basic auth), in the foreground (-X) as a
    subprocess. As root, httpd serves as the unprivileged user the Debian package made (www-data): the folders
    are opened to it."""
    import base64
    import hashlib
    import os

    # httpd's own user must reach the files: a folder of its own under /tmp (pytest's folders are the owner's
    # alone), reached from ``folder`` by a symbolic link
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="sheetgm-apache-"))
    root, data = base / "httpd", base / "dav"
    for d in (base, root, root / "lock", data):
        d.mkdir(parents=True, exist_ok=True)
        os.chmod(d, 0o777)
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.symlink_to(data, target_is_directory=True)
    digest = base64.b64encode(hashlib.sha1(PASSWORD.encode()).digest()).decode()
    (root / "htpasswd").write_text(f"{USER}:{{SHA}}{digest}\n", "utf-8")
    port = _free_port()
    mods = ["mpm_prefork", "authn_core", "authn_file", "auth_basic", "authz_core", "authz_user", "dav",
            "dav_fs", "mime", "alias"]
    user = "User www-data\nGroup www-data\n" if os.geteuid() == 0 else ""
    conf = "".join(f"LoadModule {m}_module {MODULES}/mod_{m}.so\n" for m in mods) + f"""
ServerRoot {root}
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
PidFile {root}/httpd.pid
ErrorLog {root}/error.log
{user}DAVLockDB {root}/lock/DAVLock
TypesConfig /dev/null
Alias /dav {data}
<Directory {data}>
  DAV On
  AuthType Basic
  AuthName "sheetgm tests"
  AuthUserFile {root}/htpasswd
  Require valid-user
</Directory>
"""
    (root / "httpd.conf").write_text(conf, "utf-8")
    proc = subprocess.Popen([APACHE, "-X", "-f", str(root / "httpd.conf")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/dav/"
    try:
        _wait_up(url)
        yield Server("apache", url, folder)
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(base, ignore_errors=True)


def rclone_missing() -> str | None:
    return None if shutil.which("rclone") else "rclone is not installed here (apt-get install rclone)"


@contextmanager
def rclone(folder: Path) -> Iterator[Server]:
    """rclone serve webdav over a local folder, as a subprocess."""
    folder.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    proc = subprocess.Popen(
        ["rclone", "serve", "webdav", str(folder), "--addr", f"127.0.0.1:{port}", "--user", USER, "--pass", PASSWORD,
         "--config", "/dev/null", "--etag-hash", "MD5", "--dir-cache-time", "0s", "--poll-interval", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait_up(url)
        yield Server("rclone", url, folder)
    finally:
        proc.terminate()
        proc.wait(10)
