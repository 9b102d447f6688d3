"""The Python client restores a dropped connection with requests that carry ids and reads
their answers (clients/client.py): a re-auth or resubscribe refused for good ends the
subscription's iterator with the server's error, a transient refusal is asked again and
the subscription resumes with no gap and no repeat."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.waiting import buckets_full, until
from umpire.clients import UmpireClient, UmpireError
from umpire.engine.roles import Role
from umpire.events.wire import EventFrame, ViewState
from umpire.server import credentials
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games
from umpire.testing.support.gateways import gateway_settings

OPERATOR = "o" * 32  # testing/support/gateways.py gateway_settings operator token
BOUNDED = 15.0  # seconds: far past any pause the client takes; a hang fails, not waits


def dead_url() -> str:
    """A websocket URL on a loopback port that nothing listens on (connects are refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"ws://127.0.0.1:{port}/ws"


def drop(client: UmpireClient) -> None:
    """Cut the client's connection abruptly, as a network failure would."""
    assert client._ws is not None and client._ws.transport is not None
    client._ws.transport.abort()


async def collect(client: UmpireClient, game_id: str, until: int, seqs: list[int]) -> None:
    """Record the seq of every event of `game_id` from the start until seq `until`."""
    async for frame in client.subscribe(game_id, 0):
        assert not isinstance(frame, ViewState)
        seqs.append(frame.seq)
        if frame.seq == until:
            return


async def wait_for_seq(seqs: list[int], seq: int) -> None:
    """Until `seq` was received (bounded)."""
    async with asyncio.timeout(BOUNDED):
        while seq not in seqs:
            await asyncio.sleep(0.01)


async def test_a_credential_revoked_while_the_connection_was_down_ends_its_subscription(
    gateway: Running, ws_url: str
) -> None:
    """The re-auth after the reconnect is refused (`unauthorized`): the iterator raises it
    within a bounded wait, the credential leaves `credentials`, and the other game's
    subscription on the same client resumes with no gap. On main the refusals of the
    id-less re-auth and resubscribe were dropped and this iterator waited forever
    (TimeoutError here)."""
    async with (
        UmpireClient(ws_url) as owner,
        UmpireClient(ws_url, retry_delay=0.01) as watcher,
    ):
        revoked_game = await owner.create("counter", {"target": 10**6})
        kept_game = await owner.create("counter", {"target": 10**6})
        await watcher.auth(revoked_game.spectator_credential)
        await watcher.auth(kept_game.spectator_credential)
        revoked_seqs: list[int] = []
        kept_seqs: list[int] = []
        revoked = asyncio.create_task(collect(watcher, revoked_game.game_id, 10**6, revoked_seqs))
        kept = asyncio.create_task(collect(watcher, kept_game.game_id, 5, kept_seqs))
        await wait_for_seq(revoked_seqs, 2)  # GameCreated, the client seed bound
        await wait_for_seq(kept_seqs, 2)

        url, watcher.url = watcher.url, dead_url()  # keep it down while the operator acts
        drop(watcher)
        await owner.auth(OPERATOR)
        answer = await owner.request(
            {"type": "revoke", "credential": revoked_game.spectator_credential}
        )
        assert answer.existed
        for n in range(3):
            await owner.send(kept_game.game_id, {"type": "Push"}, command_id=f"while-down-{n}")
        watcher.url = url

        with pytest.raises(UmpireError) as ended:
            await asyncio.wait_for(revoked, BOUNDED)
        assert ended.value.code == "unauthorized"
        assert revoked_game.game_id in ended.value.message
        assert revoked_game.spectator_credential not in watcher.credentials
        assert kept_game.spectator_credential in watcher.credentials
        await asyncio.wait_for(kept, BOUNDED)
        assert kept_seqs == [1, 2, 3, 4, 5]
        assert watcher.reconnects >= 1


@pytest.fixture
async def one_unit(redis_server: EmbeddedRedis, prefix: str) -> AsyncIterator[Running]:
    """A gateway whose connections hold one unit, refilled in two seconds: an auth and a
    subscribe sent one after the other leave the subscribe `over_budget`."""
    settings = gateway_settings(prefix, cost_per_second=0.5, cost_burst=1)
    async with running_gateway(settings, redis_server.url) as running:
        yield running


async def test_an_over_budget_resubscribe_is_asked_again_and_resumes_with_no_gap(
    one_unit: Running, games: Games
) -> None:
    """The reconnect's auth takes the new connection's one unit, so its resubscribe is
    refused `over_budget` (retry_after 2 s); the client asks again after that and every
    event, those appended meanwhile included, arrives once and in order. On main the
    refusal of the id-less resubscribe was dropped and the iterator waited forever."""
    game_id = (await games.create("counter", {"target": 10**6})).game_id
    for n in range(3):
        await games.handle(game_id, f"before-{n}", {"type": "Push"})
    spectator = await credentials.issue(games.store, game_id, Role.SPECTATOR)
    before = await games.store.version(game_id)
    head = before + (before - 1)  # three more pushes below, as many events as the first three
    async with UmpireClient(f"ws://127.0.0.1:{one_unit.port}/ws", retry_delay=0.01) as client:
        await client.auth(spectator)
        # the auth's unit refilled: the first subscribe is paid
        await until(lambda: buckets_full(one_unit.gateway), what="the auth's unit refilled")
        seqs: list[int] = []
        consumer = asyncio.create_task(collect(client, game_id, head, seqs))
        await wait_for_seq(seqs, before)

        drop(client)
        for n in range(3):
            await games.handle(game_id, f"after-{n}", {"type": "Push"})

        await asyncio.wait_for(consumer, BOUNDED)
        assert seqs == list(range(1, head + 1))
        assert client.retries >= 1
        assert one_unit.gateway.admission.refused["connection"] >= 1
        assert client.subscriptions == {} and client.credentials == [spectator]
        # a unit to pay with: new requests flow again
        await until(lambda: buckets_full(one_unit.gateway), what="the connection's unit refilled")
        view = await asyncio.wait_for(client.view(game_id), BOUNDED)
        assert view.seq == head


async def test_a_subscribe_refused_for_good_on_reconnect_ends_with_its_error(
    gateway: Running, ws_url: str
) -> None:
    """An operator's subscription to a game whose keys are gone (a data reset while the
    client was away) ends with the resubscribe's `game_not_found`, not a hang."""
    async with UmpireClient(ws_url, retry_delay=0.01) as referee:
        created = await referee.create("counter", {"target": 10**6}, client_entropy="waived")
        await referee.auth(OPERATOR)
        seqs: list[int] = []
        following = asyncio.create_task(collect(referee, created.game_id, 10**6, seqs))
        await wait_for_seq(seqs, 1)

        url, referee.url = referee.url, dead_url()
        drop(referee)
        store = gateway.gateway.store
        keys = [key async for key in store.redis.scan_iter(f"*{{{created.game_id}}}*")]
        assert keys
        await store.redis.delete(*keys)
        referee.url = url

        with pytest.raises(UmpireError) as ended:
            await asyncio.wait_for(following, BOUNDED)
        assert ended.value.code == "game_not_found"
        assert created.game_id not in referee.subscriptions
        assert seqs == [1]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[EmbeddedRedis, Running]]:
    """A Valkey of this test's own (it is killed and started again) and a gateway on it."""
    redis = EmbeddedRedis(tmp_path / "redis", appendfsync="always").start()
    try:
        async with running_gateway(gateway_settings("restore"), redis.url) as running:
            yield redis, running
    finally:
        redis.stop()


