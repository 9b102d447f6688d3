"""What a dispute costs its sender at a real gateway (server/admission.py; docs/operations.md,
"Admission"): a refused dispute, or a refused ruling, is charged the log it reads and checks,
not the lines a finding would re-make; a finding's re-made lines are charged once made, by
the events and by the CPU they took, so a dispute of an early seq of a long game whose
rules are costly is paid in full."""

from __future__ import annotations

import asyncio
import contextlib
import math
import threading
from typing import Any

import pytest

from tests.support.waiting import buckets_full, until
from umpire.engine.disputes import RulingRefused
from umpire.engine.roles import Role
from umpire.server import credentials, game_disputes
from umpire.server.admission import WORK_UNIT_SECONDS
from umpire.server.app import Running
from umpire.server.games import Games
from umpire.server.work_meter import WorkMeter
from umpire.testing.support.largest_setups import largest_conflict_of_heroes
from umpire.testing.support.nonces import nonce_of
from umpire.testing.support.peer import Peer


async def test_a_refused_dispute_is_charged_the_read_not_the_re_makes(
    gateway: Running, games: Games
) -> None:
    """On main a dispute of seq 1's batch refused for its empty claim, or a ruling refused,
    was charged as if both lines had been re-made: three times the log, not once."""
    created = await games.create("counter", {"target": 10**6})
    for n in range(100):
        await games.handle(created.game_id, f"p{n}", {"type": "Push"})
    gid = created.game_id
    decided = [e.seq for e in await games.store.read(gid) if e.type == "counter.BotPushed"]
    head = await games.store.version(gid)
    player = await credentials.issue(games.store, gid, Role.PLAYER)
    peer = await Peer.open(f"ws://127.0.0.1:{gateway.port}/ws")
    await peer.ok({"type": "auth", "credential": player})
    await until(lambda: buckets_full(gateway.gateway), what="the auth's unit refilled")
    charged = gateway.gateway.admission.charged
    refusals = [
        ({"seq": decided[0], "claim": "   "}, "dispute_refused"),  # a blank claim
        ({"seq": decided[0], "claim": "no", "reading": "none"}, "unknown_reading"),
        ({"seq": 1, "claim": "no"}, "not_disputable"),  # GameCreated: no decision
    ]
    for fields, code in refusals:
        before = charged["dispute"]
        refused = await peer.request({"type": "dispute", "game_id": gid, **fields})
        assert refused["type"] == "error" and refused["code"] == code, refused
        # The log read and checked (2 + its events), nothing more.
        assert charged["dispute"] - before == 2 + head, (fields, charged["dispute"] - before)
    assert await games.store.version(gid) == head  # nothing written
    before = charged["rule"]
    refused = await peer.request({"type": "rule", "game_id": gid, "dispute": 5, "ruling": "amend"})
    assert refused["type"] == "error", refused
    assert charged["rule"] - before == 2 + head
    # A dispute that is filed and found pays its two re-made lines too.
    before = charged["dispute"]
    filed = await peer.ok({"type": "dispute", "game_id": gid, "seq": decided[0], "claim": "no"})
    assert filed["type"] == "dispute_filed" and not filed["pending"], filed
    assert charged["dispute"] - before >= 2 + head + 2 * (head - decided[0] + 1)
    await peer.close()


async def _long_conflict_of_heroes(games: Games, game_id: str) -> tuple[float, list[int]]:
    """The largest Conflict of Heroes game the bounds allow, two AI turns played: the
    CPU seconds the AI turns took, and the seqs of their decisions (disputable)."""
    await games.create(
        "conflict_of_heroes", largest_conflict_of_heroes(), game_id=game_id, client_entropy="bind"
    )
    await games.bind_client_seed(game_id, "cost")
    spent = 0.0
    decisions: list[int] = []
    for n, command in enumerate([{"type": "Pass"}, {"type": "TakeAiTurn"}] * 2):
        meter = WorkMeter()
        result = await games.handle(game_id, f"c{n}", command, meter=meter, nonce=nonce_of(f"c{n}"))
        if command["type"] == "TakeAiTurn":
            spent += meter.seconds
            decisions += range(result.first_seq + 1, result.last_seq + 1)  # after its record
    return spent, decisions


