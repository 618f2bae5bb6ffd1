"""Notation: the text formats people write (the map file format, the order language)."""

from sheetgm.notation.mapfile import dump_map, load_map, load_map_file, ready_map, ready_map_names

__all__ = ["dump_map", "load_map", "load_map_file", "ready_map", "ready_map_names"]
