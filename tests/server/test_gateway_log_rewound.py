"""A log that lost its last writes (Redis lost acknowledged events: a crash under
`appendfsync everysec`, a restore from an older file) is never papered over: every
subscriber of the game, who may hold events that are gone, is told `log_rewound` with the
seq the log now ends at, and a new subscription follows the log as it now is."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.lost_writes import lose_writes_after_seq_1
from tests.support.waiting import until
from umpire.clients import UmpireClient, UmpireError
from umpire.events.wire import EventFrame, ViewState
from umpire.server.app import Running


async def test_subscribers_are_told_and_a_new_subscription_follows_the_log(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 1_000})
        gid = created.game_id
        for n in range(3):
            await client.send(gid, {"type": "Add", "amount": 1}, command_id=f"c{n}")
        head = await gateway.gateway.store.version(gid)
        seen: list[int] = []

        async def follow() -> None:
            async for frame in client.subscribe(gid, 0):
                assert isinstance(frame, EventFrame)
                seen.append(frame.seq)

        follower = asyncio.create_task(follow())
        await until(lambda: seen and seen[-1] == head, what=f"seq {head} received")
        assert seen == list(range(1, head + 1))

        first_hash = await lose_writes_after_seq_1(gateway.gateway.store, gid, ["c0", "c1", "c2"])
        with pytest.raises(UmpireError) as ended:
            await asyncio.wait_for(follower, 5)  # found by the feed's 1 s version poll
        assert ended.value.code == "log_rewound"
        assert ended.value.details == {"game_id": gid, "head": 1}
        assert gateway.gateway.metrics.errors["log_rewound"] == 1
        assert gid not in gateway.gateway.notifier.feeds  # its feed, now unused, is gone

        # Subscribed again with a view: the state at seq 1, then the log's new events.
        frames = client.subscribe(gid, view=True)
        view = await asyncio.wait_for(anext(frames), 5)
        assert isinstance(view, ViewState) and view.seq == 1
        accepted = await client.send(gid, {"type": "Add", "amount": 5}, command_id="after")
        assert accepted.seqs[0] == 2
        event = await asyncio.wait_for(anext(frames), 5)
        assert isinstance(event, EventFrame)
        assert event.seq == 2 and event.prev_hash == first_hash
        await frames.aclose()


async def test_a_busy_log_is_never_taken_for_a_rewound_one(gateway: Running, ws_url: str) -> None:
    """The feeds' version poll reads every game's version, then refreshes those behind;
    meanwhile other games' feeds read newer events. A version read before them is stale,
    not a loss: no subscription may end for it."""
    games = 40
    async with UmpireClient(ws_url) as client:
        ids = [(await client.create("counter", {"target": 10**6})).game_id for _ in range(games)]
        seen: dict[str, list[int]] = {gid: [] for gid in ids}

        async def follow(gid: str) -> None:
            async for frame in client.subscribe(gid, 0):
                seen[gid].append(frame.seq)

        followers = [asyncio.create_task(follow(gid)) for gid in ids]

        async def write(gid: str) -> None:
            for n in range(40):  # about 3 s: three of the feeds' polls
                await client.send(gid, {"type": "Add", "amount": 1}, command_id=f"{gid}-{n}")
                await asyncio.sleep(0.07)

        await asyncio.gather(*(write(gid) for gid in ids))
        heads = {gid: await gateway.gateway.store.version(gid) for gid in ids}
        await until(
            lambda: all(seen[gid][-1:] == [heads[gid]] for gid in ids),
            what="every game's head received",
        )
        assert not gateway.gateway.metrics.errors["log_rewound"]
        assert all(seen[gid] == list(range(1, heads[gid] + 1)) for gid in ids)
        assert not any(f.done() for f in followers)  # no subscription was ended
        for follower in followers:
            follower.cancel()


async def test_a_resume_past_the_end_of_the_log_is_refused(gateway: Running, ws_url: str) -> None:
    """A client away while the log was rewound missed the `log_rewound` notice. Resumed
    from the last seq it holds, it would take the new events that reuse those seqs as the
    ones after it: a subscribe whose `from_seq` is past the log's end is refused with
    `log_rewound` and the seq the log ends at, and changes nothing."""
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 1_000})
        gid = created.game_id
        for n in range(3):
            await client.send(gid, {"type": "Add", "amount": 1}, command_id=f"c{n}")
        held = await gateway.gateway.store.version(gid)  # what the client was sent
        await lose_writes_after_seq_1(gateway.gateway.store, gid, ["c0", "c1", "c2"])
        await client.send(gid, {"type": "Add", "amount": 2}, command_id="new")  # seq 2 again
        head = await gateway.gateway.store.version(gid)
        assert 1 < head < held
        assert gid not in gateway.gateway.notifier.feeds  # nobody subscribed: no notice sent
        resume = {"type": "subscribe", "game_id": gid, "from_seq": held}
        with pytest.raises(UmpireError) as refused:  # no feed open on this gateway
            await client.request(resume)
        assert refused.value.code == "log_rewound"
        assert refused.value.details == {"game_id": gid, "head": head, "from_seq": held}
        assert gid not in gateway.gateway.notifier.feeds
        # At the log's end, or before it, a subscribe is as ever (and opens the feed).
        frames = client.subscribe(gid, 1)
        event = await asyncio.wait_for(anext(frames), 5)
        assert isinstance(event, EventFrame) and event.seq == 2
        async with UmpireClient(ws_url) as other:
            for credential in client.credentials:
                await other.auth(credential)
            with pytest.raises(UmpireError) as again:  # the feed open, at the head
                await other.request(resume)
            assert again.value.code == "log_rewound"
        await frames.aclose()
