"""A game as the use cases see it: folder, config, board, gateway, clock."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sheetgm.backends.port import Gateway, SetValues
from sheetgm.core.board import Board
from sheetgm.core.setup import SeatSpec
from sheetgm.core.values import field, record
from sheetgm.notation.mapfile import load_map_file, ready_map
from sheetgm.service.config.file import env_lang
from sheetgm.service.config.load import GameConfig, load_config
from sheetgm.service.config.rules import camp_counts
from sheetgm.service.errors import MapFileMissingError, NoServiceAccountError, ServiceError
from sheetgm.sheets import layout

DIRECTOR, PUBLIC = "director", "public"
IDS_FILE = "spreadsheets.json"
WORKBOOK_DIR = "workbooks"


def player_key(seat: int) -> str:
    return f"player-{seat}"


def workbook_names(cfg: GameConfig) -> dict[str, str]:
    """What a local game's workbook files are called: a player's by seat and alias (``03-小明``), the
    director's and the public one by the game (``spring-cup-director``). The xlsx gateway makes them safe
    as file names and records them when it creates the files."""
    width = max(2, len(str(len(cfg.roster))))
    names = {DIRECTOR: f"{cfg.name}-director", PUBLIC: f"{cfg.name}-public"}
    return names | {player_key(i): f"{i:0{width}d}-{s.alias}" for i, s in enumerate(cfg.roster, 1)}


@record
class Game:
    """An open game: its folder, config, board and the gateway to its workbooks."""

    folder: Path
    cfg: GameConfig
    board: Board
    gateway: Gateway
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    known_secret: str | None = field(default=None, repr=False)
    #: seat -> the workbook (its address) last read as that seat's, sealed identity and all (the Roster tab's
    #: column H, read with the journal: ``learn_books``; ``publish.known_sheet``)
    known_books: dict[int, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        # an adapter of files locks its protections with the secret, read from the director workbook when needed
        self.gateway.password_source = self.secret

    def secret(self) -> str:
        """The game's secret, kept in the director workbook's Config tab (a file no player has): the password
        of the protections in .xlsx files and the key of the Results tab's tamper seals. A game made before
        it existed gets one now. Read once per run (``learn_secret`` spares the read)."""
        if self.known_secret is None:
            rng = config_range(self.lang)
            rows = self.gateway.read(DIRECTOR, [rng])[rng]
            self.learn_secret(rows)
            if self.known_secret is None:
                import secrets  # only for a game made before the secret existed

                made = secrets.token_urlsafe(12)
                where = layout.rng(layout.tab(self.lang, "config"), f"A{len(rows) + 2}")
                self.gateway.write(DIRECTOR, [SetValues(where, ((layout.SECRET_ROW, made),))])
                self.known_secret = made
        return self.known_secret

    def learn_secret(self, config_rows: list[list[str]]) -> None:
        """Take the secret from the Config tab's rows (from row 2) read along with something else."""
        for row in config_rows:
            if len(row) >= 2 and row[0].strip() == layout.SECRET_ROW and row[1].strip():
                self.known_secret = row[1].strip()
                return

    def learn_books(self, roster_rows: list[list[str]]) -> None:
        """Take the workbooks known to be each seat's from the Roster tab's rows (A to H, from row 2)."""
        self.known_books = {int(r[0]): r[7].strip() for r in roster_rows
                            if len(r) > 7 and r[0].strip().isdigit() and r[7].strip()}

    @property
    def seats(self) -> list[int]:
        return list(range(1, len(self.cfg.roster) + 1))

    @property
    def lang(self) -> str:
        """The director workbook's and the public workbook's language (game.toml's ``lang``)."""
        return self.cfg.lang

    @property
    def langs(self) -> list[str]:
        """The languages the public news is written in: the director's first, then each other language of the
        roster (the public workbook has a set of tabs per language, the announcement a post per language)."""
        out = [self.lang]
        out += [s.lang for s in self.cfg.roster if s.lang not in out]
        return list(dict.fromkeys(out))

    @property
    def voice(self) -> str:
        """The language of what the director reads in the console: SHEETGM_LANG if set, else ``lang``. Every
        message a command prints is in this one language (issue 15.5); the workbooks keep theirs."""
        return env_lang() or self.cfg.lang

    def seat_lang(self, seat: int) -> str:
        return self.cfg.roster[seat - 1].lang

    def alias(self, seat: int) -> str:
        return self.cfg.roster[seat - 1].alias

    def keys(self) -> list[str]:
        return [DIRECTOR, PUBLIC] + [player_key(s) for s in self.seats]

    def now(self) -> datetime:
        try:
            zone = ZoneInfo(self.cfg.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            zone = UTC  # type: ignore[assignment]
        return self.clock().astimezone(zone)

    def editors(self) -> tuple[str, ...]:
        """Who may edit protected ranges: the director and the service account (none locally)."""
        found = [self.cfg.director_email, self.cfg.service_account, self.gateway.account]
        return tuple(sorted({e for e in found if e}))

    def seat_specs(self) -> list[SeatSpec]:
        return [SeatSpec(s.alias, s.camp, s.role, s.lang, s.passage) for s in self.cfg.roster]


def config_range(lang: str) -> str:
    return layout.rng(layout.tab(lang, "config"), "A2:B")


def load_board(cfg: GameConfig, folder: Path) -> Board:
    opts = {k: v for k, v in cfg.options.items() if k in ("crack_target", "generator_cap")}
    survivors, hunters = camp_counts(cfg)
    opts |= {"survivors": survivors, "hunters": hunters}
    if cfg.map.endswith(".map"):
        path = Path(cfg.map) if Path(cfg.map).is_absolute() else folder / cfg.map
        if not path.is_file():
            raise MapFileMissingError(path=str(folder / "game.toml"), map=str(path))
        return load_map_file(path, options=opts)
    return ready_map(cfg.map, options=opts)


def make_gateway(cfg: GameConfig, folder: Path, login: str = "service", client_secrets: Path | None = None,
                 env: Mapping[str, str] | None = None) -> Gateway:
    """The one way to open a game's workbooks: the adapter its config names.

    xlsx: the files in ``folder/workbooks``. Google: the spreadsheet ids in ``folder/spreadsheets.json``,
    as the service account (``login="service"``: the key from the environment, see `backends.auth`), or
    with the director's own OAuth login (``login="director"``: ``new`` and ``share``, since a service
    account can neither own files nor be trusted to give them away)."""
    if cfg.backend == "xlsx":
        from sheetgm.backends.xlsx.gateway import XlsxGateway

        return XlsxGateway(folder / WORKBOOK_DIR, names=workbook_names(cfg))
    if cfg.backend == "webdav":
        return webdav_gateway(cfg, env)
    from sheetgm.backends.google.auth import account_email, load_credentials, user_credentials
    from sheetgm.backends.google.gateway import GoogleGateway
    from sheetgm.backends.google.idmap import JsonIdMap

    if not cfg.service_account:  # the config's validation says so too; a draft copied by hand may lack it
        raise NoServiceAccountError(path=str(folder / "game.toml"))
    ids = JsonIdMap(folder / IDS_FILE)
    if login == "director":
        if client_secrets is None:
            raise ServiceError("err.svc.no_client_secrets")
        return GoogleGateway(user_credentials(client_secrets, token_file()), ids, meta_home=DIRECTOR)
    creds = load_credentials(env=env)
    account = account_email(creds)
    if account and account.lower() != cfg.service_account.lower():
        raise ServiceError("err.svc.wrong_account", account=account, expected=cfg.service_account)
    return GoogleGateway(creds, ids, account=account or cfg.service_account, meta_home=DIRECTOR)


PASSWORD_ENV = "SHEETGM_WEBDAV_PASSWORD"


def webdav_gateway(cfg: GameConfig, env: Mapping[str, str] | None = None) -> Gateway:
    """The game's folders on its WebDAV server, as ``[webdav] user`` with the password from the environment,
    paced to the account's budget (``requests`` in ``minutes``, a few kept in reserve) shared by every process of
    this machine acting as that account."""
    import os
    from urllib.parse import urlsplit

    from sheetgm.backends.google.ratelimit import SharedRateLimiter, budget_file
    from sheetgm.backends.webdav.client import DavClient, DavNoPasswordError
    from sheetgm.backends.webdav.gateway import WebDavGateway

    dav = cfg.webdav
    if dav is None:
        raise ServiceError("err.cfg.webdav_table")
    password = (os.environ if env is None else env).get(PASSWORD_ENV, "")
    if not password:
        raise DavNoPasswordError(user=dav.user)
    limit = max(1, dav.requests - max(2, dav.requests // 50))  # 2% (at least 2) kept for the clocks and latency
    pacing = SharedRateLimiter(budget_file(f"webdav:{dav.user}@{urlsplit(dav.url).hostname}"), limit, limit,
                               window=dav.minutes * 60.0)
    client = DavClient(dav.url, dav.user, password, pacing=pacing, timeout=(10.0, float(dav.timeout)))
    return WebDavGateway(client, names=workbook_names(cfg), if_match=dav.if_match)


def token_file() -> Path:
    """Where the director's OAuth login is cached (gspread's authorized-user JSON)."""
    return Path.home() / ".config" / "sheetgm" / "authorized_user.json"


def open_game(path: Path, gateway: Gateway | None = None, clock: Callable[[], datetime] | None = None,
              login: str = "service", client_secrets: Path | None = None) -> Game:
    """Open the game whose folder (or config file) is ``path``; without a gateway, the one its config names."""
    cfg = load_config(path)
    folder = path if path.is_dir() else path.parent
    board = load_board(cfg, folder)
    gw = gateway if gateway is not None else make_gateway(cfg, folder, login, client_secrets)
    game = Game(folder, cfg, board, gw)
    if clock is not None:
        game.clock = clock
    return game
