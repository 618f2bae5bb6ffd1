"""Caches that cannot hurt (issue 26): each kind of damage and each forgery planted in the cache folder in turn,
and every command's outcome (`status`, `check`, `resolve`, `status`, each in a process of its own as the script
runs) equal to a run with a clean cache folder: no hang, no traceback, no other result, no code run, no file
written through a link. A folder that may not be used (a link, another user's, open to others) gives one warning
a command and changes nothing else."""

from __future__ import annotations

import marshal
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_games import cli_game
from svc_helpers import write_order

import sheetgm

ROOT = Path(sheetgm.__file__).parents[1]
SCRIPT = "import sys; from sheetgm.cli.main import main; sys.argv[0] = 'sheetgm'; main()"
COMMANDS = (["status"], ["check"], ["resolve"], ["status"])
Outcome = list[tuple[int, str, str]]


def _sequence(game: Path, copy: Path, cache: Path, env: dict[str, str] | None = None) -> Outcome:
    """The commands run one after another on a fresh copy of ``game`` with ``cache`` as the cache folder: each
    one's exit code, stdout and stderr (the copy's path and the clock's minutes written alike)."""
    shutil.copytree(game, copy)
    out = []
    for command in COMMANDS:
        done = subprocess.run([sys.executable, "-c", SCRIPT, *command, "--game", str(copy)], capture_output=True,
                              text=True, timeout=120, cwd=copy,
                              env={**os.environ, **(env or {}), "PYTHONPATH": str(ROOT), "SHEETGM_LANG": "en",
                                   "SHEETGM_CACHE_DIR": str(cache)})
        out.append((done.returncode, *(_same(text, copy, cache) for text in (done.stdout, done.stderr))))
    return out


def _same(text: str, copy: Path, cache: Path) -> str:
    text = text.replace(str(copy), "<game>").replace(str(cache), "<cache>")
    return re.sub(r"\d\d-\d\d \d\d:\d\d UTC", "<time> UTC", text)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Outcome]:
    """A small local game with an order written, a warm cache folder, and the commands' outcome with a clean
    cache folder (the same with a warm one: the cache changes nothing)."""
    root = tmp_path_factory.mktemp("attacks")
    with cli_game("xlsx", root / "game") as g:
        write_order(g.open(), 1, "搜索")
    clean = _sequence(root / "game", root / "clean", root / "clean-cache")
    assert [c[0] for c in clean] == [0, 0, 0, 0] and all(not c[2] for c in clean), clean
    warm = root / "warm-cache"
    _sequence(root / "game", root / "warming", warm)
    assert _sequence(root / "game", root / "warm", warm) == clean
    kept = sorted(p.name for p in warm.iterdir())
    assert any(n.startswith("texts-") for n in kept) and any(n.startswith("xlsx-kept") for n in kept), kept
    assert any(n.startswith("picture-") for n in kept), kept  # the route picture's ground: damaged in turn too
    return root / "game", warm, clean


def _each_file(damage: Callable[[Path], None]) -> Callable[[Path], None]:
    def plant(cache: Path) -> None:
        for file in list(cache.iterdir()):
            if file.is_file() and not file.name.endswith(".part"):
                file.unlink()
                damage(file)
    return plant


def _write(data: bytes) -> Callable[[Path], None]:
    return _each_file(lambda f: f.write_bytes(data))


