"""A decision's dice as a wargamer reads them (clients/web/render.js), on the page's own
modules in a real Chromium: a hidden roll cited by a decision is "[hidden]" with what that
means, never "= 0" (its frame holds no faces and a total of 0, which is no total); a roll
of several like dice is said by their count and sides ("2d10", "6d6"), not by the code
name of its kind ("custom", "nd6", "coloured": "blue and purple dice"), rolls counted from
1 as the terminal counts them ("roll 1" is the log's roll 0), in the decision's "why", the
log's row and the dice log; one candidate is "1 candidate", and a "why" that holds no dice
does not promise them ("Why? (rule)")."""

from __future__ import annotations

from typing import Any

SAID = """async () => {
  const { decisionList } = await import('./play.js');
  const { describe, diceRow } = await import('./render.js');
  const roll = (n, kind, sides, faces, hidden, labels = []) => [n, { seq: 10 + n,
    event_type: 'DiceRolled',
    payload: { roll: n, kind, sides, faces, total: faces.reduce((a, b) => a + b, 0),
      by: 'server', purpose: 'a purpose', rule: 'r', hidden, owner: 'opponent', labels } }];
  const rolls = new Map([roll(1, 'd10', [10], [], true), roll(2, 'custom', [10, 10], [7, 7], false),
    roll(3, 'nd6', [6, 6, 6], [1, 6, 2], false), roll(4, 'custom', [6, 10], [3, 9], false),
    roll(5, 'coloured', [6, 6], [2, 5], false, ['blue', 'purple'])]);
  const frame = { seq: 20, event_type: 'downtown.SamReacted', payload: { rule: 'r',
    dice: [1, 2, 3, 4, 5], explanation: 'it reacted',
    candidates: [{ option: 'salvo', chosen: true, reason: 'full acquisition' }] } };
  const list = decisionList([frame, { seq: 21, event_type: 'downtown.PhaseBegan',
    payload: { rule: 'r', explanation: 'Movement phase' } },
    { seq: 22, event_type: 'downtown.SamDummyChecked',
    payload: { rule: 'r', dice: [2], explanation: 'a dummy' } }], rolls);
  const table = document.createElement('tbody');
  for (const r of rolls.values()) table.append(diceRow(r));
  return {
    used: [...list.querySelectorAll('li[data-seq="20"] .used-dice li')].map((li) => li.textContent),
    why: [...list.querySelectorAll('summary')].map((s) => s.textContent),
    rows: [...rolls.values()].map((r) => describe(r)),
    numbers: [...table.querySelectorAll('tr')].map((tr) => tr.children[0].textContent),
    kinds: [...table.querySelectorAll('tr')].map((tr) => tr.children[2].textContent),
  };
}"""


async def test_a_decisions_dice_are_said_in_words(table_page: Any) -> None:
    page = table_page
    said = await page.evaluate(SAID)
    hidden, double, sixes, mixed, named = said["used"]
    # Rolls counted from 1 as the terminal counts them ("roll 2" is the log's roll 1).
    assert hidden.startswith("roll 2 (seq 11): d10 [hidden] (the umpire's secret"), hidden
    assert "= 0" not in hidden, hidden
    assert double == "roll 3 (seq 12): 2d10 [7 7] = 14 for a purpose", double
    assert sixes == "roll 4 (seq 13): 3d6 [1 6 2] = 9 for a purpose", sixes
    assert mixed == "roll 5 (seq 14): d6 + d10 [3 9] = 12 for a purpose", mixed
    # Named dice as the rules name them, not the kind's code name "coloured".
    assert named == (
        "roll 6 (seq 15): blue and purple dice [blue 2, purple 5] = 7 for a purpose"
    ), named
    # What the "why" holds: one candidate; the rule alone (nothing rolled); rule and dice.
    assert said["why"] == ["Why? (1 candidate)", "Why? (rule)", "Why? (rule and dice)"]
    assert said["rows"][1].startswith("roll 3: 2d10 [7 7] = 14 (server)"), said["rows"]
    assert said["rows"][0].startswith("roll 2: d10 [hidden] (server)"), said["rows"]
    assert said["numbers"] == ["2", "3", "4", "5", "6"]
    assert said["kinds"] == ["d10", "2d10", "3d6", "d6 + d10", "blue and purple dice"]
