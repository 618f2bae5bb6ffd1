"""A drawn PNG written to a file: the one place where a picture meets the disk (the drawing stays pure)."""

from __future__ import annotations

from pathlib import Path

from sheetgm.core.errors import SheetgmError


class RenderError(SheetgmError):
    """A picture cannot be written (params: file, detail)."""

    code = "err.render.write"


def write_png(png: bytes, out: Path) -> Path:
    """Write ``png`` to ``out`` (its folder made if needed); an OS error becomes a RenderError naming the file."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(png)
    except OSError as exc:
        raise RenderError(file=str(out), detail=exc.strerror or str(exc)) from exc
    return out
