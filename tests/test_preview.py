"""The order preview (core/preview.py, RUL-60 to RUL-62): each written step's tile, points, what the player knows
is there, its problems, notes and warnings; one numbering with the checker and the results."""

from __future__ import annotations

import pytest
from enginekit import board, game, hunt, survive, t

from sheetgm.core.observe import event_line
from sheetgm.core.preview import (
    MAY_ADRENALINE_SELF,
    MAY_HEAL,
    WARN_EMPTIED,
    WARN_NO_CHEST,
    WARN_NO_ROOM,
    WARN_NOWHERE,
    WARN_POWERED,
    WARN_ROOM_POTION,
    WARN_SEARCHED,
    WARN_TRAP,
    preview,
    step_line,
)
from sheetgm.core.state import State
from sheetgm.core.steps import RobotStep
from sheetgm.core.texts import render
from sheetgm.notation.orders import parse_order, parse_order_numbered
from sheetgm.sheets.player import path_marks, preview_lines

#    A  B  C  D  E
# 1  .  C  .  .  G
# 2  .  .  .  .  .
# 3  X  .  G  .  .
GRID = board("""name: pv
map:
   A  B  C  D  E
1  .  C  .  .  G
2  .  .  .  .  .
3  X  .  G  .  .
""")
ANN, HAL = 1, 2


def start(ann: str = "A1", chest: str | None = "map") -> State:
    return game(GRID, survivors=[("Ann", "athlete", ann)], hunters=[("Hal", "ripper", "E3")],
                chests={"B1": chest} if chest else {})


def codes(xs: tuple[object, ...]) -> list[str]:
    return [x.code for x in xs]


def test_a_path_after_a_comma_is_one_step_with_its_tiles_points_and_what_is_there() -> None:
    pv = preview(start(), ANN, parse_order("move B1, B2; search; C2"))
    assert [(s.number, s.text, s.path, s.tile) for s in pv.steps] == [
        (1, "move B1, B2", (t("B1"), t("B2")), t("B2")),
        (2, "search", (), t("B2")),
        (3, "C2", (t("C2"),), t("C2")),
    ]
    assert (pv.mp, pv.ap) == (3, 1)
    assert [(s.mp, s.ap) for s in pv.steps] == [(1, 1), (1, 0), (0, 0)]
    assert codes(pv.steps[1].warnings) == [WARN_NO_CHEST]
    back = preview(start("B2"), ANN, parse_order("move B1, B2; search"))
    assert back.path() == (t("B2"), t("B1"), t("B2"))
    on_b1 = preview(start(), ANN, parse_order("B1"))
    assert on_b1.steps[0].here == ("chest",)
    on_c3 = preview(start("C2"), ANN, parse_order("C3; crack"))
    assert [s.here for s in on_c3.steps] == [("generator",), ("generator",)] and not on_c3.steps[1].problems
    assert pv.path() == (t("A1"), t("B1"), t("B2"), t("C2"))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lines_number_and_quote_each_step_as_written(lang: str) -> None:
    pv = preview(start(), ANN, parse_order("移动 B1，B2；搜索"))
    lines = pv.lines(lang)
    assert ("「移动 B1，B2」" if lang == "zh" else '"移动 B1，B2"') in lines[1] and "B2" in lines[1]
    assert lines[2].startswith("第 2 步「搜索」" if lang == "zh" else 'Step 2 "搜索"')
    assert "B2" in lines[3] and ("没有宝物箱" in lines[3] or "no chest" in lines[3])


def test_a_chest_she_knows_is_empty_or_searched_twice_warns() -> None:
    empty = preview(start("B1", chest=None), ANN, parse_order("search"))
    assert codes(empty.steps[0].warnings) == [WARN_EMPTIED]
    assert empty.steps[0].here == ("chest_empty",)
    full = preview(start("B1"), ANN, parse_order("search; search"))
    assert full.steps[0].here == ("chest_full",)
    assert [codes(s.warnings) for s in full.steps] == [[], [WARN_SEARCHED]]


def test_a_chest_she_has_not_seen_is_just_a_chest_whatever_it_holds() -> None:
    """What another chest holds is hidden: the preview is the same for a full and an emptied chest."""
    full = preview(start("A1", chest="map"), ANN, parse_order("move B1; search"))
    empty = preview(start("A1", chest=None), ANN, parse_order("move B1; search"))
    assert full == empty
    assert full.steps[1].here == ("chest",) and not full.steps[1].warnings


