"""How the xlsx adapter saves: atomically under races, once per batch, into files named for people."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from sheetgm.backends.errors import FileError, RangeError
from sheetgm.backends.port import SetValues
from sheetgm.backends.xlsx import gateway as xlsx
from sheetgm.backends.xlsx.gateway import FILES, XlsxGateway, safe_name


@pytest.fixture
def gw(tmp_path: Path) -> XlsxGateway:
    g = XlsxGateway(tmp_path)
    g.create("player-1", "P1", ["Orders"])
    return g


def test_two_writers_and_a_reader_never_see_a_torn_file(gw: XlsxGateway, tmp_path: Path) -> None:
    """Each save goes to its own temporary file and is renamed over the workbook: whatever interleaves,
    every read finds a whole workbook (with one shared temporary name, one writer's rename would take the
    other's half-written file, or fail). Two gateways writing with no game lock between them (the service always
    holds one) each replace the file only if it is still the one they read: a writer that keeps losing the race
    gives up with a clear error, never over the other's save."""
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        own = XlsxGateway(tmp_path)
        try:
            for i in range(25):
                own.write("player-1", [SetValues(f"Orders!A{n}", [[f"writer {n} step {i}"]])])
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    def reader() -> None:
        own = XlsxGateway(tmp_path)
        try:
            for _ in range(50):
                own.read("player-1", ["Orders!A1:A2"])
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(1,)), threading.Thread(target=writer, args=(2,)),
               threading.Thread(target=reader)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lost = [e for e in errors if isinstance(e, FileError) and e.code == "err.backend.file.changed_while_saved"]
    assert [e for e in errors if e not in lost] == []  # no torn read, no other failure
    assert sorted(p.name for p in tmp_path.iterdir()) == ["player-1.xlsx"]  # no temporary file left
    XlsxGateway(tmp_path).read("player-1", ["Orders!A1:A2"])