async def test_a_dispute_of_an_early_seq_is_charged_the_rules_it_re_runs(
    gateway: Running, games: Games
) -> None:
    """A re-made line decides every later command again: in the largest Conflict of Heroes
    game the bounds allow, each AI turn takes ~0.1 s of CPU, hundreds of times a fold's
    ~65 us an event. On main the dispute was charged by the events alone (3 x the log),
    a small part of that work: a client could keep a core busy within its budget."""
    spent, decisions = await _long_conflict_of_heroes(games, "gcost")
    first_ai = decisions[0]
    head = await games.store.version("gcost")
    player = await credentials.issue(games.store, "gcost", Role.PLAYER)
    peer = await Peer.open(f"ws://127.0.0.1:{gateway.port}/ws")
    await peer.ok({"type": "auth", "credential": player})
    await until(lambda: buckets_full(gateway.gateway), what="the auth's unit refilled")
    filed = await peer.request({"type": "dispute", "game_id": "gcost", "seq": first_ai,
                                "claim": "not so"})  # fmt: skip
    assert filed["type"] == "dispute_filed", filed
    charged = gateway.gateway.admission.charged["dispute"]
    on_main = 2 + head + 2 * (head - first_ai + 1)
    # The AI turns re-decided (at least once each) are paid at their CPU's units.
    assert charged >= math.ceil(spent / WORK_UNIT_SECONDS) > 4 * on_main, (charged, on_main)
    # The sender is in debt: its next message waits or is refused until it has paid.
    refused = await peer.request({"type": "view", "game_id": "gcost", "at_seq": 1})
    assert refused["code"] == "over_budget", refused
    await peer.close()


async def test_a_clients_disputes_on_many_connections_wait_for_each_other(
    gateway: Running, games: Games
) -> None:
    """A finding's re-make is charged once made: on main (operator 10) each connection of
    a client had a dispute admitted at once, each on its full bucket, and set a re-make of
    the whole game going; now the client's second waits for its first, then pays its debt
    (refused over_budget, nothing written)."""
    _, decisions = await _long_conflict_of_heroes(games, "gmany")
    player = await credentials.issue(games.store, "gmany", Role.PLAYER)
    url = f"ws://127.0.0.1:{gateway.port}/ws"
    peers = [await Peer.open(url) for _ in range(3)]
    for peer in peers:
        await peer.ok({"type": "auth", "credential": player})
    await until(lambda: buckets_full(gateway.gateway), what="the auths' units refilled")
    head = await games.store.version("gmany")
    answers = await asyncio.gather(
        *(peer.request({"type": "dispute", "game_id": "gmany", "seq": seq, "claim": "no"})
          for peer, seq in zip(peers, decisions, strict=False))
    )  # fmt: skip
    filed = [a for a in answers if a["type"] == "dispute_filed"]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(filed) == 1 and len(refused) == 2, answers
    assert all(a["code"] == "over_budget" and a["details"]["scope"] == "address" for a in refused)
    assert await games.store.version("gmany") == head + 2  # one DisputeFiled, its finding
    for peer in peers:
        await peer.close()


