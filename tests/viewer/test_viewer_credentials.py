"""Credentials where they are needed: the viewer link `umpire new` prints (the credential in
the URL fragment) opens the game, and the operator token opens any game as the referee
(on main the viewer subscribed to the operator's empty game id: a raw schema error)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.support.browser import wait_for
from umpire.clients import UmpireClient
from umpire.server.app import Running, running_gateway
from umpire.server.config import Settings
from umpire.server.embedded import EmbeddedRedis

TIMEOUT = 30_000  # ms; generous: it passes as soon as the page shows it
TOKEN = "viewer-operator-token-123"


@pytest.fixture
async def operator_gateway(redis_server: EmbeddedRedis, prefix: str) -> AsyncIterator[Running]:
    """A gateway that knows an operator token."""
    settings = Settings(
        port=0, prefix=prefix, operator_token=TOKEN, max_messages_per_second=1000, max_burst=1000
    )
    async with running_gateway(settings, redis_server.url) as running:
        yield running


async def test_the_printed_link_and_the_operator_token_open_the_game(
    browser: Any, operator_gateway: Running, artifacts: Path
) -> None:
    port = operator_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("counter", {"target": 100}, client_seed="link")
        gid = created.game_id
        await client.send(gid, {"type": "Hide"})  # a hidden roll: the referee sees its faces
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        fragment = urlencode({"game": gid, "credential": created.player_credential})
        await page.goto(f"http://127.0.0.1:{port}/#{fragment}")
        await page.wait_for_selector('#events li[data-seq="3"]', timeout=TIMEOUT)
        assert "seen as the player" in await page.inner_text("#game-label")
        assert created.player_credential not in page.url, "the credential leaves the address"
        await page.close()

        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await page.goto(f"http://127.0.0.1:{port}/#{urlencode({'game': gid, 'credential': TOKEN})}")
        await page.wait_for_selector('#events li[data-seq="3"]', timeout=TIMEOUT)
        label = await page.inner_text("#game-label")
        assert gid in label and "referee" in label
        assert not (await page.inner_text("#status")).startswith("error")
        await page.screenshot(path=str(artifacts / "operator-token.png"), full_page=True)
        await page.close()

        # Typed by hand: the token alone asks for the game, then opens it.
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await page.goto(f"http://127.0.0.1:{port}/")
        await page.fill("#credential", TOKEN)
        await page.click("#open-game button[type=submit]")
        await wait_for(
            page,
            "document.querySelector('#status').textContent.includes('enter the id')",
            timeout=TIMEOUT,
        )
        await page.fill("#game-id", gid)
        await page.click("#open-game button[type=submit]")
        await page.wait_for_selector('#events li[data-seq="3"]', timeout=TIMEOUT)
        assert "referee" in await page.inner_text("#game-label")
        await page.close()


async def test_the_viewer_cites_the_rulebook(
    browser: Any, operator_gateway: Running, artifacts: Path
) -> None:
    """Citations read as the rulebook in the event list and the dice log (the events keep
    the seed's file name: the page rewrites them for display)."""
    port = operator_gateway.port
    async with UmpireClient(f"ws://127.0.0.1:{port}/ws") as client:
        created = await client.create("downtown", {}, client_seed="cite", scenario="D4")
        accepted = await client.send(created.game_id, {"type": "DeployGroundUnits"})
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        fragment = urlencode({"game": created.game_id, "credential": created.player_credential})
        await page.goto(f"http://127.0.0.1:{port}/#{fragment}")
        await page.wait_for_selector(f'#events li[data-seq="{accepted.seqs[-1]}"]', timeout=TIMEOUT)
        events = await page.inner_text("#events")
        dice = await page.inner_text("#dice")
        assert "Downtown solo rules 2.1.4 (DRV Ground Unit Deployment Phase)" in events
        assert "Downtown solo rules 2.1.3 (AAA Placement)" in dice
        assert "000_842c81c5c58bc2f6.txt" not in events + dice
        await page.screenshot(path=str(artifacts / "citations.png"), full_page=True)
        await page.close()
