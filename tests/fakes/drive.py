"""Drive's side of `FakeGoogle`: who may open each file, and the permissions API.

Every kind of grant Drive has is represented: ``user`` and ``group`` (an address), ``domain``
(everyone in it) and ``anyone`` (whoever has the link; with ``allowFileDiscovery`` whoever
searches too), each with any role (owner, organizer, fileOrganizer, writer, commenter, reader).
The caller's access is the best role any grant gives them; Drive hides a file the caller cannot
see behind a 404, and refuses sharing to a reader with 403 ``insufficientFilePermissions``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from fakes import errors as fake_errors

Json = dict[str, Any]
ROLES = ("reader", "commenter", "writer", "fileOrganizer", "organizer", "owner")  # weakest first
TYPES = ("user", "group", "domain", "anyone")


@dataclass
class Grant:
    id: str
    type: str
    role: str
    email: str = ""  # user or group
    domain: str = ""  # domain
    discoverable: bool = False  # anyone / domain: allowFileDiscovery

    def doc(self) -> Json:
        out: Json = {"kind": "drive#permission", "id": self.id, "type": self.type, "role": self.role}
        if self.email:
            out["emailAddress"] = self.email
        if self.type == "domain":
            out["domain"] = self.domain
        if self.type in ("domain", "anyone"):
            out["allowFileDiscovery"] = self.discoverable
        if self.type in ("user", "group"):
            out["displayName"] = self.email.split("@")[0]
            out["deleted"] = False
        return out

    def covers(self, who: str, groups: dict[str, set[str]]) -> bool:
        if self.type == "anyone":
            return True
        if self.type == "domain":
            return who.lower().endswith("@" + self.domain.lower())
        if self.type == "group":
            return who.lower() in groups.get(self.email.lower(), set())
        return self.email.lower() == who.lower()


@dataclass
class Drive:
    """The grants of every file, and the people without a Google account (sharing with them fails)."""

    grants: dict[str, list[Grant]] = field(default_factory=dict)
    groups: dict[str, set[str]] = field(default_factory=dict)  # group address -> member addresses
    no_account: set[str] = field(default_factory=set)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def grant(self, file_id: str, type: str, role: str, who: str = "", discoverable: bool = False) -> Grant:
        """Add a grant (replacing the same grantee's), as Drive would; ``who`` is an address or a domain."""
        if type not in TYPES or role not in ROLES:
            raise ValueError(f"no such grant: {type} {role}")
        found = self.grants.setdefault(file_id, [])
        for g in found:
            if g.type == type and (g.email or g.domain).lower() == who.lower():
                g.role, g.discoverable = role, discoverable
                return g
        g = Grant(f"{next(self._ids):020d}" if type != "anyone" else "anyoneWithLink", type, role,
                  who if type in ("user", "group") else "", who if type == "domain" else "", discoverable)
        found.append(g)
        return g

    def role(self, file_id: str, who: str) -> str | None:
        """The best role the caller has on the file, or None if they cannot see it."""
        best = [ROLES.index(g.role) for g in self.grants.get(file_id, []) if g.covers(who, self.groups)]
        return ROLES[max(best)] if best else None

    def may(self, file_id: str, who: str, role: str) -> bool:
        have = self.role(file_id, who)
        return have is not None and ROLES.index(have) >= ROLES.index(role)

    def owner(self, file_id: str) -> str | None:
        return next((g.email for g in self.grants.get(file_id, []) if g.role == "owner"), None)

    # -- the permissions API ------------------------------------------------

    def _visible(self, file_id: str, who: str, exists: bool, share: bool = False) -> None:
        if not exists or self.role(file_id, who) is None:
            raise fake_errors.drive_not_found(file_id)
        if share and not self.may(file_id, who, "writer"):
            raise fake_errors.drive_error(403, "insufficientFilePermissions")

    def listing(self, file_id: str, who: str, exists: bool) -> Json:
        self._visible(file_id, who, exists)
        return {"kind": "drive#permissionList", "permissions": [g.doc() for g in self.grants.get(file_id, [])]}

    def create(self, file_id: str, who: str, exists: bool, body: Json, params: dict[str, list[str]]) -> Json:
        self._visible(file_id, who, exists, share=True)
        kind, role = body.get("type"), body.get("role")
        if not kind:
            raise fake_errors.drive_error(400, "required", "The permission type field is required.",
                                 location="permission.type", location_type="other")
        if not role:
            raise fake_errors.drive_error(400, "required", "The permission role field is required.",
                                 location="permission.role", location_type="other")
        if kind not in TYPES:
            raise fake_errors.drive_error(400, "invalid", f"The permission type {kind} is not valid.",
                                 location="permission.type", location_type="other")
        if role not in ROLES:
            raise fake_errors.drive_error(400, "invalid", f"The permission role {role} is not valid.",
                                 location="permission.role", location_type="other")
        target = str(body.get("emailAddress" if kind in ("user", "group") else "domain", "") or "")
        if kind != "anyone" and not target:
            raise fake_errors.drive_error(400, "required", "The permission emailAddress field is required.",
                                 location="permission.emailAddress", location_type="other")
        notify = params.get("sendNotificationEmail", ["true"])[0].lower() != "false"
        if kind == "user" and target.lower() in self.no_account and not notify:
            raise fake_errors.drive_error(400, "invalidSharingRequest", (
                f'Bad Request. User message: "You are trying to invite {target}. Since there is no Google '
                'account associated with this email address, you must check the \\"Notify people\\" box to '
                'invite this recipient."'))
        if role == "owner" and params.get("transferOwnership", ["false"])[0].lower() != "true":
            raise fake_errors.drive_error(403, "forbidden", "The transferOwnership parameter must be enabled when the "
                                 "permission role is 'owner'.", location="transferOwnership")
        return self.grant(file_id, kind, role, target, bool(body.get("allowFileDiscovery", False))).doc()

    def _find(self, file_id: str, permission_id: str) -> Grant:
        for g in self.grants.get(file_id, []):
            if g.id == permission_id:
                return g
        raise fake_errors.drive_error(404, "notFound", f"Permission not found: {permission_id}.",
                                      location="permissionId")

    def update(self, file_id: str, permission_id: str, who: str, exists: bool, body: Json) -> Json:
        self._visible(file_id, who, exists, share=True)
        g = self._find(file_id, permission_id)
        if body.get("role") not in ROLES:
            raise fake_errors.drive_error(400, "invalid", f"The permission role {body.get('role')} is not valid.",
                                 location="permission.role", location_type="other")
        g.role = body["role"]
        return g.doc()

    def delete(self, file_id: str, permission_id: str, who: str, exists: bool) -> None:
        self._visible(file_id, who, exists, share=True)
        g = self._find(file_id, permission_id)
        self.grants[file_id].remove(g)
