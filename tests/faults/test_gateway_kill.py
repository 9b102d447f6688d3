"""kill -9 of a gateway during a burst of commands from 50 clients. Each client retries
its unanswered command by its command id on a second gateway and resumes its subscription
from the last seq it saw. Afterwards every command is in the log exactly once (with the
seqs acknowledged), every client saw every event of its game exactly once and in order,
and every game's audit passes."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tests.support.fleet import gateways
from umpire.engine.audit import audit
from umpire.events.redis_store import RedisEventStore
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.peer import Peer

CLIENTS = 50
GAMES = 10
COMMANDS = 20  # per client
RETRYABLE = ("store_unavailable", "shutting_down")
LOST = (ConnectionError, ConnectionClosed, InvalidHandshake, OSError, TimeoutError)


class Player:
    """One client: its game, the events it saw, the acknowledgements it got."""

    def __init__(self, number: int, game_id: str, credential: str, urls: list[str]) -> None:
        self.number = number
        self.game_id = game_id
        self.credential = credential
        self.urls = urls
        self.peer: Peer | None = None
        self.seen: list[int] = []
        self.acks: dict[str, list[int]] = {}
        self.reconnects = 0
        self.resent = 0

    def _harvest(self) -> None:
        """Keep the events the current connection delivered (before it is replaced)."""
        if self.peer is not None:
            self.seen += [e["seq"] for e in self.peer.events(self.game_id)]
            self.peer.frames.clear()

    async def connect(self, url_index: int) -> None:
        """Open (or reopen) the connection: auth, and subscribe from the last seq seen."""
        self._harvest()
        deadline = time.monotonic() + 20
        while True:
            url = self.urls[url_index]
            try:
                self.peer = await Peer.open(url)
                await self.peer.ok({"type": "auth", "credential": self.credential})
                await self.peer.ok({"type": "subscribe", "game_id": self.game_id,
                                    "from_seq": self.seen[-1] if self.seen else 0})  # fmt: skip
                return
            except LOST:
                if time.monotonic() > deadline:
                    raise
                url_index = 1  # the first gateway is gone: use the second
                await asyncio.sleep(0.05)

    async def play(self) -> None:
        await self.connect(0)
        for i in range(COMMANDS):
            command_id = f"p{self.number}-{i}"
            message = {"type": "command", "game_id": self.game_id, "command_id": command_id,
                       "command": {"type": "Add", "amount": 1}}  # fmt: skip
            for _attempt in range(50):
                assert self.peer is not None
                try:
                    reply = await self.peer.request(message, timeout=15)
                except LOST:
                    self.reconnects += 1
                    self.resent += 1
                    await self.connect(1)
                    continue
                if reply["type"] == "error" and reply["code"] in RETRYABLE:
                    await asyncio.sleep(0.05)
                    continue
                assert reply["type"] == "accepted", reply
                self.acks[command_id] = reply["seqs"]
                break
            else:
                raise AssertionError(f"{command_id} never acknowledged")

    async def wait_until(self, head: int) -> None:
        """Wait (bounded) until the subscription delivered `head`, then keep what it saw."""
        assert self.peer is not None
        if not self.seen or self.seen[-1] < head:
            await self.peer.wait_for(lambda f: f.get("seq") == head and f["type"] == "event", 20)
        self._harvest()
        await self.peer.close()


async def test_kill_9_of_a_gateway_during_a_burst(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore
) -> None:
    with gateways(redis_server.url, prefix, 2) as (first, second):
        owner = await Peer.open(second.url)
        games = [
            await owner.ok(
                {
                    "type": "create",
                    "client_entropy": "waived",
                    "ruleset": "counter",
                    "setup": {"target": 10**6},
                }
            )
            for _ in range(GAMES)
        ]
        await owner.close()
        players = [
            Player(n, games[n % GAMES]["game_id"], games[n % GAMES]["player_credential"],
                   [first.url, second.url])
            for n in range(CLIENTS)
        ]  # fmt: skip
        tasks = [asyncio.create_task(p.play()) for p in players]
        deadline = time.monotonic() + 30
        while sum(len(p.acks) for p in players) < 150:  # the burst is well under way
            assert time.monotonic() < deadline, "the burst did not get going"
            assert not any(t.done() and t.exception() for t in tasks)
            await asyncio.sleep(0.01)
        first.kill()
        await asyncio.wait_for(asyncio.gather(*tasks), 90)
        for game in games:
            head = await store.version(game["game_id"])
            await asyncio.gather(
                *(p.wait_until(head) for p in players if p.game_id == game["game_id"])
            )
    assert sum(p.reconnects for p in players) >= CLIENTS  # every client lost its gateway
    for game in games:
        gid = game["game_id"]
        envelopes = await store.read(gid)
        head = len(envelopes)
        batches = Counter(e.command_id for e in envelopes if e.type == "CommandRecorded")
        mine = [p for p in players if p.game_id == gid]
        expected = {cid for p in mine for cid in p.acks}
        assert len(expected) == len(mine) * COMMANDS  # every command acknowledged
        assert {c for c in batches if not c.startswith("umpire:")} == expected
        assert all(n == 1 for n in batches.values())  # exactly once in the log
        for p in mine:
            for command_id, seqs in p.acks.items():
                known = await store.command_result(gid, command_id)
                assert known is not None and known.seqs == seqs, command_id
            assert p.seen == list(range(1, head + 1)), f"client {p.number}: gap or repeat"
        report = audit(envelopes)
        assert report.ok, report.failure
