"""Google's own API descriptions, enforced on every request the fake receives and every answer it gives.

The discovery documents ``sheets.v4.json`` and ``drive.v3.json`` are vendored under
``tests/fakes/discovery_docs/`` (see the README there: the package, version and checksums they came from).
A request is matched to a method by verb and path template; then its query parameters (known,
typed, enums, repeated or not) and its body (every property at its nesting level, walked through
the ``schemas`` by ``$ref``: type, format, enum, items, additionalProperties; field masks naming
existing fields; one kind per batchUpdate ``Request``) are checked, and a request Google would
reject is answered 400 in Google's words. An answer of the fake that does not fit the method's
response schema (or Google's error shapes) raises `ConformanceError`: the fake has a bug.

One difference between the two APIs is kept: Sheets (ESF) rejects an unknown body field with
"Invalid JSON payload received. Unknown name ...", Drive v3 ignores it (gspread's
``insert_permission`` still sends v2's ``withLink`` and works).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from fakes import errors as fake_errors

Json = dict[str, Any]
DISCOVERY_DIR = Path(__file__).resolve().parent / "discovery_docs"
DOCUMENTS = ("sheets.v4.json", "drive.v3.json")
INT32 = (-(2**31), 2**31 - 1)
# What each field mask of the Sheets API is relative to (the descriptions say so in words).
MASK_TARGETS = {
    "AppendCellsRequest": "CellData", "RepeatCellRequest": "CellData", "UpdateCellsRequest": "CellData",
    "UpdateBandingRequest": "BandedRange", "UpdateDataSourceRequest": "DataSource",
    "UpdateDeveloperMetadataRequest": "DeveloperMetadata", "UpdateDimensionGroupRequest": "DimensionGroup",
    "UpdateDimensionPropertiesRequest": "DimensionProperties",
    "UpdateEmbeddedObjectBorderRequest": "EmbeddedObjectBorder",
    "UpdateEmbeddedObjectPositionRequest": "EmbeddedObjectPosition", "UpdateFilterViewRequest": "FilterView",
    "UpdateNamedRangeRequest": "NamedRange", "UpdateProtectedRangeRequest": "ProtectedRange",
    "UpdateSheetPropertiesRequest": "SheetProperties", "UpdateSlicerSpecRequest": "SlicerSpec",
    "UpdateSpreadsheetPropertiesRequest": "SpreadsheetProperties", "UpdateTableRequest": "Table",
}
ONEOFS = {"Request": "kind", "Response": "kind", "ExtendedValue": "value"}  # schemas whose fields are a oneof
PROTO_TYPES = {"string": "TYPE_STRING", "boolean": "TYPE_BOOL", "number": "TYPE_DOUBLE"}


class ConformanceError(AssertionError):
    """The fake answered something Google never would (a bug of the fake, not of the client)."""


def snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


@dataclass(frozen=True)
class Method:
    api: str  # "sheets" or "drive"
    id: str  # e.g. "sheets.spreadsheets.batchUpdate"
    verb: str
    pattern: re.Pattern[str]
    literal: int  # characters of the template outside its parameters: the most specific match wins
    params: dict[str, Json]
    request: str | None
    response: str | None


class Api:
    def __init__(self, doc: Json) -> None:
        self.name: str = doc["name"]
        self.schemas: dict[str, Json] = doc["schemas"]
        self.globals: dict[str, Json] = doc.get("parameters", {})
        base = doc["rootUrl"] + doc["servicePath"]
        self.methods: list[Method] = []
        self._collect(doc, base)
        for name, schema in self.schemas.items():
            for prop, spec in schema.get("properties", {}).items():
                if spec.get("format") == "google-fieldmask" and name not in MASK_TARGETS and self.name == "sheets":
                    raise ValueError(f"the validator does not know what {name}.{prop} masks")

    def _collect(self, node: Json, base: str) -> None:
        for res in node.get("resources", {}).values():
            for spec in res.get("methods", {}).values():
                template = spec.get("flatPath", spec["path"])
                regex, literal = "", 0
                for part in re.split(r"(\{[^}]+\})", template):
                    if part.startswith("{"):
                        name = part.strip("{}+")
                        regex += f"(?P<{name}>[^/]+?)" if name == "range" else f"(?P<{name}>[^/:]+)"
                    else:
                        regex += re.escape(part)
                        literal += len(part)
                self.methods.append(Method(
                    self.name, spec["id"], spec["httpMethod"], re.compile("^" + re.escape(base) + regex + "$"),
                    literal, spec.get("parameters", {}), spec.get("request", {}).get("$ref"),
                    spec.get("response", {}).get("$ref")))
            self._collect(res, base)

    # -- errors in this API's words ---------------------------------------

    def bad(self, message: str, where: str | None = None, reason: str = "badRequest") -> fake_errors.ApiFault:
        if self.name == "drive":
            return fake_errors.drive_error(400, reason, message, location=where)
        return fake_errors.bad(message, where if where is not None else "")


@cache
def _load(folder: Path) -> tuple[Api, ...]:
    apis = []
    for name in DOCUMENTS:
        path = folder / name
        if not path.is_file():
            raise FileNotFoundError(f"{path} is missing: the fake checks every request against Google's discovery "
                                    "documents, vendored in tests/fakes/discovery_docs")
        apis.append(Api(json.loads(path.read_text("utf-8"))))
    return tuple(apis)


class Discovery:
    """The Sheets v4 and Drive v3 descriptions, as a request matcher and validator."""

    def __init__(self, folder: Path = DISCOVERY_DIR) -> None:
        self.apis = {api.name: api for api in _load(folder)}

    def match(self, verb: str, url: str) -> tuple[Method, dict[str, str]] | None:
        """The method a request calls and its path parameters; None if no method has that path and verb."""
        path = url.split("?", 1)[0]
        found = [(m, hit) for api in self.apis.values() for m in api.methods if (hit := m.pattern.match(path))]
        found = [(m, hit) for m, hit in found if m.verb == verb.upper()]
        if not found:
            return None
        method, hit = max(found, key=lambda f: f[0].literal)
        return method, {k: unquote(v) for k, v in hit.groupdict().items()}

    # -- requests -----------------------------------------------------------

    def check_request(self, method: Method, path: dict[str, str], query: dict[str, list[str]], body: Any) -> None:
        """Raise the ApiFault Google would answer, if it would reject this request."""
        api = self.apis[method.api]
        for name, value in path.items():
            if not value:
                raise api.bad(f"Missing required path parameter: {name}", name, "required")
        for name, values in query.items():
            spec = method.params.get(name) or api.globals.get(name)
            if spec is None or spec.get("location") == "path":
                raise api.bad(f'Invalid JSON payload received. Unknown name "{name}": Cannot bind query parameter. '
                              f"Field '{name}' could not be found in request message.", name, "invalidParameter")
            if len(values) > 1 and not spec.get("repeated"):
                raise api.bad(f"Invalid JSON payload received. Repeated values for a non-repeated field '{name}'.",
                              name, "invalidParameter")
            for value in values:
                self._param(api, name, spec, value)
        for name, spec in method.params.items():
            if spec.get("required") and spec.get("location") == "query" and name not in query:
                raise api.bad(f"'{name}' is required but not specified", name, "required")
        if "fields" in query:
            self.check_selection(api, method.response, query["fields"][0])
        if method.request is None:
            if body not in (None, {}):
                raise api.bad("Invalid JSON payload received. Unknown name: the method takes no request body.")
            return
        if body is None:
            return  # no body: an empty request message, which Google takes (``values:clear`` is sent so)
        if not isinstance(body, dict):
            raise api.bad("Invalid JSON payload received. Expected an object.", "")
        self.value(api, {"$ref": method.request}, body, "", strict=api.name == "sheets")

    def _param(self, api: Api, name: str, spec: Json, value: str) -> None:
        kind = spec.get("type")
        ok = True
        if kind == "boolean":
            ok = value.lower() in ("true", "false")
        elif kind == "integer":
            ok = re.fullmatch(r"-?[0-9]+", value) is not None
        elif spec.get("enum"):
            ok = value in spec["enum"]
        if not ok:
            where = f"type.googleapis.com/google.apps.sheets.v4.{name[:1].upper()}{name[1:]}" if spec.get("enum") \
                else PROTO_TYPES.get(kind or "", "TYPE_INT32")
            raise api.bad(f"Invalid value at '{snake(name)}' ({where}), \"{value}\"", snake(name), "invalidParameter")

    def check_selection(self, api: Api, schema: str | None, fields: str) -> None:
        """A ``fields`` selection (partial response) may name only fields of the response."""
        from fakes.masks import parse_mask  # the parser the fake's answers use

        try:
            mask = parse_mask(fields)
        except ValueError:
            raise api.bad(f"Invalid field selection {fields}", "fields", "invalidParameter") from None

        def walk(sub: Any, spec: Json | None) -> None:
            for name, inner in sub.items():
                if name == "*":
                    continue
                target = self._field(api, spec, name) if spec is not None else None
                if target is None:
                    raise api.bad(f"Invalid field selection {name}", "fields", "invalidParameter")
                if inner is not None:
                    walk(inner, target)

        walk(mask, {"$ref": schema} if schema else None)

    def _field(self, api: Api, spec: Json | None, name: str) -> Json | None:
        """The schema of field ``name`` (camelCase or snake_case) of an object schema, through arrays."""
        spec = self.resolve(api, spec)
        while spec.get("type") == "array":
            spec = self.resolve(api, spec["items"])
        props = spec.get("properties", {})
        if name in props:
            return dict(props[name])
        if camel(name) in props:
            return dict(props[camel(name)])
        return None

    def resolve(self, api: Api, spec: Json | None) -> Json:
        spec = spec or {}
        while "$ref" in spec:
            spec = api.schemas[spec["$ref"]]
        return spec

    def value(self, api: Api, spec: Json, value: Any, at: str, strict: bool,
              fail: Callable[[str, str], Exception] | None = None) -> None:
        """Check ``value`` against ``spec``; ``at`` is its location in Google's snake_case form."""
        def reject(message: str, where: str) -> Exception:
            return fail(message, where) if fail else api.bad(message, where)

        ref = spec.get("$ref")
        spec = self.resolve(api, spec)
        kind = spec.get("type")
        if value is None:
            return  # JSON null: the field is unset
        if kind == "object" or ref:
            if not isinstance(value, dict):
                name = f"type.googleapis.com/google.apps.sheets.v4.{ref}" if ref else "TYPE_MESSAGE"
                raise reject(f"Invalid value at '{at}' ({name}), {json.dumps(value, ensure_ascii=False)[:80]}", at)
            self._object(api, ref, spec, value, at, strict, fail)
        elif kind == "array":
            if not isinstance(value, list):
                raise reject(f"Invalid value at '{at}', expected a list", at)
            for i, item in enumerate(value):
                self.value(api, spec["items"], item, f"{at}[{i}]", strict, fail)
        elif kind == "any":
            return
        else:
            self._scalar(spec, value, at, reject)

    def _object(self, api: Api, ref: str | None, spec: Json, value: Json, at: str, strict: bool,
                fail: Callable[[str, str], Exception] | None) -> None:
        def reject(message: str, where: str) -> Exception:
            return fail(message, where) if fail else api.bad(message, where)

        props: Json = spec.get("properties", {})
        extra = spec.get("additionalProperties")
        seen_oneof: str | None = None
        for key, item in value.items():
            name = key if key in props else camel(key) if camel(key) in props else None
            where = f"{at}.{snake(key)}" if at else snake(key)
            if name is None:
                if extra is not None:
                    self.value(api, extra, item, f"{at}[{key!r}]", strict, fail)
                    continue
                if strict or fail:
                    place = f" at '{at}'" if at else ""
                    raise reject(f'Invalid JSON payload received. Unknown name "{key}"{place}: Cannot find field.',
                                 at)
                continue
            if ref in ONEOFS:
                if seen_oneof is not None:
                    raise reject(f"Invalid value at '{at}' (oneof), oneof field '{ONEOFS[ref]}' is already set. "
                                 f"Cannot overwrite with '{snake(name)}'", at)
                seen_oneof = name
            sub = props[name]
            if sub.get("format") == "google-fieldmask" and ref in MASK_TARGETS and isinstance(item, str):
                self._mask(api, MASK_TARGETS[ref], item, where, reject)
            self.value(api, sub, item, where, strict, fail)

    def _mask(self, api: Api, target: str, mask: str, at: str, reject: Callable[[str, str], Exception]) -> None:
        """A FieldMask: paths of fields of ``target``, as Google writes them (``a.b``, ``a/b``, ``a(b,c)``;
        ``*``: all of them)."""
        from fakes.masks import paths  # the parser the fake's requests use

        try:
            found = paths(mask)
        except fake_errors.ApiFault:
            raise reject(f"Invalid field mask at '{at}': '{mask}' is not a field mask", at) from None
        for path in found:
            if path == ["*"]:
                continue
            spec: Json | None = {"$ref": target}
            for part in path:
                spec = self._field(api, spec, part) if spec is not None and part else None
                if spec is None:
                    raise reject(f"Invalid field mask at '{at}': '{'.'.join(path)}' names no field of {target}", at)

    def _scalar(self, spec: Json, value: Any, at: str, reject: Callable[[str, str], Exception]) -> None:
        kind, fmt = spec.get("type"), spec.get("format", "")
        ok = True
        if kind == "boolean":
            ok = isinstance(value, bool)
        elif kind == "integer" or fmt in ("int64", "uint64"):
            number = value if isinstance(value, int) and not isinstance(value, bool) else None
            if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value):
                number = int(value)
            ok = number is not None and (fmt not in ("int32", "uint32") or INT32[0] <= number <= INT32[1])
            ok = ok and not (fmt.startswith("uint") and number is not None and number < 0)
        elif kind == "number":
            ok = (isinstance(value, int | float) and not isinstance(value, bool)) or value in ("NaN", "Infinity",
                                                                                              "-Infinity")
        elif kind == "string":
            ok = isinstance(value, str) and (not spec.get("enum") or value in spec["enum"])
        if not ok:
            label = PROTO_TYPES.get(kind or "", "TYPE_INT32") if not spec.get("enum") else "enum"
            raise reject(f"Invalid value at '{at}' ({label}), {json.dumps(value, ensure_ascii=False)[:80]}", at)

    # -- answers ------------------------------------------------------------

    def check_response(self, method: Method, status: int, body: Any) -> None:
        """Raise ConformanceError if the fake's answer does not fit what Google answers."""
        api = self.apis[method.api]
        if status >= 400:
            check_error(api.name, body)
            return
        if method.response is None:
            if body not in (None, ""):
                raise ConformanceError(f"{method.id} answers no body, the fake sent {str(body)[:80]}")
            return

        def fail(message: str, where: str) -> Exception:
            return ConformanceError(f"{method.id} answer at '{where}': {message}")

        self.value(api, {"$ref": method.response}, body, "", strict=True, fail=fail)


def check_error(api: str, body: Any) -> None:
    """An error body must have the API's shape (a front-end page is text and passes)."""
    if isinstance(body, str):
        return
    err = body.get("error") if isinstance(body, dict) else None
    if not isinstance(err, dict) or not isinstance(err.get("code"), int) or not isinstance(err.get("message"), str):
        raise ConformanceError(f"not a Google error body: {body!r:.120}")
    if api == "sheets":
        if err.get("status") not in fake_errors.STATUS.values() or set(err) - {"code", "message", "status", "details"}:
            raise ConformanceError(f"not a Sheets error: {err!r:.160}")
        for d in err.get("details", []):
            if not str(d.get("@type", "")).startswith("type.googleapis.com/google.rpc."):
                raise ConformanceError(f"a Sheets error detail without a google.rpc @type: {d!r:.120}")
    else:
        items = err.get("errors")
        if not items or not all(isinstance(i, dict) and {"domain", "reason", "message"} <= set(i) for i in items):
            raise ConformanceError(f"a Drive error needs errors[] with domain, reason, message: {err!r:.160}")

