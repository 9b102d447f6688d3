"""A create re-sent with the same create_id answers with the same game, never a second
one; the clients send one with every create, so a create whose answer was lost to a
dropped connection is re-sent safely."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest
import websockets

from umpire.clients import UmpireClient
from umpire.events.wire import Created
from umpire.server.app import Running
from umpire.server.commands import game_id_for_create
from umpire.testing.support.drivers import driver, rulesets
from umpire.testing.support.wire import text

CREATE_ID = "create-once-0123456789abcdef"


async def _ask(url: str, message: dict[str, Any]) -> dict[str, Any]:
    """Send one message on a new connection; its answer."""
    async with websockets.connect(url) as ws:
        await ws.recv()  # welcome
        await ws.send(text({**message, "id": "q"}))
        while True:
            answer: dict[str, Any] = msgspec.json.decode(await ws.recv())
            if answer.get("id") == "q":
                return answer


def _create(setup: dict[str, Any], create_id: str = CREATE_ID) -> dict[str, Any]:
    return {
        "type": "create",
        "client_entropy": "waived",
        "ruleset": "counter",
        "setup": setup,
        "create_id": create_id,
    }


async def test_the_same_create_id_names_one_game(gateway: Running, ws_url: str) -> None:
    first = await _ask(ws_url, _create({"target": 10}))
    again = await _ask(ws_url, _create({"target": 10}))
    assert first["type"] == again["type"] == "created"
    assert again["game_id"] == first["game_id"] == game_id_for_create(CREATE_ID)
    assert again["seed_commitment"] == first["seed_commitment"]
    assert again["client_seed"] == first["client_seed"]
    assert await gateway.gateway.store.version(first["game_id"]) == 1  # one GameCreated
    assert gateway.gateway.metrics.games_created == 1
    # Both answers' credentials work: the first answer may never have reached anyone.
    for credential in (first["player_credential"], again["player_credential"]):
        authed = await _ask(ws_url, {"type": "auth", "credential": credential})
        assert authed["type"] == "authenticated" and authed["role"] == "player"


async def test_re_sent_creates_keep_the_credential_hash_bounded(
    gateway: Running, ws_url: str
) -> None:
    """Each re-send's credentials replace the previous re-send's; the first answer's stay
    (it may have arrived and be in use). On main every re-send stored two more: 2 + 2 * 6
    credentials after six, where now there are four."""
    store = gateway.gateway.store
    first = await _ask(ws_url, _create({"target": 10}))
    answers = [await _ask(ws_url, _create({"target": 10})) for _ in range(6)]
    assert {a["game_id"] for a in answers} == {first["game_id"]}
    assert len(await store.credentials.grants(first["game_id"])) == 4
    latest = answers[-1]
    for credential, role in (
        (first["player_credential"], "player"),
        (first["spectator_credential"], "spectator"),
        (latest["player_credential"], "player"),
        (latest["spectator_credential"], "spectator"),
    ):
        authed = await _ask(ws_url, {"type": "auth", "credential": credential})
        assert authed["type"] == "authenticated" and authed["role"] == role, authed
    for withdrawn in (answers[-2]["player_credential"], answers[0]["spectator_credential"]):
        refused = await _ask(ws_url, {"type": "auth", "credential": withdrawn})
        assert refused["type"] == "error" and refused["code"] == "unauthorized", refused


async def test_a_connection_using_a_re_send_s_credential_hears_it_withdrawn(
    gateway: Running, ws_url: str
) -> None:
    """Only a second re-send withdraws a re-send's credentials, and a gateway holding them
    hears it at once (as for a revocation); the first answer's connection keeps going."""
    first = await _ask(ws_url, _create({"target": 10}))
    again = await _ask(ws_url, _create({"target": 10}))
    async with websockets.connect(ws_url) as kept, websockets.connect(ws_url) as dropped:
        for ws, credential in ((kept, first), (dropped, again)):
            await ws.recv()  # welcome
            await ws.send(text({"type": "auth", "credential": credential["player_credential"]}))
            assert msgspec.json.decode(await ws.recv())["type"] == "authenticated"
        await _ask(ws_url, _create({"target": 10}))
        pushed = msgspec.json.decode(await asyncio.wait_for(dropped.recv(), 5))
        assert pushed["type"] == "error" and pushed["code"] == "credential_revoked", pushed
        game_id = first["game_id"]
        await kept.send(text({"type": "view", "game_id": game_id, "id": "v"}))
        assert msgspec.json.decode(await kept.recv())["type"] == "state"


