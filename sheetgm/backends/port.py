"""The workbook gateway: the one port the service layer talks to.

A game is a handful of workbooks addressed by logical keys ("director",
"public", "player-3", ...). Adapters: `MemoryGateway` (tests),
`XlsxGateway` (local .xlsx files, the default) and `GoogleGateway`
(gspread). They share one contract test suite.

Cost model (what the Google adapter guarantees, the others honour for free):
``read`` is one ``values:batchGet``; ``write`` is one atomic
``spreadsheets:batchUpdate`` (plus, once per workbook per process, one
metadata read for tab ids). So a stage costs one read and one write per
workbook touched.

Semantics shared by all adapters:
- values are strings; reads drop trailing empty rows and, per row, trailing
  empty cells, exactly like the Sheets API (an empty range reads as ``[]``);
- ``write`` applies its ops in order, all or nothing;
- ``SetValues`` fills its whole target area: a bounded range, or for a single
  anchor cell the bounding box of ``rows``; cells of the area that ``rows``
  does not cover are cleared;
- ``Protect`` replaces any protection with the same description, so a
  repeated write is idempotent; ``AddTab`` of an existing tab does nothing.
- a whole tab's protection may leave ``unprotected`` cells open to whoever can
  edit the file (Google's sheet protection with unprotected ranges; an .xlsx
  sheet protection, locked by the game's password, with unlocked cells), and
  ``protections`` reads back what is in force in the workbook itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain
from operator import is_
from typing import cast

from sheetgm.backends.a1 import A1, format_range, parse_range, quote_tab
from sheetgm.backends.errors import BackendError, CellTooLongError, MissingWorkbookError, OpError
from sheetgm.core.values import Value, field, record

BORDER_SIDES = ("top", "bottom", "left", "right", "inner_horizontal", "inner_vertical")
BORDER_STYLES = ("none", "thin", "medium", "thick", "dashed", "double")  # dashed, double: the map's obstacles, boards
ROLES = ("reader", "commenter", "writer")
DEFAULT_WIDTH, DEFAULT_HEIGHT = 100, 21  # Google's default column width and row height, in pixels
GOOGLE_CELL_LIMIT = 50_000  # characters in one cell of a Google Sheet
XLSX_CELL_LIMIT = 32_767  # characters in one cell of an .xlsx file (Excel's limit; openpyxl silently cuts the rest)
CELL_LIMIT = min(GOOGLE_CELL_LIMIT, XLSX_CELL_LIMIT)  # what the service writes fits every adapter
_SIDE_GROUPS = {"outer": ("top", "bottom", "left", "right"), "all": BORDER_SIDES}


def _strs(values: Iterable[object]) -> tuple[str, ...]:
    found = tuple(values)
    seen = _TEXT_ROWS
    if seen.get(id(found)) is found:
        return cast(tuple[str, ...], found)
    if set(map(type, found)) <= _TEXT:  # texts already (a map is thousands of them): checked in C
        texts = cast(tuple[str, ...], found)
        if found is values and len(texts) >= 8 and sum(map(len, texts)) <= _KEPT_CHARS:  # (a map's row: small)
            if len(seen) >= 1024:
                seen.clear()
            seen[id(found)] = found
        return texts
    return tuple("" if v is None else str(v) for v in found)


_TEXT = {str}
# Tuples of texts seen, by identity (kept, so that their ids name no other tuple while here): the rows of a map
# without marks are the same tuples in every player's ops (``sheets/mapcells.py``), looked at once.
_TEXT_ROWS: dict[int, tuple[object, ...]] = {}
_KEPT_CHARS = 4096


@record(frozen=True)
class SetValues(Value):
    """Write texts into a range, row by row, from its top left cell."""

    range: str
    rows: Sequence[Sequence[str]]  # stored as tuples

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", tuple(_strs(row) for row in self.rows))


@record(frozen=True)
class ClearRange(Value):
    """Clear values (not formats) in a range."""

    range: str


@record(frozen=True)
class SetBackground(Value):
    """Fill a range with a colour, or remove its fill."""

    range: str
    rgb: str | None  # "#RRGGBB"; None removes the fill

    def __post_init__(self) -> None:
        if self.rgb is not None:
            text = self.rgb.lower()
            if len(text) != 7 or text[0] != "#" or any(ch not in "0123456789abcdef" for ch in text[1:]):
                raise OpError(op="SetBackground", detail=f"colour '{self.rgb}' is not #RRGGBB")
            object.__setattr__(self, "rgb", text)


@record(frozen=True)
class SetBold(Value):
    """Make a range's text bold, or not."""

    range: str
    bold: bool = True


