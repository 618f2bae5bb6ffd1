"""The report of `sheetgm doctor`: one line per check (name, passed, detail, fix), in the director's language."""

from __future__ import annotations

from typing import Any

from sheetgm.core.texts import render
from sheetgm.core.values import asdict, field, record


@record
class Line:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    warn: bool = False  # passed, with something worth knowing


@record
class DoctorReport:
    game: str
    backend: str
    lines: list[Line] = field(default_factory=list)
    recording: str | None = None

    @property
    def ok(self) -> bool:
        return all(line.ok for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "backend": self.backend, "ok": self.ok, "checks": [asdict(x) for x in self.lines],
                "recording": self.recording}


class Lines:
    """The report being written, in one language: ``add`` renders ``doctor.<key>`` and its fix."""

    def __init__(self, rep: DoctorReport, lang: str) -> None:
        self.rep, self.lang = rep, lang

    def add(self, name: str, ok: bool, key: str, fix: str = "", warn: bool = False, **params: Any) -> Line:
        line = Line(name, ok, render(self.lang, f"doctor.{key}", **params),
                    render(self.lang, f"doctor.fix.{fix}", **params) if fix else "", warn)
        self.rep.lines.append(line)
        return line
