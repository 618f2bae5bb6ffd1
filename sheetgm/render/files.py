"""A drawn picture or page written to a file: the one place where render's output meets the disk (the drawing
stays pure)."""

from __future__ import annotations

from pathlib import Path

from sheetgm.core.errors import SheetgmError


class RenderError(SheetgmError):
    """A picture cannot be written (params: file, detail)."""

    code = "err.render.write"


def write_bytes(data: bytes, out: Path) -> Path:
    """Write ``data`` to ``out`` (its folder made if needed); an OS error becomes a RenderError naming the file."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    except OSError as exc:
        raise RenderError(file=str(out), detail=exc.strerror or str(exc)) from exc
    return out


def write_png(png: bytes, out: Path) -> Path:
    return write_bytes(png, out)