def test_the_lucky_guys_prayer_makes_an_empty_chest_worth_searching() -> None:
    st = start("B1", chest=None)
    st.players[ANN].role = "lucky"
    pv = preview(st, ANN, parse_order("pray map; search"))
    assert not pv.steps[0].warnings


def test_powered_gates_and_a_trap_warn() -> None:
    st = start("B3")
    st.gates_powered = True
    st.traps[t("C2")] = HAL
    pv = preview(st, ANN, parse_order("C3; crack; C2; D2"))
    assert codes(pv.steps[1].warnings) == [WARN_POWERED]
    assert codes(pv.steps[2].warnings) == [WARN_TRAP]
    assert codes(pv.steps[3].problems) == ["err.rule.held"]
    assert pv.steps[3].cancelled_by is None  # a held move does nothing and the order goes on (RUL-31)


def test_after_a_failed_step_the_rest_is_marked_as_never_reached() -> None:
    pv = preview(start(), ANN, parse_order("crack; move B1; search"))
    assert codes(pv.steps[0].problems) == ["err.rule.no_generator"]
    assert [s.cancelled_by for s in pv.steps] == [None, 1, 1]
    assert any("1" in x and ("先未能执行" in x) for x in pv.lines("zh"))


def test_the_state_is_given_back_unchanged() -> None:
    st = start()
    before = st.to_json()
    preview(st, ANN, parse_order("move B1; search; B2; C2; C3; crack"))
    assert st.to_json() == before


def test_a_hunter_sees_his_points_and_tiles() -> None:
    pv = preview(start(), HAL, parse_order("D3, D2; listen"))
    assert [(s.number, s.tile) for s in pv.steps] == [(1, t("D2")), (2, t("D2"))]
    assert pv.steps[0].path == (t("D3"), t("D2"))
    assert not pv.steps[1].warnings


def test_one_numbering_in_the_parser_for_syntax_errors_and_robot_paths() -> None:
    parsed = parse_order_numbered("move F4, F3; serach")
    assert [e.params["step"] for e in parsed.errors] == [2] and parsed.texts == ("move F4, F3", "serach")
    robot = parse_order_numbered("robot: move B2, B3; search")
    assert robot.written == (1, 1, 2) and all(isinstance(s, RobotStep) for s in robot.order.steps[:2])
    apart = parse_order_numbered("move B2; B3\nB4")  # a semicolon or a new line always separates steps
    assert apart.written == (1, 2, 3)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_result_quotes_the_failed_step_and_names_the_trap_before_it(lang: str) -> None:
    st = start("B3")
    st.traps[t("B2")] = HAL
    _, events = survive(st, {ANN: parse_order("move B2, B1; search; crack")})
    failed = [e for e in events if e.kind == "step_failed"]
    assert [(e.params["step"], e.params["text"], e.params["held"], e.params["tile"]) for e in failed] == [
        (3, "crack", 1, "B2")]
    line = event_line(failed[0], lang)
    assert line.startswith("第 3 步「crack」未能执行" if lang == "zh" else 'Step 3 "crack" could not be carried out')
    assert "B2" in line and ("陷阱" in line if lang == "zh" else "trap" in line)


# --- issue 28: a preview that agrees with the night ------------------------------------------------------------

#    A  B  C  D  E    F
# 1  .  C  .  .  G    .
# 2  .  .  .  .  .  # .       (a high wall between E2 and F2)
# 3  X  .  G  .  .    .
#          =                  (a high wall between C3 and C4)
# 4  .  .  .  .  .    .
WALLED = board("""name: walled
map:
   A  B  C  D  E    F
1  .  C  .  .  G    .
2  .  .  .  .  .  # .
3  X  .  G  .  .    .
         =
4  .  .  .  .  .    .
""")


HUNTER = 3  # Hal, in walled()


