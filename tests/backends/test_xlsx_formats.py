"""Every file a player may produce in place of the .xlsx they were given (tests/fixtures/other): another
format under the .xlsx name, the .xlsx beside a copy in another format, or only the copy. The director and the
player are told what it is and what to do, in their language, and every other player is resolved."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest

from sheetgm.backends.errors import MissingWorkbookError, UnreadableFileError
from sheetgm.backends.xlsx.gateway import XlsxGateway
from sheetgm.backends.xlsx.package import sniff

OTHER = Path(__file__).resolve().parents[1] / "fixtures" / "other"
KINDS = {"calamine-issue127.ods": ("ods", "OpenDocument", "LibreOffice"),
         "calamine-issue127.xls": ("xls", "Excel 97-2003", "Excel 97-2003"),
         "calamine-issue127.xlsb": ("xlsb", "Excel binary", ".xlsb"),
         "calamine-pass_protected.xlsx": ("encrypted", "password", "密码")}


def _game(tmp_path: Path) -> XlsxGateway:
    gw = XlsxGateway(tmp_path)
    gw.create("player-1", "P1", ["Orders"])
    return gw


@pytest.mark.parametrize("name", sorted(KINDS))
def test_another_format_under_the_xlsx_name_is_named_with_what_to_do(name: str, tmp_path: Path) -> None:
    _game(tmp_path)
    shutil.copy(OTHER / name, tmp_path / "player-1.xlsx")
    with pytest.raises(UnreadableFileError) as err:
        XlsxGateway(tmp_path).read("player-1", ["Orders!A1"])
    kind, english, chinese = KINDS[name]
    assert err.value.code == f"err.backend.file.{kind}"
    en, zh = err.value.message("en"), err.value.message("zh")
    assert str(tmp_path / "player-1.xlsx") in en and english in en and "save" in en.lower()
    assert chinese in zh and "另存为" in zh or "密码" in zh
    assert "Error" not in en and "Traceback" not in en  # said in words, not an exception's name


@pytest.mark.parametrize(("content", "kind"), [
    (b"", "empty"), (b"stage,order\nN1-survivor,\xe7\xa7\xbb\xe5\x8a\xa8 B3\n", "csv"),
    (b"<html><body><table><tr><td>x</td></tr></table></body></html>", "html"),
    (b'<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"/>', "xml2003"),
    (b"PK\x03\x04" + bytes(200), "damaged")])
def test_text_and_broken_files_under_the_xlsx_name_are_named(content: bytes, kind: str, tmp_path: Path) -> None:
    _game(tmp_path)
    (tmp_path / "player-1.xlsx").write_bytes(content)
    with pytest.raises(UnreadableFileError) as err:
        XlsxGateway(tmp_path).read("player-1", ["Orders!A1"])
    assert err.value.code == f"err.backend.file.{kind}" and "player-1.xlsx" in err.value.message("zh")


def test_a_copy_in_another_format_beside_the_workbook_is_a_notice(tmp_path: Path) -> None:
    gw = _game(tmp_path)
    assert gw.notices("player-1") == []
    shutil.copy(OTHER / "calamine-issue127.ods", tmp_path / "player-1.ods")
    (tmp_path / "player-1 (copy).ods").write_bytes(b"not the same name")
    (tmp_path / "PLAYER-1.CSV").write_bytes(b"a,b\n")
    found = XlsxGateway(tmp_path).notices("player-1")
    assert sorted(n.params["sibling"] for n in found) == ["PLAYER-1.CSV", "player-1.ods"]
    assert all(n.code == "err.backend.file.sibling" and "player-1.xlsx" in n.message("en") for n in found)
    assert XlsxGateway(tmp_path).read("player-1", ["Orders!A1"]) == {"Orders!A1": []}  # the .xlsx is still read


def test_only_a_copy_in_another_format_is_named_not_missing(tmp_path: Path) -> None:
    _game(tmp_path)
    (tmp_path / "player-1.xlsx").rename(tmp_path / "player-1.ods")
    with pytest.raises(UnreadableFileError) as err:
        XlsxGateway(tmp_path).read("player-1", ["Orders!A1"])
    assert err.value.code == "err.backend.file.only_other" and "player-1.ods" in err.value.message("en")
    (tmp_path / "player-1.ods").unlink()
    with pytest.raises(MissingWorkbookError):
        XlsxGateway(tmp_path).read("player-1", ["Orders!A1"])


def test_the_folder_is_listed_once_while_it_does_not_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A resolve asks for every workbook's copies in turn: one listing serves them until a file comes or goes."""
    import os

    from sheetgm.backends.xlsx import siblings

    gw = _game(tmp_path)
    listed: list[str] = []
    real = os.listdir
    monkeypatch.setattr(siblings.os, "listdir", lambda folder: listed.append(str(folder)) or real(folder))
    siblings._LISTED.clear()
    assert [gw.notices("player-1") for _ in range(3)] == [[], [], []] and len(listed) == 1
    (tmp_path / "player-1.ods").mkdir()  # a folder with a workbook's name is not a copy of it
    (tmp_path / "player-1.CSV").write_bytes(b"a,b\n")
    assert [n.params["sibling"] for n in gw.notices("player-1")] == ["player-1.CSV"] and len(listed) == 2


