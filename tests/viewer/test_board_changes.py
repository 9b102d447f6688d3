"""Under an engagement diagram (clients/web/board.js), what changed since the state shown
before is said in words. It read "The opponent's last move: b1 (outlined)" when the
player's own attack shot b1 down (Down in Flames) or the player reported damage on a bot
(Age of Dogfights): neither a move nor the opponent's, and no word of what changed."""

from __future__ import annotations

from typing import Any

SAID = """async () => {
  const { boardDiagram } = await import('./board.js');
  const plane = (id, side, level, state) => ({ id, side, lane: side, level, state,
    out: level === null, point: null, heading: null, label: id });
  const map = (b1, b2) => ({ kind: 'diagram', title: 'Move 10', player_sides: ['A'],
    lanes: ['A', 'B'], bands: [1, 2, 3, 4].map((l) => ({ low: l, high: l, label: `level ${l}` })),
    links: [], field: null, zones: [],
    aircraft: [plane('a1', 'A', 1, ['Spitfire', 'leader', 'hand 1']), b1, b2] });
  const before = map(plane('b1', 'B', 1, ['Bf 109', 'leader', 'hand 10', 'in_formation']),
    plane('b2', 'B', 3, ['Bf 109', 'hand 4']));
  const now = map(plane('b1', 'B', null, ['Bf 109', 'leader', 'hand 11', 'shot_down']),
    plane('b2', 'B', 3, ['Bf 109', 'hand 4']));
  const figure = boardDiagram(now, { previous: before });
  return figure.querySelector('.last-move').textContent;
}"""


async def test_what_changed_of_the_opponents_aircraft_is_said(table_page: Any) -> None:
    page = table_page
    said = await page.evaluate(SAID)
    assert said == (
        "Changed since the state before (outlined): b1: level 1 → out, hand 10 → 11, "
        "now shot down, no longer in formation"
    ), said