def walled(role: str = "athlete", at: str = "F3", **extra: object) -> State:
    return game(WALLED, survivors=[("Ann", role, at, dict(extra)), ("Bo", "doctor", "A4")],
                hunters=[("Hal", "clown", "C4")], chests={"B1": "map"})


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_move_stopped_by_a_wall_stops_where_the_resolver_stops_her(lang: str) -> None:
    st = walled()
    pv = preview(st, ANN, parse_order_numbered("move F2, E2; search").order)
    one, two = pv.steps
    assert (one.path, one.tile, one.mp, one.ap, one.fails) == ((t("F2"),), t("F2"), 2, 1, True)
    assert (two.tile, two.mp, two.ap, two.cancelled_by, two.path) == (t("F2"), 2, 1, 1, ())
    end, events = survive(st, {ANN: parse_order_numbered("move F2, E2; search").order})
    assert end.players[ANN].pos == one.tile and [e.params["mp"] for e in events if e.kind == "points_left"
                                                   and e.actor == ANN] == [one.mp]
    assert path_marks(pv, lang) == {t("F2"): render(lang, "sheet.map.step", n=1)}  # no →1 on E2
    column_e = preview_lines(st, pv, lang, full=False)  # the Orders tab's column E: the ✗ in the step's own line
    assert any(x.startswith("✗ ") and "F2" in x for x in column_e)
    assert any(x.startswith("– ") for x in column_e)  # step 2 never runs
    walls = preview(walled(at="B3"), ANN, parse_order("move C3, C4; crack"))  # what is on the tile she stops on
    assert [(s.tile, s.here, s.mp) for s in walls.steps] == [(t("C3"), ("generator",), 2)] * 2


def test_a_dash_into_a_wall_goes_nowhere_and_says_so() -> None:
    st = walled()
    st.stage = "hunter"
    pv = preview(st, HUNTER, parse_order("华丽出场 北; 华丽出场 东"))
    north, east = pv.steps
    assert (north.tile, north.ap, north.wasted, codes(north.warnings)) == (t("C4"), 1, True, [WARN_NOWHERE])
    assert (east.tile, east.ap, east.wasted, east.warnings) == (t("F4"), 0, False, ())
    assert step_line("zh", north).startswith("⚠ 第 1 步")
    _, events = hunt(st, {HUNTER: parse_order("华丽出场 北; 华丽出场 东")})
    assert [e.params["tile"] for e in events if e.kind == "moved"] == ["D4", "E4", "F4"]


@pytest.mark.parametrize(("role", "items", "warning"), [
    ("athlete", ["revolver"], WARN_NO_ROOM), ("lucky", ["map", "bottle", "wings"], WARN_NO_ROOM),
    ("doctor", ["revolver"], WARN_ROOM_POTION), ("doctor", ["stimulant"], None), ("athlete", [], None)])
def test_a_search_with_no_room_warns(role: str, items: list[str], warning: str | None) -> None:
    st = walled(role, "B1", items=items)
    pv = preview(st, ANN, parse_order("search"))
    assert pv.steps[0].here == ("chest_full",)
    assert [c for c in codes(pv.steps[0].warnings) if c in (WARN_NO_ROOM, WARN_ROOM_POTION)] == (
        [warning] if warning else [])
    _, events = survive(st, {ANN: parse_order("search")})
    assert bool([e for e in events if e.kind == "no_room"]) == (warning is not None)


@pytest.mark.parametrize(("role", "order", "warning"), [
    ("athlete", "search key", None), ("athlete", "search map", WARN_NO_ROOM), ("doctor", "search map", WARN_NO_ROOM),
    ("doctor", "search stimulant", None), ("doctor", "search", WARN_ROOM_POTION)])
def test_a_search_for_one_thing_warns_only_if_that_thing_has_no_room(role: str, order: str,
                                                                     warning: str | None) -> None:
    """Her bag full but for a potion (the Doctor's) or full: a key always fits; a potion fits the Doctor's."""
    pv = preview(walled(role, "B1", items=["revolver"]), ANN, parse_order(order))
    assert [c for c in codes(pv.steps[0].warnings) if c in (WARN_NO_ROOM, WARN_ROOM_POTION)] == (
        [warning] if warning else [])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_downed_players_points_do_not_rise_on_a_heal_she_cannot_count_on(lang: str) -> None:
    """Bo's order heals her: whether he acts before her she cannot know, so from the step that needs it the
    tile and points are a "may", not the points of a heal that may not come."""
    st = walled(at="A4", downed=True)
    order = parse_order("move A3; move B3; move B2")
    pv = preview(st, ANN, order, {2: parse_order("救治 Ann")})
    assert (pv.mp, pv.ap) == (1, 0)
    one, two, three = pv.steps
    assert (one.sure, one.mp) == (True, 0) and not two.sure and not three.sure
    assert [x.code for x in two.notes] == ["check.note.heal"]
    lines = pv.lines(lang)
    mp = "MP ?" if lang == "en" else "移动力 ？"
    assert [mp in x for x in lines if x.lstrip().startswith(("?", "？"))] == [True, False, True]
    assert not any(f"{mp[:-2]} {n} " in x for x in lines for n in (2, 3))  # no figure of a heal she cannot count on
    assert "maybe B3" in lines[2] or "可能在 B3" in lines[2]


