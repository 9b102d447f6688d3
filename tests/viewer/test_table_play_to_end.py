"""Each of the five rulesets played to its natural end in headless Chromium through the
page only (issue #29 item 7), at both sizes (issue #41): on a desktop (1280×800) and on a
phone (390×844), each a whole game played at that size. The game is created from the
pickers (ruleset, its default scenario), every command sent through the form the page
builds from the action's schema, filled by a seeded random player with clicks and typing
(tests/support/form_driver.py: a hex by clicking the map's highlighted hexes; never the
raw-JSON editor, never a protocol message from the test). The game must end by its own
rules (no EndGame), the server must refuse nothing for budget (its admission counters and
its log), the page must log no console error, and the map must show every piece the
player's view holds (asked of the server on another connection, every CHECK_EVERY
commands). Screenshots at the run's size, in play and at the end, go to
test-artifacts/viewer/play-*; with UMPIRE_DOCS_SHOTS=1 they are also written to
docs/screenshots/ for docs/viewer.md.

A game table first (issue #41), looked at after every accepted command (LOOK_EVERY) and
at the end: the map (or diagram) is the first thing in view, with the actions beside it
(desktop) or right under it (phone), the phone's page at most three screens tall; no
snake_case word anywhere on the page (the state pane, the forms, the log, the decisions),
no field by its code name ("Setup.turn_limit"), no seed file name; the end shows the end
screen with the result the rules gave.

Kept short for CI by the default scenarios themselves: a random player ends Age of
Dogfights, Conflict of Heroes and Down in Flames in a few dozen commands, Nightfighter 4B
when its fighter wanders off the map (200 to 300 commands, most of them the bombers' moves
and phase ends); Downtown D4 with its `turn_limit` set to 2 in
the form's scenario settings (SETTINGS) instead of the card's 12 (a few dozen). The
phone's half costs about what the desktop's does (2.3 minutes for the desktop's alone at
load 3.5 on 2 cores; both together 7 minutes at load 5 to 7, the phone's 3.9 of them),
most of it Nightfighter's and Downtown's games; the look after every command is one
page evaluation."""

from __future__ import annotations

import logging
import os
import random
import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.support.browser import wait_for
from tests.support.form_driver import play_step
from tests.support.viewer_page import TIMEOUT, create_game
from umpire.clients import UmpireClient
from umpire.engine import registry
from umpire.server.app import Running

RULESETS = ["age_of_dogfights", "conflict_of_heroes", "down_in_flames", "nightfighter", "downtown"]
ATTEMPTS = 600  # commands tried at most (accepted or refused) before the game must be over
# Scenario settings typed into the new-game form: Downtown's raid ends after its
# `turn_limit` turns (D4: 12, about 190 commands); 2 turns keep it to a few dozen.
SETTINGS = {"downtown": {"turn_limit": "2"}}
# What the end says, where the settings shape it (the typed turn limit was applied).
ENDS = {"downtown": "turn limit 2"}
# Who won, as the end screen tells the player (GameEnded.winner): the rulesets whose end
# names a winner, and those whose solo rules state no victory condition.
NAMES_WINNER = ("conflict_of_heroes", "down_in_flames", "nightfighter")  # NF: 4B's victory
WINS = ("You win", "You lose", "A draw")
# Rulesets whose forms have hex fields: the random player must have clicked the map.
# The rulesets whose random game always meets a hex field (a move, a path). Downtown's
# flights are optional rows that a short random raid may never add: its map pick is shown
# every time by test_map_hex_pick.py.
HEX_FIELDS = ("conflict_of_heroes", "nightfighter")
SHOT_AT = 8  # accepted commands before the screenshots of the table in play
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SCREENS = 3  # the phone's page in play is at most this many screens tall
LOOK_EVERY = 1  # accepted commands between two looks at the layout and the page's words
CHECK_EVERY = 10  # accepted commands between two looks at the map's pieces (a view asked)

