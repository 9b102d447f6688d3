"""Who won, at the table's end (clients/web/ending.js, render.js) on the page's own modules
in a real Chromium: the end screen told the result in the rules' words ("side A wins:
side B has no aircraft left") and never whether that was the player's win. It now says
"You win" / "You lose" / "A draw" to the player from GameEnded.winner (the player
otherwise the player; no line where the end does not say), and the log's line says the
winner in the words `umpire log` prints (events/rules_words.py WINNER_SAID)."""

from __future__ import annotations

from typing import Any

import pytest

from umpire.events.rules_words import universal_said
from umpire.events.types import GameEnded, Winner

END_SCREEN = """async ([winner, role]) => {
  const { endScreen } = await import('./ending.js');
  const payload = { result: 'side A wins: side B has no aircraft left', rule: 'r' };
  if (winner) payload.winner = winner;
  const frames = [{ seq: 9, event_type: 'GameEnded', payload }];
  const box = document.createElement('section');
  box.append(...endScreen({ state: { seq: 9, map: {}, state: {} }, frames, gameId: 'g1', role }));
  const line = box.querySelector('.winner');
  return line && line.textContent;
}"""


@pytest.mark.parametrize(
    ("winner", "role", "said"),
    [
        ("player", "player", "You win"),
        ("opponent", "player", "You lose"),
        ("draw", "player", "A draw"),
        ("player", "spectator", "The player wins"),
        ("opponent", "spectator", "The player loses"),
        (None, "player", None),
    ],
)
async def test_the_end_screen_says_who_won(
    table_page: Any, winner: str | None, role: str, said: str | None
) -> None:
    assert await table_page.evaluate(END_SCREEN, [winner, role]) == said


async def test_an_end_the_rules_judge_not_says_so(table_page: Any) -> None:
    """Age of Dogfights, Downtown, Nightfighter: the solo rules state no victory condition."""
    said = await table_page.evaluate(END_SCREEN, ["none_stated", "player"])
    assert said.startswith("No winner declared: the solo rules state no victory condition")


LOG_LINE = """async (winner) => {
  const { describe } = await import('./render.js');
  const payload = { result: 'side A wins', rule: 'r 1' };
  if (winner) payload.winner = winner;
  return describe({ seq: 9, event_type: 'GameEnded', payload });
}"""


@pytest.mark.parametrize("winner", [*Winner, None])
async def test_the_log_line_says_the_winner_as_umpire_log_does(
    table_page: Any, winner: Winner | None
) -> None:
    line = await table_page.evaluate(LOG_LINE, winner and winner.value)
    ended = GameEnded(result="side A wins", rule="r 1")
    if winner is not None:
        ended = GameEnded(result="side A wins", rule="r 1", winner=winner)
    said = universal_said(ended)
    # The table's line leaves out the rule, which the row cites apart.
    assert said is not None and said.removesuffix(" — r 1") == line, (line, said)
