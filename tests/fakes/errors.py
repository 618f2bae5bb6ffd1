"""The error answers of the fake Google APIs, in the shapes Google uses.

- Sheets (v4, ESF): ``{"error": {"code", "message", "status", "details"?}}``; ``status`` is the
  canonical code name (``INVALID_ARGUMENT``, ``PERMISSION_DENIED``, ...); a malformed payload carries
  a ``type.googleapis.com/google.rpc.BadRequest`` with ``fieldViolations``, a quota refusal a
  ``google.rpc.ErrorInfo`` with ``reason: RATE_LIMIT_EXCEEDED``.
- Drive (v3): ``{"error": {"code", "message", "errors": [{"domain", "reason", "message", ...}]}}``.
- Google's front end (a 502 between the client and the API): an HTML page, not JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Json = dict[str, Any]
Maker = Callable[[], "ApiFault"]

STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
          408: "DEADLINE_EXCEEDED", 409: "ABORTED", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL",
          501: "NOT_IMPLEMENTED", 502: "UNAVAILABLE", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}
SHEETS_MESSAGES = {401: "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie "
                        "or other valid authentication credential.",
                   403: "The caller does not have permission", 404: "Requested entity was not found.",
                   408: "The request timed out. Please try again.", 502: "Bad Gateway",
                   500: "Internal error encountered.", 503: "The service is currently unavailable.",
                   504: "The request timed out. Please try again."}
DRIVE_REASONS = {400: ("global", "badRequest", "Bad Request"), 401: ("global", "authError", "Invalid Credentials"),
                 403: ("global", "insufficientFilePermissions",
                       "The user does not have sufficient permissions for this file."),
                 429: ("usageLimits", "rateLimitExceeded", "Rate Limit Exceeded"),
                 500: ("global", "backendError", "Internal Error"), 502: ("global", "badGateway", "Bad Gateway"),
                 503: ("global", "backendError", "Backend Error"), 504: ("global", "backendError", "Backend Error")}
HTML_502 = """<!DOCTYPE html>
<html lang=en>
  <meta charset=utf-8>
  <meta name=viewport content="initial-scale=1, minimum-scale=1, width=device-width">
  <title>Error 502 (Server Error)!!1</title>
  <p><b>502.</b> <ins>That's an error.</ins>
  <p>The server encountered a temporary error and could not complete your request.<p>Please try again in 30 seconds.
  <ins>That's all we know.</ins>
"""


class ApiFault(Exception):
    """An error answer: the HTTP status and the body (a JSON document, or text for an HTML page)."""

    def __init__(self, status: int, body: Json | str, content_type: str = "application/json") -> None:
        super().__init__(body["error"]["message"] if isinstance(body, dict) else body[:80])
        self.status, self.body, self.content_type = status, body, content_type


def sheets_error(status: int, message: str | None = None, details: list[Json] | None = None) -> ApiFault:
    error: Json = {"code": status, "message": message or SHEETS_MESSAGES.get(status, f"HTTP {status}"),
                   "status": STATUS.get(status, "UNKNOWN")}
    if details:
        error["details"] = details
    return ApiFault(status, {"error": error})


def bad(message: str, field: str | None = None) -> ApiFault:
    """A Sheets 400; with ``field`` a BadRequest detail naming it (a malformed payload or parameter)."""
    details = None
    if field is not None:
        violation = {"field": field, "description": message} if field else {"description": message}
        details = [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [violation]}]
    return sheets_error(400, message, details)


def sheets_quota(kind: str) -> ApiFault:
    """Sheets' answer past the per-user quota: 429 with an ErrorInfo."""
    metric = "read_requests" if kind == "read" else "write_requests"
    limit = "ReadRequestsPerMinutePerUser" if kind == "read" else "WriteRequestsPerMinutePerUser"
    title = "Read" if kind == "read" else "Write"
    message = (f"Quota exceeded for quota metric '{title} requests' and limit '{title} requests per minute per user' "
               "of service 'sheets.googleapis.com' for consumer 'project_number:123456789'.")
    info = {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED",
            "domain": "googleapis.com",
            "metadata": {"service": "sheets.googleapis.com", "consumer": "projects/123456789",
                         "quota_metric": f"sheets.googleapis.com/{metric}", "quota_limit": limit,
                         "quota_limit_value": "60", "quota_location": "global"}}
    return sheets_error(429, message, [info])


def drive_error(status: int, reason: str | None = None, message: str | None = None, domain: str | None = None,
                location: str | None = None, location_type: str = "parameter") -> ApiFault:
    dom, why, text = DRIVE_REASONS.get(status, ("global", "unknownError", f"HTTP {status}"))
    item: Json = {"message": message or text, "domain": domain or dom, "reason": reason or why}
    if location:
        item["location"], item["locationType"] = location, location_type
    return ApiFault(status, {"error": {"code": status, "message": message or text, "errors": [item]}})


def drive_not_found(file_id: str) -> ApiFault:
    """Drive's answer for a file the caller cannot see, whether or not it exists."""
    return drive_error(404, "notFound", f"File not found: {file_id}.", location="fileId")


def front_end_502() -> ApiFault:
    return ApiFault(502, HTML_502, "text/html; charset=UTF-8")


# Faults a test can inject by name: (Sheets answer, Drive answer).
NAMED: dict[str, tuple[Maker, Maker]] = {
    "forbidden": (lambda: sheets_error(403), lambda: drive_error(403)),
    "rate_limit_403": (lambda: sheets_quota("read"),
                       lambda: drive_error(403, "userRateLimitExceeded", "User Rate Limit Exceeded", "usageLimits")),
    "sharing_rate_limit": (lambda: sheets_quota("write"), lambda: drive_error(
        403, "sharingRateLimitExceeded", 'Rate limit exceeded. User message: "These item(s) could not be shared '
        'because a rate limit was exceeded."')),
    "storage_quota": (lambda: sheets_error(403, "The user's Drive storage quota has been exceeded."),
                      lambda: drive_error(403, "storageQuotaExceeded",
                                          "The user's Drive storage quota has been exceeded.", "usageLimits")),
    "html_502": (front_end_502, front_end_502),
}


def fault(name: str | int, drive: bool) -> ApiFault:
    """The answer of an injected fault: a named one, or an HTTP status in the API's own shape."""
    if isinstance(name, str):
        return NAMED[name][1 if drive else 0]()
    if drive:
        return drive_error(name)
    return sheets_quota("read") if name == 429 else sheets_error(name)