async def test_a_re_auth_refused_while_the_store_is_away_is_asked_again_until_it_is_back(
    site: tuple[EmbeddedRedis, Running],
) -> None:
    """The reconnect's re-auth meets `store_unavailable` (the credential cannot be looked
    up): the client asks again with backoff, keeps the credential, and once the store is
    back the subscription resumes with no gap and no repeat. On main the id-less re-auth's
    refusal was dropped, so was the resubscribe's, and the iterator waited forever."""
    redis, running = site
    url = f"ws://127.0.0.1:{running.port}/ws"
    async with (
        UmpireClient(url, retry_delay=0.01) as owner,
        UmpireClient(url, retry_delay=0.01) as watcher,
    ):
        created = await owner.create("counter", {"target": 10**6}, client_entropy="waived")
        await watcher.auth(created.spectator_credential)
        seqs: list[int] = []
        head = 1 + 2 * 3  # GameCreated, then three pushes of two events each
        following = asyncio.create_task(collect(watcher, created.game_id, head, seqs))
        await wait_for_seq(seqs, 1)

        watcher.url = dead_url()
        drop(watcher)
        redis.kill()
        watcher.url = url
        refusals = running.gateway.metrics.errors
        # the re-auth was refused, and asked again at least once while the store is away
        await until(
            lambda: refusals["store_unavailable"] >= 2,
            what="the re-auth refused `store_unavailable` twice",
        )
        assert not following.done()

        redis.start()  # same port, same data directory
        for n in range(3):
            async with asyncio.timeout(BOUNDED):
                while True:  # the owner's own retries by command id, while the gateway
                    try:  # finds the store again
                        await owner.send(created.game_id, {"type": "Push"}, command_id=f"p{n}")
                        break
                    except UmpireError as refused:
                        assert refused.code == "store_unavailable"
                        await asyncio.sleep(0.1)
        await asyncio.wait_for(following, BOUNDED)
        assert seqs == list(range(1, head + 1))
        assert watcher.credentials == [created.spectator_credential]
        assert watcher.retries >= 2


