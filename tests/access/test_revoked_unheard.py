"""A credential revoked where this gateway did not hear it (the announcement missed while
its link to the store was down: the CLI's `umpire revoke` then logs "not announced", and
the gateway finds it on its next re-check) is refused at its next dispute, ruling or
view, as its next subscribe and command are: none of them writes or shows anything more.
On main a revoked spectator still filed a dispute (a `DisputeFiled` in the log) and read
the view, and a revoked player still ruled on a dispute, until the re-check."""

from __future__ import annotations

from typing import Any

from umpire.events.redis_store import RedisEventStore
from umpire.server import credentials
from umpire.server.app import running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.peer import Peer


async def test_a_revocation_the_gateway_missed_refuses_disputes_rulings_and_views(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore
) -> None:
    # No re-check during the test: only the messages' own checks can refuse.
    settings = gateway_settings(prefix, credential_recheck_seconds=3600)
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        player = await Peer.open(url)
        created = await player.ok(
            {"type": "create", "client_entropy": "waived", "ruleset": "counter",
             "setup": {"target": 99}}
        )  # fmt: skip
        gid = created["game_id"]
        await player.ok({"type": "command", "game_id": gid, "command_id": "c1",
                         "command": {"type": "Push"}})  # fmt: skip
        decided = max(e.seq for e in await store.read(gid) if e.command_id == "c1")
        filed = await player.ok(
            {"type": "dispute", "game_id": gid, "seq": decided, "claim": "wrong", "id": "d"}
        )
        assert filed["type"] == "dispute_filed" and not filed["pending"], filed
        spectator = await Peer.open(url)
        await spectator.ok({"type": "auth", "credential": created["spectator_credential"]})

        # Withdrawn in the store, not announced: what a revoke during a store outage leaves.
        for credential in (created["player_credential"], created["spectator_credential"]):
            game_id, digest = credentials.fingerprint(credential)
            assert await store.credentials.withdraw(game_id, digest)
        version = await store.version(gid)

        answers: list[dict[str, Any]] = [
            await spectator.request(
                {"type": "dispute", "game_id": gid, "seq": decided, "claim": "again"}
            ),
            await spectator.request({"type": "view", "game_id": gid}),
            await player.request(
                {"type": "rule", "game_id": gid, "dispute": filed["dispute"], "ruling": "uphold"}
            ),
            await player.request({"type": "view", "game_id": gid, "at_seq": 1}),
        ]
        for answer in answers:
            assert answer["type"] == "error" and answer["code"] == "unauthorized", answer
            assert answer["message"] == f"the credential for game {gid!r} was revoked", answer
        assert await store.version(gid) == version
        await player.close()
        await spectator.close()


async def test_a_revocation_the_gateway_missed_is_not_listed(
    redis_server: EmbeddedRedis, prefix: str, store: RedisEventStore
) -> None:
    """`list_games` checks the store for the credentials it lists, in one round trip, as
    `view` checks the one it shows: a credential revoked where this gateway did not hear it
    no longer lists its game (with its head seq) and is dropped from the connection. On
    main the game stayed listed until the re-check (`UMPIRE_CREDENTIAL_RECHECK_SECONDS`)."""
    settings = gateway_settings(prefix, credential_recheck_seconds=3600)
    async with running_gateway(settings, redis_server.url) as running:
        url = f"ws://127.0.0.1:{running.port}/ws"
        peer = await Peer.open(url)
        create = {"type": "create", "client_entropy": "waived", "ruleset": "counter",
                  "setup": {"target": 99}}  # fmt: skip
        made = [await peer.ok(create) for _ in range(2)]
        kept, revoked = made[0]["game_id"], made[1]["game_id"]
        listed = await peer.ok({"type": "list_games"})
        assert sorted(g["game_id"] for g in listed["games"]) == sorted([kept, revoked])
        game_id, digest = credentials.fingerprint(made[1]["player_credential"])
        assert await store.credentials.withdraw(game_id, digest)  # not announced

        listed = await peer.ok({"type": "list_games"})
        assert [g["game_id"] for g in listed["games"]] == [kept], listed
        # Dropped from the connection, as a refused view drops it.
        answer = await peer.request({"type": "view", "game_id": revoked})
        assert answer["type"] == "error" and answer["code"] == "unauthorized", answer
        assert (await peer.ok({"type": "view", "game_id": kept}))["type"] == "state"
        await peer.close()
