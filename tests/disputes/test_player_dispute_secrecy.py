"""A player's own dispute is not answered from a secret (docs/audit.md "Disputes", the blind
rule; engine/poison.py). The attack: twin games on the real store that differ only in a
secret, the player files the same dispute under the same reading in both, and everything
the player and a spectator receive after it (the events as each role's frames, the answer
to the dispute, the game's disputes) is the same in both twins. On main the finding was
given at once: re-made under the reading, the line stopped at a refusal naming the hidden
pilot's limit, or revealed the pilot, so the finding differed between the twins (and the
`stopped` text or the head named the secret). With the blind rule the finding waits in
both, and the final reveal finds both.

Down in Flames, whose pilots are secret from the start (9.1.11): the opponent's pilot
(side B's, which the solo player reports but may not see) and the player's own (which a
spectator may not see)."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from tests.support.gyro_duel import gyro_duel
from umpire.clients import UmpireClient
from umpire.engine import registry
from umpire.engine.audit import audit
from umpire.engine.disputes import codec_decoded, dispute_command_id
from umpire.engine.game import codec_for
from umpire.engine.roles import Role
from umpire.events.codec import canonical_bytes
from umpire.events.envelope import Envelope
from umpire.events.redis_store import RedisEventStore
from umpire.events.types import DisputeFiled, DisputeFiledV2
from umpire.events.wire import DisputeFiledReply
from umpire.server.embedded import EmbeddedRedis
from umpire.server.event_frames import encode_frame
from umpire.server.games import Games
from umpire.testing.support.dice import seed_source
from umpire.testing.support.forgery import Cli, read_lines, reseal, write_lines
from umpire.testing.support.legal_play import gateway_client

NAME = "down_in_flames"
NORMALISED = ("hash", "prev_hash", "digest", "recorded_at")
RECEIPT = ("receipt_key_id", "receipt_key")  # each store makes its own


def _attack(side: str, attacker: str, target: str) -> list[dict[str, Any]]:
    """A three-burst attack: as played (one burst per card, 10.9 as the default reads it)
    allowed to any pilot; under "10.9" a crack shot's alone."""
    return [
        {"type": "BeginTurn", "side": side},
        {"type": "SetPosition", "attacker": attacker, "target": target,
         "position": "advantaged"},
        {"type": "Attack", "attacker": attacker, "target": target, "card": "in_my_sights",
         "hits": 1, "bursts": 3},
    ]  # fmt: skip


def _frames(envelopes: list[Envelope], first: int, role: Role) -> list[Any]:
    """What `role` receives of events `first` on, as its frames (None: withheld)."""
    ruleset = registry.get(NAME)
    decoded = codec_decoded(ruleset, envelopes)
    frames = []
    for env, event in zip(envelopes[first - 1 :], decoded[first - 1 :], strict=True):
        raw = encode_frame(ruleset, env, event, role, False)
        frame = msgspec.json.decode(raw) if raw is not None else None
        if frame is not None:
            for key in NORMALISED:
                frame.pop(key, None)
            for key in RECEIPT:
                frame["payload"].pop(key, None)
        frames.append(frame)
    return frames


