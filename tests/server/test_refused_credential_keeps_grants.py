"""A command refused for the credential it carries changes nothing, the connection's grants
included: the player's connection that sends a spectator's credential (or another game's)
with a command is refused, and its next command, with no credential, runs as the player's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
import pytest
from websockets.asyncio.client import connect

from umpire.clients import UmpireClient
from umpire.server.app import Running, running_gateway
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings
from umpire.testing.support.wire import text


async def _ask(ws, frame: dict) -> dict:  # type: ignore[no-untyped-def]
    await ws.send(text(frame))
    reply: dict = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5))
    return reply


@asynccontextmanager
async def _as_player(ws_url: str) -> AsyncIterator[tuple[Any, Any, Any]]:
    """A connection authenticated as the player of one new game, and a second game's
    credentials: (the connection, the game's `created`, the other's)."""
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 100})
        other = await client.create("counter", {"target": 100})
    async with connect(ws_url) as ws:
        await ws.recv()  # welcome
        auth = await _ask(ws, {"type": "auth", "credential": created.player_credential, "id": "a"})
        assert auth["type"] == "authenticated" and auth["role"] == "player", auth
        yield ws, created, other


async def test_a_refused_credential_leaves_the_player_grant(gateway: Running, ws_url: str) -> None:
    add = {"type": "Add", "amount": 1}
    async with _as_player(ws_url) as (ws, created, other):
        game = created.game_id
        before = await gateway.gateway.store.version(game)
        for n, credential in enumerate(
            (created.spectator_credential, other.player_credential, other.spectator_credential)
        ):
            refused = await _ask(
                ws,
                {
                    "type": "command", "game_id": game, "command_id": f"wrong-{n}",
                    "command": add, "nonce": "ab" * 16, "credential": credential, "id": f"w{n}",
                },
            )  # fmt: skip
            assert refused["type"] == "error" and refused["code"] == "unauthorized", refused
        assert await gateway.gateway.store.version(game) == before
        ran = await _ask(
            ws,
            {
                "type": "command", "game_id": game, "command_id": "right", "command": add,
                "nonce": "cd" * 16, "id": "r",
            },
        )  # fmt: skip
        assert ran["type"] == "accepted", ran
        assert await gateway.gateway.store.version(game) > before


async def test_the_refusal_says_which_credential_was_wrong(gateway: Running, ws_url: str) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 100})
        other = await client.create("counter", {"target": 100})
    async with connect(ws_url) as ws:
        await ws.recv()  # welcome
        frame = {
            "type": "command", "game_id": created.game_id, "command_id": "c",
            "command": {"type": "Add", "amount": 1}, "nonce": "ab" * 16,
        }  # fmt: skip
        spectator = await _ask(ws, {**frame, "credential": created.spectator_credential})
        assert spectator["message"] == (
            f"a spectator may not send commands to game {created.game_id!r}; only the "
            "player credential may"
        )
        elsewhere = await _ask(ws, {**frame, "credential": other.player_credential})
        assert elsewhere["message"] == (
            f"the credential sent is for game {other.game_id!r}, not {created.game_id!r}"
        )


async def test_a_subscribe_with_another_game_s_credential_leaves_the_grants(
    gateway: Running, ws_url: str
) -> None:
    """A subscribe to one game carrying another game's credential is refused and grants
    nothing: on main it granted that credential on the way (the player's grant of that
    other game became a spectator's, so its next command was refused) and refused only
    after, for the game it named."""
    add = {"type": "Add", "amount": 1}
    async with _as_player(ws_url) as (ws, created, other):
        game = created.game_id
        for n, credential in enumerate((created.spectator_credential, other.player_credential)):
            # To `other` with `created`'s spectator credential (on main: `created`'s
            # player grant became a spectator's, then the subscribe was refused); to
            # `created` with `other`'s player credential (on main: `other` was granted
            # and the subscribe to `created` went through on the grant held).
            target = other.game_id if n == 0 else game
            refused = await _ask(
                ws,
                {"type": "subscribe", "game_id": target, "credential": credential, "id": f"s{n}"},
            )
            assert refused["type"] == "error" and refused["code"] == "unauthorized", refused
            named = credential.partition(".")[0]
            assert refused["message"] == (
                f"the credential sent is for game {named!r}, not {target!r}"
            ), refused
        listed = await _ask(ws, {"type": "list_games", "id": "l"})
        assert [(g["game_id"], g["role"]) for g in listed["games"]] == [(game, "player")], listed
        ran = await _ask(
            ws,
            {
                "type": "command", "game_id": game, "command_id": "after-subscribe",
                "command": add, "nonce": "ef" * 16, "id": "r",
            },
        )  # fmt: skip
        assert ran["type"] == "accepted", ran


async def _answer(ws, frame: dict) -> dict:  # type: ignore[no-untyped-def]
    """The reply to `frame`, past the event frames of a subscription already held."""
    await ws.send(text(frame))
    while True:
        reply: dict = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5))
        if reply.get("id") == frame["id"]:
            return reply


@pytest.mark.parametrize("refusal", ["too_many_subscriptions", "log_rewound"])
async def test_a_refused_subscribe_leaves_the_player_grant(
    redis_server: EmbeddedRedis, prefix: str, refusal: str
) -> None:
    # Fails without the fix: a subscribe carrying the game's spectator credential granted
    # it before the subscription limit (or a from_seq past the log) refused it, so the
    # refused message turned the connection's player grant into a spectator's, and its
    # next command was refused `unauthorized`.
    settings = gateway_settings(prefix, max_subscriptions=1)
    async with running_gateway(settings, redis_server.url) as running:
        ws_url = f"ws://127.0.0.1:{running.port}/ws"
        async with _as_player(ws_url) as (ws, created, other):
            game = created.game_id
            if refusal == "too_many_subscriptions":  # the one subscription it may hold
                held = {"type": "subscribe", "game_id": other.game_id, "id": "h",
                        "credential": other.spectator_credential}  # fmt: skip
                assert (await _answer(ws, held))["type"] == "subscribed"
            frame = {"type": "subscribe", "game_id": game, "id": "s",
                     "credential": created.spectator_credential}  # fmt: skip
            if refusal == "log_rewound":
                frame["from_seq"] = 99
            refused = await _answer(ws, frame)
            assert refused["type"] == "error" and refused["code"] == refusal, refused
            ran = await _answer(
                ws,
                {
                    "type": "command", "game_id": game, "command_id": "right",
                    "command": {"type": "Add", "amount": 1}, "nonce": "cd" * 16, "id": "r",
                },
            )  # fmt: skip
            assert ran["type"] == "accepted", ran
