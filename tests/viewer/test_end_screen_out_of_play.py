"""The end screen's "On the board at the end" (clients/web/ending.js) as a wargamer reads
it, on the page's own module in a real Chromium: an Age of Dogfights game that ends with
"no player aircraft left in the Combat Zone" drew "Player (yours): 2 left — P1, P2",
because the diagram still lists the lost aircraft (marked `out`). An aircraft out of
play is said apart, with its state in the legend's words ("spad xiii"), and never
counted as left."""

from __future__ import annotations

from typing import Any

SAID = """async () => {
  const { endScreen } = await import('./ending.js');
  const plane = (id, side, out, state) => ({ id, side, lane: side, out, state,
    level: out ? null : 3, point: out ? null : [1, 1], heading: out ? null : 90 });
  const map = { kind: 'diagram', title: 'Round 13', player_sides: ['player'], aircraft: [
    plane('P1', 'player', true, ['F4U', 'level', 'damaged', 'lost']),
    plane('P2', 'player', true, ['spad_xiii', 'nose-down', 'lost']),
    plane('B1', 'bot', false, ['A6M', 'level', 'ammo 3']),
    plane('B2', 'bot', true, ['A6M', 'level', 'left the board']),
  ] };
  const frames = [{ seq: 9, event_type: 'GameEnded', payload: {
    result: 'no player aircraft left in the Combat Zone', rule: 'r' } }];
  const box = document.createElement('section');
  box.append(...endScreen({ state: { seq: 9, map, state: {} }, frames, gameId: 'g1' }));
  return [...box.querySelectorAll('.survivors li')].map((li) => li.textContent);
}"""


async def test_aircraft_out_of_play_are_not_left_on_the_board(table_page: Any) -> None:
    page = table_page
    player, bot = await page.evaluate(SAID)
    assert player == (
        "Player (yours): none left; out of play — P1 (F4U, level, damaged, lost); "
        "P2 (spad xiii, nose-down, lost)"
    ), player
    assert bot == "Bot: 1 left — B1; out of play — B2 (A6M, level, left the board)", bot


NONE_LEFT = """async () => {
  const { endScreen } = await import('./ending.js');
  const map = { grid: { parity: 'even_down', min_col: 1, max_col: 20, min_row: 1, max_row: 30 },
    features: [], player_sides: ['fighter'],
    pieces: [{ id: 'B3-1', hex: '0319', side: 'bomber', note: 'high uncertainty' }] };
  const frames = [{ seq: 9, event_type: 'GameEnded', payload: {
    result: 'every nightfighter has left the map', rule: 'r' } }];
  const box = document.createElement('section');
  box.append(...endScreen({ state: { seq: 9, map, state: {} }, frames, gameId: 'g1' }));
  return [...box.querySelectorAll('.survivors li')].map((li) => li.textContent);
}"""


async def test_a_side_of_the_players_with_nothing_on_the_map_is_said(table_page: Any) -> None:
    """Nightfighter's game ends when the fighter leaves the map: the end screen listed
    the bombers left and said nothing of the player's own side."""
    page = table_page
    said = await page.evaluate(NONE_LEFT)
    assert said == ["Fighter (yours): none left", "Bomber: 1 left — B3-1"], said


# A long end on the page's own end screen: six long final decisions, two dozen pieces on
# the map by side, a dozen telling tracks (a Downtown raid's end in CI made the screen 969
# px tall on a phone, the page past three screens).
LONG_END = """async () => {
  const { endScreen } = await import('./ending.js');
  const long = 'the Fire Can at 0412 fires at the flight in hex 0413 and the barrage hits, '
    + 'the strike loses one aircraft and turns for home by rule 4.1.2 (b)';
  const pieces = [];
  for (let i = 1; i <= 24; i++) pieces.push({ id: `SAM site ${i}`, hex: '0101',
    side: i % 2 ? 'site' : 'flight' });
  const map = { grid: { parity: 'even_down', min_col: 1, max_col: 20, min_row: 1, max_row: 30 },
    features: [], player_sides: ['flight'], pieces };
  const frames = [{ seq: 1, event_type: 'CommandRecorded', payload: {} }];
  for (let i = 2; i <= 8; i++) frames.push({ seq: i, event_type: 'AIDecision',
    payload: { explanation: `${long} (${i})`, rule: 'r' } });
  frames.push({ seq: 9, event_type: 'GameEnded', payload: { result: 'turn limit 2', rule: 'r',
    winner: 'none_stated' } });
  const state = {};
  for (let i = 1; i <= 12; i++) state[`losses ${i}`] = i;
  document.getElementById('panes').hidden = false;  // as when a game is open
  const screen = document.getElementById('end-screen');
  screen.replaceChildren(...endScreen({ state: { seq: 9, map, state }, frames, gameId: 'g1',
    role: 'player' }));
  screen.hidden = false;
  const lists = ['.final-steps', '.survivors', '.tracks'].map((s) => screen.querySelector(s));
  return { height: screen.getBoundingClientRect().height,
    lists: lists.map((e) => [e.scrollHeight, e.clientHeight]),
    parts: [...screen.children].map((e) => [e.tagName, e.className,
      Math.round(e.getBoundingClientRect().height)]),
    winner: screen.querySelector('.winner').getBoundingClientRect().top
      - screen.getBoundingClientRect().top };
}"""


async def test_a_long_end_stays_short_on_a_phone(table_page: Any) -> None:
    """Each list scrolls in its own few lines on a phone, so the end screen stays within a
    screen whatever the end held; the lists are whole (scrollable), not cut."""
    page = table_page
    await page.set_viewport_size({"width": 390, "height": 844})
    at = await page.evaluate(LONG_END)
    assert at["height"] <= 844, str(at["parts"])  # within one screen
    for whole, shown in at["lists"]:
        assert whole > shown, at  # each list is longer than its box: it scrolls
    assert at["winner"] < 80, at  # who won is on top, not scrolled away
