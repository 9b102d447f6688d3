"""Each of the five rulesets played to its natural end in headless Chromium through the
page only (issue #29 item 7): the game created from the pickers (ruleset, its default
scenario), every command sent through the form the page builds from the action's schema,
filled by a seeded random player with clicks and typing (tests/support/form_driver.py: a
hex by clicking the map's highlighted hexes; never the raw-JSON editor, never a protocol
message from the test). The game must end by its own rules (no EndGame), the server
must refuse nothing for budget (its admission counters and its log), the page must log
no console error, and the map must show every piece the player's view holds (asked of
the server on another connection). Screenshots at 1280×800 and 390×844, in play and at
the end, go to test-artifacts/viewer/play-*; with UMPIRE_DOCS_SHOTS=1 they are also written to
docs/screenshots/ for docs/viewer.md.

Kept short for CI by the default scenarios themselves: a random player ends Age of
Dogfights, Conflict of Heroes and Down in Flames in a few dozen commands, Nightfighter 4B
when its fighters leave the map (about 70); Downtown D4 with its `turn_limit` set to 2 in
the form's scenario settings (SETTINGS) instead of the card's 12 (about 190 commands)."""

from __future__ import annotations

import logging
import os
import random
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
ENDS = {"downtown": "turn_limit 2"}
# Rulesets whose forms have hex fields: the random player must have clicked the map.
# The rulesets whose random game always meets a hex field (a move, a path). Downtown's
# flights are optional rows that a short random raid may never add: its map pick is shown
# every time by test_map_hex_pick.py.
HEX_FIELDS = ("conflict_of_heroes", "nightfighter")
CHECK_EVERY = 10  # accepted commands between two looks at the map
SHOT_AT = 8  # accepted commands before the screenshots of the table in play
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


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


async def _shots(page: Any, name: str, artifacts: Path) -> None:
    docs = os.environ.get("UMPIRE_DOCS_SHOTS") == "1" and not name.endswith("-ended")
    places = [artifacts] + ([DOCS] if docs else [])
    opened = await page.evaluate(OPEN_FULLEST_FORM)  # a form with its fields in the shot
    for width, height in ((1280, 800), (390, 844)):
        await page.set_viewport_size({"width": width, "height": height})
        await page.locator("#game-label").evaluate("(e) => e.scrollIntoView()")
        for place in places:
            place.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(place / f"play-{name}-{width}x{height}.png"))
    await page.set_viewport_size({"width": 1280, "height": 800})
    if opened:  # as the random player left it
        await page.locator(f'details.action-box[data-action="{opened}"]').evaluate(
            "(d) => { d.open = false; }"
        )


# A whole game in a browser on a loaded 2-core runner: Nightfighter took 234 s once
# under the busy-machine run (about 35 s on a quiet one); the default 300 s is too near.
@pytest.mark.timeout(900)
@pytest.mark.parametrize("ruleset", RULESETS)
async def test_a_game_played_to_its_end_through_the_forms_only(
    browser: Any,
    viewer_gateway: Running,
    artifacts: Path,
    caplog: pytest.LogCaptureFixture,
    ruleset: str,
) -> None:
    caplog.set_level(logging.INFO)
    rng = random.Random(f"forms-{ruleset}")
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
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
    for _ in range(ATTEMPTS):
        if await page.locator('#actions[data-ended="1"]').count():
            break
        step = await play_step(page, rng)
        clicked += step["map_clicks"]
        if not step["ok"]:
            # The rules may refuse what a random player chose (a hidden condition, a
            # cross-field rule no schema states): said in words, and nothing for budget.
            assert step["code"] not in ("over_budget", "form", "invalid_command"), step
            refused.append(step)
            continue
        accepted[step["action"]] = accepted.get(step["action"], 0) + 1
        if sum(accepted.values()) == SHOT_AT:  # the table in play, its forms open
            await _shots(page, ruleset, artifacts)
        if sum(accepted.values()) % CHECK_EVERY == 1:
            pieces_seen = max(
                pieces_seen,
                await _map_holds_the_view(page, viewer_gateway.port, game_id, credential),
            )
    assert await page.locator('#actions[data-ended="1"]').count(), (accepted, refused[-5:])
    await page.wait_for_selector('#events li[data-type="GameEnded"]', timeout=TIMEOUT)
    assert "EndGame" not in accepted
    print(f"{ruleset}: accepted {accepted}; refused {len(refused)}; map clicks {len(clicked)}")
    ended = await page.inner_text('#events li[data-type="GameEnded"]')
    assert ENDS.get(ruleset, "game ended: ") in ended, ended
    if ruleset in HEX_FIELDS:
        assert clicked, "no hex was picked on the map"
    await _map_holds_the_view(page, viewer_gateway.port, game_id, credential)
    if registry.get(ruleset).board is not None:  # a map: its pieces were looked at
        assert pieces_seen > 0
    await _shots(page, f"{ruleset}-ended", artifacts)

    assert "over budget" not in (await page.inner_text("body")).lower()
    assert sum(viewer_gateway.gateway.admission.refused.values()) == 0
    assert "over_budget" not in caplog.text
    assert not errors, errors
    await page.close()
