"""SIGTERM during a burst: acknowledged commands are in the log; the rest are either in the
log or safely retryable by their id; connections close with 1001."""

from __future__ import annotations

import asyncio
import contextlib
import signal

from websockets.exceptions import ConnectionClosed

from tests.support.processes import start_gateway
from tests.support.waiting import until
from umpire.clients import UmpireClient, UmpireError
from umpire.events.redis_store import RedisEventStore
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.nonces import NoncedGames


async def test_sigterm_during_a_burst_loses_no_acknowledged_command(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore
) -> None:
    process, port = start_gateway(redis_server.url, prefix)
    url = f"ws://127.0.0.1:{port}/ws"
    acknowledged: dict[str, list[int]] = {}
    attempted: list[str] = []
    close_codes: list[int] = []
    try:
        async with UmpireClient(url, reconnect=False) as owner:
            created = await owner.create("counter", {"target": 1_000_000})

        async def burst(worker: int) -> None:
            client = UmpireClient(url, reconnect=False)
            await client.connect()
            await client.auth(created.player_credential)
            try:
                for i in range(10_000):
                    command_id = f"w{worker}-{i}"
                    attempted.append(command_id)
                    accepted = await client.send(created.game_id, {"type": "Add", "amount": 1},
                                                 command_id=command_id)  # fmt: skip
                    acknowledged[command_id] = accepted.seqs
            except (ConnectionError, ConnectionClosed, UmpireError, TimeoutError):
                ws = client._ws
                if ws is not None:
                    # A 'shutting_down' error comes first; the close follows the drain.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.wait_closed(), 15)
                    close_codes.append(ws.close_code or 0)
            finally:
                with contextlib.suppress(Exception):
                    await client.close()

        workers = [asyncio.create_task(burst(w)) for w in range(10)]
        # SIGTERM mid-burst: once a few hundred commands were acknowledged (a count, not a
        # time: a loaded machine acknowledges fewer a second), with thousands to come.
        await until(lambda: len(acknowledged) >= 300, what="300 commands acknowledged")
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(asyncio.gather(*workers), 30)
        assert process.wait(20) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert len(acknowledged) > 20, "the burst did not get going"
    for command_id, seqs in acknowledged.items():
        known = await store.command_result(created.game_id, command_id)
        assert known is not None and known.seqs == seqs, command_id
    # Unacknowledged commands: in the log already, or retried now with their id exactly once.
    games = NoncedGames(store)  # a retry carries its nonce, as the client's would
    for command_id in attempted:
        if command_id in acknowledged:
            continue
        result = await games.handle(created.game_id, command_id, {"type": "Add", "amount": 1})
        again = await games.handle(created.game_id, command_id, {"type": "Add", "amount": 1})
        assert again.duplicate and again.seqs == result.seqs
    _, game = await games.load(created.game_id)
    assert game.state.total == len(attempted)  # every command applied exactly once
    assert close_codes and all(code == 1001 for code in close_codes)
