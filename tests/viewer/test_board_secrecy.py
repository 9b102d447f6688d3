"""The map and diagram panes hold no hidden value (issue #29 item 3: "built from the role's
view only"), attacked with twins: games that differ only in a secret no player or
spectator may see (tests/support/secret_twins.py: Down in Flames' opposing pilot, 9.1.11).

- engine: every ruleset's board (`Ruleset.board`) of the player's and the spectator's view
  is the same for the twins, while the referee's differs (so the comparison can see it);
- browser: the player's and the spectator's pages draw the same map pane, byte for byte,
  up to the game id.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.engine import registry
from umpire.engine.map_view import drawn
from umpire.engine.redaction import view_for
from umpire.engine.roles import Role
from umpire.engine.scenarios import default_setup, validate_setup
from umpire.server.app import Running
from umpire.testing.support.secret_twins import secret_setups

WITH_SECRET_SETUPS = [
    name
    for name in registry.shipped()
    if registry.get(name).board is not None
    and secret_setups(registry.get(name), default_setup(registry.get(name)))
]
PANE = "document.querySelector('#state figure.map').outerHTML"


def _board(name: str, setup: dict[str, Any], role: Role) -> bytes:
    ruleset = registry.get(name)
    state = ruleset.initial_state(validate_setup(ruleset, setup))
    view = msgspec.to_builtins(view_for(ruleset, state, role, revealed=False))
    return msgspec.json.encode(drawn(ruleset.board, view))


def test_some_ruleset_with_a_board_has_secret_twins() -> None:
    assert "down_in_flames" in WITH_SECRET_SETUPS


@pytest.mark.parametrize("name", WITH_SECRET_SETUPS)
def test_the_board_of_a_viewer_is_the_same_for_secret_twins(name: str) -> None:
    setup = default_setup(registry.get(name))
    for twin in secret_setups(registry.get(name), setup):
        for role in (Role.PLAYER, Role.SPECTATOR):
            assert _board(name, twin, role) == _board(name, setup, role), role
    referee = {
        _board(name, s, Role.REFEREE) for s in [setup, *secret_setups(registry.get(name), setup)]
    }
    assert len(referee) > 1, "the referee's board shows the secret: the twins do differ"


async def test_the_map_pane_is_the_same_for_secret_twins(
    browser: Any, viewer_gateway: Running
) -> None:
    name = "down_in_flames"
    port = viewer_gateway.port
    setup = default_setup(registry.get(name))
    twin = secret_setups(registry.get(name), setup)[0]
    panes: dict[str, list[str]] = {"player": [], "spectator": []}
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        for chosen in (setup, twin):
            created = await client.create(name, chosen, client_seed="same")
            for role, credential in (
                ("player", created.player_credential),
                ("spectator", created.spectator_credential),
            ):
                page = await browser.new_page(viewport={"width": 1280, "height": 800})
                await open_with_credential(page, port, credential)
                await page.wait_for_selector("#state figure.map", timeout=TIMEOUT)
                panes[role].append((await page.evaluate(PANE)).replace(created.game_id, "GAME"))
                await page.close()
    for role, (first, second) in panes.items():
        assert "unknown" in first, role  # the opposing pilot is shown as unknown
        assert first == second, f"the {role}'s map pane differs between the secret twins"