def test_a_heal_of_another_hangs_on_where_she_stands() -> None:
    st = walled(at="A4")
    pv = preview(st, ANN, parse_order("heal Bo; move A3"))
    assert [s.sure for s in pv.steps] == [False, False]
    assert [x.code for x in pv.steps[0].notes] == [MAY_HEAL]
    on_herself = preview(st, ANN, parse_order("heal Ann fear; move A3"))
    assert [s.sure for s in on_herself.steps] == [True, True]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_werewolfs_mp_shows_what_bloodlust_may_add(lang: str) -> None:
    st = walled()
    st.stage = "hunter"
    st.players[HUNTER].role = "werewolf"
    pv = preview(st, HUNTER, parse_order("D4"))
    assert pv.more_mp and (pv.mp, pv.steps[0].mp) == (4, 3)
    lines = pv.lines(lang)
    assert ("MP 4 (5 if a survivor is Injured)" if lang == "en" else "移动力 4（有求生者受伤时 5）") in lines[0]
    assert ("MP 3 (4 if" if lang == "en" else "移动力 3（有求生者受伤时 4）") in lines[1]
    st.players[HUNTER].flags["no_mp_night"] = st.night  # the silver dagger's curse: no MP whatever
    assert not preview(st, HUNTER, parse_order("D4")).more_mp


def test_a_stunned_hunters_steps_never_run() -> None:
    st = walled()
    st.stage = "hunter"
    st.players[HUNTER].stunned = True
    pv = preview(st, HUNTER, parse_order("D4, E4; listen"))
    assert [(s.tile, s.mp, s.ap, s.path, s.cancelled_by, s.fails) for s in pv.steps] == [
        (t("C4"), 4, 2, (), 0, False)] * 2
    assert [x.code for x in pv.general] == ["check.note.stunned"]
    assert [x[:2] for x in pv.lines("en")[1:]] == ["– ", "– "]


def test_adrenaline_on_herself_when_not_downed_is_a_may_that_says_why() -> None:
    st = walled(at="A4", items=["adrenaline"])
    pv = preview(st, ANN, parse_order("use adrenaline; move A3"))
    assert [x.code for x in pv.steps[0].notes] == [MAY_ADRENALINE_SELF] and not pv.steps[0].sure
    st.players[ANN].downed = True
    assert preview(st, ANN, parse_order("use adrenaline; move A3")).steps[1].sure  # Downed: it gets her up


# --- what the player reads, word for word (issue 29.5: mutmut found the lines unpinned) ------------------------

