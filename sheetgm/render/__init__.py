"""Pure drawing: the map as a PNG (views: what each viewer may see; draw; fonts) and the forum announcement as
BBCode (bbcode). Nothing here reads a game: the use cases in ``service`` hand it a state and its events.

Import the module you need (``sheetgm.render.draw``): this package imports nothing, so BBCode does not pay for
Pillow."""