def test_a_save_that_dies_before_the_rename_leaves_the_old_file(gw: XlsxGateway, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "player-1.xlsx"
    before = path.read_bytes()

    def killed(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(xlsx.os, "replace", killed)
    with pytest.raises(FileError) as err:
        gw.write("player-1", [SetValues("Orders!A1", [["lost"]])])
    assert "player-1.xlsx" in err.value.message("en")
    monkeypatch.undo()
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["player-1.xlsx"]
    assert gw.read("player-1", ["Orders!A1"]) == {"Orders!A1": []}  # the kept copy was dropped, not trusted


def test_a_saved_file_keeps_its_permissions(gw: XlsxGateway, tmp_path: Path) -> None:
    path = tmp_path / "player-1.xlsx"
    os.chmod(path, 0o640)
    gw.write("player-1", [SetValues("Orders!A1", [["x"]])])
    assert path.stat().st_mode & 0o777 == 0o640


def test_a_batch_saves_each_workbook_once_at_its_end(gw: XlsxGateway, tmp_path: Path) -> None:
    path = tmp_path / "player-1.xlsx"
    before, saves = path.read_bytes(), gw.saves
    with gw.batch():
        gw.create("player-2", "P2", ["Orders"])
        for i in range(1, 6):
            gw.write("player-1", [SetValues(f"Orders!A{i}", [[str(i)]])])
            gw.write("player-2", [SetValues(f"Orders!B{i}", [[str(i)]])])
        with gw.batch():  # nested: still one save, at the outer end
            gw.write("player-1", [SetValues("Orders!C1", [["inner"]])])
        assert gw.read("player-1", ["Orders!A5"]) == {"Orders!A5": [["5"]]}  # reads see the writes
        assert path.read_bytes() == before and not (tmp_path / "player-2.xlsx").exists()
        assert gw.exists("player-2")
    assert gw.saves - saves == 2
    fresh = XlsxGateway(tmp_path)
    assert fresh.read("player-1", ["Orders!A1:C5"])["Orders!A1:C5"][0] == ["1", "", "inner"]
    assert fresh.read("player-2", ["Orders!B5"]) == {"Orders!B5": [["5"]]}


def test_a_batch_that_raises_saves_nothing(gw: XlsxGateway, tmp_path: Path) -> None:
    before = (tmp_path / "player-1.xlsx").read_bytes()
    with pytest.raises(RuntimeError), gw.batch():
        gw.write("player-1", [SetValues("Orders!A1", [["dropped"]])])
        raise RuntimeError("killed")
    assert (tmp_path / "player-1.xlsx").read_bytes() == before
    assert gw.read("player-1", ["Orders!A1"]) == {"Orders!A1": []}


def test_a_refused_write_inside_a_batch_keeps_the_writes_before_it(gw: XlsxGateway, tmp_path: Path) -> None:
    with gw.batch():
        gw.write("player-1", [SetValues("Orders!A1", [["kept"]])])
        with pytest.raises(RangeError):
            gw.write("player-1", [SetValues("Orders!A2", [["x"]]), SetValues("Nope!A1", [["y"]])])
    assert XlsxGateway(tmp_path).read("player-1", ["Orders!A1:A2"]) == {"Orders!A1:A2": [["kept"]]}


@pytest.mark.parametrize(("name", "safe"), [
    ("03-小明", "03-小明"), ("a/b\\c:d*e?f\"g<h>i|j", "a_b_c_d_e_f_g_h_i_j"), ("CON", "_CON"), ("nul.txt", "_nul.txt"),
    (" .dots. ", "dots"), ("", "_"), ("x" * 100, "x" * 80), ("tab\there", "tab_here"),
])
def test_safe_names(name: str, safe: str) -> None:
    assert safe_name(name) == safe


def test_files_are_named_as_suggested_and_the_names_are_recorded(tmp_path: Path) -> None:
    gw = XlsxGateway(tmp_path, names={"player-3": "03-小明", "director": "spring/cup-director"})
    gw.create("player-3", "spring · 小明", ["Orders"])
    gw.create("director", "spring · director", ["Config"])
    gw.create("public", "spring · public", ["Log"])
    assert sorted(p.name for p in tmp_path.glob("*.xlsx")) == [
        "03-小明.xlsx", "public.xlsx", "spring_cup-director.xlsx"]
    assert json.loads((tmp_path / FILES).read_text("utf-8")) == {
        "director": "spring_cup-director.xlsx", "player-3": "03-小明.xlsx"}
    renamed = XlsxGateway(tmp_path, names={"player-3": "03-小红"})  # the alias changed later: same file
    assert renamed.path("player-3").name == "03-小明.xlsx" and renamed.exists("player-3")



def test_a_workbook_another_gateway_created_keeps_its_record(tmp_path: Path) -> None:
    names = {"player-3": "03-小明", "player-4": "04-小红"}
    first, second = XlsxGateway(tmp_path, names=names), XlsxGateway(tmp_path, names=names)
    assert not first.exists("player-3")  # the (empty) record is read
    second.create("player-4", "spring · 小红", ["Orders"])
    first.create("player-3", "spring · 小明", ["Orders"])
    assert json.loads((tmp_path / FILES).read_text("utf-8")) == {"player-3": "03-小明.xlsx", "player-4": "04-小红.xlsx"}


def test_a_batch_records_the_workbooks_it_creates_once_before_their_files(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[str] = []
    replace = xlsx._replace

    def logged(path: Path, data: bytes) -> os.stat_result:
        written.append(path.name)
        return replace(path, data)

    monkeypatch.setattr(xlsx, "_replace", logged)
    (tmp_path / FILES).write_text('{"director": "d.xlsx"}', "utf-8")  # already recorded: kept
    gw = XlsxGateway(tmp_path, names={f"player-{i}": f"0{i}-小{i}" for i in range(1, 4)})
    with gw.batch():
        for i in range(1, 4):
            gw.create(f"player-{i}", f"p{i}", ["Orders"])
        assert gw.path("player-2").name == "02-小2.xlsx" and gw.exists("player-2")  # known inside the batch
        assert json.loads((tmp_path / FILES).read_text("utf-8")) == {"director": "d.xlsx"} and not written
    assert written == [FILES, "01-小1.xlsx", "02-小2.xlsx", "03-小3.xlsx"]
    assert json.loads((tmp_path / FILES).read_text("utf-8")) == {
        "director": "d.xlsx", "player-1": "01-小1.xlsx", "player-2": "02-小2.xlsx", "player-3": "03-小3.xlsx"}
    assert XlsxGateway(tmp_path).view("player-3").title == "p3"


def test_a_failed_batch_records_nothing_it_created(tmp_path: Path) -> None:
    gw = XlsxGateway(tmp_path, names={"player-1": "01-a"})
    with pytest.raises(RuntimeError), gw.batch():
        gw.create("player-1", "p1", ["Orders"])
        raise RuntimeError("stop")
    assert not (tmp_path / FILES).exists() and not list(tmp_path.glob("*.xlsx"))
    assert not gw.exists("player-1")
    gw.create("player-1", "p1", ["Orders"])  # outside a batch: recorded at once
    assert json.loads((tmp_path / FILES).read_text("utf-8")) == {"player-1": "01-a.xlsx"}


def test_a_folder_made_before_names_keeps_its_files(tmp_path: Path) -> None:
    XlsxGateway(tmp_path).create("player-3", "old", ["Orders"])
    gw = XlsxGateway(tmp_path, names={"player-3": "03-小明"})
    assert gw.path("player-3").name == "player-3.xlsx" and gw.view("player-3").title == "old"
    assert not (tmp_path / FILES).exists()


def test_two_suggestions_for_one_name_get_two_files(tmp_path: Path) -> None:
    gw = XlsxGateway(tmp_path, names={"director": "x", "public": "X"})
    gw.create("director", "d", ["A"])
    gw.create("public", "p", ["A"])
    assert sorted(p.name for p in tmp_path.glob("*.xlsx")) == ["X (public).xlsx", "x.xlsx"]


def test_a_broken_record_is_named(tmp_path: Path) -> None:
    (tmp_path / FILES).write_text("[1, 2]", "utf-8")
    with pytest.raises(FileError) as err:
        XlsxGateway(tmp_path).exists("director")
    assert FILES in err.value.message("en")


def test_a_released_workbook_is_parsed_again_and_an_unsaved_one_is_kept(gw: XlsxGateway, tmp_path: Path) -> None:
    gw.write("player-1", [SetValues("Orders!A1", [["saved"]])])
    loads = gw.loads
    gw.read("player-1", ["Orders!A1"])
    assert gw.loads == loads  # kept parsed after its save
    gw.release("player-1")
    assert gw.read("player-1", ["Orders!A1"]) == {"Orders!A1": [["saved"]]}
    assert gw.loads == loads + 1  # let go: read from its file again
    with gw.batch():
        gw.write("player-1", [SetValues("Orders!A2", [["pending"]])])
        gw.release("player-1")  # not saved yet: kept, the write is not lost
        assert gw.read("player-1", ["Orders!A2"]) == {"Orders!A2": [["pending"]]}
    assert XlsxGateway(tmp_path).read("player-1", ["Orders!A1:A2"]) == {"Orders!A1:A2": [["saved"], ["pending"]]}


def test_a_file_changed_at_every_try_of_a_save_is_named_in_the_players_language(
        gw: XlsxGateway, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The gateway's own details (a file changed by another program at every try, a copy replaced while read,
    a damaged record of file names) are texts of sheet_templates, in zh and en, not English in the code."""
    gw.read("player-1", ["Orders!A1"])
    ticks = iter(range(1, 1000))
    monkeypatch.setattr(xlsx, "_stamp", lambda path: (next(ticks), 0, 0))  # another program saves between tries
    with pytest.raises(FileError) as err:
        gw.write("player-1", [SetValues("Orders!A1", [["x"]])])
    path = str(tmp_path / "player-1.xlsx")
    assert err.value.code == "err.backend.file.changed_while_saved"
    assert err.value.message("zh").startswith(f"sheetgm 保存 {path} 时，它被别的程序改动了 5 次")
    assert f"{path} was changed by another program 5 times" in err.value.message("en")
    (tmp_path / "spare.xlsx").write_bytes((tmp_path / "player-1.xlsx").read_bytes())
    with pytest.raises(FileError) as err:
        XlsxGateway(tmp_path).adopt("player-1", "spare.xlsx")  # (its stamp seen never matches: changed since)
    assert err.value.code == "err.backend.file.changed_while_adopted" and "被改动了" in err.value.message("zh")
    (tmp_path / FILES).write_text("[1, 2]", "utf-8")
    with pytest.raises(FileError) as err:
        XlsxGateway(tmp_path).path("player-1")
    assert err.value.message("zh").startswith(f"{tmp_path / FILES} 不是本游戏工作簿及其文件名的清单")