@record(frozen=True)
class SetBorders(Value):
    """Borders of a range like the Sheets ``updateBorders``: ``top`` is the top edge of the
    range, ``inner_horizontal`` the lines between its rows; ``outer``/``all`` are shorthands."""

    range: str
    sides: Sequence[str] | str  # stored as a tuple of single sides
    style: str = "thick"

    def __post_init__(self) -> None:
        sides: list[str] = []
        for side in (self.sides,) if isinstance(self.sides, str) else self.sides:
            for s in _SIDE_GROUPS.get(side, (side,)):
                if s not in BORDER_SIDES:
                    raise OpError(op="SetBorders", detail=f"unknown side '{s}' (one of {', '.join(BORDER_SIDES)})")
                if s not in sides:
                    sides.append(s)
        if self.style not in BORDER_STYLES:
            raise OpError(op="SetBorders", detail=f"unknown style '{self.style}' (one of {', '.join(BORDER_STYLES)})")
        object.__setattr__(self, "sides", tuple(sides))


@record(frozen=True)
class SetValidation(Value):
    """A dropdown; empty ``choices`` removes validation from the range."""

    range: str
    choices: Sequence[str]  # stored as a tuple
    strict: bool = True
    help: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "choices", _strs(self.choices))


@record(frozen=True)
class SetNote(Value):
    """A note on every cell of the range; empty text removes it."""

    range: str
    text: str


@record(frozen=True)
class PlaceImage(Value):
    """A picture over a tab, its top-left corner on the cell ``range`` names, ``width`` x ``height`` pixels.
    ``name`` tells it from others: placing the same name again replaces it, an empty ``png`` removes it. An
    adapter that cannot place a picture leaves the tab as it is (Google: the Sheets API places an image only
    from a public URL, and a player's route must stay private)."""

    range: str
    png: bytes
    width: int
    height: int
    name: str


PICTURE_LIMIT = 4 * 1024 * 1024  # bytes of one picture (a player's route picture is ~100 kB)


@record(frozen=True)
class FreezeRows(Value):
    """Keep a tab's first rows in view as it scrolls."""

    tab: str
    rows: int


@record(frozen=True)
class ResizeColumns(Value):
    """Set the width of a range's columns, in pixels."""

    range: str  # e.g. "Map!A:P"
    width: int  # pixels


@record(frozen=True)
class ResizeRows(Value):
    """Set the height of a range's rows, in pixels."""

    range: str  # e.g. "Map!1:12"
    height: int  # pixels


@record(frozen=True)
class Protect(Value):
    """Only ``editors`` may edit ``range`` (a tab name protects the whole tab). It never stops
    reading. The description identifies the protection: protecting again replaces it.
    On Google the editors must already have write access to the file (share first), and
    the gateway's own ``account`` should be among them or later runs cannot write there.

    ``unprotected``: bounded ranges of a whole tab's protection that anyone who can edit the file
    may still edit (a player's open order cells); the rest of the tab, its rows and its structure
    stay closed. In an .xlsx file, which has no editors, the game's password locks the tab."""

    range: str
    editors: Sequence[str]  # stored sorted, as a tuple
    description: str
    unprotected: Sequence[str] = ()  # stored as a tuple, in the order given

    def __post_init__(self) -> None:
        object.__setattr__(self, "editors", tuple(sorted(set(self.editors))))
        object.__setattr__(self, "unprotected", tuple(self.unprotected))
        if not self.description:
            raise OpError(op="Protect", detail="a protection needs a description (it is its identity)")


@record(frozen=True)
class Unprotect(Value):
    """Remove every protection with this description (none is fine)."""

    description: str


