"""Errors of the workbook gateway.

Every error names the workbook (its logical key) and, where one exists, the
range or the account, and says what to do. Texts live in
``sheet_templates/texts/<lang>/backends.toml``.
"""

from __future__ import annotations

from sheetgm.core.errors import SheetgmError


class BackendError(SheetgmError):
    """Base of every gateway failure (``err.backend.api`` for an unexpected API answer)."""

    code = "err.backend.api"


class MissingWorkbookError(BackendError):
    """The workbook for a key does not exist or cannot be found (params: key)."""

    code = "err.backend.missing_workbook"


class WorkbookExistsError(BackendError):
    """``create`` was asked for a key that already has a workbook (params: key)."""

    code = "err.backend.exists"


class RangeError(BackendError):
    """A range is malformed or names a tab the workbook lacks (params: range, detail)."""

    code = "err.backend.bad_range"


class OpError(BackendError):
    """A write operation carries an invalid argument (params: op, detail)."""

    code = "err.backend.bad_op"


class AccessError(BackendError):
    """The account may not do this (403); retrying will not help (params: key, account)."""

    code = "err.backend.denied"


class QuotaError(BackendError):
    """Drive storage quota exceeded, typically a service account creating a file (params: key)."""

    code = "err.backend.storage_quota"


class NetworkError(BackendError):
    """The API stayed unavailable after every retry (params: key, attempts, detail)."""

    code = "err.backend.unavailable"


class CredentialsError(BackendError):
    """Credentials are missing or malformed; params never carry their content (params: source, problem)."""

    code = "err.backend.credentials"


class FileError(BackendError):
    """A local workbook file cannot be opened or saved (params: path, detail)."""

    code = "err.backend.bad_file"


class NotSharedError(AccessError):
    """Drive answers 404 for a file the account cannot see: it exists, or did, but is not shared with
    the account (params: key, id, account)."""

    code = "err.backend.not_shared"


class CreateDeniedError(AccessError):
    """Google refused to create a file: a service account cannot (params: key, account)."""

    code = "err.backend.create_denied"


class ShareRejectedError(BackendError):
    """Drive refused a sharing request for this address, e.g. no Google account behind it
    (params: key, email, detail)."""

    code = "err.backend.share_rejected"
