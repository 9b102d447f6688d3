"""The first exchange of docs/protocol.md is what a real gateway says (issue 42 item 7).

Every `→` frame of the document's block is sent as written (the game id replaced by the
one the server made) and every `←` frame is compared with what comes back, in order:
the same keys, the same values, except that a string holding `…` stands for any string,
a list holding `…` for any list that also holds its other items, and the game id is
learnt from the first frame that shows it."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import connect

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
ELIDED = "…"


def exchange() -> list[tuple[str, Any]]:
    """The (direction, frame) pairs of the document's first exchange."""
    block = re.search(r"## A first exchange\n.*?```text\n(.*?)```", DOC, re.S)
    assert block is not None, "docs/protocol.md has no first exchange"
    frames = []
    for line in block.group(1).splitlines():
        direction, frame = line.split(" ", 1)
        assert direction in ("→", "←"), line
        frames.append((direction, json.loads(frame)))
    return frames


class Matcher:
    """Compares a documented frame with a received one, learning the game id."""

    def __init__(self) -> None:
        self.game_id: tuple[str, str] | None = None  # (in the document, on the server)

    def sent(self, frame: Any) -> Any:
        """A documented frame to send, with the server's game id in it."""
        text = json.dumps(frame)
        if self.game_id is not None:
            text = text.replace(*self.game_id)
        return json.loads(text)

    def check(self, shown: Any, got: Any, where: str) -> None:
        if isinstance(shown, dict):
            assert isinstance(got, dict) and set(got) == set(shown), (where, shown, got)
            for key, value in shown.items():
                if key == "game_id" and self.game_id is None:
                    self.game_id = (value, got[key])
                self.check(value, got[key], f"{where}.{key}")
        elif isinstance(shown, list) and ELIDED in shown:
            assert isinstance(got, list), (where, got)
            assert all(item in got for item in shown if item != ELIDED), (where, shown, got)
        elif isinstance(shown, list):
            assert isinstance(got, list) and len(got) == len(shown), (where, shown, got)
            for n, (a, b) in enumerate(zip(shown, got, strict=True)):
                self.check(a, b, f"{where}[{n}]")
        elif isinstance(shown, str) and ELIDED in shown:
            assert isinstance(got, str) and got, (where, got)
        elif isinstance(shown, str) and self.game_id is not None:
            assert got == shown.replace(*self.game_id), (where, shown, got)
        else:
            assert got == shown, (where, shown, got)


async def test_the_first_exchange_is_what_the_gateway_says(ws_url: str) -> None:
    frames = exchange()
    kinds = [frame["type"] for _, frame in frames]
    for needed in ("create", "bind_seed", "command", "event"):
        assert needed in kinds, f"the first exchange shows no {needed}"
    matcher = Matcher()
    async with connect(ws_url) as ws:
        for n, (direction, frame) in enumerate(frames):
            if direction == "→":
                await ws.send(msgspec.json.encode(matcher.sent(frame)).decode())
            else:
                got = msgspec.json.decode(await asyncio.wait_for(ws.recv(), 10))
                matcher.check(frame, got, f"frame {n + 1} ({frame['type']})")