LINES = {
    "en": ['Start: A1 · MP 3 · AP 1',
           'Step 1 "move B1, B2" → B2 · MP 1 · AP 1 · here: nothing you know of',
           '? Step 2 "heal Bo" → maybe B2 · MP ? · AP ? · here: nothing you know of',
           '  ? whether it works depends on whether Bo is on your tile then (and Downed), which you cannot know',
           '✗ Step 3 "search" → maybe B2 · MP ? · AP ? · here: nothing you know of',
           '  ✗ Not enough AP (need 1, have 0)',
           '  ⚠ likely wasted: there is no chest on B2; a search there finds only what someone may have left or '
           'hidden',
           '– Step 4 "crack" → maybe B2 · MP ? · AP ? · here: nothing you know of',
           "  ✗ not carried out: step 3 fails first, and a failed step cancels the rest of the night's order",
           '  ✗ There is no generator on B2'],
    "zh": ['起点：A1 · 移动力 3 · 行动力 1',
           '第 1 步「move B1, B2」→ B2 · 移动力 1 · 行动力 1 · 此处：据你所知什么也没有',
           '？第 2 步「heal Bo」→ 可能在 B2 · 移动力 ？ · 行动力 ？ · 此处：据你所知什么也没有',
           '  ？能否成功取决于 Bo 那时是否和你在同一地块（以及是否倒地），这你无法知道',
           '✗ 第 3 步「search」→ 可能在 B2 · 移动力 ？ · 行动力 ？ · 此处：据你所知什么也没有',
           '  ✗ 行动力不足（需要 1，剩余 0）',
           '  ⚠ 很可能白费：B2 没有宝物箱，在那里搜索只能找到别人可能留下或藏着的东西',
           '– 第 4 步「crack」→ 可能在 B2 · 移动力 ？ · 行动力 ？ · 此处：据你所知什么也没有',
           '  ✗ 不会执行：第 3 步先未能执行，失败的一步会取消本夜其余指令',
           '  ✗ B2 没有电动机'],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_preview_reads_word_for_word_with_each_mark_in_the_players_language(lang: str) -> None:
    """A note (?), a problem (✗), a warning (⚠) and a step never reached (–), each marked as what it is; without
    ``full`` (the Orders tab, where the problems and notes are listed above) only the warnings stay under a step."""
    st = game(GRID, survivors=[("Ann", "athlete", "A1"), ("Bo", "doctor", "C2")], hunters=[("Hal", "ripper", "E3")],
              chests={"B1": "map"})
    pv = preview(st, ANN, parse_order("move B1, B2; heal Bo; search; crack"))
    assert pv.lines(lang) == LINES[lang]
    assert pv.lines(lang, full=False) == [LINES[lang][i] for i in (0, 1, 2, 4, 6, 7, 8)]  # the note, the problems out
    item = preview(start(), ANN, parse_order("use map")).lines(lang)  # an item named in a problem: in her words
    assert item[-1] == ("  ✗ 你没有持有地图" if lang == "zh" else "  ✗ You do not hold Map")


@pytest.mark.parametrize(("lang", "line"), [
    ("en", 'Step 1 "crack" → C3 · MP 3 · AP 0 · here: generator, trap'),
    ("zh", "第 1 步「crack」→ C3 · 移动力 3 · 行动力 0 · 此处：电动机、陷阱")], ids=["en", "zh"])
def test_a_steps_line_names_all_she_knows_is_on_her_tile_in_her_words(lang: str, line: str) -> None:
    st = start("C3")
    st.traps[t("C3")] = HAL
    pv = preview(st, ANN, parse_order("crack"))
    assert pv.lines(lang)[1] == step_line(lang, pv.steps[0]) == line  # (no Bloodlust unless asked for)


def test_her_path_leaves_her_robots_tiles_out() -> None:
    from sheetgm.core.state import Player

    st = game(GRID, survivors=[("Ann", "mechanic", "A1")], hunters=[("Hal", "ripper", "E3")])
    st.players[101] = Player(seat=101, alias="Ann#robot", camp="survivor", pos=t("C1"), hp=1, flags={"robot_of": 1})
    pv = preview(st, ANN, parse_order_numbered("robot: move D1, D2; move A2").order)
    assert pv.steps[0].robot and pv.steps[0].path == (t("D1"),)
    assert pv.path() == (t("A1"),)


def test_a_seat_not_in_the_game_gets_an_empty_preview_of_that_seat_with_the_checkers_answer() -> None:
    pv = preview(start(), 99, parse_order("move B1"))
    assert (pv.seat, pv.start, pv.steps, pv.mp, pv.ap) == (99, (0, 0), (), 0, 0)
    assert [(x.code, x.params) for x in pv.review.problems] == [("err.rule.no_such_seat", {"seat": 99})]


@pytest.mark.parametrize(("role", "at", "order"), [
    ("bane", "D3", "attack east; C3"), ("clown", "C4", "华丽出场 北; D4")], ids=["bane", "clown"])
def test_a_stunned_hunters_steps_show_him_where_he_stands_with_nothing_to_note_or_warn(role: str, at: str,
                                                                                        order: str) -> None:
    """Awake, these steps carry notes (the chain), a "may", a warning and a wasted dash, and end on a generator;
    stunned, none of it: every step is "never runs", on his own tile with his own points."""
    st = walled()
    st.stage = "hunter"
    st.players[HUNTER].role, st.players[HUNTER].pos = role, t(at)
    awake = preview(st, HUNTER, parse_order(order))
    assert any(s.notes or s.warnings or s.wasted or not s.sure or s.here for s in awake.steps)
    st.players[HUNTER].stunned = True
    pv = preview(st, HUNTER, parse_order(order))
    assert [(s.path, s.tile, s.mp, s.ap, s.here, s.notes, s.warnings, s.cancelled_by, s.sure, s.wasted)
            for s in pv.steps] == [((), t(at), pv.mp, pv.ap, (), (), (), 0, True, False)] * 2  # (nothing on D3, C4)
    assert all(s.sure is True for s in pv.steps)


def test_a_player_out_of_play_gets_no_steps_and_the_checkers_word() -> None:
    st = start()
    st.players[ANN].status = "escaped"
    pv = preview(st, ANN, parse_order("move B1"))
    assert (pv.seat, pv.start, pv.mp, pv.ap, pv.steps) == (ANN, t("A1"), 0, 0, ())
    assert pv.general == (*pv.review.problems, *pv.review.notes) and [x.code for x in pv.general] == [
        "err.rule.out_of_play"]


def _mechanic() -> State:
    from sheetgm.core.state import Player

    st = game(GRID, survivors=[("Ann", "mechanic", "B1")], hunters=[("Hal", "ripper", "E3")], chests={"B1": "map"})
    st.players[101] = Player(seat=101, alias="Ann#robot", camp="survivor", pos=t("E1"), hp=1, flags={"robot_of": 1})
    return st


def test_a_failed_step_shows_what_is_on_the_tile_of_the_piece_that_fails() -> None:
    """Her own step failing after her robot's shows her tile (a chest), not the robot's (a generator); the robot's
    failing after hers shows the robot's."""
    pv = preview(_mechanic(), ANN, parse_order_numbered("交付 1 行动力；机器人：搜索；crack").order)
    robot, own = pv.steps[1], pv.steps[2]
    assert (robot.robot, robot.here) == (True, ("generator",))
    assert (own.fails, own.tile, own.here) == (True, t("B1"), ("chest_full",))
    pv = preview(_mechanic(), ANN, parse_order_numbered("move A1; 机器人：搜索").order)
    assert (pv.steps[0].here, pv.steps[1].robot, pv.steps[1].fails, pv.steps[1].here) == ((), True, True,
                                                                                          ("generator",))


@pytest.mark.parametrize(("lang", "robot", "bare"), [
    ("en", 'Step 2 "机器人：搜索" → robot on E1 · robot MP 1 · AP 0 · here: generator',
     'Step 1 "-" → B1 · MP 2 · AP 1 · here: chest'),
    ("zh", "第 2 步「机器人：搜索」→ 机器人在 E1 · 机器人移动力 1 · 行动力 0 · 此处：电动机",
     "第 1 步「-」→ B1 · 移动力 2 · 行动力 1 · 此处：宝物箱")], ids=["en", "zh"])
def test_a_robots_step_reads_as_the_robots_and_a_step_without_text_as_a_dash(lang: str, robot: str,
                                                                              bare: str) -> None:
    from sheetgm.core.steps import Move, Order

    pv = preview(_mechanic(), ANN, parse_order_numbered("交付 1 行动力；机器人：搜索").order)
    assert pv.lines(lang)[2] == robot
    assert preview(start(), ANN, Order(steps=(Move(t("B1")),))).lines(lang)[1] == bare


def test_notes_and_warnings_name_the_step_as_written_and_a_step_never_reached_warns_of_nothing() -> None:
    """A path of two tiles is one written step: the search after it is step 2 (night step 3), and its warning says
    2; a step after one that fails is never reached: no warning of what it would find."""
    pv = preview(start(), ANN, parse_order("move B1, B2; search"))
    assert [(x.code, x.step) for x in pv.steps[1].warnings] == [(WARN_NO_CHEST, 2)]
    st = game(GRID, survivors=[("Ann", "athlete", "A1"), ("Bo", "doctor", "C2")], hunters=[("Hal", "ripper", "E3")])
    pv = preview(st, ANN, parse_order("move B1, B2; heal Bo"))
    assert [(x.code, x.step) for x in pv.steps[1].notes] == [(MAY_HEAL, 2)]
    pv = preview(start(), ANN, parse_order("crack; search"))  # no generator on A1, no chest either
    assert (pv.steps[1].cancelled_by, pv.steps[1].warnings) == (1, ())
    assert preview(start("A2"), ANN, parse_order("A3")).steps[0].here == ("gate",)


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "  ⚠ may be wasted: you have room for a potion only; a Map, Revolver, Spring Wings, Beer Bottle, Door Key, "
           "Jammer, Silver Dagger found stays where it is"),
    ("zh", "  ⚠ 可能白费：你只剩放药剂的空位，找到 地图、左轮手枪、弹簧机翼、啤酒瓶、门之钥、干扰器、银制匕首 "
           "也拿不走")],
    ids=["en", "zh"])