@record(frozen=True)
class AddTab(Value):
    """Add a tab at the end of the workbook."""

    name: str


Op = (
    SetValues | ClearRange | SetBackground | SetBold | SetBorders | SetValidation | SetNote
    | FreezeRows | ResizeColumns | ResizeRows | Protect | Unprotect | AddTab | PlaceImage
)


@record(frozen=True)
class Validation(Value):
    """A dropdown's choices, whether other text is refused, and its help."""

    choices: tuple[str, ...]
    strict: bool = True
    help: str = ""


# What a protection in a file may be locked with (``Protection.password``).
LOCK_GAME, LOCK_NONE, LOCK_OTHER = "game", "none", "other"


@record(frozen=True)
class Protection(Value):
    """A protection as the workbook itself holds it."""

    range: str  # canonical A1 (see a1.normalize); a bare tab name for a whole tab
    editors: tuple[str, ...]
    description: str  # "" where the workbook keeps none (an .xlsx sheet protected by hand)
    warning_only: bool = False  # Google's "show a warning": anyone who can edit the file may go on
    unprotected: tuple[str, ...] = ()  # canonical ranges left open inside a whole tab's protection
    # Files only (.xlsx): what lifts the protection: the game's password (LOCK_GAME), none at all, so
    # anyone with the file can (LOCK_NONE), or a password that is not the game's (LOCK_OTHER); and what it
    # still lets anyone do (insertRows, deleteRows, sort, formatCells...). "" and () where editors decide.
    password: str = ""
    allows: tuple[str, ...] = ()


@record(frozen=True)
class Structure(Value):
    """A workbook's tabs as the file itself keeps them, and which program saved it last.

    ``tabs`` in their order, the hidden ones among them in ``hidden``, the adapter's own hidden tabs left out;
    ``lock``: the lock on the workbook's tabs (an .xlsx file's ``<workbookProtection lockStructure>``:
    LOCK_GAME, LOCK_NONE when there is none or it is off, LOCK_OTHER, "weak"), None where the backend has no
    such lock (Google: a protected tab cannot be deleted or renamed by others); ``saved_by``: the program the
    file says saved it (``docProps/app.xml``: "LibreOffice/7.4.7.2$Linux_X86_64 …"), "" if it does not say;
    ``file``: the file's name where the workbook is a file ("" otherwise)."""

    tabs: tuple[str, ...]
    hidden: frozenset[str] = frozenset()
    lock: str | None = None
    saved_by: str = ""
    file: str = ""


@record(frozen=True)
class Permission(Value):
    """Who may open a file. ``kind`` is Drive's permission type: "user" or "group" (``email`` is the
    address), "domain" (``email`` is the domain: everyone in it), "anyone" (``email`` is empty:
    whoever has the link, and with ``discoverable`` whoever searches for it)."""

    email: str
    role: str  # owner, organizer, fileOrganizer, writer, commenter or reader
    kind: str = "user"
    discoverable: bool = False


@record(frozen=True)
class WorkbookCopy(Value):
    """Another file of a workbook in its folder (a sync client's conflict copy, a renamed download)."""

    name: str
    modified: float  # seconds since the epoch
    newer: bool  # saved after the workbook's own file


@record(frozen=True)
class TabView(Value):
    """Everything the gateway can set on a tab, as it reads back. Cells are A1 names."""

    name: str
    values: list[list[str]] = field(default_factory=list)
    frozen_rows: int = 0
    backgrounds: dict[str, str] = field(default_factory=dict)
    bold: frozenset[str] = frozenset()
    borders: dict[str, dict[str, str]] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    validations: dict[str, Validation] = field(default_factory=dict)
    column_widths: dict[str, int] = field(default_factory=dict)
    row_heights: dict[int, int] = field(default_factory=dict)


@record(frozen=True)
class WorkbookView(Value):
    """What a workbook shows: its title and each tab as read."""

    title: str
    tabs: tuple[TabView, ...]

    def tab(self, name: str) -> TabView:
        for t in self.tabs:
            if t.name == name:
                return t
        raise KeyError(name)


