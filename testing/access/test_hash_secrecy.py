"""Secrets survive a search of the hashes (issue #16, "What was found" 1 and 2).

Whole games of every ruleset go through the real gateway. Before the seed is revealed,
every frame a player and a spectator receive (their subscriptions, `view`, and `view` at
every seq) is searched by the attack of testing/support/hash_attack.py: every hidden roll's
possible faces and every other secret event's true payload are re-encoded with the
ruleset's codec, and every hash or digest computable from them is compared with every hex
string in the frames. Nothing may match.

The same attack, run on the same log sealed the old way (envelope version 1, whose hash
covered the payload bytes), recovers the hidden values: the test of the attack itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator

import pytest

from umpire.engine import registry
from umpire.engine.game import codec_for
from umpire.engine.roles import Role
from umpire.engine.ruleset import secret_declarations
from umpire.events.chain import verify_chain
from umpire.events.envelope import LEGACY_ENVELOPE, Envelope, seal
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.server.event_frames import encode_frame
from umpire.testing.support.drivers import driver, play, rulesets
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.hash_attack import attack, hex_strings, secret_events
from umpire.testing.support.peer import Peer

COMMANDS = 120
ATTEMPTS = 4  # games (another seed each) a ruleset with secrets may take to make one


async def _played(running: Running, ws_url: str, name: str) -> tuple[str, Peer, Peer]:
    """A game of `name`, played by a player and watched by a spectator, not yet revealed;
    both have asked for the view at every seq.

    The dice decide whether a game makes secrets at all (a nightfighter game may never
    search), so the seeds are fixed, and a ruleset that declares secrets (its own
    declarations: `Ruleset.has_secrets`) gets another game (another seed) while one
    holds none. A game the rules end within COMMANDS (the end reveals the seed) is played
    again from the same seeds and commands, up to the command before the one that ended it.
    """
    setup, _ = driver(name)
    for attempt in range(ATTEMPTS):
        seed = hashlib.sha256(f"hash-secrecy:{name}:{attempt}".encode()).digest()
        running.gateway.games.draw_seed = lambda seed=seed: seed
        count = COMMANDS
        for _ in range(2):
            player = await Peer.open(ws_url)
            spectator = await Peer.open(ws_url)
            created = await player.ok({"type": "create", "ruleset": name, "setup": setup,
                                       "client_entropy": "waived"})  # fmt: skip
            gid = created["game_id"]
            await player.ok({"type": "subscribe", "game_id": gid, "from_seq": 0, "view": True})
            await spectator.ok({"type": "subscribe", "game_id": gid, "view": True,
                                "from_seq": 0,
                                "credential": created["spectator_credential"]})  # fmt: skip
            played = await play(running, player, gid, name, 7, count)
            if not played.ended:
                break
            count = played.ending  # the same game again, stopped before its end
            for peer in (player, spectator):
                await peer.close()
        played.coverage.check()  # every rule the game offered was played, hidden ones too
        envelopes = await running.gateway.store.read(gid)
        ruleset = registry.get(name)
        if not ruleset.has_secrets or secret_events(ruleset, envelopes):
            break
        if attempt == ATTEMPTS - 1:
            break  # the test says the game made no secret, with both peers still open
        for peer in (player, spectator):
            await peer.close()
    head = await running.gateway.store.version(gid)
    for peer in (player, spectator):
        await peer.wait_for(lambda f: f["type"] == "event" and f["seq"] == head)
        await peer.ok({"type": "view", "game_id": gid})
        for seq in range(1, head + 1):
            await peer.ok({"type": "view", "game_id": gid, "at_seq": seq})
    return gid, player, spectator


@pytest.fixture
async def gateway(redis_server: EmbeddedRedis, prefix: str) -> AsyncIterator[Running]:
    """A gateway whose budgets let the attack ask for `view` at every seq as fast as it can:
    this test attacks the hashes, not the admission (tests/server/test_admission.py)."""
    settings = gateway_settings(
        prefix, cost_per_second=1e9, cost_burst=1e9,
        address_cost_per_second=1e9, address_cost_burst=1e9,
        max_messages_per_second=1e6, max_burst=10**6,
    )  # fmt: skip
    async with running_gateway(settings, redis_server.url) as running:
        yield running


@pytest.mark.parametrize("name", rulesets())
async def test_no_hash_in_any_frame_finds_a_hidden_value(
    gateway: Running, ws_url: str, name: str
) -> None:
    gid, player, spectator = await _played(gateway, ws_url, name)
    envelopes = await gateway.gateway.store.read(gid)
    assert not any(e.type == "SeedRevealed" for e in envelopes), "the game revealed its seed"
    ruleset = registry.get(name)
    codec = codec_for(ruleset)
    secrets = secret_events(ruleset, envelopes)
    if ruleset.has_secrets:  # its own declarations say so (engine/ruleset.py)
        assert secrets, (
            f"{name} declares secrets ({', '.join(secret_declarations(ruleset)[1])}), but its "
            f"game made no secret event to attack"
        )
    assert all(env.committed for env, _ in secrets), "a secret event is sealed in the clear"
    for who, peer in (("player", player), ("spectator", spectator)):
        seen = hex_strings(peer.raw)
        assert seen, f"{who} received no hash at all"
        recovered = attack(codec, secrets, seen)
        assert not recovered, f"{name}: the {who}'s frames give away {recovered[:3]}"
        # Every link verifies from what the role received, before the reveal.
        frames = [f for f in peer.events(gid)]
        assert [f["seq"] for f in frames] == [e.seq for e in envelopes]
        for frame, env in zip(frames, envelopes, strict=True):
            assert (frame["digest"], frame["committed"], frame["hash"]) == (
                env.digest, env.committed, env.hash,
            )  # fmt: skip
    verify_chain(envelopes, game_id=gid)
    for peer in (player, spectator):
        await peer.close()
    if secrets:
        _old_hashes_give_it_away(name, envelopes)


def _old_hashes_give_it_away(name: str, envelopes: list[Envelope]) -> None:
    """The test of the attack: the old envelope (version 1) hashed the payload bytes, and
    the same log sealed that way gives every secret event away to the same attack, from
    the frames each role would get (as it did on main before #16)."""
    ruleset = registry.get(name)
    codec = codec_for(ruleset)
    old, link = [], envelopes[0].prev_hash
    for env in envelopes:
        resealed = seal(
            game_id=env.game_id, seq=env.seq, type=env.type, version=env.version,
            payload=env.payload, command_id=env.command_id, recorded_at=env.recorded_at,
            prev_hash=link, envelope_version=LEGACY_ENVELOPE,
        )  # fmt: skip
        old.append(resealed)
        link = resealed.hash
    secrets = secret_events(ruleset, old)
    for role in (Role.PLAYER, Role.SPECTATOR):
        raw = [
            frame.decode()
            for env in old
            if (frame := encode_frame(ruleset, env, codec.decode(env.type, env.version,
                                                                env.payload), role, False))
        ]  # fmt: skip
        recovered = attack(codec, secrets, hex_strings(raw))
        assert len(recovered) == len(secrets), f"{name} {role}: {len(recovered)}/{len(secrets)}"
