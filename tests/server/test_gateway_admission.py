"""Cost-aware admission at a real gateway: a replay is charged the events it folds, a
bucket in debt refuses with over_budget (the connection stays), creates are limited per
address, grants per connection capped, and /metrics shows it (docs/operations.md,
"Admission")."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.waiting import buckets_full, until
from umpire.engine.roles import Role
from umpire.server import credentials
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.game_feed import WINDOW
from umpire.server.games import Games
from umpire.testing.support.gateways import append_added, gateway_settings, http_get
from umpire.testing.support.peer import Peer


@pytest.fixture
async def strict(redis_server: EmbeddedRedis, prefix: str) -> AsyncIterator[Running]:
    settings = gateway_settings(
        prefix, cost_per_second=10, cost_burst=50, create_burst=2, creates_per_minute=6,
        max_grants_per_connection=3,
    )  # fmt: skip
    async with running_gateway(settings, redis_server.url) as running:
        yield running


async def test_a_costly_replay_is_paid_once_then_refused(strict: Running, games: Games) -> None:
    created = await games.create("counter", {"target": 10**6})
    for n in range(100):
        await games.handle(created.game_id, f"p{n}", {"type": "Push"})
    head = await games.store.version(created.game_id)
    spectator = await credentials.issue(games.store, created.game_id, Role.SPECTATOR)
    peer = await Peer.open(f"ws://127.0.0.1:{strict.port}/ws")
    await peer.ok({"type": "auth", "credential": spectator})
    # the auth's unit refilled: the bucket is full again
    await until(lambda: buckets_full(strict.gateway), what="the auth's unit refilled")
    # Costs more than the bucket holds: admitted once (a full bucket), leaving debt.
    first = await peer.ok({"type": "view", "game_id": created.game_id, "at_seq": head - 1})
    assert first["seq"] == head - 1
    refused = await peer.request({"type": "view", "game_id": created.game_id, "at_seq": 5})
    assert refused["code"] == "over_budget" and refused["details"]["scope"] == "connection"
    assert refused["details"]["retry_after"] > 1.0
    # The connection stays; its answers resume once it can pay.
    assert not peer.ws.close_code
    _, metrics = await http_get(strict.port, "/metrics")
    assert 'umpire_over_budget_total{scope="connection"} 1' in metrics
    assert 'umpire_cost_units_total{kind="view_at"}' in metrics
    assert "umpire_replay_events_folded_total" in metrics
    await peer.close()


async def test_creates_are_limited_per_address(strict: Running) -> None:
    url = f"ws://127.0.0.1:{strict.port}/ws"
    peers = [await Peer.open(url) for _ in range(2)]
    create = {"type": "create", "ruleset": "counter", "setup": {}}
    await peers[0].ok(create)
    await peers[1].ok(create)
    refused = await peers[0].request(create)  # another connection, the same address
    assert refused["code"] == "over_budget" and refused["details"]["scope"] == "creates"
    assert strict.gateway.metrics.games_created == 2
    for peer in peers:
        await peer.close()


async def test_grants_per_connection_are_capped(strict: Running, games: Games) -> None:
    peer = await Peer.open(f"ws://127.0.0.1:{strict.port}/ws")
    held = []
    for _ in range(4):
        game = (await games.create("counter", {})).game_id
        held.append(await credentials.issue(games.store, game, Role.SPECTATOR))
    for credential in held[:3]:
        await peer.ok({"type": "auth", "credential": credential})
    refused = await peer.request({"type": "auth", "credential": held[3]})
    assert refused["code"] == "too_many_grants" and refused["details"]["limit"] == 3
    await peer.ok({"type": "auth", "credential": held[0]})  # one it holds: no new grant
    listed = await peer.ok({"type": "list_games"})
    assert len(listed["games"]) == 3
    await peer.close()


async def test_an_auth_costs_the_same_whatever_its_game_holds(
    strict: Running, games: Games
) -> None:
    """An auth looks its token's digest up in its game's credentials (one HGET): against
    a game holding 20,000 credentials it costs the 1 unit an auth costs against a game
    holding one, and the view after it is answered. On main it read and compared every
    stored hash and charged 1 + 1 per 64 of them (313 units here, past the bucket of 50),
    so that view was refused with over_budget."""
    small = (await games.create("counter", {})).game_id
    large = (await games.create("counter", {})).game_id
    few = await credentials.issue(games.store, small, Role.SPECTATOR)
    many = await credentials.issue(games.store, large, Role.SPECTATOR)
    others = {f"{n:064x}": "spectator" for n in range(20_000)}
    await games.store.redis.hset(games.store.keys(large).credentials, mapping=others)
    peer = await Peer.open(f"ws://127.0.0.1:{strict.port}/ws")
    await peer.ok({"type": "auth", "credential": few})
    charged = strict.gateway.admission.charged
    assert charged["auth"] == 1
    await peer.ok({"type": "auth", "credential": many})
    assert charged["auth"] == 2  # the large game's auth cost what the small one's did
    view = await peer.ok({"type": "view", "game_id": large})
    assert view["game_id"] == large
    _, metrics = await http_get(strict.port, "/metrics")
    assert 'umpire_cost_units_total{kind="auth"} 2' in metrics
    await peer.close()


async def test_a_long_catch_up_is_charged_for_each_event_it_reads(
    gateway: Running, games: Games
) -> None:
    """A catch-up pays half a unit for each event it reads from the stream (those before
    the feed's window), measured like the other costs. On main it paid 2 units a page of
    25: about 40 units for these 500 events, a fifth of their work."""
    created = await games.create("counter", {"target": 10**6})
    await append_added(gateway, created.game_id, WINDOW + 500, batch=100)
    head = await games.store.version(created.game_id)
    spectator = await credentials.issue(games.store, created.game_id, Role.SPECTATOR)
    peer = await Peer.open(f"ws://127.0.0.1:{gateway.port}/ws")
    await peer.ok({"type": "subscribe", "game_id": created.game_id, "from_seq": 0,
                   "credential": spectator})  # fmt: skip
    await peer.wait_for(lambda f: f["type"] == "event" and f["seq"] == head, 30)
    assert [e["seq"] for e in peer.events(created.game_id)] == list(range(1, head + 1))
    streamed = head - WINDOW  # read from the stream; the rest from the feed's window
    charged = gateway.gateway.admission.charged
    assert streamed / 2 <= charged["catch_up"] <= streamed / 2 + streamed / 25 + 13, charged
    await peer.close()


async def test_a_dispute_is_charged_the_log_it_reads_and_re_makes(
    strict: Running, games: Games
) -> None:
    """A dispute reads and decodes the whole log and re-makes the game from the disputed
    batch to the head twice (as played, and under the claim): it is charged those events,
    as a replay is, so a spectator cannot file one dispute after another at a unit each.
    On main each cost one unit: the second dispute, and the next hundred, were served."""
    created = await games.create("counter", {"target": 10**6})
    for n in range(100):
        await games.handle(created.game_id, f"p{n}", {"type": "Push"})
    decided = [
        e.seq for e in await games.store.read(created.game_id) if e.type == "counter.BotPushed"
    ]
    spectator = await credentials.issue(games.store, created.game_id, Role.SPECTATOR)
    peer = await Peer.open(f"ws://127.0.0.1:{strict.port}/ws")
    await peer.ok({"type": "auth", "credential": spectator})
    await until(lambda: buckets_full(strict.gateway), what="the auth's unit refilled")
    first = await peer.ok(
        {"type": "dispute", "game_id": created.game_id, "seq": decided[0], "claim": "no"}
    )
    assert first["type"] == "dispute_filed", first
    head = await games.store.version(created.game_id)
    refused = await peer.request(
        {"type": "dispute", "game_id": created.game_id, "seq": decided[1], "claim": "no"}
    )
    assert refused["code"] == "over_budget" and refused["details"]["scope"] == "connection"
    assert await games.store.version(created.game_id) == head  # nothing written
    assert strict.gateway.admission.charged["dispute"] > 2 * (head - decided[0])
    await peer.close()