def trim(rows: list[list[str]]) -> list[list[str]]:
    """Drop trailing empty cells of each row and trailing empty rows, like the Sheets API."""
    out = []
    for row in rows:
        end = len(row)
        while end and row[end - 1] == "":
            end -= 1
        out.append(list(row[:end]))
    while out and not out[-1]:
        out.pop()
    return out


def op_ranges(op: Op) -> list[A1]:
    """The parsed ranges an op touches (raises RangeError if one is malformed)."""
    if type(op) in _ONE_RANGE:  # most of a stage's ops (a map is hundreds of formats): its range, nothing else
        return [parse_range(op.range)]  # type: ignore[union-attr]
    if isinstance(op, FreezeRows):
        if op.rows < 0:
            raise OpError(op="FreezeRows", detail=f"cannot freeze {op.rows} rows")
        return [parse_range(quote_tab(op.tab))]
    if isinstance(op, AddTab):
        if not op.name or op.name.startswith("_sheetgm") or len(op.name) > 31 or set(op.name) & set("[]:*?/\\"):
            raise OpError(op="AddTab", detail=f"'{op.name}' cannot be a tab name (31 characters, none of []:*?/\\)")
        return []
    if isinstance(op, Unprotect):
        return []
    rng = parse_range(op.range)
    if isinstance(op, Protect) and op.unprotected:
        return [rng, *_open_ranges(op, rng)]
    if isinstance(op, ResizeColumns | ResizeRows):
        size = op.width if isinstance(op, ResizeColumns) else op.height
        if size <= 0:
            raise OpError(op=type(op).__name__, detail=f"size must be positive, not {size}")
    if isinstance(op, PlaceImage):
        if rng.end_row != rng.start_row + 1 or rng.end_col != rng.start_col + 1:
            raise OpError(op="PlaceImage", detail=f"a picture is placed on one cell, not {op.range}")
        if op.png and (op.width <= 0 or op.height <= 0 or len(op.png) > PICTURE_LIMIT
                       or not op.png.startswith(b"\x89PNG\r\n\x1a\n")):
            raise OpError(op="PlaceImage", detail=f"not a PNG of {PICTURE_LIMIT} bytes at most with a positive size")
        if not op.name or len(op.name) > 64:
            raise OpError(op="PlaceImage", detail=f"a picture's name has 1 to 64 characters, not {len(op.name)}")
    if isinstance(op, SetValues):
        if rng.end_row is None or rng.end_col is None:
            raise OpError(op="SetValues", detail=f"write to a cell or a bounded range, not {op.range}")
        area = values_area(op, rng)
        if len(op.rows) > (area.end_row or 0) - area.start_row or any(
            len(r) > (area.end_col or 0) - area.start_col for r in op.rows
        ):
            raise OpError(op="SetValues", detail=f"{len(op.rows)} rows do not fit in {op.range}")
    return [rng]


_ONE_RANGE = frozenset({SetBackground, SetBold, SetBorders, ClearRange, SetNote, SetValidation})


def _open_ranges(op: Protect, rng: A1) -> list[A1]:
    """The unprotected ranges of a protection: bounded, on its tab, and only inside a whole tab's protection
    (Google's rule: "unprotected ranges are only supported on protected sheets")."""
    if not rng.whole_tab:
        raise OpError(op="Protect", detail=f"cells can be left open only in a whole tab's protection, not {op.range}")
    found = []
    for text in op.unprotected:
        inner = parse_range(text)
        if inner.tab != rng.tab or not inner.bounded:
            raise OpError(op="Protect", detail=f"'{text}' is not a block of cells of tab '{rng.tab}'")
        found.append(inner)
    return found


def values_area(op: SetValues, rng: A1) -> A1:
    """The area a SetValues fills: the bounded range, or anchor + the bounding box of rows."""
    if rng.bounded and not (rng.end_row == rng.start_row + 1 and rng.end_col == rng.start_col + 1):
        return rng
    height = max(1, len(op.rows))
    width = max([1, *(len(r) for r in op.rows)])
    return A1(rng.tab, rng.start_row, rng.start_col, rng.start_row + height, rng.start_col + width)


