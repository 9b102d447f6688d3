"""Issue 29, item 1, over real websockets: a client playing or watching one game as
docs/protocol.md describes (subscribe with `view` and `views`, commands, a `view` of the
head) is never refused `over_budget`. Opening a 335-event game from seq 0 reaches the head
at the default budgets; after Age of Dogfights FlyBots rounds (dozens of events each) the
player's next views are answered even when its budget cannot pay them at once: they wait
(`umpire_paced_total`), where main refused them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.waiting import buckets_full, until
from umpire.engine.roles import Role
from umpire.server import credentials
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games
from umpire.testing.support.gateways import gateway_settings, http_get
from umpire.testing.support.peer import Peer

LONG_GAME = 335


@pytest.fixture
async def small_budget(redis_server: EmbeddedRedis, prefix: str) -> AsyncIterator[Running]:
    """Connections that hold 5 units, refilled at 50 a second: a player's burst of views
    outruns it at once."""
    settings = gateway_settings(prefix, cost_per_second=50, cost_burst=5)
    async with running_gateway(settings, redis_server.url) as running:
        yield running


async def test_a_long_game_opened_from_seq_0_reaches_its_head(
    gateway: Running, games: Games
) -> None:
    game_id = (await games.create("counter", {"target": 10**6})).game_id
    for n in range((LONG_GAME - 1) // 2):
        await games.handle(game_id, f"add-{n}", {"type": "Add", "amount": 1})
    player = await credentials.issue(games.store, game_id, Role.PLAYER)
    peer = await Peer.open(f"ws://127.0.0.1:{gateway.port}/ws")
    await peer.ok({"type": "subscribe", "game_id": game_id, "from_seq": 0, "view": True,
                   "views": True, "credential": player})  # fmt: skip
    await peer.wait_for(lambda f: f["type"] == "event" and f["seq"] == LONG_GAME, 30)
    view = await peer.ok({"type": "view", "game_id": game_id})
    assert view["seq"] == LONG_GAME and view["actions"]
    assert [e["seq"] for e in peer.events(game_id)] == list(range(1, LONG_GAME + 1))
    assert not [f for f in peer.frames if f.get("code") == "over_budget"]
    assert sum(gateway.gateway.admission.refused.values()) == 0
    await peer.close()


async def test_views_after_flybots_rounds_wait_for_the_budget_and_are_answered(
    small_budget: Running,
) -> None:
    peer = await Peer.open(f"ws://127.0.0.1:{small_budget.port}/ws")
    create = {"type": "create", "ruleset": "age_of_dogfights", "scenario": "patrol",
              "setup": {}, "client_entropy": "waived"}  # fmt: skip
    game_id = (await peer.ok(create))["game_id"]
    # A create's 20 units leave this small budget in debt, and a subscribe is refusable
    # (docs/protocol.md, "Admission, for a client that plays"): it waits for the refill.
    await until(lambda: buckets_full(small_budget.gateway), what="the create's units refilled")
    await peer.ok({"type": "subscribe", "game_id": game_id, "view": True, "views": True})
    commands = [{"type": "RollSetup"}] + [{"type": "FlyBots"}] * 3
    for n, command in enumerate(commands):
        accepted = await peer.ok(
            {"type": "command", "game_id": game_id, "command_id": f"c{n}", "command": command}
        )
        for _ in range(8):  # more views than the budget holds: paced, every one answered
            view = await peer.ok({"type": "view", "game_id": game_id}, timeout=30)
            assert view["seq"] >= accepted["head_seq"]
    assert len(accepted["seqs"]) > 10  # a big batch
    assert not [f for f in peer.frames if f.get("code") == "over_budget"]
    assert sum(small_budget.gateway.admission.refused.values()) == 0
    assert small_budget.gateway.admission.paced["getview"] > 0
    _, metrics = await http_get(small_budget.port, "/metrics")
    assert 'umpire_paced_total{kind="getview"}' in metrics
    await peer.close()