async def test_re_makes_run_one_at_a_time(games: Games, monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-makes run in the default executor's threads, which the rules of every command
    run in too: on main (operator 10) as many ran at once as were asked, so a few long
    disputes could hold every thread from everyone's commands. Two asked at once here:
    the first waits (up to a second) for the second to start beside it."""
    created = await games.create("counter", {"target": 10**6})
    for n in range(6):
        await games.handle(created.game_id, f"p{n}", {"type": "Push"})
    gid = created.game_id
    decided = [e.seq for e in await games.store.read(gid) if e.type == "counter.BotPushed"]
    running = 0
    most = 0
    lock = threading.Lock()
    another = threading.Event()
    real = game_disputes.find

    def find(*args: Any, **kwargs: Any) -> Any:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
            if running > 1:
                another.set()
        another.wait(1.0)  # a second re-make beside this one, if one can start
        try:
            return real(*args, **kwargs)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(game_disputes, "find", find)
    found = await asyncio.gather(
        games.dispute(gid, role=Role.REFEREE, seq=decided[0], claim="no"),
        games.dispute(gid, role=Role.PLAYER, seq=decided[1], claim="no"),
    )
    assert all(f.finding is not None for f in found), found
    assert most == 1


async def test_two_disputes_read_at_one_head_are_both_filed(
    games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dispute's filing is a system batch whose id is its seq (`umpire:dispute:N`): two
    disputes that read the log at one head asked for the same id, and on main (operator 10)
    the store answered the second with the first's batch as a duplicate, so the second was
    answered `dispute_filed` under the other's id (another role's, about another seq) and
    never written. Both read the log here before either files."""
    created = await games.create("counter", {"target": 10**6})
    for n in range(6):
        await games.handle(created.game_id, f"p{n}", {"type": "Push"})
    gid = created.game_id
    decided = [e.seq for e in await games.store.read(gid) if e.type == "counter.BotPushed"]
    real = games._log
    readers = 0
    both_read = asyncio.Event()

    async def log(game_id: str) -> Any:
        nonlocal readers
        read = await real(game_id)
        readers += 1
        if readers == 2:
            both_read.set()
        if readers <= 2:  # the first two reads wait for each other (a second at most)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(both_read.wait(), 1.0)
        return read

    monkeypatch.setattr(games, "_log", log)
    filed = await asyncio.gather(
        games.dispute(gid, role=Role.PLAYER, seq=decided[0], claim="no"),
        games.dispute(gid, role=Role.SPECTATOR, seq=decided[1], claim="no"),
    )
    assert both_read.is_set()
    _, disputes = await games.disputes(gid)
    logged = {d.id: (d.filed.who, d.filed.seq) for d in disputes}
    assert logged[filed[0].id] == ("player", decided[0]), (filed, logged)
    assert logged[filed[1].id] == ("spectator", decided[1]), (filed, logged)


async def test_two_rulings_read_at_one_head_are_one_ruling_and_one_refusal(
    games: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ruling's id is its dispute's (`umpire:ruling:N`): on main (operator 10) two
    rulers who read the log at one head were both answered as having ruled, the second
    with the first's batch; now the second reads again and is told it was ruled."""
    created = await games.create("counter", {"target": 10**6})
    await games.handle(created.game_id, "p0", {"type": "Push"})
    gid = created.game_id
    decided = [e.seq for e in await games.store.read(gid) if e.type == "counter.BotPushed"]
    filed = await games.dispute(gid, role=Role.PLAYER, seq=decided[0], claim="no")
    real = games._log
    readers = 0
    both_read = asyncio.Event()

    async def log(game_id: str) -> Any:
        nonlocal readers
        read = await real(game_id)
        readers += 1
        if readers == 2:
            both_read.set()
        if readers <= 2:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(both_read.wait(), 1.0)
        return read

    monkeypatch.setattr(games, "_log", log)
    answers = await asyncio.gather(
        games.rule(gid, role=Role.PLAYER, dispute=filed.id, ruling="uphold"),
        games.rule(gid, role=Role.REFEREE, dispute=filed.id, ruling="uphold"),
        return_exceptions=True,
    )
    assert both_read.is_set()
    refused = [a for a in answers if isinstance(a, RulingRefused)]
    assert len(refused) == 1 and "was ruled already" in refused[0].message, answers