def test_the_doctors_full_bag_warning_names_what_she_has_no_room_for(lang: str, line: str) -> None:
    assert preview(walled("doctor", "B1", items=["revolver"]), ANN, parse_order("search")).lines(lang)[-1] == line


def test_a_heal_hangs_on_where_the_other_stands_only_when_nothing_else_stops_it() -> None:
    """A heal that fails for want of AP fails whatever Bo does: no "may" note; one after a failed step still has
    its note (it is listed, never reached); the robot's heal hangs on Bo as hers does."""
    from sheetgm.core.state import Player

    st = game(GRID, survivors=[("Ann", "athlete", "B1"), ("Bo", "doctor", "C2")], hunters=[("Hal", "ripper", "E3")],
              chests={"B1": "map"})
    no_ap = preview(st, ANN, parse_order("search; heal Bo")).steps[1]
    assert (codes(no_ap.problems), no_ap.notes) == (["err.rule.no_ap"], ())
    after = preview(st, ANN, parse_order("crack; heal Bo")).steps[1]
    assert (after.cancelled_by, codes(after.notes)) == (1, [MAY_HEAL])
    st = game(GRID, survivors=[("Ann", "mechanic", "B1"), ("Bo", "doctor", "E1")], hunters=[("Hal", "ripper", "E3")])
    st.players[101] = Player(seat=101, alias="Ann#robot", camp="survivor", pos=t("E1"), hp=1, flags={"robot_of": 1})
    robot = preview(st, ANN, parse_order_numbered("交付 1 行动力；机器人：救治 Bo").order).steps[1]
    assert robot.robot and [(x.code, x.params) for x in robot.notes] == [(MAY_HEAL, {"alias": "Bo"})]


