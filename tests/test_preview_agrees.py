"""The preview agrees with the night (issue 28): on every ready map, single-player orders are previewed and then
resolved alone, written step by written step, and on every step the preview is sure of the tile, MP, AP, failure
and "does nothing" are the resolver's (tests/preview_agree.py says how).

The test runs a sample of 3,240 orders (8 seeds, ~5 s of CPU); benchmarks/preview_agree.py runs 12,364 (30 seeds,
~15 s of CPU, ~50 s on the loaded shared machine: more than the suite should pay) and prints the figures by kind.
"""

# covers: R-ORDER-4, R-ORDER-5, RUL-18, RUL-61, RUL-62

from __future__ import annotations

from dataclasses import replace

import pytest
from preview_agree import MAPS, After, Tally, _step_disagreements, run

from sheetgm.core.events import Event
from sheetgm.core.preview import Preview, StepPreview
from sheetgm.core.state import SURVIVOR_STAGE
from sheetgm.core.steps import Move, Order


@pytest.mark.parametrize("map_name", MAPS)
def test_the_preview_and_the_resolver_agree(map_name: str) -> None:
    tally = run(map_name, range(8), per_actor=4, nights=5)
    assert tally.orders >= 500
    assert tally.steps > 2 * tally.unsure  # the preview is sure of most steps: the comparison bites
    assert tally.failed > 100 and tally.wasted > 0  # failing steps and steps that do nothing are met
    assert not tally.disagreements, "\n".join(tally.examples[:10])
    assert tally.agreed == tally.orders


def test_a_disagreement_is_found() -> None:
    """The comparison can fail: a preview that puts her on the target of a move the resolver stops short of."""
    order = Order((Move((1, 0)),), (), (1,), ("#1",))
    s = StepPreview(1, "#1", ((1, 0),), (1, 0), False, 2, 1, ())
    pv = Preview(1, (0, 0), 3, 1, (s,))
    stopped = After((0, 0), None, {1: (3, 1)}, 1, ())
    before = After((0, 0), None, {}, None, ())
    found = _step_disagreements(pv, order, s, before, stopped, Tally())
    assert {f.split(":")[0] for f in found} == {"tile", "mp", "failed"}
    wasted = replace(s, tile=(1, 0), mp=2, path=(), wasted=True)
    moved = After((1, 0), None, {1: (2, 1)}, None,
                  (Event("moved", 1, SURVIVOR_STAGE, {"frm": "A1", "tile": "B1", "how": "move"}, actor=1),))
    found = _step_disagreements(replace(pv, steps=(wasted,)), order, wasted, before, moved, Tally())
    assert [f.split(":")[0] for f in found] == ["wasted"]
    assert not _step_disagreements(pv, order, s, before, moved, Tally())
