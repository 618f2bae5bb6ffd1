"""Pictures placed over a tab (port.PlaceImage): the xlsx adapter writes a drawing that openpyxl, python-calamine
and LibreOffice open, replaces its own picture in place, leaves a person's own drawing alone, and a save with the
same picture changes nothing of it."""

from __future__ import annotations

import io
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest
from PIL import Image

from sheetgm.backends import port
from sheetgm.backends.errors import OpError
from sheetgm.backends.memory import MemoryGateway
from sheetgm.backends.xlsx.gateway import XlsxGateway


def _png(colour: tuple[int, int, int], size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return out.getvalue()


RED, BLUE = _png((255, 0, 0)), _png((0, 0, 255))


def _game(tmp_path: Path) -> tuple[XlsxGateway, Path]:
    gw = XlsxGateway(tmp_path)
    gw.create("player-1", "Ann", ["Orders", "Current"])
    gw.write("player-1", [port.SetValues("'Current'!A1", [["map"]])])
    return gw, gw.path("player-1")


def _media(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as z:
        return sorted(n for n in z.namelist() if n.startswith(("xl/media/", "xl/drawings/")))


def test_a_placed_picture_is_in_the_file_as_other_programs_read_it(tmp_path: Path) -> None:
    gw, path = _game(tmp_path)
    gw.write("player-1", [port.PlaceImage("'Current'!D2", RED, 40, 30, "route")])
    assert XlsxGateway(tmp_path).pictures("player-1") == {"Current": {"route": RED}}
    wb = openpyxl.load_workbook(path)
    images = wb["Current"]._images
    assert len(images) == 1 and images[0].anchor._from.col == 3 and images[0].anchor._from.row == 1
    assert wb["Current"]["A1"].value == "map" and not wb["Orders"]._images


def test_placing_again_replaces_and_an_empty_picture_removes(tmp_path: Path) -> None:
    gw, path = _game(tmp_path)
    gw.write("player-1", [port.PlaceImage("'Current'!D2", RED, 40, 30, "route")])
    first = _media(path)
    gw.write("player-1", [port.PlaceImage("'Current'!D2", BLUE, 40, 30, "route")])
    assert XlsxGateway(tmp_path).pictures("player-1") == {"Current": {"route": BLUE}}
    assert len(_media(path)) == len(first)  # replaced, not added beside
    gw.write("player-1", [port.PlaceImage("'Current'!D2", b"", 0, 0, "route")])
    assert XlsxGateway(tmp_path).pictures("player-1") == {}
    assert not [n for n in _media(path) if n.startswith("xl/media/")]
    assert not openpyxl.load_workbook(path)["Current"]._images


def test_the_same_picture_again_leaves_the_file_as_it_is(tmp_path: Path) -> None:
    gw, path = _game(tmp_path)
    gw.write("player-1", [port.PlaceImage("'Current'!D2", RED, 40, 30, "route")])
    before = path.read_bytes()
    fresh = XlsxGateway(tmp_path)  # another command, reading the file anew
    fresh.write("player-1", [port.PlaceImage("'Current'!D2", RED, 40, 30, "route")])
    with zipfile.ZipFile(io.BytesIO(before)) as a, zipfile.ZipFile(path) as b:
        assert a.read("xl/worksheets/sheet2.xml") == b.read("xl/worksheets/sheet2.xml")
        assert _media(path) == sorted(n for n in a.namelist() if n.startswith(("xl/media/", "xl/drawings/")))


def test_a_persons_own_drawing_is_never_touched(tmp_path: Path) -> None:
    gw, path = _game(tmp_path)
    wb = openpyxl.load_workbook(path)
    img = openpyxl.drawing.image.Image(io.BytesIO(BLUE))
    wb["Current"].add_image(img, "H8")
    wb.save(path)
    XlsxGateway(tmp_path).write("player-1", [port.PlaceImage("'Current'!D2", RED, 40, 30, "route")])
    found = openpyxl.load_workbook(path)["Current"]._images
    assert len(found) == 1 and found[0].anchor._from.col == 7  # theirs, alone
    assert XlsxGateway(tmp_path).pictures("player-1") == {}


def test_a_picture_op_is_checked() -> None:
    for bad in (port.PlaceImage("'Current'!D2:E3", RED, 40, 30, "route"),
                port.PlaceImage("'Current'!D2", b"GIF89a", 40, 30, "route"),
                port.PlaceImage("'Current'!D2", RED, 0, 30, "route"),
                port.PlaceImage("'Current'!D2", RED, 40, 30, "")):
        with pytest.raises(OpError):
            port.check_ops([bad])


def test_the_memory_adapter_keeps_pictures_too() -> None:
    gw = MemoryGateway()
    gw.create("player-1", "Ann", ["Current"])
    gw.write("player-1", [port.PlaceImage("'Current'!D2", RED, 40, 30, "route")])
    assert gw.pictures("player-1") == {"Current": {"route": RED}}


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_opens_the_picture_and_keeps_it_through_a_save(tmp_path: Path) -> None:
    gw, path = _game(tmp_path)
    gw.write("player-1", [port.PlaceImage("'Current'!D2", RED, 40, 30, "route")])
    out = tmp_path / "lo"
    profile = tmp_path / "profile"
    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
                    "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", str(out), str(path)],
                   check=True, capture_output=True, timeout=180)
    saved = out / path.name
    shutil.copy(saved, path)
    found = XlsxGateway(tmp_path).pictures("player-1")
    assert found == {"Current": {"route": found["Current"]["route"]}}  # still ours, by its name
    assert Image.open(io.BytesIO(found["Current"]["route"])).getpixel((5, 5))[:3] == (255, 0, 0)
    XlsxGateway(tmp_path).write("player-1", [port.PlaceImage("'Current'!D2", BLUE, 40, 30, "route")])
    assert XlsxGateway(tmp_path).pictures("player-1") == {"Current": {"route": BLUE}}
    assert len(openpyxl.load_workbook(path)["Current"]._images) == 1