def test_adrenaline_on_another_hangs_on_her_and_the_note_names_her() -> None:
    st = walled(at="A4", items=["adrenaline"])
    other = preview(st, ANN, parse_order("use adrenaline Bo")).steps[0]
    assert [(x.code, x.params) for x in other.notes] == [("preview.may.adrenaline", {"alias": "Bo"})]
    mine = preview(st, ANN, parse_order("use adrenaline Ann")).steps[0]  # named, but herself: the rule for her
    assert [(x.code, x.params) for x in mine.notes] == [(MAY_ADRENALINE_SELF, {})]


def test_only_the_banes_attack_in_a_direction_hangs_on_whom_the_chain_catches() -> None:
    st = walled()
    st.stage = "hunter"
    st.players[HUNTER].role, st.players[HUNTER].pos = "bane", t("D3")
    pv = preview(st, HUNTER, parse_order("attack east; C3"))
    assert [(x.code, x.params) for x in pv.steps[0].notes] == [("preview.may.chain", {})]
    assert [x.code for x in preview(st, HUNTER, parse_order("C3")).steps[0].notes] == []  # his move: no chain


def test_each_warning_names_the_tile_it_is_about() -> None:
    """The warnings' words carry their tile (the Orders tab shows them under the step): an empty chest, one
    searched twice, a powered generator, a trap, a dash that goes nowhere."""
    empty = preview(start("B1", chest=None), ANN, parse_order("search"))
    twice = preview(start("B1"), ANN, parse_order("search; search"))
    st = start("B3")
    st.gates_powered = True
    st.traps[t("C2")] = HAL
    powered = preview(st, ANN, parse_order("C3; crack; C2"))
    wall = walled()
    wall.stage = "hunter"
    nowhere = preview(wall, HUNTER, parse_order("华丽出场 北"))
    for pv, step, tile in ((empty, 0, "B1"), (twice, 1, "B1"), (powered, 1, "C3"), (powered, 2, "C2"),
                           (nowhere, 0, "C4")):
        (warning,) = pv.steps[step].warnings
        assert warning.params == {"tile": tile}
    st = start("B1", chest=None)
    st.players[ANN].flags["pray"] = True  # she prayed by day (the Lucky Guy): the empty chest is worth a search
    assert preview(st, ANN, parse_order("search")).steps[0].warnings == ()