async def _twins(
    redis_server: Any, prefix: str, secrets: tuple[dict[str, bool], dict[str, bool]],
    commands: list[dict[str, Any]], roles: tuple[Role, ...],
) -> list[tuple[Any, ...]]:  # fmt: skip
    """Play `commands` in twin games that differ in `secrets`, then the player disputes the
    attack under the gyro reading: what each of `roles` received before and after, and
    which events the game's end appended (the final reveal, then the finding)."""
    ruleset = registry.get(NAME)
    seen: list[Any] = []
    for n, crack_shots in enumerate(secrets):
        store = RedisEventStore.from_url(redis_server.url, prefix=f"{prefix}g{n}")
        try:
            games = Games(store, draw_seed=lambda: bytes(range(32)), draw_key=lambda: bytes(32))
            gid = (await games.create(NAME, gyro_duel(crack_shots), game_id="twin")).game_id
            for i, command in enumerate(commands):
                await games.handle(gid, f"c{i}", command)
            before = await store.read(gid)
            attack = next(seq for seq, e in enumerate(codec_decoded(ruleset, before), start=1)
                          if type(e).__name__ == "AttackResolved")  # fmt: skip
            filed = await games.dispute(gid, role=Role.PLAYER, seq=attack,
                                        claim="a gyro sight's bursts are its pilot's (10.9)",
                                        reading="gyro_reading", value="10.9")  # fmt: skip
            after = await store.read(gid)
            record = (
                [_frames(before, 1, role) for role in roles],
                msgspec.to_builtins(filed),
                [_frames(after, len(before) + 1, role) for role in roles],
                msgspec.to_builtins((await games.disputes(gid))[1]),
            )
            await games.handle(gid, "end", {"type": "EndGame", "result": "twins"})
            (dispute,) = (await games.disputes(gid))[1]
            assert dispute.finding is not None, "the final reveal finds it"
            # When it is given: right after the final reveal, at the same seq in both.
            ended = codec_decoded(ruleset, await store.read(gid))
            seen.append((*record, [type(e).__name__ for e in ended[len(after) :]]))
        finally:
            await store.close()
    return seen


async def test_a_players_dispute_tells_the_player_nothing_of_the_opponents_pilot(
    redis_server: Any, prefix: str
) -> None:
    """Side B's attack, which the solo player reports, disputed by the player under 10.9:
    on main the finding said whether b1's pilot (hidden from the player) is a crack shot."""
    seen = await _twins(redis_server, prefix, ({"b1": False}, {"b1": True}),
                        _attack("B", "b1", "a1"), (Role.PLAYER, Role.SPECTATOR))  # fmt: skip
    assert seen[0][0] == seen[1][0]  # the twins looked the same to both before the dispute
    assert seen[0][1:] == seen[1][1:]
    assert seen[0][1]["finding"] is None  # pending reveal


async def test_a_players_dispute_tells_a_spectator_nothing_of_the_players_pilot(
    redis_server: Any, prefix: str
) -> None:
    """The player's own attack disputed by the player under 10.9: the finding, which a
    spectator receives too, said on main whether the player's pilot is a crack shot."""
    seen = await _twins(redis_server, prefix, ({"a1": False}, {"a1": True}),
                        _attack("A", "a1", "b1"), (Role.SPECTATOR,))  # fmt: skip
    assert seen[0][0] == seen[1][0]
    assert seen[0][1:] == seen[1][1:]
    assert seen[0][1]["finding"] is None


def test_a_version_2_dispute_reads_as_filed_before_the_blind_rule() -> None:
    codec = codec_for(registry.get(NAME))
    old = DisputeFiledV2(who="player", seq=9, claim="c", reading="gyro_reading", value="10.9")
    decoded = codec.decode("DisputeFiled", 2, canonical_bytes(old))
    assert decoded == DisputeFiled(who="player", seq=9, claim="c", reading="gyro_reading",
                                   value="10.9", blind=False)  # fmt: skip


