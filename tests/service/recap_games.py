"""Games for the recap's tests: a whole 10-player demo game (hunters win on night 6), one stopped after its first
night, and how to read back what `sheetgm recap` wrote (the page's parts, the animation's frames).

The tests count the finished game's stages and winners: a change to the bots' decisions may need another seed of
the same shape (``SEED``)."""

from __future__ import annotations

import io
import re
import shutil
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from PIL import Image

from sheetgm.service.demo import demo
from sheetgm.service.game import Game, open_game

SEED = 5  # the hunters win after 6 nights (12 stages and the setup), three survivors escaped


def finished(folder: Path, lang: str = "zh") -> Path:
    """A 10-player demo game played to its end (``SEED``: the hunters win after 6 nights, 13 stages)."""
    rep = demo(folder, players=10, seed=SEED, lang=lang)
    assert rep.winner == "hunters" and rep.stages == 12
    return folder


def unfinished(folder: Path) -> Path:
    """The same demo stopped after night 1: nobody has won."""
    rep = demo(folder, players=10, seed=SEED, max_nights=1)
    assert rep.winner is None
    return folder


def copy_of(game_folder: Path, to: Path) -> Game:
    """A copy of a game folder (each test changes its own)."""
    shutil.copytree(game_folder, to)
    return open_game(to)


@dataclass
class Page(HTMLParser):
    """What a test reads in the recap page: every URL it names, its sections, tags, text."""

    urls: list[tuple[str, str, str]] = field(default_factory=list)  # (tag, attribute, value)
    sections: list[str] = field(default_factory=list)  # ids of the stage sections, in order
    tags: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)  # tags that carry the hidden attribute
    text: list[str] = field(default_factory=list)
    scripts: list[str] = field(default_factory=list)
    styles: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)  # img src, in order
    _in: str = ""

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.append(tag)
        self._in = tag
        for k in ("src", "href", "action", "data", "poster", "srcset", "content"):
            if k in a:
                self.urls.append((tag, k, a[k]))
        if tag == "section" and "step" in a.get("class", "").split():
            self.sections.append(a["id"])
        if "hidden" in a:
            self.hidden.append(tag)
        if tag == "img":
            self.images.append(a.get("src", ""))

    def handle_data(self, data: str) -> None:
        if self._in == "script":
            self.scripts.append(data)
        elif self._in == "style":
            self.styles.append(data)
        else:
            self.text.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in = ""


def read_page(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text("utf-8"))
    page.close()
    return page


def png_of(data_uri: str) -> Image.Image:
    import base64

    m = re.fullmatch(r"data:image/png;base64,([A-Za-z0-9+/=]+)", data_uri)
    assert m, data_uri[:60]
    return Image.open(io.BytesIO(base64.b64decode(m.group(1))))


def frames(path: Path) -> list[Image.Image]:
    """Every frame of an animated GIF or APNG, as RGB."""
    im = Image.open(path)
    out = []
    for i in range(getattr(im, "n_frames", 1)):
        im.seek(i)
        out.append(im.convert("RGB"))
    return out
