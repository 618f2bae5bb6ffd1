"""What a redacted recording (`doctor --live`) keeps: only what is known to be safe, whatever key or string the
rest hides in.

An allow-list, never a list of what to hide:

- a key is kept if it is one of Google's (``apikeys.API_KEYS``: the Sheets and Drive schemas) or of
  ``OTHER_KEYS`` (errors, OAuth, the recording's own); any other becomes ``redacted-key-1``...;
- a string is kept if it is one sheetgm wrote itself (``known``: the scratch file's content), or has the shape
  its key allows (``SHAPES``: a kind, a MIME type, a time, a version, a locale, an enum under a Google key...);
- an address becomes a placeholder (``director@example.com``, ``service-account@...``, ``person-1@example.com``),
  a spreadsheet or permission id ``redacted-spreadsheet-0001``..., a display name the placeholder's local part;
- a link keeps a Google host and the path words and query keys it knows (every query value redacted in turn,
  decoded first, so an address URL-encoded in a query string is found), any other link is ``example.com``;
- any other text keeps only the words of ``VOCABULARY`` (Google's error messages, the APIs' names), numbers of
  up to four digits and punctuation: every other word becomes ``REDACTED`` (a name, a token, a key, a CJK
  text), an IP address ``IP``, a longer number ``PROJECT`` after "project", else ``NUMBER``;
- a number under a key that is not Google's, or of ten digits and more, becomes 0; a secret-named key's value
  ``REDACTED``.

What it cannot tell from a word: a person named like a word of the vocabulary ("Grant", "May").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from sheetgm.backends.google.apikeys import API_KEYS
from sheetgm.core.values import field, record

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
URL = re.compile(r"https?://[^\s\"'<>)\]]+")
IPV4 = re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w.])")
IPV6 = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){3,7}[0-9A-Fa-f]{1,4}(?![\w:])"
                  r"|(?<![\w:])[0-9A-Fa-f:]*::[0-9A-Fa-f:]+")
LONG_NUMBER = re.compile(r"\d(?:[\d\s().+-]*\d)?")
TOKEN = re.compile(r"[^\W_]+|\s+|.", re.S)
SECRET_KEYS = ("token", "secret", "private_key", "password", "assertion", "key_id", "privatekey", "credential")
PLACEHOLDERS = ("@example.com", "@example.iam.gserviceaccount.com")

OTHER_KEYS = frozenset({
    "method", "uri", "body", "status", "content_type", "answer",  # the recording's own
    "error", "code", "message", "errors", "domain", "reason", "details", "@type", "metadata", "service", "consumer",
    "activationUrl", "containerInfo", "serviceTitle", "links", "url", "description", "locationType", "location",
    "extendedHelp", "error_description", "error_uri", "access_token", "expires_in", "token_type", "refresh_token",
    "scope", "id_token", "quota_metric", "quota_limit", "quota_location", "quota_limit_value",
})
SAFE_HOSTS = frozenset({"sheets.googleapis.com", "www.googleapis.com", "docs.google.com", "drive.google.com",
                        "console.developers.google.com", "console.cloud.google.com", "oauth2.googleapis.com",
                        "developers.google.com", "support.google.com", "cloud.google.com"})
PATH_WORDS = frozenset({"v4", "v3", "v2", "drive", "spreadsheets", "files", "permissions", "values", "batchGet",
                        "batchUpdate", "apis", "api", "overview", "d", "edit", "copy", "export", "about", "token",
                        "metrics", "quotas", "library", "iam", "admin", "sheets.googleapis.com", "auth",
                        "drive.googleapis.com", "upload", "batch", "append", "clear", "batchClear", "developerMetadata",
                        "sheets", "copyTo", "search", "credentials", "serviceaccounts", "keys", "dashboard"})
QUERY_WORDS = re.compile(r"[A-Za-z0-9_(),/.*]{1,200}")
QUERY_KEYS = frozenset({"fields", "includeGridData", "ranges", "q", "pageSize", "pageToken", "supportsAllDrives",
                        "includeItemsFromAllDrives", "sendNotificationEmail", "transferOwnership", "valueRenderOption",
                        "majorDimension", "dateTimeRenderOption", "alt", "prettyPrint", "emailMessage", "project",
                        "supportsTeamDrives", "useDomainAdminAccess", "moveToNewOwnersRoot", "corpora", "orderBy",
                        "spaces", "valueInputOption", "includeValuesInResponse", "responseValueRenderOption",
                        "insertDataOption", "excludeTablesInBandedRanges", "includePermissionsForView"})
ISO_TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)"
SHAPES: dict[str, str] = {
    "kind": r"(?:drive|sheets)#\w{1,40}", "mimeType": r"[a-z]{1,20}/[a-z0-9.+-]{1,80}",
    "content_type": r"[a-z]{1,20}/[a-z0-9.+-]{1,80}(?:; ?charset=[A-Za-z0-9-]{1,20})?",
    "createdTime": ISO_TIME, "modifiedTime": ISO_TIME, "modifiedByMeTime": ISO_TIME, "viewedByMeTime": ISO_TIME,
    "sharedWithMeTime": ISO_TIME, "expirationTime": ISO_TIME, "version": r"\d{1,20}",
    "etag": r"[A-Za-z0-9_\"/=-]{1,80}", "locale": r"[a-z]{2,3}(?:_[A-Z]{2})?",
    "timeZone": r"(?:[A-Z][A-Za-z_]{1,20}/)?[A-Z][A-Za-z_]{1,30}(?:[+-]\d{1,2})?",
    "role": r"[a-z]{1,20}", "type": r"[A-Za-z_]{1,40}", "method": r"[A-Z]{1,10}", "token_type": r"[A-Za-z]{1,20}",
    "fontFamily": r"[A-Za-z][A-Za-z ,-]{0,60}", "primaryFontFamily": r"[A-Za-z][A-Za-z ,-]{0,60}",
    "@type": r"type\.googleapis\.com/[\w.]{1,80}", "reason": r"[A-Za-z_]{1,60}", "status": r"[A-Z_]{1,60}",
    "service": r"[a-z]{1,30}\.googleapis\.com", "hexColor": r"#[0-9A-Fa-f]{6}",
}
ENUM = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
# Words Google's answers and error messages are made of, and the APIs' names: all a free text keeps
VOCABULARY = frozenset("""
a an the and or not no nor is are was were be been being has have had does do did done it its this that these those
for of to in on at by with from as if then than before after into out per via you your we our they their may can
cannot could must should will would please try retry again later request requests requested entity entities found
permission permissions denied caller user users access forbidden invalid valid value values argument arguments field
fields range ranges sheet sheets spreadsheet spreadsheets file files drive google googleapis com api apis service
services project projects enable enabled disabled disable visiting visit used use using exceeded quota quotas limit
limits rate minute minutes metric metrics consumer unit units read reads write writes storage insufficient
authentication authenticated unauthenticated credentials credential token tokens expired expire revoked grant jwt
signature account accounts missing required unknown name names already exists exist grid row rows column columns
index id ids protected protection protections edit edits editor editors owner owners writer reader commenter
organizer writers readers commenters
share shared sharing domain link links error errors internal backend unavailable temporarily deadline
timeout precondition failed failure fail conflict abort aborted resource resources exhausted method methods get list
create created update updated delete deleted batch batchupdate batchget mask between greater less equal zero one two
least most more only cell cells text number numbers format formula data validation note notes tab tabs title
properties property size bytes too large long many max maximum min minimum characters character length contains
contain include includes type types kind mime event events http https status code message reason location
parameter parameters query body json payload received start end hidden frozen whole all any each every some other
another same new old first last next page operation operations allowed supported unsupported warning trashed false
true null mimetype application vnd apps folder parent parents because since there here when while which what where
how so but also yet still just now time times day days second seconds hour hours period check following see details
more info information help console developers cloud overview dashboard activate activation wait propagate systems
action actions sheetgm doctor scratch redacted project number ip key keys private begin private public oauth client
bad gateway server unexpected invalid_grant invalid_request unauthorized_client unsupported_grant_type
invalid_scope access_denied internal_error permission_denied not_found already_exists resource_exhausted
failed_precondition unimplemented unavailable
""".split())


def _numbers_in(text: str) -> Callable[[re.Match[str]], str]:
    """What a run of digits in ``text`` becomes: itself up to four digits (a row, a status, a count), else
    PROJECT after "project" (a Cloud project number), else NUMBER (a phone, an account, a date)."""

    def number(m: re.Match[str]) -> str:
        if sum(c.isdigit() for c in m.group(0)) <= 4:
            return m.group(0)
        before = text[:m.start()].rstrip(" :=/").lower()
        return "PROJECT" if before.endswith(("project", "projects", "project_number")) else "NUMBER"

    return number


@record
class Redactor:
    """One recording's redaction: the same value gets the same placeholder wherever it shows up."""

    director: str = ""
    service_account: str = ""
    known: frozenset[str] = frozenset()  # strings sheetgm wrote itself (the scratch file's content): safe
    emails: dict[str, str] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)  # spreadsheet and permission ids -> placeholder
    keys: dict[str, str] = field(default_factory=dict)  # keys not Google's -> placeholder
    _words_of_known: frozenset[str] | None = None

    def email(self, found: str) -> str:
        low = found.lower()
        if low not in self.emails:
            if self.director and low == self.director.lower():
                self.emails[low] = "director@example.com"
            elif self.service_account and low == self.service_account.lower():
                self.emails[low] = "service-account@example.iam.gserviceaccount.com"
            elif low.endswith(PLACEHOLDERS) and (low.startswith(("director@", "service-account@", "person-"))):
                self.emails[low] = low  # already a placeholder
            else:
                n = sum(1 for v in self.emails.values() if v.startswith("person-")) + 1
                self.emails[low] = f"person-{n}@example.com"
        return self.emails[low]

    def id(self, found: str, kind: str) -> str:
        if found.startswith("redacted-"):
            return found
        if found not in self.ids:
            n = sum(1 for v in self.ids.values() if v.startswith(f"redacted-{kind}-")) + 1
            self.ids[found] = f"redacted-{kind}-{n:04d}"
        return self.ids[found]

    def learn(self, doc: Any) -> None:
        """Ids to hide wherever they show up later: a spreadsheet's, a permission's."""
        if isinstance(doc, dict):
            if isinstance(doc.get("spreadsheetId"), str):
                self.id(doc["spreadsheetId"], "spreadsheet")
            if doc.get("kind") in ("drive#file", "drive#permission") and isinstance(doc.get("id"), str):
                self.id(doc["id"], "permission" if doc["kind"] == "drive#permission" else "spreadsheet")
            for p in doc.get("permissions") or [] if isinstance(doc.get("permissions"), list) else []:
                if isinstance(p, dict) and isinstance(p.get("id"), str):
                    self.id(p["id"], "permission")  # a listing's permissions: their kind may be masked out
            for v in doc.values():
                self.learn(v)
        elif isinstance(doc, list):
            for v in doc:
                self.learn(v)

    # -- free text, links, ranges

    def text(self, s: str) -> str:
        """A free text: its links and addresses made safe, then only the words of the vocabulary."""
        out: list[str] = []
        last = 0
        for m in URL.finditer(s):
            out.append(self._words(s[last:m.start()]))
            out.append(self.url(m.group(0)))
            last = m.end()
        out.append(self._words(s[last:]))
        return "".join(out)

    def _words(self, s: str) -> str:
        s = EMAIL.sub(lambda m: "\0" + self.email(m.group(0)) + "\0", s)
        parts = s.split("\0")  # odd parts: placeholders, kept as they are
        for i in range(0, len(parts), 2):
            parts[i] = self._plain(parts[i])
        return "".join(parts)

    def _plain(self, s: str) -> str:
        for raw, placeholder in sorted(self.ids.items(), key=lambda kv: -len(kv[0])):
            if len(raw) >= 8:
                s = s.replace(raw, "\1" + placeholder + "\1")
        s = IPV6.sub("IP", IPV4.sub("IP", s))
        pieces = s.split("\1")
        for i in range(0, len(pieces), 2):
            piece = LONG_NUMBER.sub(_numbers_in(pieces[i]), pieces[i])
            pieces[i] = "".join(self._word(t) for t in TOKEN.findall(piece))
        return "".join(pieces)

    def _word(self, tok: str) -> str:
        if not tok or not tok[0].isalnum() or tok in ("PROJECT", "NUMBER", "IP", "REDACTED"):
            return tok
        if tok.isdigit() and len(tok) <= 4:
            return tok
        if tok.lower() in VOCABULARY or tok in API_KEYS or tok in self._known_words():
            return tok
        if len(tok) == 1 and tok.isascii():
            return tok
        return "REDACTED"

    def _known_words(self) -> frozenset[str]:
        if self._words_of_known is None:
            self._words_of_known = frozenset(t for s in self.known for t in TOKEN.findall(s) if t[:1].isalnum())
        return self._words_of_known

    def url(self, s: str) -> str:
        """A link: a Google host with the path words and query keys it knows, ids as placeholders; else
        example.com."""
        try:
            parts = urlsplit(s)
        except ValueError:
            return "https://example.com/REDACTED"
        host = (parts.hostname or "").lower()
        if host not in SAFE_HOSTS:
            return "https://example.com/REDACTED"
        segments: list[str] = []
        prev = ""
        for seg in parts.path.split("/"):
            segments.append(self._segment(seg, prev))
            prev = seg
        query = [(k, self._query(k, v)) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k in QUERY_KEYS]
        return urlunsplit((parts.scheme, host, "/".join(segments), urlencode(query), ""))

    def _segment(self, seg: str, prev: str) -> str:
        if not seg:
            return seg
        head, colon, tail = seg.partition(":")
        if prev == "values" or "!" in seg:
            return self.a1(seg)
        if head in self.ids or prev in ("spreadsheets", "files", "d") and head not in PATH_WORDS:
            head = self.id(head, "spreadsheet")
        elif prev == "permissions":
            head = self.id(head, "permission")
        elif head not in PATH_WORDS:
            head = "REDACTED"
        return head + colon + (tail if tail in PATH_WORDS else ("REDACTED" if tail else ""))

    def _query(self, key: str, value: str) -> str:
        if key == "project":
            return "PROJECT"
        if key == "ranges":
            return self.a1(value)
        if key in ("q", "emailMessage"):
            return self._words(value)
        if key == "pageToken":
            return value if value.isdigit() and len(value) <= 6 else "REDACTED"
        return value if QUERY_WORDS.fullmatch(value) and not EMAIL.search(value) else "REDACTED"

    def a1(self, s: str) -> str:
        """A range: its tab kept if sheetgm named it (``known``), its cells if they read as cells."""
        tab, bang, cells = s.rpartition("!")
        if not bang:
            tab, cells = "", s
        name = tab[1:-1].replace("''", "'") if len(tab) > 1 and tab[0] == tab[-1] == "'" else tab
        safe_cells = cells if re.fullmatch(r"[A-Z]{0,3}\d{0,7}(?::[A-Z]{0,3}\d{0,7})?", cells) else "A1"
        if not bang:
            return safe_cells if cells == safe_cells else self.text(s)
        return f"{tab if name in self.known else 'REDACTED'}!{safe_cells}"

    # -- documents

    def doc(self, doc: Any, key: str = "") -> Any:
        if isinstance(doc, dict):
            out = {self._key(k): self.doc(v, k) for k, v in doc.items()}
            if isinstance(out.get("displayName"), str):  # a person's name: the local part of their placeholder
                out["displayName"] = str(out.get("emailAddress", "REDACTED@")).split("@")[0]
            return out
        if isinstance(doc, list):
            return [self.doc(v, key) for v in doc]
        if isinstance(doc, bool) or doc is None:
            return doc
        if isinstance(doc, int | float):
            known_key = key in API_KEYS or key in OTHER_KEYS
            return doc if known_key and abs(doc) < 10**10 else 0
        if isinstance(doc, str):
            return self.value(doc, key)
        return "REDACTED"

    def _key(self, key: str) -> str:
        if key in API_KEYS or key in OTHER_KEYS:
            return key
        if key not in self.keys:
            self.keys[key] = f"redacted-key-{len(self.keys) + 1}"
        return self.keys[key]

    def value(self, s: str, key: str) -> str:
        """A string under ``key``: kept only where known to be safe (see the module's text)."""
        low = key.lower()
        if any(word in low for word in SECRET_KEYS):
            return "REDACTED"
        if s in self.known:
            return s
        if key in ("spreadsheetId", "id") and s in self.ids:
            return self.ids[s]
        if key in ("emailAddress", "user", "users", "email") and EMAIL.fullmatch(s):
            return self.email(s)
        if key == "photoLink":
            return "https://example.com/photo.png"
        if key == "domain" and not re.fullmatch(r"[A-Za-z]{1,30}|(?:[a-z]+\.)?googleapis\.com", s):
            return "example.com"
        if key == "domain":
            return s
        if s.startswith(("http://", "https://")) and not any(c.isspace() for c in s):
            return self.url(s)
        if key in ("range", "ranges", "updatedRange", "tableRange"):
            return self.a1(s)
        shape = SHAPES.get(key)
        if shape is not None and re.fullmatch(shape, s):
            return s
        if key in API_KEYS and len(s) <= 40 and ENUM.fullmatch(s):
            return s
        return self.text(s)
