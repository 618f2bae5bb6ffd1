"""`sheetgm doctor` on a WebDAV game, against real servers: each line, its fix, exit 0/1, no secret printed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import dav_servers
import pytest
from test_cli_webdav import Director


def _lines(director: Director, **env: str | None) -> tuple[int, dict[str, dict[str, object]], str]:
    done = director.run("doctor", "--json", env=env)
    data = json.loads(done.stdout)
    return done.exit_code, {line["name"]: line for line in data["checks"]}, done.output


def test_a_ready_game_on_wsgidav_passes_every_check(tmp_path: Path) -> None:
    with dav_servers.wsgidav(tmp_path / "server") as server:
        director = Director(tmp_path / "cup", server.url)
        director.ok("new")
        code, lines, out = _lines(director)
        assert code == 0, out
        assert [n for n, line in lines.items() if not line["ok"]] == []
        assert {"password", "server", "workbooks", "writes", "clock", "budget", "lock"} <= set(lines)
        assert "If-Match" in str(lines["writes"]["detail"]) and not lines["writes"]["warn"]
        assert not any(p.name.startswith(".sheetgm-doctor") for p in (tmp_path / "server").rglob("*"))  # cleaned up


def test_a_missing_folder_and_a_missing_password_are_named_with_their_fix(tmp_path: Path) -> None:
    with dav_servers.wsgidav(tmp_path / "server") as server:
        director = Director(tmp_path / "cup", server.url)
        director.ok("new")
        for child in (tmp_path / "server" / "02-Bo").iterdir():
            child.unlink()
        (tmp_path / "server" / "02-Bo").rmdir()
        code, lines, _out = _lines(director)
        assert code == 1 and not lines["workbooks"]["ok"] and "02-Bo" in str(lines["workbooks"]["detail"])
        assert "sheetgm new" in str(lines["workbooks"]["fix"])
        code, lines, _out = _lines(director, SHEETGM_WEBDAV_PASSWORD=None)
        assert code == 1 and not lines["password"]["ok"] and "SHEETGM_WEBDAV_PASSWORD" in str(lines["password"]["fix"])
        code, lines, out = _lines(director, SHEETGM_WEBDAV_PASSWORD="not-the-password-42")
        assert code == 1 and not lines["server"]["ok"] and "not-the-password-42" not in out


def test_rclone_ignores_if_match_and_doctor_says_what_to_set(tmp_path: Path) -> None:
    missing = dav_servers.rclone_missing()
    if missing:
        print(f"skipped: {missing}")
        pytest.skip(missing)
    with dav_servers.rclone(tmp_path / "server") as server:
        director = Director(tmp_path / "cup", server.url, if_match=True)
        director.ok("new")
        code, lines, _out = _lines(director)
        assert code == 1 and not lines["writes"]["ok"] and "if_match = false" in str(lines["writes"]["fix"])
        toml = tmp_path / "cup" / "game.toml"  # (as `new` saved it: "if_match" = true)
        toml.write_text(re.sub(r'"?if_match"? = true', "if_match = false", toml.read_text("utf-8")), "utf-8")
        code, lines, out = _lines(director)
        assert code == 0, out
        assert lines["writes"]["warn"] and "round trip" in str(lines["writes"]["detail"])
