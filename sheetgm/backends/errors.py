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


class UnusableWorkbookError(BackendError):
    """One workbook cannot be used as it is: missing, not shared with us, not a readable file, or with
    a tab renamed or deleted by hand. Only that workbook is affected, and retrying will not help until
    someone repairs it: the service names it and goes on with the others (a network or quota failure
    is not one of these: it stops the run, to be run again)."""


class MissingWorkbookError(UnusableWorkbookError):
    """The workbook for a key does not exist or cannot be found (params: key)."""

    code = "err.backend.missing_workbook"


class WorkbookExistsError(BackendError):
    """``create`` was asked for a key that already has a workbook (params: key)."""

    code = "err.backend.exists"


class RangeError(BackendError):
    """A range is malformed or names a tab the workbook lacks (params: range, detail)."""

    code = "err.backend.bad_range"


class MissingTabError(RangeError, UnusableWorkbookError):
    """A well-formed range names a tab the workbook lacks: renamed or deleted by hand (params: key, tab, range).
    Adapters that do not know the workbook key leave it to the gateway (``name_workbook``)."""

    code = "err.backend.missing_tab"

    def __init__(self, *, range: str, tab: str, key: str = "?") -> None:  # noqa: A002 - the template's name
        super().__init__(range=range, tab=tab, key=key)


class ProtectedRangeError(UnusableWorkbookError):
    """The account may not edit a protected range of the workbook: it is not among the protection's editors
    (params: key, account)."""

    code = "err.backend.protected"


class CellTooLongError(BackendError):
    """A value longer than one cell holds: 50,000 characters on Google, 32,767 in an .xlsx file
    (Excel's limit) (params: range, length, limit)."""

    code = "err.backend.cell_too_long"


class OpError(BackendError):
    """A write operation carries an invalid argument (params: op, detail)."""

    code = "err.backend.bad_op"


class AccessError(UnusableWorkbookError):
    """The account may not do this (403); retrying will not help (params: key, account)."""

    code = "err.backend.denied"


class QuotaError(BackendError):
    """Drive storage quota exceeded, typically a service account creating a file (params: key)."""

    code = "err.backend.storage_quota"


class NetworkError(BackendError):
    """The API stayed unavailable after every retry (params: key, attempts, detail)."""

    code = "err.backend.unavailable"


class CredentialsError(BackendError):
    """Credentials are missing or malformed; params never carry their content (params: source, and ``problem``:
    its text key under ``err.backend.cred``, rendered in the reader's language with the other params)."""

    code = "err.backend.credentials"

    def message(self, lang: str = "zh") -> str:
        from sheetgm.core.texts import render

        params = dict(self.params)
        params["problem"] = render(lang, f"err.backend.cred.{params.get('problem', '')}", **params)
        return render(lang, self.code, **params)


class FileError(UnusableWorkbookError):
    """A local workbook file cannot be opened or saved (params: path, detail)."""

    code = "err.backend.bad_file"


class UnreadableFileError(FileError):
    """A local workbook file that is not one this adapter can read, said with what to do: another format
    under the .xlsx name, a password, damage, or more than a workbook may hold (params: path, and per code
    part, limit, size, sibling...). The code names the problem (``err.backend.file.*``)."""

    code = "err.backend.file.damaged"


class FileNotice(BackendError):
    """Something about a workbook's file that is not an error but that the director and the player should
    hear: a copy in another format beside it (params: path, sibling, format). Told, never raised."""

    code = "err.backend.file.sibling"


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


def name_workbook(err: BackendError, key: str) -> BackendError:
    """The same error, saying which workbook it is about when the layer that raised it did not know."""
    if err.params.get("key", "?") == "?":
        err.params["key"] = key
    return err