def _cut(cache: Path) -> None:
    for file in cache.iterdir():
        data = file.read_bytes()
        file.write_bytes(data[: len(data) // 2])


def _huge(file: Path) -> None:
    with open(file, "wb") as f:
        f.truncate(1 << 30)  # 1 GB, sparse: reading it whole would cost a gigabyte of memory


VICTIM = b'{"forged": "what a link points at is neither read nor written"}'


def _links(cache: Path) -> None:
    victim = cache.parent / f"victim-{cache.name}"
    victim.write_bytes(VICTIM)
    _each_file(lambda f: f.symlink_to(victim))(cache)


def _planted_code(cache: Path) -> None:
    """The tables the removed code caches read (issue 26): code that would leave a mark if it ran."""
    mark = cache.parent / f"ran-{cache.name}"
    code = compile(f"open({str(mark)!r}, 'w').close()", "<planted>", "exec")
    table = marshal.dumps({"def __init__(self): pass": marshal.dumps(code)})
    tag = sys.implementation.cache_tag
    (cache / f"dataclass-methods.{tag}-{marshal.version}.marshal").write_bytes(table)
    (cache / f"re-code.{tag}-x.marshal").write_bytes(marshal.dumps({("a", 0): (code,)}))


DAMAGE: dict[str, Callable[[Path], None]] = {
    "cut": _cut,
    "nested": _write(b"[" * 200_000),
    "nested-object": _write(b'{"a":' * 100_000),
    "huge": _each_file(_huge),
    "wrong-type": _write(b'[1, "two", {"three": 3}]'),
    "garbage": _write(bytes(range(256)) * 64),
    "empty": _write(b""),
    "fifo": _each_file(lambda f: os.mkfifo(f)),
    "symlink": _links,
    "folder": _each_file(lambda f: f.mkdir()),
    "planted-code": _planted_code,
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_damage_in_the_cache_changes_no_outcome(kind: str, played: tuple[Path, Path, Outcome],
                                                tmp_path: Path) -> None:
    game, warm, clean = played
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache, symlinks=True)
    DAMAGE[kind](cache)
    started = time.monotonic()
    assert _sequence(game, tmp_path / "g", cache) == clean
    assert time.monotonic() - started < 100  # no hang (each command has its own timeout too)
    assert not (tmp_path / "ran-cache").exists()  # no planted code ran
    victim = tmp_path / "victim-cache"
    assert not victim.exists() or victim.read_bytes() == VICTIM  # nothing written through a link
    if kind not in ("fifo", "folder"):  # what was damaged is written anew, as regular files of this user
        assert any(p.name.startswith("texts-") and p.is_file() and not p.is_symlink() for p in cache.iterdir())


def test_leftover_parts_are_removed_and_a_running_process_s_is_not(played: tuple[Path, Path, Outcome],
                                                                     tmp_path: Path) -> None:
    game, warm, clean = played
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache)
    old, young = cache / "texts-en-x.json.99.1.part", cache / "texts-zh-x.json.98.1.part"
    for part in (old, young):
        part.write_bytes(b"half of a file, the disk was full")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    for file in cache.glob("texts-*.json"):
        file.unlink()  # so that the run writes
    assert _sequence(game, tmp_path / "g", cache) == clean
    assert not old.exists() and young.exists()


def test_a_forged_validated_config_lets_no_invalid_game_toml_pass(played: tuple[Path, Path, Outcome],
                                                                  tmp_path: Path) -> None:
    """What the validated-config cache kept (issue 14) planted under every name it could have: an invalid
    game.toml is refused alike, whatever the cache folder holds."""
    game, warm, _ = played
    bad = tmp_path / "bad"
    shutil.copytree(game, bad)
    toml = bad / "game.toml"
    text = toml.read_text("utf-8")
    assert 'timezone = "Asia/Shanghai"' in text
    toml.write_text(text.replace('timezone = "Asia/Shanghai"', 'timezone = "Asia/Shangai"'), "utf-8")
    clean = _sequence(bad, tmp_path / "g1", tmp_path / "clean")
    assert [c[0] for c in clean] == [1, 1, 1, 1] and all("Asia/Shangai" in c[2] for c in clean), clean
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache)
    valid = (game / "game.toml").read_text("utf-8")
    for folder in (cache / "configs", cache / "configs" / "files"):
        folder.mkdir(parents=True, exist_ok=True)
        for i in range(16):
            (folder / f"{i:032x}.json").write_text(valid, "utf-8")
    assert _sequence(bad, tmp_path / "g2", cache) == clean


def _open_to_others(cache: Path) -> None:
    cache.chmod(0o777)


def _another_users(cache: Path) -> None:
    os.chown(cache, 65534, 65534)


def _a_link(cache: Path) -> None:
    real = cache.with_name("real-cache")
    cache.rename(real)
    cache.symlink_to(real)


REFUSED = {"open": _open_to_others, "owner": _another_users, "link": _a_link}


@pytest.mark.parametrize("why", list(REFUSED))
def test_a_folder_that_may_not_be_used_is_not_used_and_said_once(why: str, played: tuple[Path, Path, Outcome],
                                                                  tmp_path: Path) -> None:
    if why == "owner" and os.geteuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    game, warm, clean = played
    cache = tmp_path / "cache"
    shutil.copytree(warm, cache)
    for file in cache.glob("texts-en-*.json"):  # forged texts: used, they would change every line
        file.write_text('{"cli.status.head": "FORGED"}', "utf-8")
    REFUSED[why](cache)
    before = {p.name: p.read_bytes() for p in cache.iterdir() if p.is_file()}
    got = _sequence(game, tmp_path / "g", cache)
    assert [(rc, out) for rc, out, _ in got] == [(rc, out) for rc, out, _ in clean]
    for _, _, err in got:
        assert err.count("cache folder <cache> is not used") == 1 and err.count("\n") == 1, err
    assert {p.name: p.read_bytes() for p in cache.iterdir() if p.is_file()} == before  # nothing written there