# The layout at the viewport's size, scrolled to the top: where the map, the panes beside
# it and the page's end are, and the page's text (not the Audit tab's) by its parts.
LAYOUT = """() => {
  window.scrollTo(0, 0);
  const top = (sel) => { const e = document.querySelector(sel);
    if (!e || !e.getClientRects().length) return null; const b = e.getBoundingClientRect();
    return { top: b.top, bottom: b.bottom }; };
  const side = document.querySelector('#end-screen:not([hidden])') ? '#end-screen' : '#play';
  // The first element in view: what is drawn just under the folded start form, in the
  // middle of the map's column (the map, or whatever was put above it or over it).
  const column = (document.querySelector('.board-pane') || document.body).getBoundingClientRect();
  const under = (document.querySelector('#start') || document.body).getBoundingClientRect();
  const probe = document.elementFromPoint((column.left + column.right) / 2,
    Math.min(innerHeight * 0.3, under.bottom + 40));
  return {
    board: top('#state figure.map'), pane: top('.board-pane'), side: top(side),
    log: top('.log-pane'), state: top('.state-pane'), start: top('#start'),
    first: probe && (probe.closest('figure.map') ? 'map' : `${probe.tagName}.${probe.className}`),
    height: document.documentElement.scrollHeight, viewport: innerHeight,
    text: document.body.innerText,
    // The forms' own words: their fields' labels and the choices of their drop-downs
    // (the page's text above has no select's options; the actions' descriptions are there).
    forms: [...document.querySelectorAll('#actions label, #actions legend, #actions .fixed-name,'
      + ' #actions option')].map((e) => e.textContent).join(' | '),
    parts: Object.fromEntries(['.topbar', '#start', '.board-pane', '#state figure', '.side',
      '#play', '#actions', '#decisions', '.log-pane', '.state-pane', '#end-screen'].map((sel) => {
        const e = document.querySelector(sel);
        return [sel, e ? Math.round(e.getBoundingClientRect().height) : null]; })),
    details: document.querySelector('#state-details').innerText,
  };
}"""
# clients/web/forms.js `guarded`: the form's refusal of a command the action's `unless`
# leaves out (it would change nothing).
RESTATES = "this is what the game holds already, so it would change nothing"
# The log's words for the end screen's (events/rules_words.py WINNER_SAID).
WINS_SAID = {"You win": "the player wins", "You lose": "the player loses", "A draw": "a draw"}
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# A field by its code name with its type ("Setup.turn_limit", "State.us"): words instead.
DOTTED = re.compile(r"\b(?:Setup|State|View)\.[a-z_]+\b")
SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


async def _table_first(page: Any, size: dict[str, int], where: str) -> None:
    """The game first at the page's size (issue #41 item 1), and the page's words."""
    at = await page.evaluate(LAYOUT)
    name = f"{where} at {size['width']}x{size['height']}"
    board, side = at["board"], at["side"]
    assert board is not None and side is not None, (name, at)
    # The map is the first pane, its top on the first screen and the first thing in view
    # under the start form, which is folded to one line.
    assert board["top"] < at["viewport"] * 0.3, (name, at)
    assert at["first"] == "map", (name, at["first"], at["parts"])
    assert at["start"]["bottom"] - at["start"]["top"] < 60, (name, at)
    for other in ("side", "log", "state"):
        assert at[other] is None or at[other]["top"] >= at["pane"]["top"] - 1, (name, other, at)
    if size["width"] >= 1000:  # beside: the actions start on the first screen
        assert side["top"] < at["viewport"] * 0.3, (name, at)
    else:  # right under the map, and the whole page within three screens
        assert board["bottom"] - 1 <= side["top"] < board["bottom"] + at["viewport"] * 0.5
        assert at["height"] <= SCREENS * size["height"], f"{name}: {at['height']} {at['parts']}"
    # The page says fields in words (the rulesets' labels where they give them): no
    # snake_case key in the state pane, the forms or anywhere on the page, no field by its
    # code name, no seed file name.
    for part in ("details", "forms", "text"):
        assert not _found(SNAKE, at[part]), (name, part, _found(SNAKE, at[part]))
    for code in (DOTTED, SEED_FILE):
        assert not _found(code, at["text"]), (name, _found(code, at["text"]))