async def test_a_view_lost_to_a_drop_is_asked_for_again(gateway: Running, ws_url: str) -> None:
    """A drop between a `subscribe` with view's answer and its `state` frame: the
    resubscribe asks for the view again, so the iterator still yields the view first and
    then the events after its seq. Before, the resubscribe asked for events from seq 0
    without the view: the iterator yielded event 1 instead of the view."""
    async with (
        UmpireClient(ws_url) as owner,
        UmpireClient(ws_url, retry_delay=0.01) as watcher,
    ):
        created = await owner.create("counter", {"target": 10**6}, client_entropy="waived")
        for n in range(2):
            await owner.send(created.game_id, {"type": "Push"}, command_id=f"before-{n}")
        await watcher.auth(created.spectator_credential)
        deliver = watcher._deliver
        lost: list[int] = []

        def lose_the_first_view(message: Any) -> None:
            if isinstance(message, ViewState) and not lost:
                lost.append(message.seq)
                drop(watcher)
                return
            deliver(message)

        watcher._deliver = lose_the_first_view  # type: ignore[method-assign]
        frames: list[Any] = []

        async def follow() -> None:
            async for frame in watcher.subscribe(created.game_id, view=True):
                frames.append(frame)

        following = asyncio.create_task(follow())
        async with asyncio.timeout(BOUNDED):
            while not lost:
                await asyncio.sleep(0.01)
        accepted = await owner.send(created.game_id, {"type": "Push"}, command_id="after")
        head = accepted.seqs[-1]
        async with asyncio.timeout(BOUNDED):
            while not frames or frames[-1].seq != head:
                await asyncio.sleep(0.01)
        following.cancel()
        assert isinstance(frames[0], ViewState) and frames[0].seq >= lost[0]
        assert all(isinstance(f, EventFrame) for f in frames[1:])
        assert [f.seq for f in frames[1:]] == list(range(frames[0].seq + 1, head + 1))
        assert watcher.reconnects >= 1
