"""The recap page in a real browser: Debian's chromium, headless, takes screenshots of a finished demo game's page.

The network is closed here, so the flags turn off everything that would try to reach it (and hang). A page that
failed to render is blank: the screenshot's pixels must vary. The page opens on the last stage, whose game-over
banner has a colour found nowhere else (``END_MARK``): it must fill a band of the screenshot when the page opens
as it is, and be absent when the address asks for the first stage, or when scripts are off (every stage is then
shown in order, the first at the top). Skipped only when chromium is not installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageStat
from recap_games import finished

from sheetgm.render.recap_html import END_MARK, NAV_COLOUR
from sheetgm.service.game import open_game
from sheetgm.service.recap import recap

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed: `apt-get install -y "
                                "chromium` (.ci/run does it when it runs as root with apt)")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1280,900")
HEADER = (0x26, 0x32, 0x38)  # the page's dark header


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = finished(tmp_path_factory.mktemp("browser") / "demo")
    return recap(open_game(folder), lang="en").html


def screenshot(url: str, out: Path) -> Image.Image:
    profile = out.parent / f"{out.stem}-profile"
    args = [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", f"--screenshot={out}", url]
    done = subprocess.run(args, capture_output=True, text=True, timeout=180, check=False)
    assert out.is_file(), done.stderr[-2000:]
    return Image.open(out).convert("RGB")


def matching(img: Image.Image, colour: tuple[int, int, int], by: int = 6) -> Image.Image:
    """A mask: 255 where the pixel is within ``by`` of ``colour`` on each channel."""
    bands = [b.point(lambda v, c=c: 255 if abs(v - c) <= by else 0) for b, c in zip(img.split(), colour, strict=True)]
    mask = bands[0]
    for b in bands[1:]:
        mask = Image.composite(b, Image.new("L", img.size, 0), mask)
    return mask


def count(img: Image.Image, colour: tuple[int, int, int]) -> int:
    return matching(img, colour).histogram()[255]


def bands(img: Image.Image, colour: tuple[int, int, int]) -> int:
    """Rows of the screenshot mostly of ``colour``: a bar across the page (not a blend in a picture)."""
    mask = matching(img, colour)
    return sum(1 for y in range(img.height) if mask.crop((0, y, img.width, y + 1)).histogram()[255] > img.width * 0.8)


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return (int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16))


def not_blank(img: Image.Image) -> None:
    assert img.size == (1280, 900)
    assert ImageStat.Stat(img.convert("L")).stddev[0] > 25  # a blank or one-colour page is near 0
    assert count(img, HEADER) > 20_000  # the header was drawn: the page, not an error page


def test_the_page_opens_on_the_last_stage(page: Path, tmp_path: Path) -> None:
    shot = screenshot(page.as_uri(), tmp_path / "last.png")
    not_blank(shot)
    assert bands(shot, rgb(END_MARK)) > 20  # the game-over banner of the last stage
    assert bands(shot, rgb(NAV_COLOUR)) > 20  # the buttons' bar


def test_the_first_stage_by_its_address(page: Path, tmp_path: Path) -> None:
    shot = screenshot(page.as_uri() + "#first", tmp_path / "first.png")
    not_blank(shot)
    assert count(shot, rgb(END_MARK)) == 0
    assert bands(shot, rgb(NAV_COLOUR)) > 20


def test_without_scripts_every_stage_shows_in_order(page: Path, tmp_path: Path) -> None:
    """Headless chromium takes no screenshot with scripts turned off: the page is shown without its script."""
    raw = page.read_text("utf-8")
    start, end = raw.index("<script>"), raw.index("</script>") + len("</script>")
    bare = tmp_path / "bare.html"
    bare.write_text(raw[:start] + raw[end:], "utf-8")
    shot = screenshot(bare.as_uri(), tmp_path / "noscript.png")
    not_blank(shot)
    assert count(shot, rgb(END_MARK)) == 0  # the setup is at the top, the end far below
    assert bands(shot, rgb(NAV_COLOUR)) == 0  # no buttons bar: they would not work