def _found(code: re.Pattern[str], text: str) -> list[str]:
    """Each match of `code` in `text` with the words around it (where it is on the page)."""
    return [text[max(0, m.start() - 60) : m.end() + 20] for m in code.finditer(text)]


async def _map_holds_the_view(page: Any, port: int, game_id: str, credential: str) -> int:
    """Every piece of the player's view (a `view` on another connection) is on the page's
    map, by its id; the number of pieces."""
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        await client.auth(credential)
        view = await client.view(game_id)
    # A hex map's pieces, or a diagram's aircraft (Age of Dogfights, Down in Flames).
    pieces = (view.map or {}).get("pieces") or (view.map or {}).get("aircraft") or []
    if not pieces:
        return 0
    await wait_for(
        page,
        "(s) => document.querySelector('#state-label').dataset.stateSeq >= s",
        arg=str(view.seq),
        timeout=TIMEOUT,
    )
    drawn = await page.evaluate(
        """() => [...document.querySelectorAll('#state svg.hexmap, #state svg[class^="board-"]')]
          .flatMap((svg) => [svg.getAttribute('aria-label') || '', svg.textContent,
            ...[...svg.querySelectorAll('[data-piece]')].map((e) => e.dataset.piece)]).join(' ')"""
    )
    missing = [p["id"] for p in pieces if p["id"] not in drawn]
    assert not missing, f"pieces of the view not on the map: {missing}"
    return len(pieces)


# Opens the closed form of the ruleset's own action (not umpire's RollDice or EndGame)
# with the most fields to fill; its action, or null.
OPEN_FULLEST_FORM = """() => {
  const fields = (box) => box.querySelectorAll('form [data-field]:not([data-kind="fixed"])').length;
  const boxes = [...document.querySelectorAll('#actions details.action-box:not([open])')]
    .filter((box) => !['RollDice', 'EndGame'].includes(box.dataset.action));
  const box = boxes.sort((a, b) => fields(b) - fields(a))[0];
  if (!box || !fields(box)) return null;
  box.open = true;
  return box.dataset.action;
}"""


async def _shots(page: Any, name: str, size: dict[str, int], artifacts: Path) -> None:
    """The table at the page's size, its form of most fields open."""
    docs = os.environ.get("UMPIRE_DOCS_SHOTS") == "1"
    places = [artifacts] + ([DOCS] if docs else [])
    opened = await page.evaluate(OPEN_FULLEST_FORM)  # a form with its fields in the shot
    # The top of the table; on a phone at the end, its end screen (under the map).
    ended = name.endswith("-ended") and size["width"] < 1000
    await page.locator("#end-screen" if ended else "#game-label").evaluate(
        "(e) => e.scrollIntoView()"
    )
    for place in places:
        place.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(place / f"play-{name}-{size['width']}x{size['height']}.png"))
    if opened:  # as the random player left it
        await page.locator(f'details.action-box[data-action="{opened}"]').evaluate(
            "(d) => { d.open = false; }"
        )


