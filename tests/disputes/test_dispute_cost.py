"""What a dispute costs its sender at a real gateway (server/admission.py; docs/operations.md,
"Admission"): a refused dispute, or a refused ruling, is charged the log it reads and checks,
not the lines a finding would re-make; a finding's re-made lines are charged once made, by
the events and by the CPU they took, so a dispute of an early seq of a long game whose
rules are costly is paid in full."""

from __future__ import annotations

import math

from tests.support.waiting import buckets_full, until
from umpire.engine.roles import Role
from umpire.server import credentials
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


async def test_a_dispute_of_an_early_seq_is_charged_the_rules_it_re_runs(
    gateway: Running, games: Games
) -> None:
    """A re-made line decides every later command again: in the largest Conflict of Heroes
    game the bounds allow, each AI turn takes ~0.1 s of CPU, hundreds of times a fold's
    ~65 us an event. On main the dispute was charged by the events alone (3 x the log),
    a small part of that work: a client could keep a core busy within its budget."""
    await games.create(
        "conflict_of_heroes", largest_conflict_of_heroes(), game_id="gcost", client_entropy="bind"
    )
    await games.bind_client_seed("gcost", "cost")
    spent = 0.0
    first_ai = 0
    for n, command in enumerate([{"type": "Pass"}, {"type": "TakeAiTurn"}] * 2):
        meter = WorkMeter()
        result = await games.handle("gcost", f"c{n}", command, meter=meter, nonce=nonce_of(f"c{n}"))
        if command["type"] == "TakeAiTurn":
            spent += meter.seconds
            first_ai = first_ai or result.first_seq + 1  # the first event after its record
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