async def test_the_same_create_id_for_another_game_is_refused(
    gateway: Running, ws_url: str
) -> None:
    first = await _ask(ws_url, _create({"target": 10}))
    other = await _ask(ws_url, _create({"target": 11}))
    assert other["type"] == "error" and other["code"] == "game_exists"
    assert "create_id" in other["message"]
    assert await gateway.gateway.store.version(first["game_id"]) == 1


async def test_a_create_is_not_answered_again_once_the_game_is_in_play(
    gateway: Running, ws_url: str
) -> None:
    """Fails without the in-play check: the re-send is answered with a fresh player
    credential, so whoever keeps the create_id keeps a key the operator cannot revoke."""
    first = await _ask(ws_url, _create({"target": 10}))
    game_id = first["game_id"]
    async with UmpireClient(ws_url) as client:
        await client.auth(first["player_credential"])
        await client.send(game_id, {"type": "Add", "amount": 1})
    before = await gateway.gateway.store.credentials.grants(game_id)
    again = await _ask(ws_url, _create({"target": 10}))
    assert again["type"] == "error" and again["code"] == "game_exists", again
    assert "in play" in again["message"] and "first answer" in again["message"]
    assert await gateway.gateway.store.credentials.grants(game_id) == before


async def test_a_malformed_create_id_is_refused_and_creates_nothing(
    gateway: Running, ws_url: str
) -> None:
    refused = await _ask(ws_url, _create({"target": 10}, create_id="short"))
    assert refused["type"] == "error" and refused["code"] == "bad_message"
    assert "create_id" in refused["message"]
    assert gateway.gateway.metrics.games_created == 0


async def test_a_create_whose_answer_was_lost_is_re_sent_to_the_same_game(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url, retry_delay=0.01) as client:
        deliver = client._deliver
        lost: list[str] = []

        def lose_the_first_created(message: Any) -> None:
            if isinstance(message, Created) and not lost:
                lost.append(message.game_id)  # the game exists; its answer never arrives
                assert client._ws is not None and client._ws.transport is not None
                client._ws.transport.abort()
                return
            deliver(message)

        client._deliver = lose_the_first_created  # type: ignore[method-assign]
        created = await asyncio.wait_for(client.create("counter", {"target": 10}), 10)
        assert lost == [created.game_id]
        assert client.reconnects >= 1
        assert gateway.gateway.metrics.games_created == 1
        view = await client.view(created.game_id)  # the credential it kept works
        assert view.seq == 2  # GameCreated, then the one client seed the client bound


@pytest.mark.parametrize("ruleset", rulesets())
async def test_a_re_sent_create_answers_the_same_game_for_every_ruleset(
    gateway: Running, ws_url: str, ruleset: str
) -> None:
    # Fails on main with game_exists for every ruleset whose setup holds a list: the
    # stored setup decodes to lists, the parsed one holds tuples.
    setup, _ = driver(ruleset)
    message = {"type": "create", "ruleset": ruleset, "setup": setup, "create_id": CREATE_ID}
    first = await _ask(ws_url, message)
    again = await _ask(ws_url, message)
    assert first["type"] == "created", first
    assert again["type"] == "created", again
    assert again["game_id"] == first["game_id"]
    assert again["seed_commitment"] == first["seed_commitment"]
    assert await gateway.gateway.store.version(first["game_id"]) == 1


@pytest.mark.parametrize("ruleset", rulesets())
async def test_the_python_client_re_sends_a_lost_create_for_every_ruleset(
    gateway: Running, ws_url: str, ruleset: str
) -> None:
    setup, _ = driver(ruleset)
    async with UmpireClient(ws_url, retry_delay=0.01) as client:
        deliver = client._deliver
        lost: list[str] = []

        def lose_the_first_created(message: Any) -> None:
            if isinstance(message, Created) and not lost:
                lost.append(message.game_id)
                assert client._ws is not None and client._ws.transport is not None
                client._ws.transport.abort()
                return
            deliver(message)

        client._deliver = lose_the_first_created  # type: ignore[method-assign]
        created = await asyncio.wait_for(client.create(ruleset, setup), 10)
        assert lost == [created.game_id]
        assert gateway.gateway.metrics.games_created == 1
