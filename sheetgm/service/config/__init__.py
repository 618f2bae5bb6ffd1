"""The game's configuration: ``game.toml`` found and read (``file``), validated (``model`` and ``rules``) and
turned into plain records (``load``)."""