def _zip(*names: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name in names:
            z.writestr(name, b"x")
    return out.getvalue()


OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@pytest.mark.parametrize(("data", "kind"), [
    (b"", "empty"), (b" \r\n\t", "empty"),
    (OLE + bytes(100), "xls"), (OLE + "EncryptionInfo".encode("utf-16-le"), "encrypted"),
    (OLE + "EncryptedPackage".encode("utf-16-le"), "encrypted"), (OLE + b"EncryptionInfo", "xls"),
    (_zip("mimetype", "content.xml"), "ods"), (_zip("content.xml"), None), (_zip("mimetype"), None),
    (_zip("xl/workbook.bin"), "xlsb"), (_zip("Index/Document.iwa"), "numbers"), (_zip("Index.zip"), "numbers"),
    (_zip("index/x"), None), (_zip("[Content_Types].xml", "xl/workbook.xml"), None), (b"PK\x03\x04" + bytes(9), None),
    (b"\xef\xbb\xbf \r\n<!DOCTYPE HTML><p>", "html"), (b"<HTML><body>", "html"), (b"  <Table><tr>", "html"),
    (b"<htm,l", "csv"),
    (b'<?xml version="1.0"?><Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"/>', "xml2003"),
    (b'<?xml version="1.0"?><a/>', None), (b"urn:schemas-microsoft-com:office:spreadsheet,x", "csv"),
    (b"a,b", "csv"), (b"a\tb", "csv"), (b"a;b", "csv"), (b"a\nb", "csv"), (b"ab", None), (b"a,\x00b", None),
    ("阶段,指令".encode("gb18030"), "csv"), ("阶段".encode("gb18030"), None),
    (b"\x80\xff,", None),
    # only the first 4 KB are looked at for a page, the first 64 KB for the rest (a bound on the work)
    (b" " * 4092 + b"<html>", None), (b" " * 4091 + b"<html>", "html"), (b"X<html>", None),
    (b"<?xml?>" + b" " * (65537 - 7 - 44) + b"urn:schemas-microsoft-com:office:spreadsheet", None),
    (b"a" * 65536 + b",", None), (b"\xb0\xa1" * 32768 + b",", None), (b"\xb0\xa1" * 32767 + b",", "csv")])
def test_what_a_file_that_is_no_xlsx_is_told_from_its_bytes(data: bytes, kind: str | None) -> None:
    """The director is told which program made the file and what to do: each kind from the bytes that say it,
    and nothing named from bytes that only resemble one (one of the two ODF parts, a lower-case Index folder)."""
    assert sniff(data) == kind
