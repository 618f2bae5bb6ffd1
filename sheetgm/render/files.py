"""A drawn picture or page written to a file: the one place where render's output meets the disk (the drawing
stays pure)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from sheetgm.core.errors import SheetgmError


class RenderError(SheetgmError):
    """A picture cannot be written (params: file, detail)."""

    code = "err.render.write"


def write_bytes(data: bytes, out: Path) -> Path:
    """Write ``data`` to ``out`` (its folder made if needed) in one step: a temporary file beside it, then
    renamed over it, so a failed write leaves the file as it was. An OS error becomes a RenderError naming the
    file."""
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, out)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise RenderError(file=str(out), detail=exc.strerror or str(exc)) from exc
    return out


def write_png(png: bytes, out: Path) -> Path:
    return write_bytes(png, out)