def check_ops(ops: Sequence[Op], cell_limit: int | None = None) -> list[list[A1]]:
    """Every op well-formed, and with ``cell_limit`` no value longer than a cell holds; returns each
    op's parsed ranges (``op_ranges``) for the caller to use."""
    found: list[list[A1]] = []
    one, runs, n, k = _ONE_RANGE, _CHECKED, len(ops), 0
    while k < n:
        op = ops[k]
        if type(op) in one:  # a run of ops of one range (a map's formats: the same objects for every player)
            run = runs.get(id(op))
            if run is not None and same_ops(run[0], ops, k):
                found += run[1]
                k += len(run[0])
                continue
            start = k
            while k < n and type(ops[k]) in one:
                found.append(op_ranges(ops[k]))
                k += 1
            if k - start >= 32:
                if len(runs) >= 64:
                    runs.clear()
                runs[id(op)] = (tuple(ops[start:k]), found[start:k])
            continue
        ranges = op_ranges(op)
        if cell_limit is not None and isinstance(op, SetValues):
            check_lengths(ranges[0].tab, values_area(op, ranges[0]), op.rows, cell_limit)
        found.append(ranges)
        k += 1
    return found


# A long run of ops of one range (frozen: never changed) checked once per process while it lives, found again by
# its first op's identity: a stage's map formats are one tuple of ops in every player's ops, hundreds of them
# (hashing them would cost more than checking them). The ops are kept: their ids name no other op while here.
# The ranges handed out are shared: callers only read them.
_CHECKED: dict[int, tuple[tuple[Op, ...], list[list[A1]]]] = {}


def same_ops(run: tuple[Op, ...], ops: Sequence[Op], k: int) -> bool:
    """Whether ``ops`` from ``k`` on are the very ops of ``run`` (compared by identity, in C)."""
    end = k + len(run)
    return end <= len(ops) and all(map(is_, run, ops[k:end]))


def check_lengths(tab: str, area: A1, rows: Sequence[Sequence[str]], limit: int) -> None:
    seen = _TEXT_ROWS if limit >= _KEPT_CHARS else {}  # (a row kept there holds 4,096 characters at most: fits)
    if max(map(len, chain.from_iterable(row for row in rows if seen.get(id(row)) is not row)), default=0) <= limit:
        return  # (the usual op, every other value measured in C)
    for i, row in enumerate(rows):
        if not row or max(map(len, row)) <= limit:  # (the usual row, measured in C)
            continue
        for j, value in enumerate(row):
            if len(value) > limit:
                r, c = area.start_row + i, area.start_col + j
                raise CellTooLongError(range=format_range(A1(tab, r, c, r + 1, c + 1)), length=len(value), limit=limit)


def check_tabs(tabs: Sequence[str]) -> None:
    if not tabs or len(set(tabs)) != len(tabs):
        raise OpError(op="create", detail=f"a workbook needs at least one tab and distinct tab names, not {list(tabs)}")
    for name in tabs:
        op_ranges(AddTab(name))


def check_role(role: str) -> None:
    if role not in ROLES:
        raise OpError(op="share", detail=f"role '{role}' is not one of {', '.join(ROLES)}")