# A whole game in a browser on a loaded 2-core runner: Nightfighter took 234 s once
# under the busy-machine run (about 35 s on a quiet one); the default 300 s is too near.
@pytest.mark.timeout(900)
@pytest.mark.parametrize("device", list(SIZES))
@pytest.mark.parametrize("ruleset", RULESETS)
async def test_a_game_played_to_its_end_through_the_forms_only(
    browser: Any,
    viewer_gateway: Running,
    artifacts: Path,
    caplog: pytest.LogCaptureFixture,
    ruleset: str,
    device: str,
) -> None:
    caplog.set_level(logging.INFO)
    size = SIZES[device]
    rng = random.Random(f"forms-{ruleset}")
    page = await browser.new_page(viewport=size)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    scenario = registry.get(ruleset).default_scenario
    game_id = await create_game(
        page, viewer_gateway.port, ruleset, scenario or "", settings=SETTINGS.get(ruleset, {})
    )
    credential = parse_qs(urlsplit(page.url).fragment)["credential"][0]
    accepted: dict[str, int] = {}
    refused: list[dict[str, Any]] = []
    pieces_seen = 0
    clicked: list[str] = []
    await _table_first(page, size, f"{ruleset} at its start")
    for _ in range(ATTEMPTS):
        if await page.locator('#actions[data-ended="1"]').count():
            break
        step = await play_step(page, rng)
        clicked += step["map_clicks"]
        if not step["ok"]:
            # The rules may refuse what a random player chose (a hidden condition, a
            # cross-field rule no schema states): said in words, and nothing for budget.
            # The page itself refuses, in words, only a command that restates what the
            # game holds (the action's `unless`: a random pick of a SAM's held
            # acquisition); any other form error is a form the page could not read.
            restates = step["code"] == "form" and RESTATES in step["error"]
            assert restates or step["code"] not in ("over_budget", "form", "invalid_command"), step
            refused.append(step)
            continue
        accepted[step["action"]] = accepted.get(step["action"], 0) + 1
        done = sum(accepted.values())
        if done == SHOT_AT:  # the table in play, its forms open
            await _shots(page, ruleset, size, artifacts)
        if done % LOOK_EVERY == 0:
            await _table_first(page, size, f"{ruleset} after {done} commands")
        if done % CHECK_EVERY == 1:
            pieces_seen = max(
                pieces_seen,
                await _map_holds_the_view(page, viewer_gateway.port, game_id, credential),
            )
    assert await page.locator('#actions[data-ended="1"]').count(), (accepted, refused[-5:])
    await page.wait_for_selector('#events li[data-type="GameEnded"]', timeout=TIMEOUT)
    assert "EndGame" not in accepted
    print(f"{ruleset} {device}: accepted {accepted}; refused {len(refused)}; clicks {len(clicked)}")
    ended = await page.inner_text('#events li[data-type="GameEnded"]')
    assert ENDS.get(ruleset, "game ended: ") in ended, ended
    # The end screen: the result as the rules gave it, the reveal, where to verify.
    screen = page.locator("#end-screen")
    await screen.wait_for(timeout=TIMEOUT)
    result = await screen.locator(".result").get_attribute("data-result")
    assert result and f"game ended: {result}" in ended, (result, ended)
    said = await screen.inner_text()
    assert said.startswith("Game over") and result[1:] in said, said
    won = await screen.locator(".winner").inner_text()
    if ruleset in NAMES_WINNER:
        # in the result's words, or after them where they do not say it
        assert won in WINS and WINS_SAID[won] in ended, (won, ended)
    else:
        assert won.startswith("No winner declared: the solo rules state no victory"), won
    assert "seed is revealed" in said and await screen.locator("a.verify-link").count()
    await _table_first(page, size, f"{ruleset} at its end")
    if ruleset in HEX_FIELDS:
        assert clicked, "no hex was picked on the map"
    await _map_holds_the_view(page, viewer_gateway.port, game_id, credential)
    if registry.get(ruleset).board is not None:  # a map: its pieces were looked at
        assert pieces_seen > 0
    await _shots(page, f"{ruleset}-ended", size, artifacts)

    assert "over budget" not in (await page.inner_text("body")).lower()
    assert sum(viewer_gateway.gateway.admission.refused.values()) == 0
    assert "over_budget" not in caplog.text
    assert not errors, errors
    await page.close()
