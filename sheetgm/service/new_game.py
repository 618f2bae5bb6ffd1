"""`sheetgm new`: the game folder, its config, the seeded deal and every workbook."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from sheetgm.backends.errors import BackendError, MissingWorkbookError, ShareRejectedError
from sheetgm.backends.port import Gateway, Op
from sheetgm.core.setup import new_game as deal
from sheetgm.core.state import State
from sheetgm.core.texts import render
from sheetgm.core.values import field, record
from sheetgm.service.config.load import GameConfig, save_config
from sheetgm.service.errors import ServiceError
from sheetgm.service.game import DIRECTOR, PUBLIC, Game, load_board, make_gateway, player_key
from sheetgm.service.ledger.journal import PUBLISHED, Entry, digest, entry_hash, pack
from sheetgm.service.timing import deadlines
from sheetgm.sheets import layout
from sheetgm.sheets.helptab import help_ops
from sheetgm.sheets.player import current_ops, deadline_ops, identity_op, next_row, open_row_ops, status_ops
from sheetgm.sheets.public import public_ops
from sheetgm.sheets.seals import identity_token
from sheetgm.sheets.stages import SETUP_KEY

Progress = Callable[[str], None]


def new_game(folder: Path, cfg: GameConfig, gateway: Gateway | None = None,
             clock: Callable[[], datetime] | None = None, progress: Progress | None = None,
             secret: str | None = None, source: Path | None = None) -> Game:
    """Create the game: refuse to overwrite one, then create, lay out and share every workbook.

    ``folder/game.toml`` may already hold the draft being created; the workbooks must not exist yet. The game's
    secret (``Game.secret``) is drawn at random unless given (tests that compare two games). ``source``: the
    config file ``cfg`` was read from, whose comments game.toml keeps (``save_config``)."""
    board = load_board(cfg, folder)
    game = Game(folder, cfg, board, gateway if gateway is not None else make_gateway(cfg, folder),
                known_secret=secret or secrets.token_urlsafe(12))
    if clock is not None:
        game.clock = clock
    state = deal(board, game.seat_specs(), cfg.seed, cfg.options, cfg.role_pool)
    for key in game.keys():
        if game.gateway.exists(key):
            raise ServiceError("err.svc.workbook_exists", key=key)
    save_config(cfg, folder, source)
    step = progress or (lambda _key: None)
    with game.gateway.batch():  # locally: each file saved once, laid out and shared
        for key, title, ops, tabs in _workbooks(game, state):
            game.gateway.create(key, title, tabs)
            game.gateway.write(key, ops)
            step(key)
        share_all(game)
    return game


def _workbooks(game: Game, state: State) -> list[tuple[str, str, list[Op], list[str]]]:
    cfg, lang, editors = game.cfg, game.lang, game.editors()
    out = []
    for seat in game.seats:
        pl = game.seat_lang(seat)
        p = state.players[seat]
        ops = layout.player_ops(pl, editors, p.camp) + current_ops(state, seat, pl)
        ops += open_row_ops(state, seat, pl, editors, tab=[])
        line = deadlines.deadline_line(game, state, pl, game.now(), "new")
        ops += deadline_ops(state.board, pl, line)
        due = next_row(state, seat, [])
        ops += status_ops(pl, due, line, ()) if due is not None else []
        ops.append(identity_op(pl, identity_token(game.secret(), cfg.name, player_key(seat)), seat, p.alias))
        ops += help_ops(pl, p.alias, p.camp, p.role)
        title = f"{cfg.name} · {game.alias(seat)}"
        out.append((player_key(seat), title, ops, [layout.tab(pl, t) for t in layout.PLAYER_TABS]))
    pub = layout.public_ops(game.langs, editors)
    for pub_lang in game.langs:  # every language of the roster reads the public news in its own tabs
        pub += public_ops(state, [], SETUP_KEY, pub_lang)[1:]
    pub += deadlines.public_deadline_ops(game, state, game.now(), "new")
    out.append((PUBLIC, f"{cfg.name} · public", pub, layout.public_tabs(game.langs)))
    now = game.now().isoformat(timespec="seconds")
    entry = Entry(SETUP_KEY, PUBLISHED, digest({}), entry_hash(state, []), cfg.seed, now, pack(state.to_dict()), "", "")
    config_rows = [("name", cfg.name), ("map", cfg.map), ("seed", str(cfg.seed)), ("backend", cfg.backend),
                   ("timezone", cfg.timezone), ("created", now), (layout.SECRET_ROW, game.secret())]
    emails = [s.email for s in cfg.roster]
    director = layout.director_ops(lang, config_rows, state, emails) + [entry.op(lang)]
    out.append((DIRECTOR, f"{cfg.name} · director", director, [layout.tab(lang, t) for t in layout.DIRECTOR_TABS]))
    return out


def sharing_plan(game: Game) -> dict[str, dict[str, str]]:
    """workbook key -> email -> role: exactly who may open each file besides the director, who owns them."""
    sa = game.cfg.service_account or game.gateway.account
    plan: dict[str, dict[str, str]] = {DIRECTOR: {}, PUBLIC: {}}
    for seat in game.seats:
        plan[player_key(seat)] = {}
    for _key, shares in plan.items():
        if sa:
            shares[sa] = "writer"
    for seat, s in zip(game.seats, game.cfg.roster, strict=True):
        if s.email:
            plan[player_key(seat)][s.email] = "writer"
            plan[PUBLIC][s.email] = "reader"
    return plan


@record
class ShareReport:
    """What `share_all` did: (key, email, role) of every grant in place, and the workbooks not found."""

    shared: list[tuple[str, str, str]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"shared": [{"workbook": k, "email": e, "role": r} for k, e, r in self.shared],
                "missing": self.missing}


def share_all(game: Game) -> ShareReport:
    """Share each file as the plan says, one call at a time (Drive keeps only the last of concurrent
    permission calls on a file). Idempotent: a grant already in place costs only the permission list,
    so a `new` cut off half-way is finished by running it again (`sheetgm share`).

    An address Drive refuses (no Google account behind it) is named with its player and the others
    are shared all the same; any other failure stops at once. Either way the error says how to finish."""
    rep, refused = ShareReport(), []
    who = {s.email.lower(): s.alias for s in game.cfg.roster if s.email}
    try:
        for key, shares in sharing_plan(game).items():
            for email, role in shares.items():
                try:
                    game.gateway.share(key, email, role)
                except ShareRejectedError:
                    refused.append(render(game.voice, "svc.share.refused", alias=who.get(email.lower(), "-"),
                                          email=email, key=key))
                    continue
                except MissingWorkbookError:
                    rep.missing.append(key)
                    break
                rep.shared.append((key, email, role))
    except BackendError as exc:
        refused.append(exc.message(game.voice))
    if refused:
        raise ServiceError("err.svc.share_unfinished", problems="; ".join(refused), folder=str(game.folder))
    return rep
