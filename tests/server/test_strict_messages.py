"""Strict messages (issue 42): a field a client message does not have is refused
`bad_message`, naming the fields the message takes, and nothing is written; a malformed
nonce, and a field on a command that takes none, are refused in words."""

from __future__ import annotations

import asyncio
import json
import typing
from pathlib import Path

import msgspec
from websockets.asyncio.client import connect

from umpire.clients import UmpireClient
from umpire.events import wire
from umpire.server.app import Running
from umpire.testing.support.wire import text

SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"
COMMAND_FIELDS = "game_id, command_id, command, dice, expected_seq, nonce, credential, id"


async def _refusals(ws_url: str, frames: list[dict]) -> list[dict]:
    replies = []
    async with connect(ws_url) as ws:
        await ws.recv()  # welcome
        for frame in frames:
            await ws.send(text(frame))
            replies.append(msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5)))
    return replies


async def test_a_misspelt_message_field_is_refused_and_writes_nothing(
    gateway: Running, ws_url: str
) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 100})
        game = created.game_id
        head = await gateway.gateway.store.version(game)
        command = {
            "type": "command", "game_id": game, "credential": created.player_credential,
            "command": {"type": "Add", "amount": 1}, "nonce": "ab" * 16,
        }  # fmt: skip
        replies = await _refusals(
            ws_url,
            [
                # `die` for `dice`: accepted before, the server rolled its own dice.
                {**command, "command_id": "typo-1", "die": [[6]], "id": "a"},
                # `expectedSeq` for `expected_seq`: accepted before, with no version check.
                {**command, "command_id": "typo-2", "expectedSeq": 0, "id": "b"},
                {"type": "list_games", "verbose": True, "id": "c"},
                {"type": "subscribe", "game_id": game, "fromSeq": 3, "id": "d"},
            ],
        )
        assert [r["code"] for r in replies] == ["bad_message"] * 4, replies
        assert [r["id"] for r in replies] == ["a", "b", "c", "d"]
        assert replies[0]["message"] == f"command has no field 'die'; it takes {COMMAND_FIELDS}"
        assert replies[1]["message"].startswith("command has no field 'expectedSeq'; it takes ")
        assert replies[2]["message"] == "list_games has no field 'verbose'; it takes id"
        assert "from_seq" in replies[3]["message"]
        # Nothing was written, and neither command id is taken.
        assert await gateway.gateway.store.version(game) == head
        for command_id in ("typo-1", "typo-2"):
            assert await gateway.gateway.store.command_result(game, command_id) is None


async def test_a_malformed_nonce_is_refused_in_words(ws_url: str) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 100})
        (reply,) = await _refusals(
            ws_url,
            [
                {
                    "type": "command", "game_id": created.game_id, "command_id": "n1",
                    "credential": created.player_credential, "nonce": "NOT-HEX",
                    "command": {"type": "Add", "amount": 1}, "id": "n",
                }
            ],
        )  # fmt: skip
    assert reply["code"] == "bad_message", reply
    assert reply["message"].startswith(
        "command field 'nonce' is not valid: it must be 32 to 64 lowercase hex digits"
    ), reply
    assert "regex" not in reply["message"]


async def test_a_field_on_a_command_that_takes_none_says_so(ws_url: str) -> None:
    async with UmpireClient(ws_url) as client:
        created = await client.create("counter", {"target": 100})
        (reply,) = await _refusals(
            ws_url,
            [
                {
                    "type": "command", "game_id": created.game_id, "command_id": "p1",
                    "credential": created.player_credential, "nonce": "cd" * 16,
                    "command": {"type": "Push", "foo": 1}, "id": "p",
                }
            ],
        )  # fmt: skip
    assert reply["code"] == "invalid_command", reply
    assert reply["message"] == "Push has no field 'foo'; it takes no fields"


def test_the_schema_says_client_messages_take_no_other_field() -> None:
    schema = json.loads(SCHEMA.read_text())
    client = [ref["$ref"].rsplit("/", 1)[-1] for ref in
              schema["properties"]["client_to_server"]["anyOf"]]  # fmt: skip
    # Every message of the client union, derived from it (a new message is covered too).
    assert len(client) == len(typing.get_args(wire.ClientMessage)) and "SendCommand" in client
    for name in client:
        assert schema["$defs"][name]["additionalProperties"] is False, name
