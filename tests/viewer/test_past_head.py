"""A seq past the game's end, at the table: a link to seq 60 of a game of 9 events, or a
subscription the server refuses `from_seq_past_head` (a gateway with head checkpoints,
as `umpire serve` runs on its embedded store: the seq was never sent, so a mistake, not a
lost event). The page says so in words and opens the game at its latest seq, where it
showed the refusal's code, or waited for seq 60 without a word."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import wait_for
from tests.support.viewer_page import TIMEOUT, open_with_credential
from umpire.clients import UmpireClient
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings


@pytest.fixture
async def checkpointed(
    redis_server: EmbeddedRedis, prefix: str, tmp_path: Path
) -> AsyncIterator[Running]:
    """A gateway serving the viewer that records its heads in `tmp_path`'s checkpoints."""
    settings = gateway_settings(prefix, max_messages_per_second=1000, max_burst=1000)
    async with running_gateway(settings, redis_server.url, disk=tmp_path) as running:
        yield running


async def _game(running: Running) -> tuple[str, str, int]:
    """A counter game of a few commands: (id, player credential, head)."""
    async with UmpireClient(f"ws://127.0.0.1:{running.port}/ws") as client:
        created = await client.create("counter", {"target": 1_000})
        for n in range(3):
            await client.send(created.game_id, {"type": "Add", "amount": 1}, command_id=f"c{n}")
    head = await running.gateway.store.version(created.game_id)
    return created.game_id, created.player_credential, head


async def _at_latest(page: Any, head: int) -> str:
    """The page shows the head's state; its status line."""
    await page.wait_for_selector(f'#events li[data-seq="{head}"]', timeout=TIMEOUT)
    await wait_for(page, f"window.umpireViewer.seq === {head}", timeout=TIMEOUT)
    await wait_for(
        page, "document.querySelector('#status').textContent.includes('past the game')",
        timeout=TIMEOUT,
    )  # fmt: skip
    return str(await page.inner_text("#status"))


async def test_a_link_past_the_end_opens_the_game_at_its_latest_seq(
    browser: Any, checkpointed: Running, artifacts: Path
) -> None:
    gid, credential, head = await _game(checkpointed)
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    await page.goto(f"http://127.0.0.1:{checkpointed.port}/#game={gid}&seq={head + 51}")
    await page.fill("#credential", credential)
    await page.click("#open-game button[type=submit]")
    said = await _at_latest(page, head)
    assert f"The link asks for seq {head + 51}, past the game's latest event" in said, said
    assert f"showing seq {head}, the latest" in said, said
    assert f"seq={head}" in page.url and f"seq={head + 51}" not in page.url, page.url
    await page.screenshot(path=str(artifacts / "table-link-past-head.png"))
    await page.close()


async def test_a_subscription_refused_past_the_head_opens_the_latest(
    browser: Any, checkpointed: Running, artifacts: Path
) -> None:
    """The page's first subscribe is moved past the head in flight, once: the server
    refuses it `from_seq_past_head`, and the page opens the game again from its head."""
    _, credential, head = await _game(checkpointed)
    page = await browser.new_page(viewport={"width": 1280, "height": 800})
    moved = {"left": 1}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            # The table's own subscription (with `views`), not the receipt key's read.
            if data.get("type") == "subscribe" and data.get("views") and moved["left"]:
                moved["left"] -= 1
                data["from_seq"] = head + 40
                message = json.dumps(data)
            server.send(message)

        ws.on_message(to_server)
        server.on_message(ws.send)

    await page.route_web_socket(re.compile(r"/ws$"), route)
    await open_with_credential(page, checkpointed.port, credential)
    said = await _at_latest(page, head)
    assert not moved["left"]
    assert f"seq {head + 40}, past the game's latest event" in said, said
    assert "from_seq_past_head" not in said and "error" not in said, said
    await page.close()
