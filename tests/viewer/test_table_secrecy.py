"""No player or spectator page shows a secret before the reveal (issue #18), attacked as
testing/access/test_twin_differential.py attacks the frames: the same game is played
twice, with the same seeds and commands, once with its hidden roll moved to another face.
The player's page (with its table: forms, decisions, map, receipts) and a spectator's
page must then hold the same DOM, text and every attribute and form value (every form open,
its list rows added, its raw-JSON editor shown), up to the
game id, the credentials and the hashes (keyed commitments, which differ by design when a
hidden value does: test_hash_secrecy.py attacks those). After the reveal the two pages
must differ: the hidden value does reach the DOM once it may, so the comparison would
have seen it earlier."""

from __future__ import annotations

import re
from typing import Any

import pytest

import umpire.server.games as games_module
from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT
from umpire.clients import UmpireClient
from umpire.engine.dice import ServerDice
from umpire.server.app import Running
from umpire.testing.support.dice import AlteredDice
from umpire.testing.support.nonces import nonce_of

# Everything in the page: its HTML (text and attributes) and the values of its controls.
DOM = """() => document.documentElement.outerHTML + JSON.stringify(
    [...document.querySelectorAll('input, select, textarea')].map((e) => [e.id, e.value]))"""
HEX = re.compile(r"[0-9a-f]{12,}")
COMMANDS = ({"type": "Push"}, {"type": "Hide"}, {"type": "Add", "amount": 2}, {"type": "Push"})


async def _settled(page: Any, head: int, player: bool) -> None:
    """Wait until the page shows every event, the state at the head and (player) its table."""
    await page.wait_for_selector(f'#events li[data-seq="{head}"]', timeout=TIMEOUT)
    await wait_for(
        page,
        f"document.querySelector('#state-label').dataset.stateSeq === '{head}'",
        timeout=TIMEOUT,
    )
    if player:
        await wait_for(
            page, f"document.querySelector('#actions').dataset.seq === '{head}'", timeout=TIMEOUT
        )


async def _open(browser: Any, port: int, credential: str, head: int, player: bool) -> Any:
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(f"http://127.0.0.1:{port}/")
    await page.fill("#credential", credential)
    await page.click("#open-game button[type=submit]")
    await _settled(page, head, player)
    return page


async def _show_every_pane(page: Any) -> None:
    """The table's panes opened as a player would (issue #29): every action's form, a row
    added to every list, and every raw-JSON editor shown with the command it would send."""
    for box in await page.locator("details.action-box").all():
        if await box.get_attribute("open") is None:
            await box.locator(":scope > summary").click()
    for add in await page.locator("#actions button.add-row").all():
        await add.click()
    for toggle in await page.locator('#actions input[data-kind="raw-toggle"]').all():
        await toggle.check()
    assert await page.locator("#actions textarea.raw-json:visible").count() > 0


def _normalised(dom: str, created: Any) -> str:
    for secret, name in (
        (created.player_credential, "PLAYER-CREDENTIAL"),
        (created.spectator_credential, "SPECTATOR-CREDENTIAL"),
        (created.game_id, "GAME"),
    ):
        dom = dom.replace(secret, name)
    return HEX.sub("HEX", dom)


async def test_player_and_spectator_pages_hold_no_hidden_value_before_the_reveal(
    browser: Any, viewer_gateway: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = viewer_gateway.port
    # Twin games: the same seed, sealing key and command nonces (the client's own nonces
    # differ by game id), so that only the altered hidden roll tells them apart.
    viewer_gateway.gateway.games.draw_seed = lambda: bytes(range(32))
    viewer_gateway.gateway.games.draw_key = lambda: bytes(32)
    pages: list[dict[str, Any]] = []
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        for dice in (ServerDice, AlteredDice):
            monkeypatch.setattr(games_module, "ServerDice", dice)
            created = await client.create("counter", {"target": 100}, client_seed="same")
            for n, command in enumerate(COMMANDS):
                accepted = await client.send(created.game_id, command, nonce=nonce_of(f"c{n}"))
            head = accepted.seqs[-1]
            player = await _open(browser, port, created.player_credential, head, True)
            await _show_every_pane(player)
            spectator = await _open(browser, port, created.spectator_credential, head, False)
            pages.append({"created": created, "player": player, "spectator": spectator})
        monkeypatch.setattr(games_module, "ServerDice", ServerDice)

        for role in ("player", "spectator"):
            doms = [_normalised(await p[role].evaluate(DOM), p["created"]) for p in pages]
            assert doms[0] == doms[1], f"the {role}'s page differs before the reveal"
            assert "hidden" in doms[0]  # the hidden roll is shown as hidden, not left out

        # The reveal: now the hidden value reaches both pages, and they differ.
        for p in pages:
            ended = await client.send(p["created"].game_id, {"type": "EndGame", "result": "over"})
            for role in ("player", "spectator"):
                await _settled(p[role], ended.seqs[-1], False)
                await wait_for(
                    p[role],
                    "[...document.querySelectorAll('#events li .what')]"
                    ".some((e) => e.textContent.startsWith('value '))",
                    timeout=TIMEOUT,
                )
        for role in ("player", "spectator"):
            doms = [_normalised(await p[role].evaluate(DOM), p["created"]) for p in pages]
            assert doms[0] != doms[1], f"the {role}'s pages should differ after the reveal"
        for p in pages:
            await p["player"].close()
            await p["spectator"].close()
