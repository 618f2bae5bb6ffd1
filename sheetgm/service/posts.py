"""The announcement for every reader: one post per language of the roster, or all of them in one post.

A forum thread read by Chinese and English players gets the same announcement in each language (the
director posts each, or chooses one post holding every language, director's first). Each language's post
links the map drawn with that language's labels.
"""

from __future__ import annotations

from sheetgm.render import bbcode
from sheetgm.service.desk import announcement_doc
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import Game


def posts(game: Game, stage: str | None = None, fmt: str = "bbcode", langs: list[str] | None = None,
          with_map: bool = False, map_url: str | None = None, together: bool = False) -> list[tuple[str, str]]:
    """(language, post) for each of ``langs`` (default: every language of the roster, ``Game.langs``);
    ``together``: one post, every language in turn, under the language codes joined ("zh+en")."""
    if fmt not in bbcode.FORMATS:
        raise ServiceError("err.desk.bad_format", format=fmt, formats=", ".join(bbcode.FORMATS))
    docs = [(lang, announcement_doc(game, stage, lang, with_map, map_url)) for lang in langs or game.langs]
    if together and len(docs) > 1:
        joined: list[bbcode.Block] = []
        for i, (_lang, doc) in enumerate(docs):
            joined += ([bbcode.Block("rule")] if i else []) + doc
        return [("+".join(lang for lang, _ in docs), bbcode.render_doc(joined, fmt))]
    return [(lang, bbcode.render_doc(doc, fmt)) for lang, doc in docs]