async def test_a_finding_given_before_the_blind_rule_audits_and_a_blind_one_may_not_be(
    games: Games, cli: Cli
) -> None:
    """A log filed before version 3 (no `blind`) holds a player's finding given at once
    that the blind rule would hold back: its audit re-makes it by the rule it was filed
    under and passes; the same log with the dispute marked `blind` fails the audit at the
    finding, with `umpire audit` and the engine's audit alike."""
    gid = (await games.create(NAME, gyro_duel({"b1": True}))).game_id
    for i, command in enumerate(_attack("B", "b1", "a1")):
        await games.handle(gid, f"c{i}", command)
    ruleset, envelopes, decoded = await games._log(gid)
    attack = next(seq for seq, e in enumerate(decoded, start=1)
                  if type(e).__name__ == "AttackResolved")  # fmt: skip
    # Filed as a server before version 3 filed it, and found by the rule it was filed under.
    head = len(envelopes)
    old = DisputeFiled(who="player", seq=attack, claim="10.9", reading="gyro_reading",
                       value="10.9", blind=False)  # fmt: skip
    await games._append_at(gid, head, old, dispute_command_id(head + 1))
    found = await games._find(gid, ruleset, envelopes, [*decoded, old], head + 1)
    assert found is not None  # given at once
    assert audit(await games.store.read(gid)).ok
    honest = await asyncio.to_thread(cli.export, gid, "--operator")
    assert (await asyncio.to_thread(cli, "audit", "--file", str(honest))).code == 0
    header, records = read_lines(honest)
    records[head]["payload"]["blind"] = True
    reseal(header, records, head)
    forged = write_lines(cli.tmp / "blind.jsonl", header, records)
    audited = await asyncio.to_thread(cli, "audit", "--file", str(forged))
    assert audited.code != 0
    assert f"seq {head + 2}" in audited.out and "may not see" in audited.out, audited.out


# What differs between two gateways' games apart from the twins' secret: ids, times,
# hashes and the sealing key's commitment (each game draws its own key), receipts.
WIRE_NORMALISED = ("game_id", "recorded_at", "prev_hash", "hash", "digest", "id")


def _wire(frame: Any) -> Any:
    data = msgspec.to_builtins(frame)
    for key in WIRE_NORMALISED:
        data.pop(key, None)
    if isinstance(data.get("payload"), dict):
        for key in (*RECEIPT, "game_id", "sealing_commitment"):
            data["payload"].pop(key, None)
    return data


async def _received(client: UmpireClient, gid: str, head: int) -> list[Any]:
    """The event frames a subscription from the start delivers up to `head`."""
    frames = []
    async for frame in client.subscribe(gid, 0):
        frames.append(_wire(frame))
        if frame.seq >= head:
            return frames
    return frames


async def test_over_the_wire_a_players_dispute_tells_nothing_of_the_opponents_pilot(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, prefix: str
) -> None:
    """The first test's twins through a real gateway each: the player's `dispute_filed`
    reply, every event frame the player's and a spectator's subscriptions deliver up to
    the dispute, and which events the game's end appends (the finding after the final
    reveal), are the same in both."""
    seen = []
    for n, crack_shot in enumerate((False, True)):
        async with gateway_client(redis_server.url, f"{prefix}w{n}",
                                  seed_source(request)) as client:  # fmt: skip
            created = await client.create(NAME, gyro_duel({"b1": crack_shot}),
                                          client_entropy="waived")  # fmt: skip
            gid = created.game_id
            for i, command in enumerate(_attack("B", "b1", "a1")):
                accepted = await client.send(gid, command, command_id=f"c{i}")
            reply = await client.request({"type": "dispute", "game_id": gid,
                                          "seq": accepted.seqs[-1], "claim": "10.9",
                                          "reading": "gyro_reading", "value": "10.9"})  # fmt: skip
            assert isinstance(reply, DisputeFiledReply)
            disputed = (await client.view(gid)).seq
            async with UmpireClient(client.url) as spectator:
                await spectator.auth(created.spectator_credential)
                watched = await _received(spectator, gid, disputed)
            played = await _received(client, gid, disputed)
            # The end reveals everything: after it, only which events come, and where.
            await client.send(gid, {"type": "EndGame", "result": "twins"}, command_id="end")
            head = (await client.view(gid)).seq
            ended = [(f["seq"], f["event_type"]) for f in await _received(client, gid, head)]
            seen.append((_wire(reply), watched, played, ended[disputed:]))
    assert seen[0] == seen[1]
    assert seen[0][0]["pending"] and seen[0][3][-1][1] == "DisputeFound"  # after the reveal
