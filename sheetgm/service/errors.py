"""Errors of the service layer (texts in sheet_templates/texts/<lang>/sheets.toml)."""

from __future__ import annotations

from sheetgm.core.errors import SheetgmError


class ServiceError(SheetgmError):
    """A use case cannot go on; the message says what and where."""

    code = "err.svc.generic"


class ConfigError(ServiceError):
    """game.toml is missing or invalid (params: path, detail)."""

    code = "err.svc.config"


class NoConfigError(ConfigError):
    """No game.toml (or game.json) where the command looked (params: path)."""

    code = "err.svc.no_config"


class MapFileMissingError(ConfigError):
    """The config names a map file that is not there (params: path, map)."""

    code = "err.svc.map_missing"


class NoServiceAccountError(ConfigError):
    """A Google game's config lacks the service account the scheduled runs act as (params: path)."""

    code = "err.svc.no_service_account"


class LockedError(ServiceError):
    """Another run holds the game lock (params: holder, since)."""

    code = "err.svc.locked"


class NotDueError(ServiceError):
    """The asked stage is not the one due (params: asked, due)."""

    code = "err.svc.not_due"
