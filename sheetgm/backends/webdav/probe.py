"""What a WebDAV server does that sheetgm relies on, tried on a scratch file (for ``sheetgm doctor``)."""

from __future__ import annotations

import time

from sheetgm.backends.webdav.client import DavClient, PreconditionFailed
from sheetgm.core.values import Value, record

SCRATCH = ".sheetgm-doctor-scratch.txt"


@record(frozen=True)
class Probe(Value):
    writable: bool  # a file could be put in the root folder
    if_match: bool  # a PUT with a stale If-Match was refused (412)
    etags: bool  # the server sends ETags
    skew: float | None  # the server's clock minus ours, in seconds (its Last-Modified against our clock)


def probe(client: DavClient, folder: str = "") -> Probe:
    """Put a scratch file, try a write conditional on a version it is not, read the server's clock, delete it."""
    path = f"{folder.rstrip('/')}/{SCRATCH}".lstrip("/")
    before = time.time()
    client.put(path, b"sheetgm doctor: this file can be deleted\n")
    got = client.get(path)
    etag, modified = (got[1], got[2]) if got is not None else ("", None)
    try:
        client.put(path, b"sheetgm doctor: a write that must be refused\n", if_match='"sheetgm-not-this-version"')
        honoured = False
    except PreconditionFailed:
        honoured = True
    client.delete(path)
    skew = None if modified is None else modified - before  # (Last-Modified is to the second: +-1 s)
    return Probe(True, honoured, bool(etag), skew)