class Gateway(ABC):
    """Reads and writes the workbooks of one game."""

    #: The email this gateway acts as (a service account), to be listed among
    #: protection editors so that later runs can still write; None locally.
    account: str | None = None
    #: Where an adapter of files gets the game's password, which locks their protections and which the
    #: players never have (the service reads it from the director workbook, when first needed). None:
    #: protections in files carry no password (anyone with a file can lift them).
    password_source: Callable[[], str] | None = None
    #: Whether the service keeps the players out of protected ranges whatever program they use (Google Sheets
    #: does; a file's protection is only what the program opening it chooses to honour): then a protected range
    #: holds what the tool last wrote there, and a writer may know it without reading it.
    enforces_protections: bool = False
    #: Whether ``PlaceImage`` puts a picture in the workbook (an adapter that cannot leaves the tab as it is).
    places_pictures: bool = False

    @contextmanager
    def batch(self) -> Iterator[None]:
        """A unit of work: an adapter may keep the writes made inside and save each workbook once when the
        block ends (the xlsx adapter does; reads inside see the writes). If the block raises, its unsaved
        writes are dropped. Outside a batch every ``write`` is saved before it returns, which is what the
        safe resolve relies on: use a batch only where losing the whole block together is acceptable
        (creating a game, the demo), never around the journal row and the publishing that follows it."""
        yield

    @abstractmethod
    def exists(self, key: str) -> bool: ...

    @abstractmethod
    def create(self, key: str, title: str, tabs: Sequence[str]) -> None:
        """Create an empty workbook with these tabs; WorkbookExistsError if the key has one."""

    @abstractmethod
    def tabs(self, key: str) -> list[str]: ...

    @abstractmethod
    def read(self, key: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
        """Values of several ranges in one call, keyed by the range texts as given."""

    @abstractmethod
    def write(self, key: str, ops: Sequence[Op]) -> None:
        """Apply ops in order, atomically, in one call."""

    @abstractmethod
    def protections(self, key: str) -> list[Protection]: ...

    def pictures(self, key: str) -> dict[str, dict[str, bytes]]:
        """Tab -> {name: PNG} of the pictures placed with ``PlaceImage`` that the workbook holds (an adapter
        that places none: none)."""
        return {}

    @abstractmethod
    def permissions(self, key: str) -> list[Permission]: ...

    @abstractmethod
    def share(self, key: str, email: str, role: str) -> None:
        """Give ``email`` the role (reader, commenter, writer), replacing a previous role."""

    @abstractmethod
    def unshare(self, key: str, email: str) -> None: ...

    @abstractmethod
    def url(self, key: str) -> str | None: ...

    def revisions(self, keys: Sequence[str]) -> dict[str, str]:
        """For each workbook it can tell, a token that changes whenever the workbook changes (Google: Drive's
        version and modification time, from one listing), so that a caller can skip the ones that did not.
        A workbook left out is unknown: read it. The default knows none."""
        return {}

    def written_by_us(self, keys: Sequence[str]) -> dict[str, bool]:
        """For each workbook it can tell, whether the last change to it was made by this gateway's own account
        (Google: Drive's ``lastModifyingUser.me``, from one listing). A workbook left out is unknown. The
        default knows none."""
        return {}

    @abstractmethod
    def view(self, key: str) -> WorkbookView:
        """The full look of a workbook (values and formats). On Google this is one grid-data
        read, heavier than ``read``: for verification and tests, not for every stage."""

    def structure(self, key: str) -> Structure:
        """The workbook's tabs as it keeps them (``Structure``). By default its tabs, none known hidden, no lock
        on the workbook's tabs, no program named."""
        return Structure(tuple(self.tabs(key)))

    def release(self, key: str) -> None:
        """The caller is done with this workbook for now: an adapter that keeps workbooks parsed between calls
        may let this one go (the next read parses it again). Writes not saved yet (inside a batch) are kept.
        Nothing by default."""
        return None

    def copies(self, key: str) -> list[WorkbookCopy]:
        """Other workbook files beside this workbook's in its folder that a sync client or a download made of it
        (``03-Ann (1).xlsx``, ``03-Ann-conflict-….xlsx``, ``03-Ann (conflicted copy …).xlsx``, ``03-Ann-HOST.xlsx``;
        in a WebDAV seat's folder, every other .xlsx), newest first. Whose they are is for the caller to find out
        (``read_copy``: their seals). None by default (Google keeps one file per workbook)."""
        return []

    def read_copy(self, key: str, name: str, ranges: Sequence[str]) -> dict[str, list[list[str]]]:
        """Values of ranges of one of ``copies(key)`` (tabs it lacks left out)."""
        raise MissingWorkbookError(key=f"{key}: {name}")

    def adopt(self, key: str, name: str) -> None:
        """Make the copy ``name`` the workbook (its bytes in place of the workbook's file), only if the workbook is
        still as ``copies`` saw it; the copy stays, for its owner to delete."""
        raise MissingWorkbookError(key=f"{key}: {name}")

    def notices(self, key: str) -> list[BackendError]:
        """What the director and the player should hear about a workbook that is not an error: a copy in
        another format beside a local file (the xlsx adapter). Said, never raised; none by default."""
        return []
