"""Issue 41 item 7: the table says who decided. A decision made on the player's own rolls
is the umpire resolving the player's move (Down in Flames' resolution of the player's
attack: "The umpire: ..."); one that rolled nothing and weighed no candidate (a table
read, a phase begun) is the rules' own ("The rules: ..."); any other decision of the
opponent's list is the opponent's.
Checked on the page's own module (clients/web/play.js `decisionList`)."""

from __future__ import annotations

from typing import Any

SAID = """async () => {
  const { decisionList } = await import('./play.js');
  const roll = (n, owner) => [n, { seq: n + 1, payload: { roll: n, owner, kind: 'd6',
    faces: [3], total: 3, purpose: 'attack', rule: 'r' } }];
  const rolls = new Map([roll(1, 'player'), roll(2, 'opponent')]);
  const frame = (seq, dice) => ({ seq, event_type: 'down_in_flames.AttackResolved',
    payload: { rule: 'r', dice, candidates: [], explanation: 'hit' } });
  const list = decisionList([frame(4, [1]), frame(5, [2]), frame(6, [1, 2]), frame(7, [])], rolls);
  return [...list.querySelectorAll('.opponent-said')].map((p) => p.textContent.split(':')[0]);
}"""


async def test_a_decision_on_the_players_own_rolls_is_the_umpires(table_page: Any) -> None:
    page = table_page
    said = await page.evaluate(SAID)
    assert said == ["The umpire", "The opponent", "The opponent", "The rules"]
