"""The recap page as a pure function of its model: whatever a player typed as an alias, or the director as the
game's name, stays text (no tag, no link, no script gets into the page); the director's copy is marked; the
animation refuses what it cannot make."""

from __future__ import annotations

import io
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from sheetgm.core.events import Event
from sheetgm.core.texts import render
from sheetgm.render import animation
from sheetgm.render.files import RenderError, write_bytes
from sheetgm.render.recap_html import CastRow, Recap, Step, page

EVIL = '<img src="https://evil.example/x.png" onerror="alert(1)">'


def png(colour: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(buf, "PNG")
    return buf.getvalue()


def model(director_copy: bool = False) -> Recap:
    moved = Event("moved", 1, "survivor", {"frm": "A1", "tile": "A2", "how": "move"}, to=(1,), actor=1)
    elim = Event("eliminated", 1, "hunter", {"alias": EVIL}, public=True, actor=1)
    steps = (Step("N0-setup", 0, "setup", png("#ffffff"), 8, 8, (), (), "0/16", False, 0, 0),
             Step("N1-survivor", 1, "survivor", png("#cfe2f3"), 8, 8, (moved,), (), "2/16", False, 0, 0),
             Step("N1-hunter", 1, "hunter", png("#ffe599"), 8, 8, (elim,), (), "2/16", False, 0, 1))
    cast = (CastRow(1, EVIL, "survivor", "doctor", "eliminated", None if director_copy else "lost", "#1565c0"),
            CastRow(2, "H1", "hunter", "bane", "in", None if director_copy else "won", "#b71c1c"))
    return Recap('cup "</script><script>alert(2)</script>', "standard", steps, cast, {1: EVIL, 2: "H1"},
                 None if director_copy else "hunters", None if director_copy else "eliminations", director_copy,
                 "N2-survivor" if director_copy else None, "2024-05-01T12:00:00")


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> Tags:
    t = Tags()
    t.feed(html)
    t.close()
    return t


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_what_players_typed_stays_text(lang: str) -> None:
    html = page(model(), lang)
    tags = parse(html)
    imgs = [a for tag, a in tags.tags if tag == "img"]
    assert len(imgs) == 3 and all(a["src"].startswith("data:image/png;base64,") for a in imgs)
    assert not any("onerror" in a for _, a in tags.tags)
    assert [tag for tag, _ in tags.tags].count("script") == 1  # the page's own, nothing injected
    assert "https://evil" not in "".join(v for _, a in tags.tags for v in a.values())
    text = "".join(tags.text)
    assert EVIL in text  # shown as the player typed it, as text
    assert html.count("</script>") == 1


def test_the_director_copy_is_marked_and_the_end_is_not_told() -> None:
    html = page(model(director_copy=True), "en")
    text = "".join(parse(html).text)
    assert render("en", "recap.secret") in text and render("en", "recap.secret_title").strip() in text
    assert render("en", "recap.going_on", stage="N2-survivor") in text
    assert 'class="over"' not in html and text.count(render("en", "recap.cast.playing")) == 2
    public = page(model(), "en")
    assert 'class="secret"' not in public and public.count('class="over"') == 1


def test_the_animation_refuses_what_it_cannot_make() -> None:
    frame = Image.new("RGB", (10, 10), "#ffffff")
    with pytest.raises(ValueError, match="one of gif, apng"):
        animation.animate([frame], "webp")
    with pytest.raises(ValueError, match="at least one frame"):
        animation.animate([], "gif")
    made = Image.open(io.BytesIO(animation.animate([frame, Image.new("RGB", (12, 9), "#000000")], "gif")))
    assert made.n_frames == 2 and made.size == (12, 10)  # frames of different sizes are padded to the largest


def test_a_file_that_cannot_be_written_is_named_and_the_old_one_kept(tmp_path: Path) -> None:
    old = tmp_path / "recap-zh.html"
    old.write_text("the recap of yesterday", "utf-8")
    (tmp_path / f".recap-zh.html.{os.getpid()}.tmp").mkdir()  # the temporary file cannot be made
    with pytest.raises(RenderError) as failed:
        write_bytes(b"new", old)
    assert str(old) in failed.value.message("en")
    assert old.read_text("utf-8") == "the recap of yesterday"
    assert write_bytes(b"new", tmp_path / "other" / "recap.gif").read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == [f".recap-zh.html.{os.getpid()}.tmp", "other", "recap-zh.html"]
