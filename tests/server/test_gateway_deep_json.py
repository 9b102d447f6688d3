"""Deep nesting under the frame limit: `bad_message` past MAX_DEPTH, the connection kept,
one log line per mistake (rate-limited) and never a traceback (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import logging

import msgspec
import pytest
from websockets.asyncio.client import connect

from umpire.clients import UmpireClient
from umpire.server.app import Running
from umpire.server.mistakes import MistakeLog
from umpire.server.nesting import MAX_DEPTH, too_deep
from umpire.testing.support.wire import text


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


class TestTooDeep:
    def test_the_limit_is_exact(self) -> None:
        assert not too_deep(nested(MAX_DEPTH))
        assert too_deep(nested(MAX_DEPTH + 1))
        assert not too_deep('{"a":' * MAX_DEPTH + "1" + "}" * MAX_DEPTH)
        assert too_deep('{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1))

    def test_brackets_in_strings_are_text(self) -> None:
        assert not too_deep(text({"type": "view", "game_id": "[" * 500 + "]" * 500}))
        assert not too_deep('["\\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]')

    def test_many_shallow_brackets_are_not_deep(self) -> None:
        assert not too_deep("[" + ",".join(["[[]]"] * 5000) + "]")

    def test_openers_that_never_close_count(self) -> None:
        # The parser recurses into them before it finds the text malformed.
        assert too_deep("[" * 1000)
        assert too_deep("[" * 1000 + "é")
        assert too_deep("[]" * 10 + "[" * (MAX_DEPTH + 1))


class TestMistakeLog:
    def test_at_most_the_rate_then_a_count_of_what_was_left_out(
        self, caplog: pytest.LogCaptureFixture
    ) -> None:
        now = [0.0]
        mistakes = MistakeLog(logging.getLogger("test.mistakes"), 2, clock=lambda: now[0])
        with caplog.at_level(logging.INFO, "test.mistakes"):
            logged = [mistakes.note("10.0.0.1", "bad_json", "x\x1b[2J") for _ in range(5)]
            now[0] = 1.0
            mistakes.note("10.0.0.1", "bad_json", "again")
        assert logged == [True, True, False, False, False]
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 3 and "\x1b" not in "".join(lines)
        assert "(3 more not logged)" in lines[-1]
        assert all(r.exc_info is None for r in caplog.records)


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 1000, 20_000])
async def test_deep_nesting_is_a_bad_message_and_the_connection_stays(
    gateway: Running, ws_url: str, caplog: pytest.LogCaptureFixture, levels: int
) -> None:
    # Fails on main: 1,000 levels closed the connection with 1011 and logged a traceback.
    deep = "[" * levels + "1" + "]" * levels
    frames = [
        f'{{"type":"create","ruleset":"counter","id":"c","setup":{{"x":{deep}}}}}',
        f'{{"type":"view","game_id":"g1","id":{deep}}}',
        f'{{"type":"view","id":"v","game_id":"g1","x":{"[" * levels}',
    ]
    assert all(len(f) < gateway.gateway.settings.max_frame_bytes for f in frames)
    with caplog.at_level(logging.INFO):
        async with connect(ws_url) as ws:
            await ws.recv()  # welcome
            for frame in frames:
                await ws.send(frame)
                reply = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5))
                assert reply["type"] == "error" and reply["code"] == "bad_message", reply
                assert reply["details"] == {"max_depth": MAX_DEPTH}
            assert reply["id"] == "v"
            # The connection is still served.
            await ws.send(text({"type": "list_games", "id": "l"}))
            listed = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 5))
            assert listed["type"] == "games" and listed["id"] == "l"
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    mistakes = [r for r in caplog.records if r.name == "umpire.gateway"]
    assert mistakes and all("\n" not in r.getMessage() for r in mistakes)
    async with UmpireClient(ws_url) as other:  # and so is everyone else
        await other.create("counter", {})
